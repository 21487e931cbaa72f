/**
 * A multi-document YAML stream (`---` between objects) cut into its
 * documents as the chunks arrive, so each document is parsed alone and a
 * file larger than one string can hold loads.
 *
 * A document starts at a line that begins with `---` followed by a blank or
 * the line's end. YAML forbids such a line inside any scalar (the spec's
 * c-forbidden: a document marker at column 0 ends a block scalar and cannot
 * continue a quoted one), so the cut needs no YAML parse and never falls
 * inside a value. The `---` line stays with its document, so positions need
 * only the document's first line.
 */
import type { Chunk, TextPoint } from './jsonListStream';

export interface YamlPiece {
  /** one document's text, from its `---` line (or the file's start) */
  text: string;
  at: TextPoint;
}

export interface YamlSplitOptions {
  /** a document longer than this is not read whole (default 256 Mi characters) */
  maxDocumentChars?: number;
}

export type YamlSplit = { piece: YamlPiece } | { tooLong: TextPoint; chars: number };

const isMarkerEnd = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || Number.isNaN(c);

/** Text chunks from text or UTF-8 bytes (decoded across chunk boundaries); a leading BOM becomes a blank. */
export function* decodeChunks(chunks: Iterable<Chunk>): Generator<string> {
  let decoder: TextDecoder | undefined;
  let first = true;
  for (const chunk of chunks) {
    let text: string;
    if (typeof chunk === 'string') text = chunk;
    else text = (decoder ??= new TextDecoder('utf-8', { ignoreBOM: true })).decode(chunk, { stream: true });
    if (!text) continue;
    if (first) {
      first = false;
      if (text.charCodeAt(0) === 0xfeff) text = ` ${text.slice(1)}`;
    }
    yield text;
  }
  const tail = decoder?.decode();
  if (tail) yield tail;
}

/** The documents of a YAML stream, one at a time, with where each starts. */
export function* yamlDocuments(chunks: Iterable<Chunk>, options: YamlSplitOptions = {}): Generator<YamlSplit> {
  const max = options.maxDocumentChars ?? 256 * 1024 * 1024;
  let buf = '';
  /** stream offset of buf[0], where the current document starts */
  let base = 0;
  let line = 1;
  /** where to look for the next marker in buf (after the document's own) */
  let from = 1;
  /** the current document ran on past the limit: its text is dropped until the next marker */
  let dropping: { at: TextPoint; chars: number } | undefined;
  const countLines = (text: string, end: number): number => {
    let n = 0;
    for (let nl = text.indexOf('\n'); nl !== -1 && nl < end; nl = text.indexOf('\n', nl + 1)) n++;
    return n;
  };
  for (const chunk of decodeChunks(chunks)) {
    buf += chunk;
    for (;;) {
      let m = buf.indexOf('\n---', from - 1);
      while (m !== -1 && m + 4 <= buf.length - 1 && !isMarkerEnd(buf.charCodeAt(m + 4))) m = buf.indexOf('\n---', m + 1);
      if (m === -1 || m + 4 > buf.length - 1) break;
      const text = buf.slice(0, m + 1);
      const at: TextPoint = { offset: base, line, column: 1 };
      if (dropping) {
        yield { tooLong: dropping.at, chars: dropping.chars + text.length };
        dropping = undefined;
      } else yield { piece: { text, at } };
      line += countLines(text, text.length);
      base += m + 1;
      buf = buf.slice(m + 1);
      from = 1;
    }
    // the text after the last newline could still begin a marker
    from = Math.max(1, buf.lastIndexOf('\n') );
    if (buf.length > max) {
      const keep = buf.lastIndexOf('\n');
      const cut = keep > 0 ? keep : buf.length;
      dropping ??= { at: { offset: base, line, column: 1 }, chars: 0 };
      dropping.chars += cut;
      line += countLines(buf, cut);
      base += cut;
      buf = buf.slice(cut);
      from = 1;
    }
  }
  if (dropping) yield { tooLong: dropping.at, chars: dropping.chars + buf.length };
  else if (buf.length) yield { piece: { text: buf, at: { offset: base, line, column: 1 } } };
}

/**
 * The value with every long string copied: the yaml package's strings are
 * slices of the document's text, and a slice keeps its whole parent alive
 * (bench/README.md), so a streamed file's documents would all stay in memory
 * through them.
 * (Short strings are copies already; JSON.parse makes copies too.)
 */
export function detachStrings(value: unknown): unknown {
  if (typeof value === 'string') return value.length >= SLICE_MIN ? (value + ' ').slice(0, -1) : value;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = detachStrings(value[i]);
    return value;
  }
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    for (const k of Object.keys(o)) o[k] = detachStrings(o[k]);
  }
  return value;
}

/** Substrings shorter than this are copies already, not slices (bench/README.md). */
const SLICE_MIN = 13;
