/**
 * A plain (unquoted) YAML scalar's value as the yaml package resolves it in the core schema
 * (YAML_OPTIONS): null, booleans, integers (decimal, 0o, 0x), floats, .inf and .nan, or the
 * string itself; and a plain mapping key as the property name the yaml package makes of it.
 */
/**
 * Keys met before, by a hash of their text: a key read again is the same string, already a
 * property name, instead of a new slice to hash and look up (most of a mapping's cost).
 */
const KEY_CACHE_SIZE = 4096;
const keyCache: (string | undefined)[] = new Array<string | undefined>(KEY_CACHE_SIZE);

/** The property name of the plain key `t[p, e)`. */
export function plainKey(t: string, p: number, e: number): string {
  const len = e - p;
  const h = (len * 977 + t.charCodeAt(p) * 31 + t.charCodeAt(e - 1) * 7 + t.charCodeAt(p + (len >> 1))) & (KEY_CACHE_SIZE - 1);
  const known = keyCache[h];
  if (known !== undefined && known.length === len && t.startsWith(known, p)) return known;
  const raw = t.slice(p, e);
  const v = plainValue(raw);
  if (v !== raw) return v === null ? '' : String(v);
  // the name as objects hold it: its own string, not a slice of the text
  const name = Object.keys({ [raw]: 0 })[0];
  keyCache[h] = name;
  return name;
}

const NULL = /^(?:~|[Nn]ull|NULL)$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** A plain scalar's value in the core schema: the yaml package's tests, in its schema's order. */
export function plainValue(s: string): unknown {
  const c = s.charCodeAt(0);
  if (c === 0x7e || c === 0x6e || c === 0x4e) return NULL.test(s) ? null : s;
  if (c === 0x74 || c === 0x54 || c === 0x66 || c === 0x46) return BOOL.test(s) ? s.charCodeAt(0) === 0x74 || s.charCodeAt(0) === 0x54 : s;
  if (!((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e)) return s;
  if (INT_OCT.test(s)) return parseInt(s.slice(2), 8);
  if (INT.test(s)) return parseInt(s, 10);
  if (INT_HEX.test(s)) return parseInt(s.slice(2), 16);
  if (FLOAT_NAN.test(s)) return s.slice(-3).toLowerCase() === 'nan' ? NaN : s.charCodeAt(0) === 0x2d ? -Infinity : Infinity;
  if (FLOAT_EXP.test(s) || FLOAT.test(s)) return parseFloat(s);
  return s;
}
