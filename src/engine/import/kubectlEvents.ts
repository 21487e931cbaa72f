/**
 * `kubectl get events -A -o yaml|json`: an EventList (or `kind: List`), a
 * single Event, or several YAML documents. Both APIs:
 * - core `v1` Event (k8s.io/api/core/v1/types.go `type Event struct`): involvedObject,
 *   reason, message, source{component,host}, firstTimestamp, lastTimestamp, count, eventTime;
 * - `events.k8s.io/v1` Event (k8s.io/api/events/v1/types.go): regarding, reason, note,
 *   reportingController, eventTime, series{count,lastObservedTime}, deprecatedFirstTimestamp,
 *   deprecatedLastTimestamp, deprecatedSource.
 * What each reason means is eventReasons.ts. An event seen `count` times is
 * one decision at its first time and one at its last; the times in between
 * are not recorded by the API, and that is said.
 */
import { placeYamlError } from '../snapshot/unclosedFlow';
import { LineCounter, isMap, isSeq, parseAllDocuments, type Node as YamlNode } from 'yaml';
import { parseTimestamp, type Micros } from '../model/time';
import type { Line } from './lines';
import { meaningOf, type EventFacts } from './eventReasons';
import { addMeaning } from './meaning';
import { evidenceOf, type ImportResult } from './types';
import { JsonListReader } from '../snapshot/jsonListStream';
import { yamlStreamPieces } from '../snapshot/yamlListStream';
import { MAX_YAML_DOCUMENT_CHARS } from '../snapshot/yamlDocStream';
import { yamlErrorText } from '../snapshot/yamlOptions';
import { readKubectlYaml } from '../snapshot/kubectlYaml';
import { LineIndex } from '../snapshot/positions';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * The longest YAML document or List item read (the yaml package builds a
 * piece's whole tree at once): a YAML export of any size streams item by item
 * (snapshot/yamlListStream.ts), as a JSON one does (snapshot/jsonListStream.ts).
 */
export const MAX_EVENTS_CHARS = MAX_YAML_DOCUMENT_CHARS;

/** `kubectlYaml`: false reads every piece with the yaml package (the differential tests). */
export function importKubectlEvents(file: string, lines: Iterable<Line>, into: ImportResult, maxChars = MAX_EVENTS_CHARS, kubectlYaml = true): number {
  const it = lines[Symbol.iterator]();
  let last = 0;
  for (let r = it.next(); !r.done; r = it.next()) {
    const l = r.value;
    last = l.n;
    // a pasted prompt and command before the output
    if (!/^\s*([{[]|apiVersion:|kind:|items:|---)/.test(l.text)) continue;
    return /^\s*[{[]/.test(l.text) ? jsonEvents(file, l, it, into) : yamlEvents(file, l, it, into, maxChars, kubectlYaml);
  }
  return last;
}

/** Lines back into chunks of text of about 1 MiB (the YAML cutter reads chunks). */
function* chunksOf(first: Line, rest: Iterator<Line>, seen: (n: number) => void): Generator<string> {
  let parts: string[] = [first.text];
  let size = first.text.length;
  for (let r = rest.next(); !r.done; r = rest.next()) {
    seen(r.value.n);
    parts.push(r.value.text);
    size += r.value.text.length + 1;
    if (size > CHUNK_CHARS) {
      yield `${parts.join('\n')}\n`;
      parts = [];
      size = 0;
    }
  }
  if (parts.length) yield `${parts.join('\n')}\n`;
}

const CHUNK_CHARS = 1024 * 1024;

/**
 * A YAML export from its first line on, document by document and a List's
 * items one by one (yamlListStream.ts): no limit on the export, one on a
 * piece (`maxChars`), and every event keeps its line.
 */
function yamlEvents(file: string, first: Line, rest: Iterator<Line>, into: ImportResult, maxChars: number, kubectlYaml: boolean): number {
  const offset = first.n - 1;
  let last = first.n;
  for (const piece of yamlStreamPieces(
    chunksOf(first, rest, (n) => (last = n)),
    { maxDocumentChars: maxChars },
  )) {
    if ('tooLong' in piece) {
      into.problems.push({
        code: 'file-too-large',
        severity: 'warning',
        message: `a YAML document or List item of ${Math.round(piece.chars / 2 ** 20)} MiB is left out: each is parsed whole, up to ${Math.round(maxChars / 2 ** 20)} MiB; the rest is read`,
        position: { file, line: piece.tooLong.line + offset, column: 1 },
      });
      continue;
    }
    // the List's own keys, its items read already
    if ('listEnd' in piece) continue;
    const { text, at } = 'item' in piece ? piece.item : piece.piece;
    if (kubectlYaml && fastEvents(file, text, at.line + offset, 'item' in piece, into)) continue;
    const lc = new LineCounter();
    const docs = parseAllDocuments(text, { lineCounter: lc, uniqueKeys: false });
    const pos = (o: number) => {
      const p = lc.linePos(o);
      return { file, line: p.line + at.line - 1 + offset, column: p.col };
    };
    for (const doc of Array.isArray(docs) ? docs : [docs]) {
      for (const e of doc.errors) {
        const placed = placeYamlError(text, doc.range?.[0] ?? 0, e.pos, yamlErrorText(e.message), (o) => {
          const p = pos(o);
          return { line: p.line, column: p.column };
        });
        into.problems.push({ code: 'yaml-syntax', severity: 'warning', message: `${placed.message}; the rest is read`, position: pos(placed.start) });
      }
      const root = doc.contents;
      if (!isMap(root)) continue;
      if ('item' in piece) {
        readEvent(file, pos(root.range?.[0] ?? 0), obj(root.toJSON()), into);
        continue;
      }
      // a document that is not cut into items: a List in flow style, or one Event
      const list = root.get('items', true);
      if (isSeq(list)) {
        for (const item of list.items) if (item) readEvent(file, pos((item as YamlNode).range?.[0] ?? 0), obj((item as YamlNode).toJSON()), into);
      } else if (str(root.get('kind'))) {
        readEvent(file, pos(root.range?.[0] ?? 0), obj(root.toJSON()), into);
      }
    }
  }
  return last;
}

/**
 * A piece read by snapshot/kubectlYaml.ts, as the yaml package's reading below reads it; false when
 * it is not in that subset (or holds an item that is no mapping), and nothing was read.
 */
function fastEvents(file: string, text: string, firstLine: number, item: boolean, into: ImportResult): boolean {
  const docs = readKubectlYaml(text);
  if (!docs) return false;
  const events: { at: number; value: unknown }[] = [];
  for (const d of docs) {
    const root = d.value;
    if (!root || typeof root !== 'object' || Array.isArray(root)) continue;
    const r = root as Json;
    if (item) events.push({ at: d.start, value: r });
    else if (Array.isArray(r.items)) {
      for (let i = 0; i < r.items.length; i++) {
        // an item that is no mapping has no range here: the yaml package places it
        if (!d.items || d.items[2 * i] === undefined || d.items[2 * i] < 0) return false;
        events.push({ at: d.items[2 * i], value: r.items[i] });
      }
    } else if (str(r.kind)) events.push({ at: d.start, value: r });
  }
  const lines = new LineIndex(text);
  for (const e of events) {
    const p = lines.lineCol(e.at);
    readEvent(file, { file, line: p.line + firstLine - 1, column: p.column }, obj(e.value), into);
  }
  return true;
}

/** A JSON export, item by item from its first line on: no size limit, and every item keeps its line. */
function jsonEvents(file: string, first: Line, rest: Iterator<Line>, into: ImportResult): number {
  const offset = first.n - 1;
  let last = first.n;
  const reader = new JsonListReader({
    item: (item) => readEvent(file, { file, line: item.at.line + offset, column: item.at.column }, obj(item.value), into),
    error: (e) =>
      into.problems.push({
        code: 'json-syntax',
        severity: 'warning',
        message: `${e.message}`,
        position: { file, line: e.at.line + offset, column: e.at.column },
      }),
  });
  reader.push(first.text);
  for (let r = rest.next(); !r.done; r = rest.next()) {
    last = r.value.n;
    reader.push(`\n${r.value.text}`);
  }
  const summary = reader.end();
  // a single Event, not a List
  if (summary.shape === 'object' && summary.keys.kind) readEvent(file, { file, line: first.n, column: 1 }, summary.keys, into);
  return last;
}

function readEvent(file: string, at: { file: string; line: number; column: number }, value: Json, into: ImportResult): void {
  const kind = str(value.kind) || 'Event';
  const api = str(value.apiVersion);
  if (kind !== 'Event') {
    into.problems.push({ code: 'unknown-kind', severity: 'warning', message: `a ${kind} among the events: skipped`, position: at });
    return;
  }
  const isNew = api.startsWith('events.k8s.io/');
  const regarding = obj(isNew ? value.regarding : value.involvedObject);
  const source = obj(isNew ? value.deprecatedSource : value.source);
  const facts: EventFacts = {
    reason: str(value.reason),
    kind: str(regarding.kind),
    namespace: str(regarding.namespace),
    name: str(regarding.name),
    message: str(isNew ? value.note : value.message),
    component: (str(isNew ? value.reportingController : value.reportingComponent) || str(source.component)).replace(/^.*\//, ''),
  };
  const first = time(isNew ? value.deprecatedFirstTimestamp : value.firstTimestamp) ?? time(value.eventTime) ?? time(obj(value.metadata).creationTimestamp);
  const series = obj(value.series);
  const last = isNew ? (time(series.lastObservedTime) ?? time(value.deprecatedLastTimestamp)) : (time(value.lastTimestamp) ?? time(series.lastObservedTime));
  const count = Number((isNew ? (series.count ?? value.deprecatedCount) : (value.count ?? series.count)) ?? 1) || 1;
  if (first === undefined) {
    into.problems.push({
      code: 'missing-time',
      severity: 'warning',
      message: `event ${facts.reason} on ${facts.kind}/${facts.name} has no time: skipped`,
      position: at,
    });
    return;
  }
  const ev = evidenceOf(
    file,
    at.line,
    `${facts.reason} ${facts.kind}/${facts.namespace ? facts.namespace + '/' : ''}${facts.name}: ${facts.message}`,
    'kubectl-events',
  );
  const meaning = meaningOf(facts);
  addMeaning(meaning, first, ev, into);
  if (count >= 2 && last !== undefined && last !== first) addMeaning(meaning, last, ev, into);
  if (count > 2 && 'decision' in meaning) {
    into.problems.push({
      code: 'event-series',
      severity: 'info',
      message: `${facts.reason} on ${facts.name} happened ${count} times; the API keeps only the first and last time, so ${count - 2} are not placed`,
      position: at,
    });
  }
  if (source.host && facts.kind === 'Pod' && facts.component === 'kubelet') {
    into.observations.push({ kind: 'pod-on-node', pod: `Pod/${facts.namespace}/${facts.name}`, node: str(source.host), evidence: ev });
  }
}

function time(v: unknown): Micros | undefined {
  return typeof v === 'string' ? parseTimestamp(v) : undefined;
}
