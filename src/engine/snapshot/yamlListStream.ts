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

interface Part {
  lines: string[];
  at: TextPoint;
  chars: number;
  tooLong: boolean;
}

const ITEMS_KEY = /^items:\s*$/;
const DOC_MARKER = /^(---|\.\.\.)(\s|$)/;

export function* yamlStreamPieces(chunks: Iterable<Chunk>, options: { maxDocumentChars?: number } = {}): Generator<YamlStreamPiece> {
  const max = options.maxDocumentChars ?? MAX_YAML_DOCUMENT_CHARS;
  let doc: Part | undefined;
  let item: Part | undefined;
  /** in a document: before its items, waiting for the first item, among them, or after them */
  let mode: 'doc' | 'wait' | 'items' | 'tail' = 'doc';
  let indent = -1;
  /** the line of `items:` in doc.lines, turned into `items: []` once items follow */
  let itemsLine = -1;
  let itemStart = /^-( |\r?$)/;
  let listed = false;
  const open = (at: TextPoint): Part => ({ lines: [], at, chars: 0, tooLong: false });
  /** the part the last line went to */
  let target: Part | undefined;
  const add = (p: Part, text: string) => {
    target = p;
    p.chars += text.length + 1;
    if (p.chars > max) {
      p.tooLong = true;
      p.lines = [];
    }
    if (!p.tooLong) p.lines.push(text);
  };
  const textOf = (p: Part) => `${p.lines.join('\n')}\n`;
  function* flushItem(): Generator<YamlStreamPiece> {
    if (!item) return;
    if (item.tooLong) yield { tooLong: item.at, chars: item.chars };
    else yield { item: { text: textOf(item), at: item.at }, indent };
    item = undefined;
  }
  function* flushDoc(): Generator<YamlStreamPiece> {
    yield* flushItem();
    if (doc) {
      if (doc.tooLong) yield { tooLong: doc.at, chars: doc.chars };
      else if (listed) yield { listEnd: { text: textOf(doc), at: doc.at } };
      else if (doc.lines.some((l) => l.trim())) yield { piece: { text: textOf(doc), at: doc.at } };
    }
    doc = undefined;
    mode = 'doc';
    listed = false;
    itemsLine = -1;
  }

  let offset = 0;
  let line = 0;
  let rest = '';
  const handle = function* (text: string, at: TextPoint): Generator<YamlStreamPiece> {
    const c0 = text.charCodeAt(0);
    // most lines start otherwise: no regular expression for them
    if ((c0 === 0x2d || c0 === 0x2e) && DOC_MARKER.test(text)) {
      yield* flushDoc();
      if (text.startsWith('...')) return;
    }
    doc ??= open(at);
    switch (mode) {
      case 'doc':
      case 'tail':
        add(doc, text);
        if (mode === 'doc' && c0 === 0x69 && ITEMS_KEY.test(text)) {
          mode = 'wait';
          itemsLine = doc.lines.length - 1;
        }
        return;
      case 'wait': {
        if (!text.trim() || /^\s*#/.test(text)) {
          add(doc, text);
          return;
        }
        const m = /^( *)-( |\r?$)/.exec(text);
        if (!m || doc.tooLong) {
          mode = 'doc';
          add(doc, text);
          return;
        }
        indent = m[1].length;
        itemStart = new RegExp(`^ {${indent}}-( |\\r?$)`);
        doc.lines[itemsLine] = doc.lines[itemsLine].replace(/items:/, 'items: []');
        listed = true;
        mode = 'items';
        break;
      }
      case 'items':
        break;
    }
    // among the items
    if (itemStart.test(text)) {
      yield* flushItem();
      item = open(at);
      add(item, `${text.slice(0, indent)} ${text.slice(indent + 1)}`);
      return;
    }
    const lead = /^ */.exec(text)![0].length;
    if (!text.trim() || lead > indent || (lead === indent && /^\s*#/.test(text))) {
      if (item) add(item, text);
      return;
    }
    yield* flushItem();
    mode = 'tail';
    add(doc, text);
  };
  /** a line longer than a document may be: its start decides where it goes, the rest is counted, not kept */
  let long: { head: string; at: TextPoint; chars: number } | undefined;
  for (const chunk of decodeChunks(chunks)) {
    let text = rest + chunk;
    let start = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', start)) {
      line++;
      if (long) {
        yield* handle(long.head, long.at);
        target!.tooLong = true;
        target!.lines = [];
        target!.chars += long.chars + nl;
        long = undefined;
      } else yield* handle(text.slice(start, nl), { offset: offset + start, line, column: 1 });
      start = nl + 1;
    }
    offset += start;
    rest = text.slice(start);
    text = '';
    if (long) {
      long.chars += rest.length;
      offset += rest.length;
      rest = '';
    } else if (rest.length > max) {
      long = { head: rest.slice(0, 64), at: { offset, line: line + 1, column: 1 }, chars: rest.length };
      offset += rest.length;
      rest = '';
    }
  }
  if (long) {
    yield* handle(long.head, long.at);
    target!.tooLong = true;
    target!.lines = [];
  }
  if (rest) yield* handle(rest, { offset, line: line + 1, column: 1 });
  yield* flushDoc();
}
