/**
 * Positions in a file read as a stream, whose whole text is never held: an
 * item's or a document's own text is at hand while it is read, and each
 * item's start is remembered (three numbers an item) so problems reported
 * after it was let go still point at it.
 */
import type { SourcePosition } from '../problems';
import { LineIndex, locateJsonPaths, pathKey, type JsonPath, type JsonRange } from './positions';
import type { ListItem, TextPoint } from './jsonListStream';

/** What the loader asks of a text's lines (LineIndex, or one of the below). */
export interface Lines {
  lineCol(offset: number): { line: number; column: number };
  position(file: string, start: number, end?: number): SourcePosition;
}

/** The lines of a piece of a file (a YAML document, a List's item) that starts at `at`; offsets are the piece's own. */
export class ShiftedLines implements Lines {
  private readonly inner: LineIndex;
  constructor(
    text: string,
    private readonly at: TextPoint,
  ) {
    this.inner = new LineIndex(text);
  }

  lineCol(offset: number): { line: number; column: number } {
    const lc = this.inner.lineCol(offset);
    return { line: lc.line + this.at.line - 1, column: lc.line === 1 ? lc.column + this.at.column - 1 : lc.column };
  }

  position(file: string, start: number, end?: number): SourcePosition {
    const s = this.lineCol(start);
    const pos: SourcePosition = { file, line: s.line, column: s.column, offset: start + this.at.offset };
    if (end !== undefined && end >= start) {
      const e = this.lineCol(end);
      pos.endLine = e.line;
      pos.endColumn = e.column;
      pos.endOffset = end + this.at.offset;
    }
    return pos;
  }
}

/**
 * Positions for a List read item by item. Paths are the loader's
 * (`['items', i, ...]`, or `[i, ...]` for a top-level array); offsets are the
 * file's. Inside the current item they are exact; an earlier item is found
 * at its start.
 */
export class StreamedListPositions implements Lines {
  private item: ListItem | undefined;
  private lines: ShiftedLines | undefined;
  private readonly offsets: number[] = [];
  private readonly lineOf: number[] = [];
  private readonly columnOf: number[] = [];

  /** where the List (or array) itself starts */
  list: TextPoint = { offset: 0, line: 1, column: 1 };

  /** `prefix`: the path of the list (['items'], or [] for a top-level array) */
  constructor(private readonly prefix: JsonPath) {}

  enter(item: ListItem): void {
    this.item = item;
    this.lines = undefined;
    this.offsets[item.index] = item.at.offset;
    this.lineOf[item.index] = item.at.line;
    this.columnOf[item.index] = item.at.column;
  }

  /** The item's text can go. */
  leave(): void {
    this.item = undefined;
    this.lines = undefined;
  }

  locate(paths: JsonPath[]): Map<string, JsonRange> {
    const out = new Map<string, JsonRange>();
    const n = this.prefix.length;
    const item = this.item;
    const inner: JsonPath[] = [];
    const outerKey = new Map<string, string>();
    for (const p of paths) {
      if (p.length <= n) {
        out.set(pathKey(p), { start: this.list.offset, end: this.list.offset });
        continue;
      }
      const index = p[n];
      if (item && index === item.index) {
        const sub = p.slice(n + 1);
        inner.push(sub);
        outerKey.set(pathKey(sub), pathKey(p));
      } else if (typeof index === 'number' && this.offsets[index] !== undefined && p.length === n + 1) {
        out.set(pathKey(p), { start: this.offsets[index], end: this.offsets[index] });
      }
    }
    if (item && inner.length) {
      for (const [key, r] of locateJsonPaths(item.text, 0, inner)) {
        const k = outerKey.get(key);
        if (k)
          out.set(k, {
            ...r,
            start: r.start + item.at.offset,
            end: r.end + item.at.offset,
            ...(r.keyStart !== undefined ? { keyStart: r.keyStart + item.at.offset } : {}),
          });
      }
    }
    return out;
  }

  lineCol(offset: number): { line: number; column: number } {
    const item = this.item;
    if (item && offset >= item.at.offset && offset <= item.at.offset + item.text.length) {
      this.lines ??= new ShiftedLines(item.text, item.at);
      return this.lines.lineCol(offset - item.at.offset);
    }
    const i = this.startIndex(offset);
    if (i >= 0) return { line: this.lineOf[i], column: this.columnOf[i] };
    return offset === this.list.offset ? { line: this.list.line, column: this.list.column } : { line: 1, column: 1 };
  }

  position(file: string, start: number, end?: number): SourcePosition {
    const s = this.lineCol(start);
    const pos: SourcePosition = { file, line: s.line, column: s.column, offset: start };
    if (end !== undefined && end > start) {
      const e = this.lineCol(end);
      pos.endLine = e.line;
      pos.endColumn = e.column;
      pos.endOffset = end;
    }
    return pos;
  }

  /** The index of the item that starts at `offset`, or -1. */
  private startIndex(offset: number): number {
    const xs = this.offsets;
    let lo = 0,
      hi = xs.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = xs[mid];
      // items lost to a syntax error leave holes: step over them
      if (v === undefined) {
        let j = mid - 1;
        while (j >= lo && xs[j] === undefined) j--;
        if (j < lo) {
          lo = mid + 1;
          continue;
        }
        if (xs[j] === offset) return j;
        if (xs[j] < offset) lo = mid + 1;
        else hi = j - 1;
        continue;
      }
      if (v === offset) return mid;
      if (v < offset) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}
