/** Offsets <-> LSP positions (0-based line and UTF-16 character), and ranges from engine positions. */
import type { Position, Range } from 'vscode-languageserver';
import type { SourcePosition } from '../../engine/problems';

export class TextLines {
  private readonly starts: number[] = [0];
  constructor(readonly text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  get lineCount(): number {
    return this.starts.length;
  }

  positionAt(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    let lo = 0,
      hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - this.starts[lo] };
  }

  offsetAt(p: Position): number {
    if (p.line >= this.starts.length) return this.text.length;
    if (p.line < 0) return 0;
    const start = this.starts[p.line];
    const end = p.line + 1 < this.starts.length ? this.starts[p.line + 1] - 1 : this.text.length;
    return Math.min(start + Math.max(0, p.character), end);
  }

  range(start: number, end: number): Range {
    return { start: this.positionAt(start), end: this.positionAt(end) };
  }

  /** The text of a line, without its line break. */
  line(n: number): string {
    const start = this.starts[n] ?? this.text.length;
    const end = n + 1 < this.starts.length ? this.starts[n + 1] - 1 : this.text.length;
    return this.text.slice(start, end).replace(/\r$/, '');
  }

  /** The range of an engine position in this text (offsets when known, else line/column). */
  rangeOf(pos: SourcePosition): Range {
    if (pos.offset !== undefined) return this.range(pos.offset, pos.endOffset ?? pos.offset);
    const start = { line: Math.max(0, pos.line - 1), character: Math.max(0, pos.column - 1) };
    const end = pos.endLine !== undefined && pos.endColumn !== undefined ? { line: pos.endLine - 1, character: pos.endColumn - 1 } : start;
    return { start, end };
  }
}

/** A file path as a `file:` URI (the inverse of the engine's uriToPath). */
export function pathToUri(path: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) return path;
  const p = path.replace(/\\/g, '/');
  const abs = /^[A-Za-z]:\//.test(p) ? `/${p}` : p;
  return (
    'file://' +
    abs
      .split('/')
      .map((seg, i) => (i === 1 && /^[A-Za-z]:$/.test(seg) ? seg : encodeURIComponent(seg)))
      .join('/')
  );
}
