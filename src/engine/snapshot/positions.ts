/**
 * Positions in input text, computed only when there is something to report.
 *
 * JSON input is parsed with `JSON.parse` (fast, no positions); when a problem
 * needs a position, `locateJsonPaths` walks the text once and finds the
 * ranges of every path asked for, and `LineIndex` turns offsets into 1-based
 * lines and columns. `scanJsonValue` finds where a JSON value ends (or where
 * it is malformed) without building it, which is also how the text of
 * `kubectl cluster-info dump` (JSON lists with log text between them) is cut
 * into values.
 */
import { isMap, isPair, isScalar, isSeq, type Document, type Node as YamlNode } from 'yaml';
import type { SourcePosition } from '../problems';

/** Offsets of line starts, built on first use. */
export class LineIndex {
  private starts: number[] | undefined;
  constructor(private readonly text: string) {}

  private lineStarts(): number[] {
    if (!this.starts) {
      const starts = [0];
      const t = this.text;
      let i = t.indexOf('\n');
      while (i !== -1) {
        starts.push(i + 1);
        i = t.indexOf('\n', i + 1);
      }
      this.starts = starts;
    }
    return this.starts;
  }

  /** 1-based line and column (UTF-16 code units, as LSP counts them) of a 0-based offset. */
  lineCol(offset: number): { line: number; column: number } {
    const starts = this.lineStarts();
    let lo = 0,
      hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - starts[lo] + 1 };
  }

  position(file: string, start: number, end?: number): SourcePosition {
    const s = this.lineCol(start);
    const pos: SourcePosition = { file, line: s.line, column: s.column, offset: start };
    if (end !== undefined && end >= start) {
      const e = this.lineCol(end);
      pos.endLine = e.line;
      pos.endColumn = e.column;
      pos.endOffset = end;
    }
    return pos;
  }
}

export type JsonPath = (string | number)[];

export class JsonScanError {
  constructor(
    readonly offset: number,
    readonly message: string,
  ) {}
}

const MAX_DEPTH = 2000;

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

export function skipWs(text: string, i: number): number {
  while (i < text.length && isWs(text.charCodeAt(i))) i++;
  return i;
}

function describe(text: string, i: number): string {
  if (i >= text.length) return 'end of input';
  const c = text[i];
  return c === '\n' ? 'a line break' : `'${c}'`;
}

function scanString(text: string, i: number): number {
  // text[i] === '"'
  let j = i + 1;
  for (;;) {
    if (j >= text.length) throw new JsonScanError(i, 'unterminated string');
    const c = text.charCodeAt(j);
    if (c === 0x22) return j + 1;
    if (c === 0x5c) {
      const n = text[j + 1];
      if (n === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(j + 2, j + 6))) throw new JsonScanError(j, 'bad \\u escape in string');
        j += 6;
      } else if (n !== undefined && '"\\/bfnrt'.includes(n)) j += 2;
      else throw new JsonScanError(j, `bad escape \\${n ?? ''} in string`);
    } else if (c < 0x20) throw new JsonScanError(j, 'control character or line break inside a string');
    else j++;
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function scanNumber(text: string, i: number): number {
  NUMBER.lastIndex = i;
  const m = NUMBER.exec(text);
  if (!m || m[0].length === 0 || m[0] === '-') throw new JsonScanError(i, `expected a value, found ${describe(text, i)}`);
  return i + m[0].length;
}

function scanLiteral(text: string, i: number): number {
  for (const lit of ['true', 'false', 'null']) if (text.startsWith(lit, i)) return i + lit.length;
  if (text.charCodeAt(i) === 0x2d || (text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39)) return scanNumber(text, i);
  throw new JsonScanError(i, `expected a value, found ${describe(text, i)}`);
}

interface Trie {
  target?: string;
  children?: Map<string | number, Trie>;
}

export interface JsonRange {
  /** start and end of the value */
  start: number;
  end: number;
  /** start of the property name, when the value is an object member */
  keyStart?: number;
}

/**
 * Walks one JSON value starting at `i` (after whitespace) and returns where it
 * ends. When `trie` is given, records the range of every value whose path is
 * in it. Throws JsonScanError at the first syntax error.
 */
function walk(text: string, i: number, trie: Trie | undefined, found: Map<string, JsonRange>, depth: number, keyStart?: number): number {
  if (depth > MAX_DEPTH) throw new JsonScanError(i, `nesting deeper than ${MAX_DEPTH}`);
  const c = text.charCodeAt(i);
  let end: number;
  if (c === 0x7b /* { */) {
    let j = skipWs(text, i + 1);
    if (text.charCodeAt(j) === 0x7d) end = j + 1;
    else {
      for (;;) {
        if (text.charCodeAt(j) !== 0x22) throw new JsonScanError(j, `expected a property name in double quotes, found ${describe(text, j)}`);
        const kStart = j;
        const kEnd = scanString(text, j);
        j = skipWs(text, kEnd);
        if (text.charCodeAt(j) !== 0x3a) throw new JsonScanError(j, `expected ':' after property name, found ${describe(text, j)}`);
        j = skipWs(text, j + 1);
        let child: Trie | undefined;
        if (trie?.children) {
          const raw = text.slice(kStart + 1, kEnd - 1);
          const key = raw.includes('\\') ? (JSON.parse(text.slice(kStart, kEnd)) as string) : raw;
          child = trie.children.get(key);
        }
        j = skipWs(text, walk(text, j, child, found, depth + 1, kStart));
        const d = text.charCodeAt(j);
        if (d === 0x2c) j = skipWs(text, j + 1);
        else if (d === 0x7d) {
          end = j + 1;
          break;
        } else throw new JsonScanError(j, `expected ',' or '}' after a property value, found ${describe(text, j)}`);
      }
    }
  } else if (c === 0x5b /* [ */) {
    let j = skipWs(text, i + 1);
    if (text.charCodeAt(j) === 0x5d) end = j + 1;
    else {
      for (let index = 0; ; index++) {
        const child = trie?.children?.get(index);
        j = skipWs(text, walk(text, j, child, found, depth + 1));
        const d = text.charCodeAt(j);
        if (d === 0x2c) j = skipWs(text, j + 1);
        else if (d === 0x5d) {
          end = j + 1;
          break;
        } else throw new JsonScanError(j, `expected ',' or ']' after an array element, found ${describe(text, j)}`);
      }
    }
  } else if (c === 0x22) end = scanString(text, i);
  else end = scanLiteral(text, i);
  if (trie?.target !== undefined) found.set(trie.target, { start: i, end, keyStart });
  return end;
}

/** Where the JSON value at `start` ends; throws JsonScanError where it is malformed. */
export function scanJsonValue(text: string, start: number): number {
  return walk(text, skipWs(text, start), undefined, new Map(), 0);
}

export const pathKey = (path: JsonPath): string => JSON.stringify(path);

/**
 * The ranges of the values at `paths` inside the JSON value that starts at
 * `start`, found in one pass over the text. Paths not present are absent from
 * the result; a syntax error ends the walk with what was found so far.
 */
export function locateJsonPaths(text: string, start: number, paths: JsonPath[]): Map<string, JsonRange> {
  const root: Trie = {};
  for (const path of paths) {
    let node = root;
    for (const seg of path) {
      node.children ??= new Map();
      let next = node.children.get(seg);
      if (!next) node.children.set(seg, (next = {}));
      node = next;
    }
    node.target = pathKey(path);
  }
  const found = new Map<string, JsonRange>();
  try {
    walk(text, skipWs(text, start), root, found, 0);
  } catch (e) {
    if (!(e instanceof JsonScanError) && !(e instanceof RangeError)) throw e;
  }
  return found;
}

/**
 * Finds the offset and message of the first syntax error of a JSON text that
 * `JSON.parse` rejected (undefined when the scanner finds none, which should
 * not happen).
 */
export function findJsonSyntaxError(text: string, start = 0): JsonScanError | undefined {
  try {
    const i = skipWs(text, start);
    const end = skipWs(text, walk(text, i, undefined, new Map(), 0));
    if (end < text.length) return new JsonScanError(end, `unexpected ${describe(text, end)} after the end of the JSON value`);
    return undefined;
  } catch (e) {
    if (e instanceof JsonScanError) return e;
    if (e instanceof RangeError) return new JsonScanError(start, 'nesting too deep');
    throw e;
  }
}

export interface TextSegment {
  kind: 'json' | 'text' | 'bad-json';
  start: number;
  end: number;
  /** for `bad-json`: the syntax error */
  error?: JsonScanError;
}

/**
 * Cuts text that holds several JSON values with other text between them (the
 * output of `kubectl cluster-info dump`) into segments. A value starts at a
 * line whose first non-blank character is `{` or `[`; a candidate that is
 * malformed within its first line is taken as text (a log line such as
 * `[INFO] ...`), one that breaks after its first line is reported as bad JSON.
 */
export function splitJsonStream(text: string): TextSegment[] {
  const segments: TextSegment[] = [];
  let textStart = 0;
  let i = 0;
  const pushText = (end: number) => {
    if (end > textStart && text.slice(textStart, end).trim()) segments.push({ kind: 'text', start: textStart, end });
  };
  while (i < text.length) {
    const lineStart = i;
    let j = i;
    while (j < text.length && (text.charCodeAt(j) === 0x20 || text.charCodeAt(j) === 0x09)) j++;
    const c = text.charCodeAt(j);
    let next = text.indexOf('\n', j);
    next = next === -1 ? text.length : next + 1;
    if (c === 0x7b || c === 0x5b) {
      try {
        const end = walk(text, j, undefined, new Map(), 0);
        pushText(lineStart);
        segments.push({ kind: 'json', start: j, end });
        textStart = end;
        i = end;
        continue;
      } catch (e) {
        if (!(e instanceof JsonScanError) && !(e instanceof RangeError)) throw e;
        const offset = e instanceof JsonScanError ? e.offset : j;
        if (offset >= next) {
          pushText(lineStart);
          // the bad value runs to the next line that starts a new value at column 1, or the end
          let end = text.length;
          const re = /\n[{[]/g;
          re.lastIndex = offset;
          const m = re.exec(text);
          if (m) end = m.index + 1;
          segments.push({ kind: 'bad-json', start: j, end, error: e instanceof JsonScanError ? e : new JsonScanError(j, 'nesting too deep') });
          textStart = end;
          i = end;
          continue;
        }
      }
    }
    i = next;
  }
  pushText(text.length);
  return segments;
}

/**
 * The range of the node at `path` in a YAML document (with the start of its
 * key when it is a mapping value), or of the deepest part of the path that
 * exists, with `exact: false`.
 */
export function locateYamlPath(doc: Document, path: JsonPath): (JsonRange & { exact: boolean }) | undefined {
  let node: unknown = doc.contents;
  let keyStart: number | undefined;
  let last: JsonRange | undefined = rangeOf(node);
  for (const seg of path) {
    let next: unknown;
    let nextKeyStart: number | undefined;
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && keyText(p.key) === String(seg));
      if (pair) {
        nextKeyStart = (pair.key as YamlNode | null)?.range?.[0];
        next = pair.value ?? pair.key;
        if (pair.value === null || pair.value === undefined) {
          const kr = rangeOf(pair.key);
          if (kr) return { ...kr, keyStart: kr.start, exact: seg === path[path.length - 1] };
        }
      }
    } else if (isSeq(node) && typeof seg === 'number') next = node.items[seg];
    const r = rangeOf(next);
    if (!r) return last && { ...last, keyStart, exact: false };
    node = next;
    keyStart = nextKeyStart;
    last = r;
  }
  return last && { ...last, keyStart, exact: true };
}

function keyText(key: unknown): string | undefined {
  if (isScalar(key)) return String(key.value);
  return undefined;
}

function rangeOf(node: unknown): JsonRange | undefined {
  const r = (node as YamlNode | null | undefined)?.range;
  return r ? { start: r[0], end: r[1] } : undefined;
}
