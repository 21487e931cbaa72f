/**
 * The exact walk over one JSON value that the List reader (jsonListStream.ts)
 * falls back on where its guess of an item's end fails: strings and brackets
 * only (JSON.parse judges the rest), resumable when the text runs out. And
 * what the reader says of a place in the text.
 */
import { findJsonSyntaxError } from './positions';

export const QUOTE = 0x22,
  BACKSLASH = 0x5c,
  COMMA = 0x2c,
  COLON = 0x3a,
  NEWLINE = 0x0a;
export const OPEN_BRACE = 0x7b,
  CLOSE_BRACE = 0x7d,
  OPEN_BRACKET = 0x5b,
  CLOSE_BRACKET = 0x5d;
export const isWs = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
export const NEED_MORE = -1;
export const BROKEN = -2;

/**
 * An exact walk over one value (strings and brackets only; JSON.parse
 * judges the rest) that stops where the text runs out and goes on when more
 * arrives.
 */
export class ValueWalk {
  /** open brackets, innermost last */
  private readonly open: number[] = [];
  private inString = false;
  /** how far (from the value's start) the walk has gone */
  private at = 0;
  /** where the structure broke (from the value's start), and why */
  brokeAt = -1;
  brokeWhy = '';

  /** The length of the value at `start` in `text`, NEED_MORE, or BROKEN. */
  run(text: string, start: number): number {
    const n = text.length;
    const open = this.open;
    let i = start + this.at;
    if (i === start && !this.inString) {
      const c = text.charCodeAt(i);
      if (c !== QUOTE && c !== OPEN_BRACE && c !== OPEN_BRACKET) {
        // a scalar: up to the comma or bracket after it
        let j = i;
        while (j < n && !isWs(text.charCodeAt(j)) && text.charCodeAt(j) !== COMMA && text.charCodeAt(j) !== CLOSE_BRACKET && text.charCodeAt(j) !== CLOSE_BRACE)
          j++;
        return j === n ? NEED_MORE : j - start;
      }
    }
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (this.inString) {
        if (c === QUOTE) {
          this.inString = false;
          if (open.length === 0) return i + 1 - start;
        } else if (c === BACKSLASH) {
          if (i + 1 >= n) break;
          i++;
        } else if (c < 0x20) {
          return this.broke(i - start, c === NEWLINE ? 'a line break inside a string (a quote missing?)' : 'a control character inside a string');
        }
        continue;
      }
      if (c === QUOTE) this.inString = true;
      else if (c === OPEN_BRACE || c === OPEN_BRACKET) open.push(c);
      else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        const o = open.pop();
        if (o === undefined || (o === OPEN_BRACE) !== (c === CLOSE_BRACE)) {
          return this.broke(
            i - start,
            o === undefined ? `unexpected '${String.fromCharCode(c)}'` : `'${String.fromCharCode(c)}' where a '${o === OPEN_BRACE ? '}' : ']'}' was expected`,
          );
        }
        if (open.length === 0) return i + 1 - start;
      }
    }
    this.at = i - start;
    return NEED_MORE;
  }

  private broke(at: number, why: string): number {
    this.brokeAt = at;
    this.brokeWhy = why;
    return BROKEN;
  }
}

export function describe(text: string, i: number): string {
  if (i >= text.length) return 'the end of the file';
  const c = text[i];
  return c === '\n' ? 'a line break' : `'${c}'`;
}

/** Where and why a JSON text JSON.parse rejected is malformed. */
export function firstSyntaxError(text: string): { offset: number; message: string } {
  const e = findJsonSyntaxError(text, 0);
  return e ? { offset: e.offset, message: e.message } : { offset: 0, message: 'malformed JSON' };
}
