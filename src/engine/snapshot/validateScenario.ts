/**
 * The scenario's own limits, checked once it is parsed and before anything runs: how deep
 * and how long its YAML may be, how many events and expectations it may hold, how far its
 * times may reach (limits.ts says why: the clock must stay below 2^53 µs), and the int32
 * range of a `scale:`'s replicas. Each refusal is a positioned error.
 */
import { isMap, isPair, isScalar, isSeq, type Document } from 'yaml';
import {
  INT32_MAX,
  MAX_REPLICAS,
  EARLIEST_START,
  LATEST_START,
  MAX_EVENTS,
  MAX_EXPECTATIONS,
  MAX_HORIZON,
  MAX_NESTING_DEPTH,
  MAX_STRING_LENGTH,
} from '../model/limits';
import { formatDuration, formatTime, type Micros } from '../model/time';
import type { Problem, Severity, SourcePosition } from '../problems';
import type { Scenario, TimeSpec } from './types';

export type NodeReport = (code: string, severity: Severity, message: string, node?: unknown) => void;

/** Checks a parsed scenario; problems go to `report` (YAML nodes) and `push` (known positions). */
export function validateScenario(scenario: Scenario, doc: Document | undefined, report: NodeReport, push: (p: Problem) => void): void {
  if (doc) checkDocumentShape(doc, report);
  const file = scenario.file;
  const at = (position?: SourcePosition): SourcePosition => position ?? { file, line: 1, column: 1 };
  const start = scenario.startTime ?? scenario.snapshot.latestTimestamp;
  if (start !== undefined && (start > LATEST_START || start < EARLIEST_START)) {
    const where = scenario.startTime !== undefined ? doc?.get('startTime', true) : undefined;
    const what = scenario.startTime !== undefined ? 'startTime' : 'the latest timestamp in the snapshot (the start time)';
    const message = `${what} ${formatTime(start)} is outside what the simulation can run: from ${formatTime(EARLIEST_START).slice(0, 10)} to ${formatTime(LATEST_START).slice(0, 10)} (its clock counts microseconds exactly only below 2^53)`;
    if (where) report('start-out-of-range', 'error', message, where);
    else push({ code: 'start-out-of-range', severity: 'error', message, position: at() });
  }
  if (scenario.events.length > MAX_EVENTS)
    push({
      code: 'too-many-events',
      severity: 'error',
      message: `${scenario.events.length} events; a scenario holds at most ${MAX_EVENTS}`,
      position: at(scenario.events[MAX_EVENTS].position),
    });
  if (scenario.expect.length > MAX_EXPECTATIONS)
    push({
      code: 'too-many-expectations',
      severity: 'error',
      message: `${scenario.expect.length} expectations; a scenario holds at most ${MAX_EXPECTATIONS}`,
      position: at(scenario.expect[MAX_EXPECTATIONS].position),
    });
  const beyond = (spec: TimeSpec): string | undefined => {
    if ('offset' in spec) return spec.offset > MAX_HORIZON ? formatDuration(spec.offset) : undefined;
    if (start === undefined) return undefined;
    return spec.time - start > MAX_HORIZON ? formatTime(spec.time) : undefined;
  };
  const horizon = formatDuration(MAX_HORIZON);
  const refused = new Set<unknown>();
  for (const e of scenario.events) {
    const far = beyond(e.at);
    if (far)
      push({
        code: 'beyond-horizon',
        severity: 'error',
        message: `event ${e.index + 1} is at ${far}, more than ${horizon} (366 days) after startTime, the longest run the simulation takes`,
        position: at(e.position),
      });
    if (e.kind === 'scale' && e.replicas > INT32_MAX)
      push({
        code: 'out-of-range',
        severity: 'error',
        message: `event ${e.index + 1}: replicas ${e.replicas} is more than an int32 holds (${INT32_MAX}); the event is left out`,
        position: at(e.position),
      });
    else if (e.kind === 'scale' && e.replicas > MAX_REPLICAS)
      push({
        code: 'too-many-replicas',
        severity: 'error',
        message: `event ${e.index + 1}: replicas ${e.replicas}; the simulation runs ReplicaSets of up to ${MAX_REPLICAS} replicas (every replica is a pod it simulates); the event is left out`,
        position: at(e.position),
      });
    if (far || (e.kind === 'scale' && e.replicas > MAX_REPLICAS)) refused.add(e);
  }
  // what the API server (or our limits) would refuse never reaches the simulation, whatever a shell does with the errors
  if (refused.size) scenario.events = scenario.events.filter((e) => !refused.has(e));
  const late = new Set<unknown>();
  for (const x of scenario.expect) {
    const far = beyond(x.at);
    if (far) late.add(x);
    if (far)
      push({
        code: 'beyond-horizon',
        severity: 'error',
        message: `expectation ${x.index + 1} is at ${far}, more than ${horizon} (366 days) after startTime, the longest run the simulation takes`,
        position: at(x.position),
      });
  }
  if (late.size) scenario.expect = scenario.expect.filter((x) => !late.has(x));
}

/**
 * String length over the YAML tree, and nesting depth again (parseScenario refuses a
 * too-deep document before parsing it), iteratively.
 */
function checkDocumentShape(doc: Document, report: NodeReport): void {
  const root = doc.contents;
  const stack: { node: unknown; depth: number }[] = [];
  stack.push({ node: root, depth: 0 });
  let tooDeep = false;
  let tooLong = false;
  while (stack.length) {
    const { node, depth } = stack.pop()!;
    if (isScalar(node)) {
      if (!tooLong && typeof node.value === 'string' && node.value.length > MAX_STRING_LENGTH) {
        tooLong = true;
        report(
          'string-too-long',
          'error',
          `a string of ${node.value.length} characters; the simulation reads strings up to ${MAX_STRING_LENGTH} (1.5 MiB, etcd's request limit)`,
          node,
        );
      }
      continue;
    }
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth >= MAX_NESTING_DEPTH) {
      if (!tooDeep)
        report('too-deep', 'error', `nested deeper than ${MAX_NESTING_DEPTH} levels (the simulation's limit; a real object is far shallower)`, node);
      tooDeep = true;
      continue;
    }
    for (const item of node.items as unknown[]) {
      if (isPair(item)) stack.push({ node: item.key, depth: depth + 1 }, { node: item.value, depth: depth + 1 });
      else stack.push({ node: item, depth: depth + 1 });
    }
  }
}

/** The latest instant a run may reach from `start` (for the shells' --until). */
export function latestInstant(start: Micros): Micros {
  return start + MAX_HORIZON;
}
