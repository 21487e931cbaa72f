/**
 * What reading a YAML stream piece by piece (yamlListStream.ts) is made of:
 * the pieces, the limit of one, the decoding of chunks, and letting go of
 * a piece's text once parsed.
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

/**
 * The longest YAML document read: a document is parsed whole, and the yaml
 * package's tree of a document is many times its text, so a `kind: List` of a
 * big cluster printed as one YAML document cannot be read this way; as JSON
 * it streams item by item.
 */
export const MAX_YAML_DOCUMENT_CHARS = 256 * 1024 * 1024;

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

/**
 * The value with every long string copied: the yaml package's strings are
 * slices of the document's text, and a slice keeps its whole parent alive
 * (bench/README.md), so a streamed file's documents would all stay in memory
 * through them.
 * (Short strings are copies already; JSON.parse makes copies too.)
 */
export function detachStrings(value: unknown): unknown {
  if (typeof value === 'string') return copied(value);
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

/** A string that keeps no longer text alive (see detachStrings). */
export const copied = (s: string): string => (s.length >= SLICE_MIN ? (s + ' ').slice(0, -1) : s);

/** Substrings shorter than this are copies already, not slices (bench/README.md). */
const SLICE_MIN = 13;
