/**
 * JSON.parse of a big `kind: List` one item at a time, each item sharing
 * what it has in common with the previous item of its kind (share.ts) as
 * soon as it is parsed.
 *
 * JSON.parse of the whole text builds every copy first: the text, the whole
 * unshared tree and (once the loader has run) the records are alive at the
 * same time, and V8 sizes the heap from that. Parsed item by item, each
 * item's copies die young and the tree never exists unshared, which lowers
 * the loader's peak memory and costs no more time (the walk that finds the
 * items jumps from quote to quote with indexOf).
 *
 * The result is the value JSON.parse would give. Anything this does not
 * recognise (not a single mapping with one `items` list, a syntax error)
 * gives undefined, and the caller parses the text whole as before, with the
 * same errors.
 */
import type { KObject } from '../model/types';
import { shareWithPrevious } from './share';

const QUOTE = 0x22, BACKSLASH = 0x5c, COMMA = 0x2c, COLON = 0x3a;
const OPEN_BRACE = 0x7b, CLOSE_BRACE = 0x7d, OPEN_BRACKET = 0x5b, CLOSE_BRACKET = 0x5d;

const isWs = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** The offset of the quote that closes the string opened at `open`, or -1. */
function stringEnd(text: string, open: number): number {
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

function skipWs(text: string, i: number): number {
  while (i < text.length && isWs(text.charCodeAt(i))) i++;
  return i;
}

/**
 * `text` from `first` holds one JSON mapping with an `items` list: that
 * value, its items parsed one by one and shared; otherwise undefined.
 */
export function parseListSharing(text: string, first: number): KObject | undefined {
  if (text.charCodeAt(first) !== OPEN_BRACE) return undefined;
  const n = text.length;
  let depth = 0;
  let itemsOpen = -1, itemsClose = -1;
  /** offsets just after '[' or ',' of each item of the items list */
  const starts: number[] = [];
  const ends: number[] = [];
  let i = first;
  let end = -1;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const close = stringEnd(text, i);
      if (close === -1) return undefined;
      // an escape in a key or value of the List itself could spell "items" another way: leave that to JSON.parse
      if (depth === 1 && text.lastIndexOf('\\', close) > i) return undefined;
      if (depth === 1 && close - i === 6 && text.startsWith('"items"', i)) {
        const colon = skipWs(text, close + 1);
        if (text.charCodeAt(colon) !== COLON) return undefined;
        const open = skipWs(text, colon + 1);
        if (text.charCodeAt(open) === OPEN_BRACKET) {
          if (itemsOpen !== -1) return undefined; // a second items key: JSON.parse keeps the last; leave it to JSON.parse
          itemsOpen = open;
          depth = 2;
          starts.push(open + 1);
          i = open + 1;
          continue;
        }
      }
      i = close + 1;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (depth === 1 && itemsOpen !== -1 && itemsClose === -1) {
        if (c !== CLOSE_BRACKET) return undefined;
        itemsClose = i;
        ends.push(i);
      } else if (depth === 0) {
        end = i;
        break;
      } else if (depth < 0) return undefined;
    } else if (c === COMMA && depth === 2 && itemsOpen !== -1 && itemsClose === -1) {
      ends.push(i);
      starts.push(i + 1);
    }
    i++;
  }
  if (end === -1 || itemsClose === -1 || skipWs(text, end + 1) !== n) return undefined;
  let root: unknown;
  try {
    root = JSON.parse(`${text.slice(first, itemsOpen)}[]${text.slice(itemsClose + 1, end + 1)}`);
  } catch {
    return undefined;
  }
  if (typeof root !== 'object' || root === null || Array.isArray(root) || !Array.isArray((root as KObject).items)) return undefined;
  const items: unknown[] = [];
  // `[]` and `[ ]`: no items (one empty slot between the brackets)
  const empty = starts.length === 1 && skipWs(text, starts[0]) === ends[0];
  if (!empty) {
    const previous = new Map<unknown, KObject>();
    for (let k = 0; k < starts.length; k++) {
      let item: unknown;
      try {
        item = JSON.parse(text.slice(starts[k], ends[k]));
      } catch {
        return undefined;
      }
      if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
        const kind = (item as KObject).kind;
        const prev = previous.get(kind);
        if (prev) shareWithPrevious(item as KObject, prev);
        previous.set(kind, item as KObject);
      }
      items.push(item);
    }
  }
  (root as KObject).items = items;
  return root as KObject;
}
