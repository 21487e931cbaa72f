/**
 * JSON.parse of a big `kind: List` one item at a time, each item sharing
 * what it has in common with the previous item of its kind (share.ts) as
 * soon as it is parsed.
 *
 * JSON.parse of the whole text builds every copy first: the text, the whole
 * unshared tree and (once the loader has run) the records are alive at the
 * same time, and V8 sizes the heap from that. Parsed item by item, each
 * item's copies die young and the tree never exists unshared, which lowers
 * the loader's peak memory.
 *
 * Finding the items must cost little beside JSON.parse itself. A walk over
 * every character in JavaScript (even jumping from quote to quote) took two
 * thirds of JSON.parse's time at 150,000 pods, so the walk is exact only for
 * the List's own keys, the first two items and whatever the fast way below
 * cannot take. The fast way (itemSeparator.ts, shared with the streamed
 * reader): the text between the first item's closing brace and the second
 * item's first key is searched for with indexOf, and the text from an item's
 * start up to the next match is given to JSON.parse as that item. That is safe without
 * knowing where the match is: from the true start of an item, JSON.parse
 * accepts the slice only when it is exactly one value, so only when the match
 * is that item's true end. A match inside an item (a nested list of objects
 * that also start with apiVersion) or a missed end (other spacing) makes
 * JSON.parse throw, and that one item is walked exactly instead.
 *
 * The result is the value JSON.parse would give. Anything this does not
 * recognise (not a single mapping with one `items` list, a syntax error)
 * gives undefined, and the caller parses the text whole as before, with the
 * same errors.
 */
import type { KObject } from '../model/types';
import { shareWithinLimits } from './share';
import { itemSeparator, stringEnd } from './itemSeparator';

const QUOTE = 0x22,
  BACKSLASH = 0x5c,
  COMMA = 0x2c,
  COLON = 0x3a;
const OPEN_BRACE = 0x7b,
  CLOSE_BRACE = 0x7d,
  OPEN_BRACKET = 0x5b,
  CLOSE_BRACKET = 0x5d;

const isWs = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

function skipWs(text: string, i: number): number {
  while (i < text.length && isWs(text.charCodeAt(i))) i++;
  return i;
}

/** Whether text[from, to) holds a backslash (not lastIndexOf: from the List's last key, that searched the whole text back). */
function hasBackslash(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) === BACKSLASH) return true;
  return false;
}

/**
 * Where the value starting at `i` (inside a list) ends: just after its
 * closing bracket, or at the comma or bracket that follows a scalar; -1 when
 * the text ends first. Only brackets and strings are looked at: JSON.parse
 * judges the rest.
 */
function valueEnd(text: string, i: number): number {
  const n = text.length;
  let depth = 0;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      if (i === -1) return -1;
      if (depth === 0) return i + 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (depth === 0) return i;
      if (--depth === 0) return i + 1;
    } else if (c === COMMA && depth === 0) return i;
  }
  return -1;
}

/** Items whose guessed end was wrong, beyond which guessing is given up (it costs a parse each time). */
const MAX_MISSES = 64;

/**
 * Parses the items of the list opened just before `from` into `items`,
 * sharing each with the previous item of its kind, and in `withinLimits` at each
 * item's index whether sharing found it within the limits; the offset of the list's
 * closing bracket, or -1 when the list is not valid JSON.
 */
function parseItems(text: string, from: number, items: unknown[], withinLimits: boolean[]): number {
  const previous = new Map<unknown, KObject>();
  let separator: string | undefined;
  /** from a guessed item end to the next item's opening brace */
  let step = 0;
  /** where the separator occurs next, searched again once an item starts beyond it (-1: not searched yet) */
  let guess = -1;
  let misses = 0;
  let i = skipWs(text, from);
  if (text.charCodeAt(i) === CLOSE_BRACKET) return i;
  for (;;) {
    let item: unknown;
    let next = -1;
    if (separator !== undefined) {
      if (guess < i) guess = text.indexOf(separator, i);
      // none left: guessing stops for good, so the search is never repeated
      if (guess !== -1) {
        try {
          item = JSON.parse(text.slice(i, guess + 1));
          next = guess + step;
        } catch {
          if (++misses > MAX_MISSES) separator = undefined;
        }
      } else separator = undefined;
    }
    let close = -1;
    if (next === -1) {
      const end = valueEnd(text, i);
      if (end === -1) return -1;
      try {
        item = JSON.parse(text.slice(i, end));
      } catch {
        return -1;
      }
      const after = skipWs(text, end);
      const c = text.charCodeAt(after);
      if (c === CLOSE_BRACKET) close = after;
      else if (c !== COMMA) return -1;
      else {
        next = skipWs(text, after + 1);
        if (items.length === 0) {
          const guess = itemSeparator(text, end - 1, next);
          if (guess !== undefined && guess !== 'more') ({ text: separator, step } = guess);
        }
      }
    }
    let checked = false;
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) {
      const kind = (item as KObject).kind;
      const prev = previous.get(kind);
      if (prev) checked = shareWithinLimits(item as KObject, prev);
      previous.set(kind, item as KObject);
    }
    withinLimits.push(checked);
    items.push(item);
    if (close !== -1) return close;
    i = next;
  }
}

/**
 * `text` from `first` holds one JSON mapping with an `items` list: that
 * value, its items parsed one by one and shared; otherwise undefined.
 * `withinLimits` receives, by item index, whether sharing found the item within
 * the limits (model/limits.ts), which the loader then does not check again.
 */
export function parseListSharing(text: string, first: number, withinLimits: boolean[] = []): KObject | undefined {
  if (text.charCodeAt(first) !== OPEN_BRACE) return undefined;
  const n = text.length;
  let depth = 0;
  let itemsOpen = -1,
    itemsClose = -1;
  const items: unknown[] = [];
  let i = first;
  let end = -1;
  // the List's own keys and values, walked exactly; its items by parseItems
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const close = stringEnd(text, i);
      if (close === -1) return undefined;
      // an escape in a key or value of the List itself could spell "items" another way: leave that to JSON.parse
      if (depth === 1 && hasBackslash(text, i + 1, close)) return undefined;
      if (depth === 1 && close - i === 6 && text.startsWith('"items"', i)) {
        const colon = skipWs(text, close + 1);
        if (text.charCodeAt(colon) !== COLON) return undefined;
        const open = skipWs(text, colon + 1);
        if (text.charCodeAt(open) === OPEN_BRACKET) {
          if (itemsOpen !== -1) return undefined; // a second items key: JSON.parse keeps the last; leave it to JSON.parse
          itemsOpen = open;
          itemsClose = parseItems(text, open + 1, items, withinLimits);
          if (itemsClose === -1) return undefined;
          i = itemsClose + 1;
          continue;
        }
      }
      i = close + 1;
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      if (depth === 0) {
        end = i;
        break;
      } else if (depth < 0) return undefined;
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
  (root as KObject).items = items;
  return root as KObject;
}
