/**
 * The import's entry: each input (a name and its lines) is recognised by its
 * first lines and read by its importer; then the findings of all inputs are
 * put together: sorted by time, the same decision seen by two sources kept
 * once (with a warning when their clocks disagree), repeated lines reported.
 */
import { formatDuration, seconds } from '../model/time';
import type { Line } from './lines';
import { MAX_LINE_CHARS, isPasteNoise, linesOf } from './lines';
import { parseKlog } from './klogLine';
import { importAuditLog } from './auditLog';
import { importKubectlEvents } from './kubectlEvents';
import { importControllerLog } from './controllerLog';
import { EVENTS_TABLE_HEADER, importEventsTable } from './eventsTable';
import { importClusterInfoDump } from './clusterInfoDump';
import { DESCRIBE_START, importDescribe } from './describe';
import { GET_TABLE_HEADER, importGetTable } from './getTable';
import { KWOK_MARKER, importKwokRecording } from './kwokRecording';
import { CountedLines, RecordedChunks } from './recordedChunks';
import { emptyResult, type EvidenceFormat, type ImportResult, type RealDecision } from './types';
import type { ImportOptions } from './options';

export interface EvidenceInput {
  /** the file as the user named it */
  name: string;
  /** its text in chunks (a file read piece by piece) */
  chunks: Iterable<string>;
  /**
   * Given, an input that is not evidence is handed over whole, from the same read, to load the
   * cluster's objects it may hold (recordedChunks.ts); whatever the reader leaves is read to count
   * the lines (undefined: the text read to recognise it was too long to keep, and is read again).
   */
  objects?(chunks: Iterable<string> | undefined): void;
  /** Given, a cluster-info dump's whole text once it is imported, from the same read (undefined: too long to keep). */
  dump?(chunks: Iterable<string> | undefined): void;
}

/**
 * At most this much of an input whose text may be handed over is read to recognise it (what was
 * read is kept until then): an input not recognised within it is not evidence. More than 200
 * lines this long are none (a compact JSON List is one line).
 */
export const RECOGNISE_CHARS = 64 * 1024 * 1024;
/** A cluster-info dump's text is kept for the loader up to what the loader reads whole (source.ts MAX_FILE_BYTES). */
const KEEP_DUMP_CHARS = 480 * 1024 * 1024;

/** Two sources' records of one decision further apart than this disagree about the time. */
export const SKEW_WARNING = seconds(2);
/** ...and records further apart than this are two decisions. */
export const SAME_DECISION_WINDOW = seconds(10);
/** ...and within one source (a log line and the Event it logs), records this close are one decision. */
export const SAME_INSTANT = seconds(1);

export function importEvidence(inputs: readonly EvidenceInput[], options: ImportOptions = {}): ImportResult {
  const result = emptyResult();
  for (const input of inputs) {
    try {
      importOne(input, options, result);
    } catch (e) {
      // a read that fails part way (a corrupt or cut gzip stream, a gzip bomb): what was read is kept
      result.problems.push({
        code: 'unreadable-file',
        severity: 'error',
        message: `reading stopped: ${e instanceof Error ? e.message : String(e)}; what was read before is kept`,
        position: { file: input.name, line: 1, column: 1 },
      });
      if (!result.inputs.some((i) => i.file === input.name)) result.inputs.push({ file: input.name, format: 'unrecognised', lines: 0 });
    }
  }
  result.decisions = mergeDecisions(result.decisions, result);
  result.observations.sort((a, b) => ('time' in a ? a.time : 0) - ('time' in b ? b.time : 0));
  return result;
}

function importOne(input: EvidenceInput, options: ImportOptions, result: ImportResult): void {
  const recorded = input.objects || input.dump ? new RecordedChunks(input.chunks, RECOGNISE_CHARS, KEEP_DUMP_CHARS) : undefined;
  const lines = reportingCuts(input.name, linesOf(recorded ? recorded.read() : input.chunks), result)[Symbol.iterator]();
  const head: Line[] = [];
  let format: EvidenceFormat | undefined;
  /** the first line that is not paste noise opens a YAML stream of objects */
  let yamlObjects: boolean | undefined;
  for (let r = lines.next(); !r.done; r = lines.next()) {
    head.push(r.value);
    format = detect(r.value.text);
    if (format) break;
    if (yamlObjects === undefined && !isPasteNoise(r.value.text)) yamlObjects = /^(---\s*$|(apiVersion|kind):\s*\S)/.test(r.value.text);
    // a KWOK recording opens with the cluster's objects: its first ResourcePatch may come thousands of lines later
    if (head.length >= (yamlObjects ? YAML_HEAD_LINES : 200)) break;
  }
  // the window ended inside a line: what it holds says nothing
  if (recorded?.windowEnded) format = undefined;
  const all = chain(head, lines);
  if (!format) {
    let n = head.length;
    // the text from its start, for the objects it may hold (and its lines counted): read on from the same read
    const whole = recorded?.whole();
    if (whole) {
      const counted = new CountedLines(whole);
      input.objects?.(counted);
      n = counted.drain();
    } else {
      for (const l of all) n = l.n;
      input.objects?.(undefined);
    }
    result.inputs.push({ file: input.name, format: 'unrecognised', lines: n });
    if (head.some((l) => !isPasteNoise(l.text))) {
      result.problems.push({
        code: 'unrecognised-format',
        severity: 'warning',
        message:
          'not kubectl events (-o yaml|json, or the table), an audit log, a kube-controller-manager log, cluster-info dump, describe node|pod, a get nodes|pods table or a KWOK recording: skipped',
        position: { file: input.name, line: head.find((l) => !isPasteNoise(l.text))?.n ?? 1, column: 1 },
      });
    }
    return;
  }
  recorded?.recognised(format === 'cluster-info-dump' && input.dump !== undefined);
  if (format === 'describe-node') {
    const d = importDescribe(input.name, all, options, result);
    result.inputs.push({ file: input.name, format: d.kinds.has('pod') && !d.kinds.has('node') ? 'describe-pod' : 'describe-node', lines: d.lines });
    return;
  }
  const n =
    format === 'audit-log'
      ? importAuditLog(input.name, all, result)
      : format === 'kubectl-events'
        ? importKubectlEvents(input.name, all, result)
        : format === 'events-table'
          ? importEventsTable(input.name, all, options, result)
          : format === 'cluster-info-dump'
            ? importClusterInfoDump(input.name, all, options, result)
            : format === 'get-table'
              ? importGetTable(input.name, all, result)
              : format === 'kwok-recording'
                ? importKwokRecording(input.name, all, options, result)
                : importControllerLog(input.name, all, options, result);
  result.inputs.push({ file: input.name, format, lines: n });
  if (format === 'cluster-info-dump') input.dump?.(recorded!.whole());
}

function* reportingCuts(file: string, lines: Iterable<Line>, result: ImportResult): Generator<Line> {
  for (const l of lines) {
    if (l.cut)
      result.problems.push({
        code: 'line-too-long',
        severity: 'warning',
        message: `a line longer than ${MAX_LINE_CHARS / (1024 * 1024)} Mi characters: only its start is read`,
        position: { file, line: l.n, column: MAX_LINE_CHARS + 1 },
      });
    yield l;
  }
}

function* chain(head: Line[], rest: Iterator<Line>): Generator<Line> {
  yield* head;
  for (let r = rest.next(); !r.done; r = rest.next()) yield r.value;
}

/** How far into a YAML stream of objects a KWOK recording's first ResourcePatch is looked for. */
const YAML_HEAD_LINES = 20_000;

function detect(text: string): EvidenceFormat | undefined {
  const t = text.trim();
  if (!t || isPasteNoise(t)) return undefined;
  if (KWOK_MARKER.test(text)) return 'kwok-recording';
  if (t.startsWith('{') && /"apiVersion"\s*:\s*"audit\.k8s\.io\//.test(t)) return 'audit-log';
  if (EVENTS_TABLE_HEADER.test(text)) return 'events-table';
  if (DESCRIBE_START.test(text)) return 'describe-node';
  if (GET_TABLE_HEADER.test(text)) return 'get-table';
  // kubectl prints "kind" first: a NodeList first is cluster-info dump (or a node export: a snapshot)
  if (/^"kind":\s*"NodeList"/.test(t) || /^==== START logs for container /.test(t)) return 'cluster-info-dump';
  if (
    /^(kind:\s*(EventList|Event)\b|apiVersion:\s*events\.k8s\.io|"kind"\s*:\s*"(EventList|Event)"|(- )?involvedObject:|(- )?regarding:|"involvedObject")/.test(
      t,
    )
  )
    return 'kubectl-events';
  // `-o json | jq -c .`: the whole List on one line, its kind last
  if (/^[[{]/.test(t) && /"(involvedObject|regarding)"\s*:\s*\{/.test(t) && /"kind"\s*:\s*"Event"/.test(t)) return 'kubectl-events';
  const k = parseKlog(t);
  if (k && !('broken' in k)) return 'controller-manager-log';
  return undefined;
}

/** Pod names of creations and deletions are random, so only the ReplicaSet and the count are compared. */
const keyOf = (d: RealDecision) => `${d.action} ${d.object} ${d.action === 'PodsCreated' || d.action === 'PodsDeleted' ? '' : (d.detail ?? '')}`;

/**
 * One decision is often seen twice: the log line and the Event it records, or
 * an Event and the audit entry of the write. Records of the same decision
 * from different inputs within SAME_DECISION_WINDOW are merged (the more
 * precise time wins: logs and audit have microseconds, events seconds).
 * The same line twice in one input is a duplicate paste and is reported.
 */
function mergeDecisions(list: RealDecision[], result: ImportResult): RealDecision[] {
  list.sort((a, b) => a.time - b.time || keyOf(a).localeCompare(keyOf(b)));
  const out: RealDecision[] = [];
  const byKey = new Map<string, RealDecision[]>();
  const seenLines = new Map<string, number>();
  for (const d of list) {
    const lineKey = `${d.evidence.file}\u0000${d.evidence.text}\u0000${keyOf(d)}\u0000${d.detail ?? ''}\u0000${d.time}`;
    const seenAt = seenLines.get(lineKey);
    // (tables and Events repeat rows legitimately: their times are rounded or their objects distinct)
    if (seenAt !== undefined && seenAt !== d.evidence.line && (d.evidence.format === 'controller-manager-log' || d.evidence.format === 'audit-log')) {
      result.problems.push({
        code: 'duplicate',
        severity: 'warning',
        message: `line ${seenAt} appears again: ${d.action} ${d.object} at the same instant; counted once`,
        position: { file: d.evidence.file, line: d.evidence.line, column: 1 },
      });
      continue;
    }
    seenLines.set(lineKey, d.evidence.line);
    const same = byKey.get(keyOf(d)) ?? [];
    const twin = same.find((p) => sameDecision(p, d));
    if (twin) {
      (twin.also ??= []).push(d.evidence);
      if (twin.evidence.file !== d.evidence.file && d.time - twin.time > SKEW_WARNING) {
        result.problems.push({
          code: 'clock-skew',
          severity: 'warning',
          message: `${d.action} ${d.object} is ${formatDuration(d.time - twin.time)} later here than in ${twin.evidence.file}:${twin.evidence.line}: the two sources' clocks may disagree`,
          position: { file: d.evidence.file, line: d.evidence.line, column: 1 },
        });
      }
      if (precision(d) > precision(twin)) twin.time = d.time;
      continue;
    }
    out.push(d);
    same.push(d);
    byKey.set(keyOf(d), same);
  }
  return out.sort((a, b) => a.time - b.time);
}

/**
 * Two records of one decision: from two files, or from a log line and the
 * Event it logs, close in time; a record takes at most one twin from each
 * file and channel (three pods created are three records in every source).
 */
function sameDecision(a: RealDecision, b: RealDecision): boolean {
  const sources = [a.evidence, ...(a.also ?? [])];
  if (sources.some((e) => e.file === b.evidence.file && e.channel === b.evidence.channel)) return false;
  const sameFile = sources.some((e) => e.file === b.evidence.file);
  return b.time - a.time <= (sameFile ? SAME_INSTANT : SAME_DECISION_WINDOW);
}

const precision = (d: RealDecision): number =>
  d.evidence.format === 'events-table' || d.evidence.format === 'describe-node' || d.evidence.format === 'describe-pod'
    ? -1
    : d.evidence.format === 'kubectl-events'
      ? 0
      : 1;
