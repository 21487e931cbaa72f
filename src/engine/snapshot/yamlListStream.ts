/**
 * A YAML stream cut into pieces small enough to parse one at a time, for
 * files too big to read whole: its documents (`---` between them), and
 * within a document that holds a List (`kubectl get … -o yaml` prints one
 * document: `apiVersion`, `items:` and the items as a block sequence, then
 * `kind: List`), each item alone, so a List of any size streams as a JSON
 * List does.
 *
 * Cutting needs no YAML parse. An item starts at a line that begins, at the
 * sequence's own indentation, with `- `; everything inside an item is
 * indented deeper (or is a blank line), and the first line indented no
 * deeper that is not an item ends the sequence (the List's next key). The
 * item's `-` is turned into a blank, which leaves a mapping at its own
 * indentation: a YAML document in its own right, whose lines and columns are
 * the file's. The List's own keys come last, as one more document with
 * `items: []`.
 *
 * Lines are only looked at, never copied: a piece is a slice of the chunk's
 * text from its first line to its last (slices of each chunk it spans,
 * joined), so a piece's text is the file's, character for character.
 */
import type { Chunk, TextPoint } from './jsonListStream';
import { MAX_YAML_DOCUMENT_CHARS, decodeChunks, type YamlPiece } from './yamlDocStream';

export type YamlStreamPiece =
  /** a whole document */
  | { piece: YamlPiece }
  /** a document or an item over the limit, left out */
  | { tooLong: TextPoint; chars: number }
  /** one item of a List document (its `-` blanked), at `indent` (the sequence's own) */
  | { item: YamlPiece; indent: number }
  /** the List document's own keys, its items left out as `items: []`, after its items */
  | { listEnd: YamlPiece };

/** A piece being cut: its text kept as slices of the chunks it spans (a chunk's text is cut by offsets, not line by line). */
interface Part {
  segs: string[];
  at: TextPoint;
  chars: number;
  tooLong: boolean;
  /** a line that is not blank (a document of blank lines is no piece) */
  content: boolean;
}

const SPACE = 0x20;
const TAB = 0x09;
const CR = 0x0d;
const DASH = 0x2d;
const DOT = 0x2e;
const HASH = 0x23;
const I = 0x69;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/** `s[p]` is a blank as `\s` takes it (or the line's end `e`). */
function blankAt(s: string, p: number, e: number): boolean {
  if (p >= e) return true;
  const c = s.charCodeAt(p);
  if (c === SPACE || c === TAB || c === CR) return true;
  return c > SPACE && c < 0x7f ? false : /\s/.test(s[p]);
}

/** The first character of `s[ls, e)` that is not a blank, or e. */
function firstNonBlank(s: string, ls: number, e: number): number {
  let p = ls;
  while (p < e && blankAt(s, p, e)) p++;
  return p;
}

/** `---` or `...` and a blank or the line's end: a document marker. */
function isMarker(s: string, ls: number, e: number): boolean {
  const c = s.charCodeAt(ls);
  return (c === DASH || c === DOT) && ls + 3 <= e && s.charCodeAt(ls + 1) === c && s.charCodeAt(ls + 2) === c && blankAt(s, ls + 3, e);
}

/** `items:` and nothing but blanks after it. */
function isItemsKey(s: string, ls: number, e: number): boolean {
  return s.startsWith('items:', ls) && ls + 6 <= e && firstNonBlank(s, ls + 6, e) === e;
}

/** A `-` at column `col` followed by a space, or by the line's end (a `\r` before it too). */
function isDashAt(s: string, ls: number, col: number, e: number): boolean {
  const d = ls + col;
  if (s.charCodeAt(d) !== DASH || d >= e) return false;
  const a = s.charCodeAt(d + 1);
  return d + 1 === e || a === SPACE || (a === CR && d + 2 === e);
}

function leadingSpaces(s: string, ls: number, e: number): number {
  let p = ls;
  while (p < e && s.charCodeAt(p) === SPACE) p++;
  return p - ls;
}

export function* yamlStreamPieces(chunks: Iterable<Chunk>, options: { maxDocumentChars?: number } = {}): Generator<YamlStreamPiece> {
  const max = options.maxDocumentChars ?? MAX_YAML_DOCUMENT_CHARS;
  const out: YamlStreamPiece[] = [];
  let doc: Part | undefined;
  let item: Part | undefined;
  /** in a document: before its items, waiting for the first item, among them, or after them */
  let mode: 'doc' | 'wait' | 'items' | 'tail' = 'doc';
  let indent = -1;
  /** the offset in the stream just after the document's `items:`, where ` []` goes once items follow */
  let itemsAt = -1;
  let listed = false;
  /** the part whose slice of the current text is open, from `segFrom` (-1: none open yet in this text) */
  let cur: Part | undefined;
  let segFrom = -1;
  /** the part the last line went to */
  let target: Part | undefined;
  /** the current text, and the stream offset and line number of the line being read */
  let s = '';
  let base = 0;
  let line = 0;
  const open = (ls: number): Part => ({ segs: [], at: { offset: base + ls, line, column: 1 }, chars: 0, tooLong: false, content: false });
  const close = (at: number) => {
    if (cur && segFrom >= 0 && !cur.tooLong && at > segFrom) cur.segs.push(s.slice(segFrom, at));
    cur = undefined;
    segFrom = -1;
  };
  /** the line `s[ls, e)` (and its line break) to `p`, its text kept from `from` */
  const add = (p: Part, ls: number, e: number, from = ls) => {
    target = p;
    p.chars += e - ls + 1;
    if (p.chars > max && !p.tooLong) {
      p.tooLong = true;
      p.segs = [];
    }
    if (p.tooLong) return;
    if (p !== cur) {
      close(ls);
      cur = p;
      segFrom = from;
    } else if (segFrom < 0) segFrom = from;
  };
  /** the part's text, its open slice closed at `at` */
  const textOf = (p: Part, at: number) => {
    if (cur === p) close(at);
    return p.segs.length === 1 ? p.segs[0] : p.segs.join('');
  };
  const flushItem = (at: number) => {
    if (!item) return;
    if (item.tooLong) out.push({ tooLong: item.at, chars: item.chars });
    else out.push({ item: { text: textOf(item, at), at: item.at }, indent });
    item = undefined;
  };
  const flushDoc = (at: number) => {
    flushItem(at);
    if (doc) {
      if (doc.tooLong) out.push({ tooLong: doc.at, chars: doc.chars });
      else if (listed) out.push({ listEnd: { text: textOf(doc, at), at: doc.at } });
      else if (doc.content) out.push({ piece: { text: textOf(doc, at), at: doc.at } });
    }
    if (cur === doc) close(at);
    doc = undefined;
    mode = 'doc';
    listed = false;
    itemsAt = -1;
  };

  /** The line `s[ls, e)`. */
  const handle = (ls: number, e: number) => {
    const c0 = s.charCodeAt(ls);
    // most lines start otherwise: no further test for them
    if ((c0 === DASH || c0 === DOT) && isMarker(s, ls, e)) {
      flushDoc(ls);
      if (c0 === DOT) return;
    }
    doc ??= open(ls);
    switch (mode) {
      case 'doc':
      case 'tail':
        add(doc, ls, e);
        if (!doc.content && firstNonBlank(s, ls, e) < e) doc.content = true;
        if (mode === 'doc' && c0 === I && isItemsKey(s, ls, e)) {
          mode = 'wait';
          itemsAt = base + ls + 6;
        }
        return;
      case 'wait': {
        const f = firstNonBlank(s, ls, e);
        if (f === e || s.charCodeAt(f) === HASH) {
          add(doc, ls, e);
          return;
        }
        const lead = leadingSpaces(s, ls, e);
        if (!isDashAt(s, ls, lead, e) || doc.tooLong) {
          mode = 'doc';
          add(doc, ls, e);
          doc.content = true;
          return;
        }
        indent = lead;
        // the document's own keys so far, its `items:` now `items: []`
        const head = textOf(doc, ls);
        const k = itemsAt - doc.at.offset;
        doc.segs = [`${head.slice(0, k)} []${head.slice(k)}`];
        listed = true;
        mode = 'items';
        break;
      }
      case 'items':
        break;
    }
    // among the items
    const lead = leadingSpaces(s, ls, e);
    if (lead === indent && isDashAt(s, ls, indent, e)) {
      flushItem(ls);
      item = open(ls);
      // the item's `-` is blanked: a mapping at the file's columns
      add(item, ls, e, ls + indent + 1);
      if (!item.tooLong) item.segs.push(' '.repeat(indent + 1));
      return;
    }
    if (lead > indent) {
      if (item) add(item, ls, e);
      return;
    }
    // a flow collection that an item starts (`- {`, `- [`) may close at the item's `-` column, as the
    // yaml package reads it (no deeper than that: an error both ways); no key of the List starts so
    if (lead === indent && item) {
      const c = s.charCodeAt(ls + lead);
      if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        add(item, ls, e);
        return;
      }
    }
    // a comment line, at any column, does not end the items (YAML lets it stand anywhere)
    const f = firstNonBlank(s, ls, e);
    if (f === e || s.charCodeAt(f) === HASH) {
      if (item) add(item, ls, e);
      return;
    }
    flushItem(ls);
    mode = 'tail';
    add(doc, ls, e);
  };

  /** a line longer than a document may be: its start decides where it goes, the rest is counted, not kept */
  let long: { head: string; at: TextPoint; chars: number } | undefined;
  const handleLong = (l: { head: string; at: TextPoint }) => {
    const [text, b, n] = [s, base, line];
    s = l.head;
    base = l.at.offset;
    line = l.at.line;
    handle(0, s.length);
    target!.tooLong = true;
    target!.segs = [];
    if (cur === target) close(0);
    [s, base, line] = [text, b, n];
  };
  let rest = '';
  for (const chunk of decodeChunks(chunks)) {
    s = rest + chunk;
    let start = 0;
    for (let nl = s.indexOf('\n'); nl !== -1; nl = s.indexOf('\n', start)) {
      line++;
      if (long) {
        handleLong(long);
        target!.chars += long.chars + nl;
        long = undefined;
      } else handle(start, nl);
      start = nl + 1;
    }
    // the open piece keeps its slice of this text; the next text starts with the unfinished line
    close(start);
    base += start;
    rest = s.slice(start);
    s = '';
    if (long) {
      long.chars += rest.length;
      base += rest.length;
      rest = '';
    } else if (rest.length > max) {
      long = { head: rest.slice(0, 64), at: { offset: base, line: line + 1, column: 1 }, chars: rest.length };
      base += rest.length;
      rest = '';
    }
    yield* out;
    out.length = 0;
  }
  if (long) handleLong(long);
  if (rest) {
    // the last line, without its line break: a piece's text ends with one all the same
    line++;
    s = `${rest}\n`;
    handle(0, rest.length);
  }
  flushDoc(s.length);
  yield* out;
}
