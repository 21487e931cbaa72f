/**
 * One line of a kube-controller-manager log, unwrapped and split: the klog
 * header (`I0617 13:01:21.373343    1717 file.go:702] message`), the message,
 * and for structured logging the message's key/value pairs. The wrappers
 * people paste it in are removed first: a journald prefix
 * (`Jun 17 13:01:21 host kube-controller-manager[1717]: `), a docker
 * json-file object (`{"log":"...","stream":"stderr","time":"..."}`), and
 * klog's JSON format (`{"ts":1580306777.04,"caller":"...","msg":"...",...}`,
 * k8s.io/component-base/logs/json).
 *
 * The header follows klog's format (k8s.io/klog/v2 and glog before it):
 * `Lmmdd hh:mm:ss.uuuuuu threadid file:line] msg`; it has no year.
 */
import { parseTimestamp, type Micros } from '../model/time';

export interface KlogLine {
  severity: 'I' | 'W' | 'E' | 'F';
  month: number;
  day: number;
  /** microseconds since midnight */
  timeOfDay: number;
  /** when a wrapper gives the full time (docker json-file, JSON logging), that time */
  absolute?: Micros;
  caller: string;
  /** the message: printf text, or for structured logging the quoted message's text */
  message: string;
  /** structured logging's key/value pairs (values unquoted) */
  kv?: Record<string, string>;
  /** the text after the header, as written */
  rest: string;
}

const HEADER = /^([IWEF])(\d\d)(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{6})\s+\d+\s+([^\s\]]+)\] ?(.*)$/;
const JOURNALD = /^[A-Z][a-z]{2} [ \d]?\d \d\d:\d\d:\d\d \S+ [\w.@-]+(?:\[\d+\])?: (.*)$/;

export type Unwrapped = { text: string; absolute?: Micros } | { json: Record<string, unknown> } | { broken: string };

/** Removes the wrappers around a klog line; JSON logging comes back as its object. */
export function unwrap(raw: string): Unwrapped {
  let text = raw;
  const j = JOURNALD.exec(text);
  if (j) text = j[1];
  const t = text.trimStart();
  if (t.startsWith('{')) {
    let obj: unknown;
    try {
      obj = JSON.parse(t);
    } catch {
      return { broken: 'a JSON log line that does not parse (cut off?)' };
    }
    if (!obj || typeof obj !== 'object' || Array.isArray(obj)) return { broken: 'a JSON value that is not an object' };
    const o = obj as Record<string, unknown>;
    if (typeof o.log === 'string') {
      const abs = typeof o.time === 'string' ? parseTimestamp(o.time) : undefined;
      return { text: o.log.replace(/\n$/, ''), absolute: abs };
    }
    if (typeof o.msg === 'string') return { json: o };
    return { broken: 'a JSON object that is neither a docker json-file line nor a JSON log entry' };
  }
  return { text };
}

export function parseKlog(raw: string): KlogLine | { broken: string } | undefined {
  const u = unwrap(raw);
  if ('broken' in u) return u;
  if ('json' in u) return fromJson(u.json);
  const m = HEADER.exec(u.text);
  if (!m) return undefined;
  const [, sev, mo, d, h, mi, s, us, caller, rest] = m;
  const line: KlogLine = {
    severity: sev as KlogLine['severity'],
    month: Number(mo),
    day: Number(d),
    timeOfDay: ((Number(h) * 60 + Number(mi)) * 60 + Number(s)) * 1_000_000 + Number(us),
    absolute: u.absolute,
    caller,
    message: rest,
    rest,
  };
  if (rest.startsWith('"')) {
    const q = readQuoted(rest, 0);
    if (q) {
      line.message = q.value;
      line.kv = readPairs(rest.slice(q.end));
    }
  }
  return line;
}

/** klog's JSON format: `ts` is seconds since the epoch; every other key but the fixed ones is a pair. */
function fromJson(o: Record<string, unknown>): KlogLine | { broken: string } {
  const ts = typeof o.ts === 'number' ? o.ts : undefined;
  if (ts === undefined) return { broken: 'a JSON log entry without a numeric ts' };
  const abs = Math.round(ts * 1_000_000);
  const kv: Record<string, string> = {};
  for (const [k, v] of Object.entries(o)) {
    if (k === 'ts' || k === 'msg' || k === 'caller' || k === 'v' || k === 'logger') continue;
    kv[k] = objectText(v);
  }
  const msg = String(o.msg);
  const date = new Date(abs / 1000);
  return {
    severity: o.err !== undefined ? 'E' : 'I',
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
    timeOfDay: abs - Math.floor(abs / 86_400_000_000) * 86_400_000_000,
    absolute: abs,
    caller: typeof o.caller === 'string' ? o.caller : '',
    message: msg,
    kv,
    rest: JSON.stringify(o),
  };
}

/** A KObj/KRef value (`{"name":..,"namespace":..}`) as `ns/name`, like klog's text format prints it. */
function objectText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v && typeof v === 'object' && !Array.isArray(v) && typeof (v as { name?: unknown }).name === 'string') {
    const { name, namespace } = v as { name: string; namespace?: string };
    return namespace ? `${namespace}/${name}` : name;
  }
  return JSON.stringify(v);
}

function readQuoted(s: string, at: number): { value: string; end: number } | undefined {
  if (s[at] !== '"') return undefined;
  let i = at + 1;
  let out = '';
  while (i < s.length) {
    const c = s[i];
    if (c === '\\' && i + 1 < s.length) {
      const n = s[i + 1];
      if (n === 'x' && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 2, i + 4))) {
        // Go's %q writes the zone key's NUL separator as \x00
        out += String.fromCharCode(parseInt(s.slice(i + 2, i + 4), 16));
        i += 4;
        continue;
      }
      out += n === 'n' ? '\n' : n === 't' ? '\t' : n;
      i += 2;
      continue;
    }
    if (c === '"') return { value: out, end: i + 1 };
    out += c;
    i++;
  }
  return undefined;
}

/** ` key="value" key=value key=[...]` -> a record; brackets and braces are kept whole. */
export function readPairs(s: string): Record<string, string> {
  const kv: Record<string, string> = {};
  let i = 0;
  while (i < s.length) {
    while (s[i] === ' ') i++;
    const eq = s.indexOf('=', i);
    if (eq < 0) break;
    const key = s.slice(i, eq);
    if (!/^[\w.-]+$/.test(key)) break;
    i = eq + 1;
    if (s[i] === '"') {
      const q = readQuoted(s, i);
      if (!q) {
        kv[key] = s.slice(i + 1);
        break;
      }
      kv[key] = q.value;
      i = q.end;
    } else if (s[i] === '[' || s[i] === '{' || s[i] === '<') {
      const open = s[i],
        close = open === '[' ? ']' : open === '{' ? '}' : '>';
      let depth = 0,
        j = i;
      for (; j < s.length; j++) {
        if (s[j] === open) depth++;
        else if (s[j] === close && --depth === 0) break;
      }
      kv[key] = s.slice(i, j + 1);
      i = j + 1;
    } else {
      const sp = s.indexOf(' ', i);
      kv[key] = sp < 0 ? s.slice(i) : s.slice(i, sp);
      i = sp < 0 ? s.length : sp;
    }
  }
  return kv;
}
