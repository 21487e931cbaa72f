/**
 * A JSON `kind: List` (or typed list, or bare array) read from a stream of
 * chunks, item by item: the whole text never exists as one string, so a
 * file larger than one string can hold (a full-detail export of 150,000 pods
 * as kubectl prints it is over 1 GB) loads, and memory is set by what the
 * caller keeps of the items, not by the file.
 *
 * Each item's text goes to JSON.parse alone. Finding where an item ends
 * uses the guess of itemSeparator.ts, as listParse.ts does: the text between
 * the first two items (`},\n        {\n            "apiVersion":` as kubectl
 * prints it) is searched for with indexOf, and JSON.parse itself confirms the guess (from
 * an item's true start it accepts a slice only when the slice is exactly one
 * value). A guess JSON.parse rejects is walked exactly (strings and
 * brackets), so look-alike text inside strings or nested lists is harmless.
 *
 * Lines are counted as the text goes by, so every item carries the line and
 * column it starts at and a syntax error is reported where it is. After a
 * syntax error the reader goes on where that is safe: an error inside an
 * item whose brackets balance loses that item; a broken structure in
 * pretty-printed JSON is passed over to the next line that starts an item
 * at the items' own indentation (no nested value and no string can hold
 * one); in compact JSON the rest of the List is left out.
 */

import type { Chunk, TextPoint } from './streamTypes';
import { itemSeparator, stringEnd } from './itemSeparator';
import {
  BROKEN,
  CLOSE_BRACE,
  CLOSE_BRACKET,
  COLON,
  COMMA,
  NEED_MORE,
  OPEN_BRACE,
  OPEN_BRACKET,
  QUOTE,
  ValueWalk,
  describe,
  firstSyntaxError,
  isWs,
} from './jsonValueWalk';

/** Guessed item ends JSON.parse rejected, beyond which guessing is given up (each costs a parse). */
const MAX_MISSES = 64;

export type { Chunk, TextPoint } from './streamTypes';

export interface ListItem {
  /** 0-based index in the List's items */
  index: number;
  value: unknown;
  /** the item's own text (for placing problems inside it); let go once handled */
  text: string;
  /** where the item's text starts */
  at: TextPoint;
}

export interface ListSyntaxError {
  message: string;
  at: TextPoint;
  /** what was left out because of it */
  lost: 'item' | 'items' | 'rest';
  /** for `items`: where reading went on */
  resumedAt?: TextPoint;
}

export interface ListHandler {
  /** the List's own keys read before its items (kind, apiVersion, metadata...) */
  head?(keys: Record<string, unknown>): void;
  item(item: ListItem): void;
  error(error: ListSyntaxError): void;
}

export interface ListSummary {
  /** `list`: an object with an `items` list or a top-level array; `object`: an object without items (in `keys`); `not-json`: not a JSON object or array */
  shape: 'list' | 'object' | 'not-json' | 'empty';
  /** the top-level object's keys other than items (for a List: its kind, apiVersion, metadata) */
  keys: Record<string, unknown>;
  items: number;
  /** characters read (UTF-16 units) */
  length: number;
}

export interface ListReadOptions {
  /** an item longer than this is taken as a broken structure (Kubernetes objects are at most 1.5 MiB in etcd); default 16 Mi characters */
  maxItemChars?: number;
}

type State = 'start' | 'head' | 'items' | 'after-item' | 'tail' | 'trailing' | 'resync' | 'skip';

/**
 * The reader: `push` chunks, then `end`; items and errors go to the handler
 * as soon as they are complete.
 */
export class JsonListReader {
  /** the text not consumed yet starts at buf[pos] */
  private buf = '';
  private pos = 0;
  /** stream offset of buf[0] */
  private base = 0;
  private final = false;
  private state: State = 'start';
  private topArray = false;
  private readonly keys: Record<string, unknown> = {};
  private shape: ListSummary['shape'] = 'empty';
  /** items seen (read or lost) */
  private index = 0;
  private decoder: TextDecoder | undefined;
  private first = true;
  // lines are counted up to `counted` (a stream offset); the current line starts at `lineStart`
  private counted = 0;
  private line = 1;
  private lineStart = 0;
  // the guess of where items end (see the top of the file)
  private separator: string | undefined;
  /** from the separator's start to the next item's opening brace */
  private step = 0;
  /** the separator begins a line at the items' indentation */
  private pretty = false;
  /** learn the separator from what follows the first item */
  private learn = false;
  private misses = 0;
  /** where to search for the separator next (stream offset) */
  private searchFrom = 0;
  // an item being walked exactly, across chunks
  private walk: ValueWalk | undefined;
  private walkStart = -1;
  /** a broken structure waiting for the next item start */
  private broken: { message: string; at: TextPoint } | undefined;
  private readonly maxItem: number;

  constructor(
    private readonly handler: ListHandler,
    options: ListReadOptions = {},
  ) {
    this.maxItem = options.maxItemChars ?? 16 * 1024 * 1024;
  }

  /** where the top-level value starts (undefined before it is seen) */
  get start(): TextPoint | undefined {
    return this.valueStart;
  }

  private valueStart: TextPoint | undefined;

  /** the text is a bare array of items, not an object with `items` */
  get isTopArray(): boolean {
    return this.topArray;
  }

  push(chunk: Chunk): void {
    let text: string;
    if (typeof chunk === 'string') text = chunk;
    else {
      // ignoreBOM keeps a BOM as a character, as a string input has it (then read as a blank)
      this.decoder ??= new TextDecoder('utf-8', { ignoreBOM: true });
      text = this.decoder.decode(chunk, { stream: true });
    }
    if (!text) return;
    if (this.first) {
      this.first = false;
      if (text.charCodeAt(0) === 0xfeff) text = ` ${text.slice(1)}`;
    }
    const cut = this.cutAfterFirstItem(text);
    if (cut > 0) {
      this.append(text.slice(0, cut));
      this.run();
      const left = this.buf.length - this.pos;
      if (this.state !== 'skip' && left <= cut) {
        // what is left unread of the joined piece is the chunk's own text before `cut`: read on in the chunk itself
        this.base += this.pos;
        this.buf = text.slice(cut - left);
        this.pos = 0;
        this.run();
        return;
      }
      text = text.slice(cut);
    }
    this.append(text);
    this.run();
  }

  /**
   * Where in a new chunk the separator after the item cut off at the end of the last one ends (0:
   * not found). The unread rest of the buffer joined to the whole chunk would be copied whole (a
   * chunk's worth) once read; joined only to the chunk's text up to that separator, the copy is
   * one item's worth, and reading goes on in the chunk's own text (bench/README.md, "Full detail").
   */
  private cutAfterFirstItem(text: string): number {
    const sep = this.separator;
    if (sep === undefined || this.state !== 'items' || this.walk !== undefined || this.pos >= this.buf.length) return 0;
    const g = text.indexOf(sep);
    return g === -1 ? 0 : g + sep.length;
  }

  end(): ListSummary {
    if (this.decoder) {
      const tail = this.decoder.decode();
      if (tail) this.append(tail);
    }
    this.final = true;
    this.run();
    this.atEnd();
    return { shape: this.shape, keys: this.keys, items: this.index, length: this.base + this.buf.length };
  }

  private append(text: string): void {
    if (this.state === 'skip') {
      this.base += text.length;
      this.counted = this.base;
      return;
    }
    if (this.pos > 0) {
      this.buf = this.buf.slice(this.pos) + text;
      this.base += this.pos;
      this.pos = 0;
    } else this.buf += text;
  }

  /** Line and column of a stream offset (lines are counted forward from the last offset asked for). */
  private pointAt(offset: number): TextPoint {
    if (offset > this.counted) {
      const buf = this.buf;
      const base = this.base;
      const to = offset - base;
      let from = this.counted - base;
      for (let nl = buf.indexOf('\n', from); nl !== -1 && nl < to; nl = buf.indexOf('\n', from)) {
        this.line++;
        from = nl + 1;
      }
      if (from > this.counted - base) this.lineStart = base + from;
      this.counted = offset;
    }
    return { offset, line: this.line, column: offset - this.lineStart + 1 };
  }

  /** Counts lines up to buf[i] and lets the text before it go. */
  private consume(i: number): void {
    this.pointAt(this.base + i);
    this.pos = i;
  }

  private skipWs(i: number): number {
    const buf = this.buf;
    while (i < buf.length && isWs(buf.charCodeAt(i))) i++;
    return i;
  }

  private run(): void {
    for (;;) {
      let progressed: boolean;
      switch (this.state) {
        case 'items':
          progressed = this.itemStep();
          break;
        case 'after-item':
          progressed = this.afterItemStep();
          break;
        case 'head':
        case 'tail':
          progressed = this.keyStep();
          break;
        case 'start':
          progressed = this.startStep();
          break;
        case 'trailing':
          progressed = this.trailingStep();
          break;
        case 'resync':
          progressed = this.resyncStep();
          break;
        default:
          progressed = false;
      }
      if (!progressed) return;
    }
  }

  private startStep(): boolean {
    const i = this.skipWs(this.pos);
    if (i >= this.buf.length) {
      this.consume(i);
      return false;
    }
    const c = this.buf.charCodeAt(i);
    this.valueStart = this.pointAt(this.base + i);
    if (c === OPEN_BRACE) {
      this.shape = 'object';
      this.state = 'head';
    } else if (c === OPEN_BRACKET) {
      this.shape = 'list';
      this.topArray = true;
      this.state = 'items';
    } else {
      this.shape = 'not-json';
      this.toSkip();
      return false;
    }
    this.consume(i + 1);
    return true;
  }

  /** One key and value of the top-level object (before or after its items), or its end. */
  private keyStep(): boolean {
    const buf = this.buf;
    let i = this.skipWs(this.pos);
    if (i >= buf.length) return this.wait(this.pos);
    let c = buf.charCodeAt(i);
    const afterValue = this.state === 'tail' || Object.keys(this.keys).length > 0;
    if (afterValue && c !== CLOSE_BRACE) {
      if (c !== COMMA) return this.structureError(i, `expected ',' or '}' in the List, found ${describe(buf, i)}`);
      i = this.skipWs(i + 1);
      if (i >= buf.length) return this.wait(this.pos);
      c = buf.charCodeAt(i);
    }
    if (c === CLOSE_BRACE) {
      this.consume(i + 1);
      this.state = 'trailing';
      return true;
    }
    if (c !== QUOTE) return this.structureError(i, `expected a key (a string in double quotes), found ${describe(buf, i)}`);
    const keyEnd = stringEnd(buf, i);
    if (keyEnd === -1) return this.wait(this.pos);
    let key: string;
    try {
      key = JSON.parse(buf.slice(i, keyEnd + 1)) as string;
    } catch {
      return this.structureError(i, 'a malformed key');
    }
    const colon = this.skipWs(keyEnd + 1);
    if (colon >= buf.length) return this.wait(this.pos);
    if (buf.charCodeAt(colon) !== COLON) return this.structureError(colon, `expected ':' after the key ${JSON.stringify(key)}, found ${describe(buf, colon)}`);
    const v = this.skipWs(colon + 1);
    if (v >= buf.length) return this.wait(this.pos);
    if (key === 'items' && buf.charCodeAt(v) === OPEN_BRACKET && this.state === 'head') {
      this.shape = 'list';
      this.handler.head?.({ ...this.keys });
      this.consume(v + 1);
      this.state = 'items';
      return true;
    }
    const walk = new ValueWalk();
    const len = walk.run(buf, v);
    if (len === NEED_MORE) {
      if (!this.final && buf.length - v < this.maxItem) return this.wait(this.pos);
      return this.structureError(v, `the value of ${JSON.stringify(key)} does not end`);
    }
    if (len === BROKEN) return this.structureError(v + walk.brokeAt, walk.brokeWhy);
    try {
      this.keys[key] = JSON.parse(buf.slice(v, v + len));
    } catch {
      const err = firstSyntaxError(buf.slice(v, v + len));
      return this.structureError(v + err.offset, err.message);
    }
    this.consume(v + len);
    return true;
  }

  private trailingStep(): boolean {
    const i = this.skipWs(this.pos);
    if (i >= this.buf.length) {
      this.consume(i);
      return false;
    }
    this.handler.error({
      message: `unexpected ${describe(this.buf, i)} after the end of the JSON value; the rest of the file is left out`,
      at: this.pointAt(this.base + i),
      lost: 'rest',
    });
    this.toSkip();
    return false;
  }

  /** Waits for more text, keeping buf[i...]. */
  private wait(i: number): boolean {
    this.consume(i);
    return false;
  }

  private toSkip(): void {
    this.state = 'skip';
    this.base += this.buf.length;
    this.counted = this.base;
    this.buf = '';
    this.pos = 0;
  }

  /** One item of the list, or the list's end. */
  private itemStep(): boolean {
    const buf = this.buf;
    const i = this.skipWs(this.pos);
    if (i >= buf.length) return this.wait(i);
    const start = this.base + i;
    if (this.walkStart === start) return this.walkItem(i);
    if (buf.charCodeAt(i) === CLOSE_BRACKET) {
      if (this.index > 0) return this.structureError(i, "expected an item after ',', found ']'");
      this.consume(i + 1);
      this.state = this.topArray ? 'trailing' : 'tail';
      return true;
    }
    const sep = this.separator;
    if (sep !== undefined) {
      // the fast way: up to the next separator, confirmed by JSON.parse
      const g = buf.indexOf(sep, Math.max(i, this.searchFrom - this.base));
      if (g === -1) {
        if (!this.final && buf.length - i < this.maxItem) {
          this.searchFrom = this.base + Math.max(i, buf.length - sep.length + 1);
          return this.wait(i);
        }
      } else {
        const text = buf.slice(i, g + 1);
        let value: unknown;
        let ok = true;
        try {
          value = JSON.parse(text);
        } catch {
          ok = false;
        }
        if (ok) {
          this.emit(start, text, value);
          this.consume(g + this.step);
          return true;
        }
        if (++this.misses > MAX_MISSES) this.separator = undefined;
      }
    }
    this.walk = new ValueWalk();
    this.walkStart = start;
    return this.walkItem(i);
  }

  /** The exact walk over the item at buf[i], resumed when more text arrives. */
  private walkItem(i: number): boolean {
    const start = this.base + i;
    const walk = this.walk!;
    const len = walk.run(this.buf, i);
    if (len === NEED_MORE && !this.final && this.buf.length - i < this.maxItem) return this.wait(i);
    this.walk = undefined;
    this.walkStart = -1;
    if (len > 0) {
      const text = this.buf.slice(i, i + len);
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        // the brackets balance: the error is inside this item, and reading goes on after it
        const err = firstSyntaxError(text);
        this.itemError(start, start + err.offset, err.message);
        this.consume(i + len);
        this.state = 'after-item';
        return true;
      }
      if (this.index === 0 && this.separator === undefined && text.charCodeAt(len - 1) === CLOSE_BRACE) this.learn = true;
      this.emit(start, text, value);
      this.consume(i + len);
      this.state = 'after-item';
      return true;
    }
    if (len === BROKEN) return this.structureError(i + walk.brokeAt, walk.brokeWhy, i + 1);
    return this.structureError(
      i,
      this.final
        ? `the file ends inside item ${this.index} of the list`
        : `item ${this.index} of the list runs on for more than ${this.maxItem} characters without closing (a missing bracket or quote?)`,
      i + 1,
    );
  }

  /** After an item: a comma and the next item, or the list's end. */
  private afterItemStep(): boolean {
    const buf = this.buf;
    const i = this.skipWs(this.pos);
    if (i >= buf.length) return this.wait(this.pos);
    const c = buf.charCodeAt(i);
    if (c === CLOSE_BRACKET) {
      this.learn = false;
      this.consume(i + 1);
      this.state = this.topArray ? 'trailing' : 'tail';
      return true;
    }
    if (c === COMMA) {
      if (this.learn && !this.learnSeparator(this.skipWs(i + 1))) return this.wait(this.pos);
      this.consume(i + 1);
      this.state = 'items';
      return true;
    }
    if (c === OPEN_BRACE) {
      // a missing comma between two items: said, and the next item read
      this.handler.error({ message: "expected ',' between two items of the list", at: this.pointAt(this.base + i), lost: 'item' });
      this.learn = false;
      this.consume(i);
      this.state = 'items';
      return true;
    }
    return this.structureError(i, `expected ',' or ']' after an item of the list, found ${describe(buf, i)}`, i);
  }

  /**
   * The separator: the first item's closing brace (just before buf[pos])
   * through the second item's first key and colon. False while the text
   * does not reach that far yet.
   */
  private learnSeparator(next: number): boolean {
    // the item's closing brace may have been let go with the text before buf[pos] (once per List)
    const guess = itemSeparator(`}${this.buf.slice(this.pos)}`, 0, next - this.pos + 1);
    if (guess === 'more' && !this.final) return false;
    this.learn = false;
    if (guess !== undefined && guess !== 'more') {
      this.separator = guess.text;
      this.step = guess.step;
      this.pretty = /\n[ \t]*\{/.test(guess.text);
    }
    return true;
  }

  private emit(start: number, text: string, value: unknown): void {
    const at = this.pointAt(start);
    this.handler.item({ index: this.index++, value, text, at });
  }

  private itemError(start: number, at: number, message: string): void {
    this.pointAt(start);
    this.index++;
    this.handler.error({ message: `${message}; this item of the list is left out`, at: this.pointAt(at), lost: 'item' });
  }

  /**
   * The structure is broken at buf[i]: in pretty-printed JSON reading goes
   * on at the next item start (searched from buf[from]); otherwise the rest
   * is left out.
   */
  private structureError(i: number, message: string, from = i): boolean {
    const at = this.pointAt(this.base + i);
    const inItems = this.state === 'items' || this.state === 'after-item';
    this.learn = false;
    if (inItems && this.pretty && this.separator !== undefined) {
      this.broken = { message, at };
      this.state = 'resync';
      this.searchFrom = this.base + from;
      return true;
    }
    this.handler.error({ message: `${message}; the rest of the file is left out`, at, lost: 'rest' });
    this.toSkip();
    return false;
  }

  /** After a broken structure in pretty-printed JSON: on to the next item start. */
  private resyncStep(): boolean {
    const sep = this.separator!;
    const buf = this.buf;
    const g = buf.indexOf(sep, Math.max(this.pos, this.searchFrom - this.base));
    const broken = this.broken!;
    if (g === -1) {
      if (this.final) {
        this.broken = undefined;
        this.handler.error({ message: `${broken.message}; the rest of the file is left out`, at: broken.at, lost: 'rest' });
        this.toSkip();
        return false;
      }
      // keep only what could begin a separator
      const keep = Math.max(this.pos, buf.length - sep.length + 1);
      this.searchFrom = this.base + keep;
      return this.wait(keep);
    }
    this.broken = undefined;
    this.consume(g + this.step);
    const resumedAt = this.pointAt(this.base + g + this.step);
    this.index++;
    this.handler.error({ message: `${broken.message}; the text up to line ${resumedAt.line} is left out`, at: broken.at, lost: 'items', resumedAt });
    this.state = 'items';
    return true;
  }

  private atEnd(): void {
    if (this.state === 'head' || this.state === 'tail' || this.state === 'items' || this.state === 'after-item') {
      const at = this.pointAt(this.base + this.buf.length);
      this.handler.error({
        message: `the file ends inside the JSON value (a '${this.state === 'head' || this.state === 'tail' ? '}' : ']'}' is missing)`,
        at,
        lost: 'rest',
      });
    }
  }
}

/** Reads a List from chunks, handing each item to `handler` as soon as it is complete. */
export function readJsonList(chunks: Iterable<Chunk>, handler: ListHandler, options?: ListReadOptions): ListSummary {
  const reader = new JsonListReader(handler, options);
  for (const chunk of chunks) reader.push(chunk);
  return reader.end();
}

/** The same from an async iterable (a web stream, a node stream). */
export async function readJsonListAsync(chunks: AsyncIterable<Chunk>, handler: ListHandler, options?: ListReadOptions): Promise<ListSummary> {
  const reader = new JsonListReader(handler, options);
  for await (const chunk of chunks) reader.push(chunk);
  return reader.end();
}
