/**
 * The limits of our own that keep every input's work bounded, and the API server's
 * numeric ranges the engine enforces. Each is stated in docs/limits-and-fuzzing.md.
 *
 * Deep structures: Kubernetes' JSON decoder stops at 10,000 levels; ours stops at
 * MAX_NESTING_DEPTH, far below any JavaScript stack, so no result can depend on where
 * a stack overflows (a real object, managedFields included, is under 20 levels deep).
 */
import { parseTimestamp, type Duration, type Micros } from './time';

/** Deepest nesting of mappings and lists in one object, event or setting. */
export const MAX_NESTING_DEPTH = 100;
/** Longest string scalar: etcd's default request limit (1.5 MiB), so no real object holds more. */
export const MAX_STRING_LENGTH = 1_572_864;
/** The API server's limit on an object's annotations, all together (TotalAnnotationSizeLimitB). */
export const MAX_ANNOTATIONS_BYTES = 256 * 1024;
/** Events and expectations in one scenario. */
export const MAX_EVENTS = 100_000;
export const MAX_EXPECTATIONS = 100_000;

/**
 * The most replicas a ReplicaSet may ask for in the simulation (the API allows an int32):
 * every replica is a pod object with its own decisions, and 10^9 of them exhaust any heap.
 */
export const MAX_REPLICAS = 200_000;

export const INT32_MAX = 2_147_483_647;
export const INT32_MIN = -2_147_483_648;
/** 2^63: the largest magnitude a JavaScript number can say of an int64 (it cannot tell 2^63 - 1 from 2^63). */
export const INT64_LIMIT = 9_223_372_036_854_775_808;

/** How far past startTime an event, an expectation or a run may reach: one year. */
export const MAX_HORIZON: Duration = 366 * 86_400 * 1_000_000;
/**
 * The simulated clock counts microseconds in a double, exact up to 2^53 µs (year 2255);
 * beyond, t + 1 == t and a pass would repeat at one instant forever. So a start time must
 * leave a whole horizon below that, and not go below its mirror image either.
 */
export const LATEST_START: Micros = parseTimestamp('2200-01-01T00:00:00Z')!;
export const EARLIEST_START: Micros = parseTimestamp('1800-01-01T00:00:00Z')!;
/** The shortest period (monitor pass, heartbeat) the simulation runs: shorter is refused. */
export const MIN_PERIOD: Duration = 1_000;
/** A nodeMonitorPeriod under this is legal but absurd: it gets a warning. */
export const SENSIBLE_MONITOR_PERIOD: Duration = 1_000_000;

export interface DepthViolation {
  /** the path to the first value found nested too deep (at most MAX_NESTING_DEPTH + 1 segments) */
  path: (string | number)[];
  kind: 'too-deep' | 'string-too-long';
}

/**
 * The first place in a JSON-like value that is nested deeper than `maxDepth` or holds a
 * string longer than `maxString`; undefined when none. It stops at the limit rather than
 * walking the whole of a deep value. `checked`, a value found within the same limits
 * before, is walked beside it: a part of `value` that is the very object at the same
 * place in `checked` (neighbours in an export share their equal parts, snapshot/share.ts)
 * is not walked again.
 */
export function findLimitViolation(value: unknown, maxDepth = MAX_NESTING_DEPTH, maxString = MAX_STRING_LENGTH, checked?: unknown): DepthViolation | undefined {
  return withinLimits(value, maxDepth, maxString, checked) ? undefined : locateViolation(value, maxDepth, maxString);
}

/**
 * The cheap check, run on every object of a snapshot: a walk that allocates nothing. Its recursion
 * is bounded by `depthLeft` (MAX_NESTING_DEPTH), and a value that refers to itself (YAML aliases)
 * ends there too. `depthLeft` is MAX_NESTING_DEPTH less the depth `v` is at in its object.
 */
export function withinLimits(v: unknown, depthLeft: number, maxString: number, checked: unknown): boolean {
  if (typeof v === 'string') return v.length <= maxString;
  if (typeof v !== 'object' || v === null) return true;
  if (v === checked) return true;
  if (depthLeft <= 0) return false;
  const c = typeof checked === 'object' && checked !== null ? (checked as Record<string, unknown>) : undefined;
  if (Array.isArray(v)) {
    const ca = Array.isArray(c) ? c : undefined;
    for (let i = 0; i < v.length; i++) if (!withinLimits(v[i], depthLeft - 1, maxString, ca?.[i])) return false;
    return true;
  }
  const cm = c && !Array.isArray(c) ? c : undefined;
  for (const k in v) {
    if (k.length > maxString) return false;
    // an inherited value (`__proto__`, `constructor` of a mapping without its own) is never one of `v`'s
    if (!withinLimits((v as Record<string, unknown>)[k], depthLeft - 1, maxString, cm?.[k])) return false;
  }
  return true;
}

function locateViolation(value: unknown, maxDepth: number, maxString: number): DepthViolation | undefined {
  const stack: { v: unknown; depth: number; parent: number; key: string | number }[] = [{ v: value, depth: 0, parent: -1, key: '' }];
  const seen: { parent: number; key: string | number }[] = [];
  const pathOf = (index: number): (string | number)[] => {
    const out: (string | number)[] = [];
    for (let i = index; i > 0; i = seen[i].parent) out.push(seen[i].key);
    return out.reverse();
  };
  while (stack.length) {
    const { v, depth, parent, key } = stack.pop()!;
    const index = seen.length;
    seen.push({ parent, key });
    if (typeof v === 'string') {
      if (v.length > maxString) return { path: pathOf(index), kind: 'string-too-long' };
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= maxDepth) return { path: pathOf(index), kind: 'too-deep' };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth: depth + 1, parent: index, key: i });
    } else {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i];
        if (k.length > maxString) return { path: [...pathOf(index), k.slice(0, 64)], kind: 'string-too-long' };
        stack.push({ v: (v as Record<string, unknown>)[k], depth: depth + 1, parent: index, key: k });
      }
    }
  }
  return undefined;
}

export function describeViolation(v: DepthViolation): string {
  return v.kind === 'too-deep'
    ? `nested deeper than ${MAX_NESTING_DEPTH} levels (the simulation's limit; a real object is far shallower)`
    : `holds a string longer than ${MAX_STRING_LENGTH} characters (1.5 MiB, etcd's request limit)`;
}

/**
 * Errors after which a run would not be bounded or safe (a clock past 2^53 µs, a period of
 * microseconds, times past the horizon, a billion replicas, a file the scenario may not read):
 * the shells refuse to simulate when one is present, where other errors only make the input
 * partial and the rest runs.
 */
export const UNSAFE_TO_RUN: ReadonlySet<string> = new Set([
  'beyond-horizon',
  'start-out-of-range',
  'period-below-limit',
  'too-many-replicas',
  'too-many-events',
  'too-many-expectations',
  'path-outside',
]);

export function unsafeToRun(problems: readonly { code: string; severity: string }[]): boolean {
  return problems.some((p) => p.severity === 'error' && UNSAFE_TO_RUN.has(p.code));
}
