/**
 * One read of an input for two readers: the importer recognises an input by its first lines, and
 * the snapshot loader reads the cluster's objects from the same text (a file that is not evidence,
 * a cluster-info dump), so the file is not opened again. The pieces the importer reads are kept
 * while they may be wanted, and the loader is handed the text from its start: those pieces, then
 * the rest not read yet.
 */
import { concatIterators } from '../snapshot/streamedFile';

export class RecordedChunks {
  private readonly source: Iterator<string>;
  private kept: string[] | undefined = [];
  private chars = 0;
  private recognising = true;
  /** the importer read `window` characters without recognising the input: the pieces ended there */
  windowEnded = false;

  /**
   * `window`: characters read at most to recognise the input (the pieces end there until
   * `recognised`); `keepUpTo`: characters kept at most, past that whole() is undefined.
   */
  constructor(
    chunks: Iterable<string>,
    private readonly window: number,
    private readonly keepUpTo: number,
  ) {
    this.source = chunks[Symbol.iterator]();
  }

  /** The pieces, for the importer, kept as they go by. */
  *read(): Generator<string> {
    // not for-of: the importer letting go of this generator must not close the source the loader reads on
    for (let r = this.source.next(); !r.done; r = this.source.next()) {
      this.chars += r.value.length;
      if (this.kept) {
        if (this.chars > this.keepUpTo) this.kept = undefined;
        else this.kept.push(r.value);
      }
      yield r.value;
      if (this.recognising && this.chars > this.window) {
        this.windowEnded = true;
        return;
      }
    }
  }

  /** The importer knows what the input is: it reads on to the end; `keep`: the text is wanted whole afterwards. */
  recognised(keep: boolean): void {
    this.recognising = false;
    if (!keep) this.kept = undefined;
  }

  /** The whole text from its start (what was kept, then what was not read yet), or undefined when it was not kept. */
  whole(): Iterable<string> | undefined {
    const kept = this.kept;
    if (!kept) return undefined;
    this.kept = undefined;
    const rest = this.source;
    return { [Symbol.iterator]: () => concatIterators(kept, rest) };
  }
}

/**
 * Chunks passed on with their lines counted as linesOf (lines.ts) numbers them: a line for each
 * newline, and one for text after the last. Its iterator has no `return`, so a reader that stops
 * early leaves the rest to `drain`.
 */
export class CountedLines implements Iterable<string> {
  private newlines = 0;
  private tail = false;
  private readonly source: Iterator<string>;

  constructor(chunks: Iterable<string>) {
    this.source = chunks[Symbol.iterator]();
  }

  [Symbol.iterator](): Iterator<string> {
    return { next: () => this.next() };
  }

  private next(): IteratorResult<string> {
    const r = this.source.next();
    if (!r.done && r.value.length) {
      const text = r.value;
      for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', nl + 1)) this.newlines++;
      this.tail = text.charCodeAt(text.length - 1) !== 0x0a;
    }
    return r;
  }

  /** Reads what the reader left and gives the number of lines. */
  drain(): number {
    while (!this.next().done);
    return this.newlines + (this.tail ? 1 : 0);
  }
}
