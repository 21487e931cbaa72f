/**
 * The flow collections of kubectlYaml.ts's subset, as hand-written manifests and Helm charts have
 * them: sequences and mappings of scalars and of each other (`add: ["NET_ADMIN"]`, `nodeSelector:
 * {kubernetes.io/os: linux}`, `- {name: proc, hostPath: {path: /proc}}`, `values: ["a", "b"]` in a
 * `matchExpressions` item), on one line or over several (`args: [` then one item a line, `]`; a
 * mapping as Prettier breaks it, `- {` then `key: value,` lines, `}`). kubectl's exports have none
 * (go-yaml writes block collections, and `{}` or `[]` only when empty).
 *
 * flowCollection returns the offset after the collection's closing bracket and leaves its value in
 * `flow.value`, or throws GIVE_UP on anything else the yaml package reads, so only the values it
 * gives are read here: a pair in a sequence (`[a: b]`), a collection as a key, an empty value or
 * item (`{a: , b}`, `{a}`, `[a, , b]`), a blank before a key's `:`, a key met before, a pair as a
 * value (`{a: b: c}`), anchors, aliases, tags, `?` keys, a tab, a key over several lines, a
 * comment between a key and its `:` or right after a token, and a line indented as the yaml
 * package's lexer refuses it. Scalars over several lines fold as the yaml package folds them, and
 * comments are read where it reads them (gap).
 */
import {
  CLOSE_MAP,
  CLOSE_SEQ,
  COLON,
  COMMA,
  CR,
  DASH,
  DQUOTE,
  GIVE_UP,
  HASH,
  MAX_KEY_CHARS,
  NL,
  OPEN_MAP,
  OPEN_SEQ,
  QUESTION,
  SPACE,
  SQUOTE,
  TAB,
  doubleQuoted,
  plainStart,
  scalar,
  singleQuoted,
  trimmed,
} from './flowScalar';

/** A flow indicator (`,[]{}`): it ends a plain scalar inside a flow collection. */
const isFlowIndicator = (c: number): boolean => c === COMMA || c === OPEN_SEQ || c === CLOSE_SEQ || c === OPEN_MAP || c === CLOSE_MAP;

/**
 * The last flow collection read: its value (strings as written, quoted ones unescaped, plain ones
 * resolved by the caller's `resolve`), and how deep it nests (1: of scalars only).
 */
export const flow = { value: undefined as unknown, depth: 0 };

/** How the collection being read is read: its owner's indentation, the levels left, the scalar and key resolvers. */
let ownerIndent = -1;
let levelsLeft = 0;
let resolvePlain: (plain: string) => unknown = (s) => s;
let plainKeyName: (t: string, p: number, e: number) => string = (t, p, e) => t.slice(p, e);
/** Where the outermost sequence's object items are: [start, end] a flow mapping, [-1, -1] any other item. */
let itemRanges: number[] | undefined;

/**
 * A flow sequence or mapping at `p` (`[` or `{`) in a block collection at `indent`: the offset
 * after its closing bracket, its value in `flow.value`. Its lines after the first start deeper
 * than `indent`; its closing bracket may start a line at `indent` (the yaml package's lexer allows
 * it, for the outermost collection only). At most `levels` collections deep (flow.depth).
 * `key` gives a plain key's property name (plainKey). `ranges`: the outermost sequence's items'
 * ranges are pushed to it, as the yaml package's (a List's `items: [{...}, {...}]`).
 */
export function flowCollection(
  t: string,
  p: number,
  indent: number,
  levels: number,
  resolve: (plain: string) => unknown,
  key: (t: string, p: number, e: number) => string,
  ranges?: number[],
): number {
  itemRanges = ranges;
  ownerIndent = indent;
  levelsLeft = levels;
  resolvePlain = resolve;
  plainKeyName = key;
  flow.depth = 0;
  const end = collection(t, p, 1);
  return end;
}

/** The collection at `p`, `level` deep (1: the outermost): the offset after it, its value in flow.value. */
function collection(t: string, p: number, level: number): number {
  if (level > levelsLeft) throw GIVE_UP;
  if (level > flow.depth) flow.depth = level;
  return t.charCodeAt(p) === OPEN_SEQ ? sequence(t, p, level) : mapping(t, p, level);
}

/**
 * Past the blanks from `i`, and the line breaks when the collection may span lines: the offset of
 * the next character that is not one. Comments are skipped wherever they stand, as the yaml
 * package skips them inside a flow collection (after an item, a `,`, a key's `:` or a bracket, on
 * lines of their own at any column), but only after a blank or a line break: its lexer reports a
 * `#` right after a token ("Comments must be separated from other tokens by white space"), which
 * the caller then meets as an unexpected character and gives up on. A line must start deeper
 * than the owner's indentation; the outermost closing bracket may start one at it.
 * `afterValue`: `i` is right after a flow mapping's value. The yaml package's parser then keeps
 * the blanks, comment and line break that end the value's line with the value, so a comment
 * that starts the very next line at column 0 has no blank before it in its own tokens: it reports
 * the comment as not separated (a blank line or a blank between them, and a flow sequence's item,
 * do not). Given up.
 */
function gap(t: string, i: number, level: number, afterValue = false): number {
  let first = afterValue;
  for (;;) {
    let c = t.charCodeAt(i);
    while (c === SPACE) c = t.charCodeAt(++i);
    if (c === HASH && (t.charCodeAt(i - 1) === SPACE || t.charCodeAt(i - 1) === NL)) {
      const nl = t.indexOf('\n', i);
      if (nl === -1) throw GIVE_UP;
      i = nl;
      c = NL;
    }
    if (c !== NL) {
      if (c === TAB || c === CR) throw GIVE_UP;
      return i;
    }
    if (ownerIndent < 0) throw GIVE_UP;
    const ls = i + 1;
    if (first && t.charCodeAt(ls) === HASH) throw GIVE_UP;
    first = false;
    i = ls;
    while (t.charCodeAt(i) === SPACE) i++;
    const d = t.charCodeAt(i);
    if (d === NL || d === HASH) continue;
    const col = i - ls;
    if (col <= ownerIndent && !(col === ownerIndent && level === 1 && (d === CLOSE_SEQ || d === CLOSE_MAP))) throw GIVE_UP;
  }
}

function sequence(t: string, p: number, level: number): number {
  const items: unknown[] = [];
  let i = p + 1;
  for (;;) {
    i = gap(t, i, level);
    let c = t.charCodeAt(i);
    // `]` at the start, or after a `,` that followed an item (a trailing comma is allowed)
    if (c === CLOSE_SEQ) break;
    const start = i;
    i = item(t, i, level, CLOSE_SEQ);
    items.push(flow.value);
    if (level === 1 && itemRanges) {
      const object = c === OPEN_MAP;
      itemRanges.push(object ? start : -1, object ? i : -1);
    }
    i = gap(t, i, level);
    c = t.charCodeAt(i);
    if (c === CLOSE_SEQ) break;
    if (c !== COMMA) throw GIVE_UP;
    i++;
  }
  flow.value = items;
  return i + 1;
}

function mapping(t: string, p: number, level: number): number {
  const map: Record<string, unknown> = {};
  let i = p + 1;
  for (;;) {
    i = gap(t, i, level);
    const c = t.charCodeAt(i);
    // `}` at the start, or after a `,` that followed a pair (a trailing comma is allowed)
    if (c === CLOSE_MAP) break;
    let name: string;
    if (c === DQUOTE || c === SQUOTE) {
      // a JSON-like key: its `:` right after it, the value may follow with no blank (`{"a":1}`)
      const e = c === DQUOTE ? doubleQuoted(t, i, -1) : singleQuoted(t, i, -1);
      if (e < 0 || e - i > MAX_KEY_CHARS || t.charCodeAt(e) !== COLON) throw GIVE_UP;
      i = e;
      name = scalar.text;
    } else {
      const e = flowKey(t, i);
      name = plainKeyName(t, i, e);
      i = e;
    }
    if (name in map) throw GIVE_UP;
    // the value may start on a line below the `:` (the yaml package's writer puts a long one there)
    i = gap(t, i + 1, level);
    i = item(t, i, level, CLOSE_MAP);
    map[name] = flow.value;
    i = gap(t, i, level, true);
    const d = t.charCodeAt(i);
    if (d === CLOSE_MAP) break;
    if (d !== COMMA) throw GIVE_UP;
    i++;
  }
  flow.value = map;
  return i + 1;
}

/**
 * An item or a value at `i`, in a collection closed by `close`: a scalar or a collection. A quoted
 * scalar may go on over lines, folded as in a block collection (flowScalar.ts); the yaml package's
 * lexer wants its lines deeper than the owner's column, the rule of the collection's own lines.
 */
function item(t: string, i: number, level: number, close: number): number {
  const c = t.charCodeAt(i);
  if (c === DQUOTE || c === SQUOTE) {
    const e = c === DQUOTE ? doubleQuoted(t, i, ownerIndent) : singleQuoted(t, i, ownerIndent);
    if (e < 0) throw GIVE_UP;
    flow.value = scalar.text;
    return e;
  }
  if (c === OPEN_SEQ || c === OPEN_MAP) return collection(t, i, level + 1);
  const e = flowPlain(t, i, close);
  flow.value = resolvePlain(scalar.text);
  return e;
}

/** `-`, `?`, `:` start a plain scalar inside a flow collection only before a character a plain scalar may hold. */
function flowPlainStart(t: string, p: number): void {
  plainStart(t, p);
  const c0 = t.charCodeAt(p);
  if ((c0 === DASH || c0 === QUESTION || c0 === COLON) && isFlowIndicator(t.charCodeAt(p + 1))) throw GIVE_UP;
}

/**
 * A plain key inside a flow mapping, from `p`: the offset of its `:`, which a blank or a line break follows. A `:`
 * before anything else is part of it (`{a:b: 1}` has the key `a:b`, as the yaml package reads it).
 */
function flowKey(t: string, p: number): number {
  flowPlainStart(t, p);
  const n = t.length;
  for (let i = p; i < n; i++) {
    const ch = t.charCodeAt(i);
    if (ch === COLON) {
      const a = t.charCodeAt(i + 1);
      if (a === SPACE || a === NL) {
        if (t.charCodeAt(i - 1) === SPACE || i - p > MAX_KEY_CHARS) throw GIVE_UP;
        return i;
      }
      if (a === TAB || i + 1 >= n || isFlowIndicator(a)) throw GIVE_UP;
    } else if (ch < SPACE || ch === 0x7f || isFlowIndicator(ch)) throw GIVE_UP;
    else if (ch === HASH && t.charCodeAt(i - 1) === SPACE) throw GIVE_UP;
  }
  throw GIVE_UP;
}

/**
 * A plain scalar inside a flow collection closed by `close`, from `p`: the offset after its text
 * (trailing blanks not in it), its text in `scalar.text`. At a line's end it ends when the next
 * line that is not blank starts with a `,` or the closing bracket; any other line folds into it, as
 * the yaml package folds it (`[a\n  b]` is "a b"): a line break between two lines of text is one
 * space, each blank line between them a `\n`, and blank lines before its end are no part of it.
 * A continuation line starts deeper than the owner's indentation (the yaml package reports a
 * shallower one).
 */
function flowPlain(t: string, p: number, close: number): number {
  flowPlainStart(t, p);
  const n = t.length;
  /** the text of the lines before the current one, folded; the current line's text starts at `from` */
  let text = '';
  let from = p;
  let i = p;
  for (; i < n; i++) {
    const ch = t.charCodeAt(i);
    if (ch === COMMA || ch === close) break;
    if (ch === NL) {
      const e = trimmed(t, from, i);
      let blanks = 0;
      let ls = i + 1;
      let q = ls;
      for (;;) {
        while (t.charCodeAt(q) === SPACE) q++;
        if (t.charCodeAt(q) !== NL) break;
        blanks++;
        ls = ++q;
      }
      const d = t.charCodeAt(q);
      // a comment line ends it too, as a comment after its text does
      if (d === COMMA || d === close || d === HASH) {
        i = e;
        break;
      }
      // a tab, a bracket or the end: left to the yaml package
      if (q >= n || d === TAB || d === CR || isFlowIndicator(d) || ownerIndent < 0 || q - ls <= ownerIndent) throw GIVE_UP;
      text += t.slice(from, e) + (blanks ? '\n'.repeat(blanks) : ' ');
      from = q;
      i = q - 1;
      continue;
    }
    if (ch < SPACE || ch === 0x7f || isFlowIndicator(ch)) throw GIVE_UP;
    // a comment ends it (gap skips the comment); `#` right after text is text
    if (ch === HASH && t.charCodeAt(i - 1) === SPACE) break;
    if (ch === COLON) {
      const a = t.charCodeAt(i + 1);
      if (a === SPACE || a === NL || a === TAB || i + 1 >= n || isFlowIndicator(a)) throw GIVE_UP;
    }
  }
  if (i >= n) throw GIVE_UP;
  const e = trimmed(t, from, i);
  if (e === p) throw GIVE_UP;
  scalar.text = text + t.slice(from, e);
  return e;
}
