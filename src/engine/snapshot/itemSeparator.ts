/**
 * Where the items of a big JSON List end, guessed cheaply: the text between
 * the first item's closing brace and the second item's first key
 * (`},{"apiVersion":` in compact output, `},\n        {\n            "apiVersion":`
 * as kubectl indents it) recurs between every two items, so indexOf finds
 * the next item end without a walk over every character. It is only ever a
 * guess: the callers give the text up to it to JSON.parse, which from an
 * item's true start accepts a slice only when it is exactly one value, and
 * walk exactly where it refuses. Shared by the whole-text parse
 * (listParse.ts) and the streamed reader (jsonListStream.ts).
 */

const QUOTE = 0x22,
  BACKSLASH = 0x5c,
  COLON = 0x3a,
  OPEN_BRACE = 0x7b,
  CLOSE_BRACE = 0x7d;

const isWs = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** The offset of the quote that closes the string opened at `open`, or -1. */
export function stringEnd(text: string, open: number): number {
  let i = open;
  for (;;) {
    i = text.indexOf('"', i + 1);
    if (i === -1) return -1;
    // escaped when preceded by an odd number of backslashes
    let b = i - 1;
    while (text.charCodeAt(b) === BACKSLASH) b--;
    if ((i - 1 - b) % 2 === 0) return i;
  }
}

export interface ItemSeparator {
  /** from an item's closing brace through the next item's first key and colon */
  text: string;
  /** from the separator's start to the next item's opening brace */
  step: number;
}

/**
 * The separator, when `close` is an object's closing brace and `open` the
 * next item's start, an object whose first key follows; `undefined` when the
 * items do not look like that (no guessing then); `'more'` when the text ends
 * before the key's colon (a stream should wait for more).
 */
export function itemSeparator(text: string, close: number, open: number): ItemSeparator | undefined | 'more' {
  if (text.charCodeAt(close) !== CLOSE_BRACE) return undefined;
  if (open >= text.length) return 'more';
  if (text.charCodeAt(open) !== OPEN_BRACE) return undefined;
  let key = open + 1;
  while (key < text.length && isWs(text.charCodeAt(key))) key++;
  if (key >= text.length) return 'more';
  if (text.charCodeAt(key) !== QUOTE) return undefined;
  const keyEnd = stringEnd(text, key);
  if (keyEnd === -1) return 'more';
  let colon = keyEnd + 1;
  while (colon < text.length && isWs(text.charCodeAt(colon))) colon++;
  if (colon >= text.length) return 'more';
  if (text.charCodeAt(colon) !== COLON) return undefined;
  return { text: text.slice(close, colon + 1), step: open - close };
}
