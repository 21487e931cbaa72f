/**
 * The field helpers the converters (convert.ts) read raw objects with: field
 * paths and the reporter, timestamps (a fast path for the common form), and
 * one helper per kind of field (time, string, bool, count, list, mapping, map
 * of strings, condition status), each reporting a value of the wrong type.
 */
import { closest } from '../config/suggest';
import type { Severity } from '../problems';
import { daysFromCivil, parseTimestamp, ZERO_TIME, type Micros } from './time';
import type { ConditionStatus, KObject } from './types';

export type FieldPath = (string | number)[];

/** Receives a problem with the path of the field, relative to the object. */
export type ConvertReport = (path: FieldPath, code: string, severity: Severity, message: string) => void;

export const ignore: ConvertReport = () => {};

export type Seg = string | number;

/** Builds a field path only when a problem is reported (the hot path allocates nothing). */
export function at(base: FieldPath, a?: Seg, b?: Seg, c?: Seg): FieldPath {
  const p = base.slice();
  if (a !== undefined) p.push(a);
  if (b !== undefined) p.push(b);
  if (c !== undefined) p.push(c);
  return p;
}

export const isObject = (v: unknown): v is KObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'object') return 'a mapping';
  if (typeof v === 'string') return `the string ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)}`;
  return `${typeof v} ${String(v)}`;
}

// ---------------------------------------------------------------------------
// Timestamps: a fast path without regular expressions or allocation for the
// common `YYYY-MM-DDTHH:MM:SSZ` form (a big snapshot holds hundreds of
// thousands of them); everything else goes through model/time.ts.

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function digit(s: string, i: number): number {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -100_000;
}

/** Parses a metav1.Time / MicroTime string exactly (as model/time.ts parseTimestamp), fast for the common form. */
export function parseKubeTime(s: string): Micros | undefined {
  if (
    s.length === 20 &&
    s.charCodeAt(19) === 0x5a /* Z */ &&
    s.charCodeAt(4) === 0x2d &&
    s.charCodeAt(7) === 0x2d &&
    s.charCodeAt(10) === 0x54 &&
    s.charCodeAt(13) === 0x3a &&
    s.charCodeAt(16) === 0x3a
  ) {
    const y = digit(s, 0) * 1000 + digit(s, 1) * 100 + digit(s, 2) * 10 + digit(s, 3);
    const mo = digit(s, 5) * 10 + digit(s, 6);
    const d = digit(s, 8) * 10 + digit(s, 9);
    const h = digit(s, 11) * 10 + digit(s, 12);
    const mi = digit(s, 14) * 10 + digit(s, 15);
    const se = digit(s, 17) * 10 + digit(s, 18);
    if (y < 0 || mo < 1 || mo > 12 || d < 1 || h < 0 || h > 23 || mi < 0 || mi > 59 || se < 0 || se > 59) return parseTimestamp(s);
    const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
    if (d > (mo === 2 && leap ? 29 : MONTH_DAYS[mo - 1])) return undefined;
    return (daysFromCivil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + se) * 1_000_000;
  }
  return parseTimestamp(s);
}

// Field helpers. Each takes the value, the reporter, and the path of the field
// as a base plus up to three segments: the path array is built only when a
// problem is reported, so converting a clean object allocates no paths.

/** A timestamp field: missing/null -> ZERO_TIME; a bad value is an error and also ZERO_TIME. */
export function time(v: unknown, report: ConvertReport, base: FieldPath, a?: Seg, b?: Seg, c?: Seg): Micros {
  if (v === undefined || v === null) return ZERO_TIME;
  if (typeof v === 'string') {
    const t = parseKubeTime(v);
    if (t !== undefined) return t;
  }
  report(
    at(base, a, b, c),
    'bad-timestamp',
    'error',
    `expected an RFC3339 timestamp (e.g. 2026-01-01T00:00:00Z), found ${typeName(v)}; taken as the zero time`,
  );
  return ZERO_TIME;
}

/** An optional timestamp field: missing/null -> undefined; a bad value is an error and undefined. */
export function optionalTime(v: unknown, report: ConvertReport, base: FieldPath, a?: Seg, b?: Seg, c?: Seg): Micros | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'string') {
    const t = parseKubeTime(v);
    if (t !== undefined) return t;
  }
  report(at(base, a, b, c), 'bad-timestamp', 'error', `expected an RFC3339 timestamp (e.g. 2026-01-01T00:00:00Z), found ${typeName(v)}; left out`);
  return undefined;
}

export function str(v: unknown, report: ConvertReport, base: FieldPath, a?: Seg, b?: Seg, c?: Seg): string | undefined {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return undefined;
  report(at(base, a, b, c), 'wrong-type', 'error', `expected a string, found ${typeName(v)}`);
  return undefined;
}

export function bool(v: unknown, report: ConvertReport, base: FieldPath, a?: Seg, b?: Seg, c?: Seg): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === undefined || v === null) return undefined;
  report(at(base, a, b, c), 'wrong-type', 'error', `expected true or false, found ${typeName(v)}`);
  return undefined;
}

/** A whole number of 0 or more. */
export function count(v: unknown, report: ConvertReport, base: FieldPath, a?: Seg, b?: Seg, c?: Seg): number | undefined {
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0) return v;
  if (v === undefined || v === null) return undefined;
  report(at(base, a, b, c), 'wrong-type', 'error', `expected a whole number of 0 or more, found ${typeName(v)}`);
  return undefined;
}

export function list(v: unknown, report: ConvertReport, base: FieldPath, a?: Seg): unknown[] {
  if (Array.isArray(v)) return v;
  if (v === undefined || v === null) return EMPTY_LIST;
  report(at(base, a), 'wrong-type', 'error', `expected a list, found ${typeName(v)}`);
  return EMPTY_LIST;
}

export function mapping(v: unknown, report: ConvertReport, base: FieldPath, a?: Seg): KObject | undefined {
  if (isObject(v)) return v;
  if (v === undefined || v === null) return undefined;
  report(at(base, a), 'wrong-type', 'error', `expected a mapping, found ${typeName(v)}`);
  return undefined;
}

const EMPTY_LIST: unknown[] = Object.freeze([]) as unknown as unknown[];
export const EMPTY: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * The last mapping stringMap found to hold strings only: neighbours in an export bring the very same
 * labels (the loader shares equal parts, and raw trees are never changed in place), checked once.
 */
let lastStrings: object | undefined;

/** A map of strings (labels, annotations), kept by reference when valid. */
export function stringMap(v: unknown, report: ConvertReport, base: FieldPath, a?: Seg): Record<string, string> {
  const m = mapping(v, report, base, a);
  if (!m) return {};
  if (m === lastStrings) return m as Record<string, string>;
  for (const k in m) {
    if (typeof m[k] !== 'string') {
      const copy: Record<string, string> = {};
      for (const k2 in m) {
        if (typeof m[k2] === 'string') copy[k2] = m[k2] as string;
        else report(at(base, a, k2), 'wrong-type', 'error', `expected a string, found ${typeName(m[k2])}; left out`);
      }
      return copy;
    }
  }
  lastStrings = m;
  return m as Record<string, string>;
}

/** ` (did you mean X?)` for a string close to one of `values` (`NoExecut`, `exists`): the enum fields' typos. */
export function meant(v: unknown, values: readonly string[]): string {
  const s = typeof v === 'string' ? closest(v, values) : undefined;
  return s ? ` (did you mean ${s}?)` : '';
}

export function conditionStatus(v: unknown, report: ConvertReport, base: FieldPath, a?: Seg, b?: Seg, c?: Seg): ConditionStatus {
  if (v === 'True' || v === 'False' || v === 'Unknown') return v;
  report(
    at(base, a, b, c),
    'bad-condition-status',
    'error',
    `expected a condition status of True, False or Unknown, found ${v === undefined ? 'none' : typeName(v)}${meant(v, ['True', 'False', 'Unknown'])}; taken as Unknown`,
  );
  return 'Unknown';
}
