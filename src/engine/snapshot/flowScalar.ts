/**
 * The flow scalars of kubectlYaml.ts's subset (the yaml package's and the spec's name for plain,
 * single- and double-quoted scalars): on one line, or folded over several as go-yaml writes a long
 * string. go-yaml's emitter (yaml_emitter_write_plain_scalar, _single_quoted_, _double_quoted_)
 * breaks a line at a space once past 80 columns, and a quoted string's line breaks become blank
 * lines; a double-quoted string that breaks before a second space starts its next line with `\ `.
 * Read back, as the yaml package reads them (resolve-flow-scalar): a line break between two lines
 * of text is one space, each blank line a `\n`, blanks around a break are dropped, and a `\` at a
 * double-quoted line's end joins the lines without a space.
 *
 * Each reader returns the offset after the scalar and leaves its value in `scalar.text`, or
 * throws GIVE_UP where the text is outside the subset (its continuation indented too little, a
 * comment, a key, a tab...): the yaml package then reads it, with its own problems and positions.
 */

/** Thrown when the text is outside the subset; caught by readKubectlYaml only. */
export const GIVE_UP = new Error('outside the kubectl YAML subset');

export const NL = 0x0a;
export const SPACE = 0x20;
export const TAB = 0x09;
export const CR = 0x0d;
export const HASH = 0x23;
export const COLON = 0x3a;
export const DASH = 0x2d;
export const DQUOTE = 0x22;
export const SQUOTE = 0x27;
export const COMMA = 0x2c;
export const OPEN_SEQ = 0x5b;
export const CLOSE_SEQ = 0x5d;
export const OPEN_MAP = 0x7b;
export const CLOSE_MAP = 0x7d;
export const QUESTION = 0x3f;

/** Longest implicit key the yaml package reads (the spec's 1024 characters). */
export const MAX_KEY_CHARS = 1024;
const BACKSLASH = 0x5c;

/** The last scalar read: its text (before the core schema resolves a plain one), and whether a plain one's last line ended in a comment. */
export const scalar = { text: '', comment: false };

/** Tabs and other control characters: the yaml package's rules for them are left to it. */
// eslint-disable-next-line no-control-regex -- the very characters looked for
export const CONTROL = /[\x00-\x1f\x7f]/;

/** A plain scalar may not start with an indicator (or a `-`, `?`, `:` before a blank). */
export function plainStart(t: string, p: number): void {
  const c = t.charCodeAt(p);
  switch (c) {
    case 0x26: // &
    case 0x2a: // *
    case 0x21: // !
    case 0x7c: // |
    case 0x3e: // >
    case 0x25: // %
    case 0x40: // @
    case 0x60: // `
    case HASH:
    case 0x2c: // ,
    case 0x5b: // [
    case 0x5d: // ]
    case 0x7b: // {
    case 0x7d: // }
    case DQUOTE:
    case SQUOTE:
      throw GIVE_UP;
    case DASH:
    case 0x3f: // ?
    case COLON: {
      const a = t.charCodeAt(p + 1);
      if (a === SPACE || a === NL || a === TAB || p + 1 >= t.length) throw GIVE_UP;
    }
  }
}

/**
 * The text of a plain scalar's line from `p` to the line's end or a comment (` #`, noted in
 * `scalar.comment`), trailing blanks trimmed: the offset after it. A `: ` would make the line a key:
 * left to the yaml package.
 */
function plainText(t: string, p: number): number {
  const n = t.length;
  let i = p;
  scalar.comment = false;
  for (; i < n; i++) {
    const ch = t.charCodeAt(i);
    if (ch === NL) break;
    if (ch < SPACE || ch === 0x7f) throw GIVE_UP;
    if (ch === HASH && t.charCodeAt(i - 1) === SPACE) {
      scalar.comment = true;
      break;
    }
    if (ch === COLON) {
      const a = t.charCodeAt(i + 1);
      if (a === SPACE || a === NL || a === TAB || i + 1 >= n) throw GIVE_UP;
    }
  }
  while (t.charCodeAt(i - 1) === SPACE) i--;
  return i;
}

/** A plain scalar's first line, from `p`: the offset after its text. */
export function plainLine(t: string, p: number): number {
  plainStart(t, p);
  const e = plainText(t, p);
  scalar.text = t.slice(p, e);
  return e;
}

/**
 * The lines that continue a plain scalar whose first line (`scalar.text`) ended before `from`, a
 * line's start: each line indented deeper than `indent` (blank lines between them) folds in, up to
 * one that ends in a comment (which ends the scalar). The offset after the last line's text.
 */
export function plainLines(t: string, from: number, indent: number): number {
  const n = t.length;
  let text = scalar.text;
  let end = -1;
  for (let ls = from; ls < n;) {
    const q = skipBlankLines(t, ls);
    const blanks = blankLines;
    const c = t.charCodeAt(q);
    // a comment line ends the scalar (a deeper line after it is the yaml package's error, its to report)
    if (q >= n || q - lineStart <= indent || c === HASH) break;
    // `: ` at a line's start is an empty key (the yaml package's reading)
    if (c === TAB || c === CR) throw GIVE_UP;
    if (c === COLON) {
      const a = t.charCodeAt(q + 1);
      if (a === SPACE || a === NL || a === TAB || q + 1 >= n) throw GIVE_UP;
    }
    const e = plainText(t, q);
    text += (blanks ? '\n'.repeat(blanks) : ' ') + t.slice(q, e);
    end = e;
    if (scalar.comment) break;
    const nl = t.indexOf('\n', e);
    if (nl === -1) break;
    ls = nl + 1;
  }
  if (end < 0) throw GIVE_UP;
  scalar.text = text;
  return end;
}

/** The fold of the line break at `nl` inside a quoted scalar: ' ', or one `\n` per blank line. */
let fold = ' ';

/**
 * The first character of the line that continues a quoted scalar after the break at `nl` (blank
 * lines skipped, counted in `fold`). The line must be indented deeper than `indent`, as the yaml
 * package requires; an unclosed quote up to the end is its to report.
 */
function continuation(t: string, nl: number, indent: number): number {
  const q = skipBlankLines(t, nl + 1);
  const c = t.charCodeAt(q);
  if (q >= t.length || c === TAB || c === CR || q - lineStart <= indent) throw GIVE_UP;
  fold = blankLines ? '\n'.repeat(blankLines) : ' ';
  return q;
}

/** Set by skipBlankLines: the start of the line it stopped on, and how many blank lines it skipped. */
let lineStart = 0;
let blankLines = 0;

/** From the line start `ls`, past the lines of spaces only: the offset of the next line's first character that is not a space. */
function skipBlankLines(t: string, ls: number): number {
  blankLines = 0;
  for (;;) {
    let q = ls;
    while (t.charCodeAt(q) === SPACE) q++;
    if (t.charCodeAt(q) !== NL) {
      lineStart = ls;
      return q;
    }
    blankLines++;
    ls = q + 1;
  }
}

/** Where the blanks before `e` start (not before `from`): trailing blanks of a line are no content. */
export function trimmed(t: string, from: number, e: number): number {
  while (e > from && t.charCodeAt(e - 1) === SPACE) e--;
  return e;
}

/**
 * A single-quoted scalar at `p`: the offset after its closing quote. Its continuation lines are
 * indented deeper than `indent`; a key (`indent` -1) is on one line, and -1 is returned when
 * it is not.
 */
export function singleQuoted(t: string, p: number, indent: number): number {
  let out = '';
  let from = p + 1;
  /** where the current line's text starts */
  let line = from;
  for (let i = p + 1; ;) {
    const q = t.indexOf("'", i);
    const nl = t.indexOf('\n', i);
    if (q === -1) throw GIVE_UP;
    if (nl !== -1 && nl < q) {
      if (indent < 0) return -1;
      const e = trimmed(t, from, nl);
      if (CONTROL.test(t.slice(line, e))) throw GIVE_UP;
      out += t.slice(from, e);
      from = i = line = continuation(t, nl, indent);
      out += fold;
      continue;
    }
    if (t.charCodeAt(q + 1) === SQUOTE) {
      out += t.slice(from, q + 1);
      from = i = q + 2;
      continue;
    }
    out += t.slice(from, q);
    if (CONTROL.test(t.slice(line, q))) throw GIVE_UP;
    scalar.text = out;
    return q + 1;
  }
}

/**
 * A double-quoted scalar at `p`: the offset after its closing quote. Its continuation lines are
 * indented deeper than `indent`; a key (`indent` -1) is on one line, and -1 is returned when
 * it is not.
 */
export function doubleQuoted(t: string, p: number, indent: number): number {
  const n = t.length;
  let out = '';
  let from = p + 1;
  for (let i = p + 1; i < n; i++) {
    const ch = t.charCodeAt(i);
    if (ch === DQUOTE) {
      out += t.slice(from, i);
      scalar.text = out;
      return i + 1;
    }
    if (ch === NL) {
      if (indent < 0) return -1;
      out += t.slice(from, trimmed(t, from, i));
      from = continuation(t, i, indent);
      out += fold;
      i = from - 1;
      continue;
    }
    if (ch < SPACE || ch === 0x7f) throw GIVE_UP;
    if (ch === BACKSLASH) {
      out += t.slice(from, i);
      const e = t[i + 1];
      const simple = ESCAPES[e];
      if (simple !== undefined) {
        out += simple;
        i++;
      } else if (e === 'x' || e === 'u' || e === 'U') {
        const len = e === 'x' ? 2 : e === 'u' ? 4 : 8;
        const hex = t.slice(i + 2, i + 2 + len);
        if (hex.length !== len || !/^[0-9a-fA-F]+$/.test(hex)) throw GIVE_UP;
        const code = parseInt(hex, 16);
        if (code > 0x10ffff) throw GIVE_UP;
        out += String.fromCodePoint(code);
        i += 1 + len;
      } else if (e === '\n') {
        // an escaped line break joins the lines; a blank line after it is read otherwise by the
        // yaml package than by the spec: left to it
        if (indent < 0) return -1;
        const q = continuation(t, i + 1, indent);
        if (fold !== ' ') throw GIVE_UP;
        i = q - 1;
      } else throw GIVE_UP;
      from = i + 1;
    }
  }
  throw GIVE_UP;
}

const ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  e: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  N: '\u0085',
  _: '\u00a0',
  L: '\u2028',
  P: '\u2029',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
};
