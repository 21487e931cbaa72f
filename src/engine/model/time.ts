/**
 * Simulated time. Every instant is an integer count of microseconds since the
 * Unix epoch (`Micros`), and every duration an integer count of microseconds
 * (`Duration`). Microseconds, not milliseconds, because Lease renewTime is a
 * MicroTime with six fractional digits and must be compared exactly.
 */
export type Micros = number;
export type Duration = number;

export const MICROS_PER_MS = 1_000;
export const MICROS_PER_SECOND = 1_000_000;

/** Go's zero time.Time (0001-01-01T00:00:00Z): what a missing or null timestamp means. */
export const ZERO_TIME: Micros = -62_135_596_800 * MICROS_PER_SECOND;

export const ms = (n: number): Duration => Math.round(n * MICROS_PER_MS);
export const seconds = (n: number): Duration => Math.round(n * MICROS_PER_SECOND);
export const minutes = (n: number): Duration => seconds(n * 60);

export const isZeroTime = (t: Micros): boolean => t === ZERO_TIME;

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|z|[+-]\d{2}:\d{2})$/;

/**
 * Parses an RFC3339 timestamp (metav1.Time) or MicroTime exactly, down to the
 * microsecond; digits past the sixth are truncated, as Go's MicroTime does.
 * Returns undefined for anything that is not RFC3339.
 */
export function parseTimestamp(text: string): Micros | undefined {
  const m = RFC3339.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const year = Number(y),
    month = Number(mo),
    day = Number(d);
  const hour = Number(h),
    minute = Number(mi),
    second = Number(s);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 60) return undefined;
  const wholeSeconds = daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second;
  let offsetSeconds = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const oh = Number(zone.slice(1, 3)),
      om = Number(zone.slice(4, 6));
    if (oh > 23 || om > 59) return undefined;
    offsetSeconds = sign * (oh * 3600 + om * 60);
  }
  const micros = frac ? Number(frac.padEnd(6, '0').slice(0, 6)) : 0;
  return (wholeSeconds - offsetSeconds) * MICROS_PER_SECOND + micros;
}

/** RFC3339 with milliseconds in UTC, as the trace prints time (`2026-01-01T00:01:15.100Z`). */
export function formatTime(t: Micros): string {
  const totalMs = Math.floor(t / MICROS_PER_MS);
  if (totalMs === lastMs) return lastText;
  if (totalMs === prevMs) {
    // the other of two instants that alternate (a decision's now and its deadline)
    prevMs = lastMs;
    lastMs = totalMs;
    const text = prevText;
    prevText = lastText;
    lastText = text;
    return text;
  }
  prevMs = lastMs;
  prevText = lastText;
  lastMs = totalMs;
  // Years 0000-9999 (toISOString's four-digit years): the 24 character codes at once. One flat
  // string, not a chain of concatenations (hundreds of bytes per time, and the trace keeps one
  // per decision), and about six times faster than `new Date(totalMs).toISOString()`, whose
  // text it is (the time test compares them). The date's codes are kept for the last day seen.
  if (totalMs >= ISO_MIN_MS && totalMs <= ISO_MAX_MS) {
    const days = Math.floor(totalMs / 86_400_000);
    if (days !== day.days) setDay(days);
    let r = totalMs - days * 86_400_000;
    const msPart = r % 1000;
    r = (r - msPart) / 1000;
    const sec = r % 60;
    r = (r - sec) / 60;
    const min = r % 60;
    const h = (r - min) / 60;
    lastText = String.fromCharCode(
      day.y0,
      day.y1,
      day.y2,
      day.y3,
      45,
      day.m0,
      day.m1,
      45,
      day.d0,
      day.d1,
      84,
      48 + ((h / 10) | 0),
      48 + (h % 10),
      58,
      48 + ((min / 10) | 0),
      48 + (min % 10),
      58,
      48 + ((sec / 10) | 0),
      48 + (sec % 10),
      46,
      48 + ((msPart / 100) | 0),
      48 + (((msPart / 10) | 0) % 10),
      48 + (msPart % 10),
      90,
    );
  } else {
    lastText = formatTimeByParts(totalMs);
  }
  return lastText;
}

/**
 * formatTime's memo: its last two answers (most calls in a row format one instant, and a
 * scheduled eviction alternates two: now and its deadline, the same for every pod of a node)
 * and the last day's digits.
 */
let lastMs = Number.NaN;
let lastText = '';
let prevMs = Number.NaN;
let prevText = '';
const day = { days: Number.NaN, y0: 0, y1: 0, y2: 0, y3: 0, m0: 0, m1: 0, d0: 0, d1: 0 };
function setDay(days: number): void {
  const [y, m, d] = civilFromDays(days);
  day.days = days;
  day.y0 = 48 + (((y / 1000) | 0) % 10);
  day.y1 = 48 + (((y / 100) | 0) % 10);
  day.y2 = 48 + (((y / 10) | 0) % 10);
  day.y3 = 48 + (y % 10);
  day.m0 = 48 + ((m / 10) | 0);
  day.m1 = 48 + (m % 10);
  day.d0 = 48 + ((d / 10) | 0);
  day.d1 = 48 + (d % 10);
}

/** 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z in ms since the epoch: toISOString's four-digit years. */
const ISO_MIN_MS = -62_167_219_200_000;
const ISO_MAX_MS = 253_402_300_799_999;

/** @internal exported for the test that compares it with toISOString */
export function formatTimeByParts(totalMs: number): string {
  const msPart = ((totalMs % 1000) + 1000) % 1000;
  const secs = Math.floor(totalMs / 1000);
  const days = Math.floor(secs / 86_400);
  const rem = secs - days * 86_400;
  const [y, mo, d] = civilFromDays(days);
  return `${pad(y, 4)}-${pad(mo, 2)}-${pad(d, 2)}T${pad(Math.floor(rem / 3600), 2)}:${pad(Math.floor((rem % 3600) / 60), 2)}:${pad(rem % 60, 2)}.${pad(msPart, 3)}Z`;
}

/** RFC3339 as Kubernetes writes metav1.Time (whole seconds) into objects. */
export function formatKubeTime(t: Micros): string {
  return formatTime(t).replace(/\.\d{3}Z$/, 'Z');
}

/** RFC3339 with six fractional digits, as Kubernetes writes a MicroTime. */
export function formatMicroTime(t: Micros): string {
  const micros = ((t % MICROS_PER_SECOND) + MICROS_PER_SECOND) % MICROS_PER_SECOND;
  return formatTime(t).replace(/\.\d{3}Z$/, `.${pad(micros, 6)}Z`);
}

/** Nanoseconds per unit, as Go's time package names them. */
const UNIT_NANOS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n,
  μs: 1_000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};
/** Go's time.Duration is an int64 of nanoseconds: 2562047h47m16.854775807s at most. */
const MAX_DURATION_NANOS = (1n << 63n) - 1n;
/** The longest duration a Go program can hold, in microseconds (rounded down). */
export const MAX_DURATION: Duration = Number(MAX_DURATION_NANOS / 1_000n);

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

/**
 * Parses a Go duration string (`1m30s`, `100ms`, `1.5h`, `0`) exactly to the
 * microsecond, as time.ParseDuration accepts them: an optional sign, then one
 * or more decimal numbers each with a unit. Durations beyond Go's int64 of
 * nanoseconds (`99999999999999999999h`) are refused, as Go refuses them.
 * Nanosecond remainders are rounded to the nearest microsecond. Returns
 * undefined for anything else.
 *
 * A single left-to-right scan (no regular expression), so its cost is linear
 * in the text even for 100 KB of digits.
 */
export function parseDuration(text: string): Duration | undefined {
  const s = text.trim();
  let i = 0;
  let negative = false;
  if (s[0] === '-' || s[0] === '+') {
    negative = s[0] === '-';
    i = 1;
  }
  if (s.slice(i) === '0') return 0;
  if (i >= s.length) return undefined;
  let total = 0n;
  while (i < s.length) {
    const wholeStart = i;
    while (i < s.length && isDigit(s.charCodeAt(i))) i++;
    const whole = s.slice(wholeStart, i);
    let frac = '';
    if (s[i] === '.') {
      i++;
      const fracStart = i;
      while (i < s.length && isDigit(s.charCodeAt(i))) i++;
      frac = s.slice(fracStart, i);
    }
    if (!whole && !frac) return undefined;
    const unitStart = i;
    while (i < s.length && !isDigit(s.charCodeAt(i)) && s[i] !== '.') i++;
    const unit = UNIT_NANOS[s.slice(unitStart, i)];
    if (unit === undefined) return undefined;
    // Leading zeros aside, more than 19 digits overflow an int64 whatever the unit.
    const digits = whole.replace(/^0+/, '');
    if (digits.length > 19) return undefined;
    total += BigInt(digits || '0') * unit;
    if (frac) {
      // Go keeps the fraction's digits until they stop mattering; 20 are more than a nanosecond needs.
      const kept = frac.slice(0, 20);
      total += (BigInt(kept) * unit) / 10n ** BigInt(kept.length);
    }
    if (total > MAX_DURATION_NANOS + (negative ? 1n : 0n)) return undefined;
  }
  const micros = Number((total + 500n) / 1_000n);
  return negative ? -micros : micros;
}

/** Formats a duration as Go's time.Duration.String does (`40s`, `5m0s`, `100ms`, `1h0m0s`). */
export function formatDuration(d: Duration): string {
  if (d === 0) return '0s';
  const neg = d < 0;
  let u = Math.abs(Math.round(d));
  let out: string;
  if (u < MICROS_PER_SECOND) {
    out = u < MICROS_PER_MS ? `${u}µs` : `${trimFraction(u / MICROS_PER_MS)}ms`;
  } else {
    const h = Math.floor(u / 3_600_000_000);
    u -= h * 3_600_000_000;
    const mnt = Math.floor(u / 60_000_000);
    u -= mnt * 60_000_000;
    const sec = trimFraction(u / MICROS_PER_SECOND);
    out = h > 0 ? `${h}h${mnt}m${sec}s` : mnt > 0 ? `${mnt}m${sec}s` : `${sec}s`;
  }
  return neg ? `-${out}` : out;
}

function trimFraction(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(6).replace(/0+$/, '');
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

function daysInMonth(y: number, m: number): number {
  return [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
}
function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

// Howard Hinnant's civil-date algorithms: exact for every proleptic Gregorian
// date, including Go's year 1 zero time, where Date.UTC is not.
/** Days from 1970-01-01 to a proleptic Gregorian date (month 1-12). */
export function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}
function civilFromDays(z: number): [number, number, number] {
  z += 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp + (mp < 10 ? 3 : -9);
  return [yoe + era * 400 + (m <= 2 ? 1 : 0), m, d];
}
