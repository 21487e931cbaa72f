/**
 * Sharing between neighbouring objects of a snapshot, to keep a big cluster
 * small in memory.
 *
 * JSON.parse makes a new string for every value (all but the shortest:
 * bench/README.md) and a new object for every mapping, so 150,000 pods hold
 * 150,000 copies of "/dev/termination-log", of each image name, of the
 * default tolerations... Objects of one kind that follow each other in an
 * export are mostly alike (kubectl sorts by namespace and name, so the pods
 * of one ReplicaSet come together), so each object is compared, in step,
 * with the previous object of its kind: a string equal to the one at the
 * same place takes that one, and a mapping or list deep-equal to the one at
 * the same place (same keys in the same order) is replaced by it. The copies
 * become garbage. At 30,000 pods this keeps about 45 % less of the parsed
 * tree for about 15 % of JSON.parse's time (a table of every string seen
 * saved 31 % for 43 %).
 *
 * Nothing is lost: every object prints exactly as before. Parts of `raw`
 * may now be shared by several objects, which the engine already assumes
 * (records keep `raw` by reference and export shares it): `raw` trees are
 * read-only, and whoever changes an object builds a new one.
 *
 * The walk also answers whether the object is within the limits every
 * object is checked against (model/limits.ts: nesting depth, string length),
 * as validateObject would find: it has each part of the object at hand
 * already, and a second walk of the whole tree to check them cost about a
 * tenth of the load of 150,000 pods (shareWithinLimits).
 */
import { MAX_NESTING_DEPTH, MAX_STRING_LENGTH, withinLimits } from '../model/limits';

type Mapping = Record<string, unknown>;

/** Keys of the mapping being compared, as a stack (no array per mapping). */
const keyStack: string[] = [];
let top = 0;

/**
 * Shares the parts of `obj` that equal the parts of `prev` at the same
 * places; `obj` itself stays a distinct object. True when the two are
 * deep-equal with their keys in the same order.
 */
export function shareWithPrevious(obj: Mapping, prev: Mapping): boolean {
  left = MAX_VISITS;
  inLimits = true;
  return shareMapping(obj, prev, 0);
}

/**
 * shareWithPrevious, answering instead whether `obj` is within the nesting depth and string
 * length of model/limits.ts, exactly as findLimitViolation would answer of it (every part of
 * `obj` the sharing walk does not visit is checked apart): true lets the caller skip that check.
 */
export function shareWithinLimits(obj: Mapping, prev: Mapping): boolean {
  shareWithPrevious(obj, prev);
  return inLimits;
}

/**
 * Limits of one comparison. The walk recurses, so a deep input must not overflow the stack; and YAML
 * aliases can make a tree that refers to itself, whose walk would never end. A real object is a few
 * levels deep and has a few hundred mappings and lists at most.
 */
const MAX_DEPTH = 64;
const MAX_VISITS = 100_000;
let left = 0;
/** No part of the object walked so far breaks the limits (model/limits.ts). */
let inLimits = true;

/** Checks a part of the object at `depth` that the walk does not go into (the limits' own walk). */
function checkApart(x: unknown, depth: number): void {
  if (inLimits && !withinLimits(x, MAX_NESTING_DEPTH - depth, MAX_STRING_LENGTH, undefined)) inLimits = false;
}

/**
 * True when `x` and `y` are both lists, or both mappings, and `x` now deep-equals `y` (its parts
 * shared). `x` is at depth + 1, and is checked against the limits whether walked or not.
 */
function shareBelow(x: object, y: object, depth: number): boolean {
  if (depth >= MAX_DEPTH || --left < 0 || Array.isArray(x) !== Array.isArray(y)) {
    checkApart(x, depth + 1);
    return false;
  }
  return Array.isArray(x) ? shareList(x, y as unknown[], depth + 1) : shareMapping(x as Mapping, y as Mapping, depth + 1);
}

function shareMapping(o: Mapping, p: Mapping, depth: number): boolean {
  const start = top;
  let same = true;
  for (const k in o) {
    keyStack[top++] = k;
    if (k.length > MAX_STRING_LENGTH) inLimits = false;
    const x = o[k];
    const y = p[k];
    if (x === y) {
      if (typeof x === 'string') {
        if (x.length > MAX_STRING_LENGTH) inLimits = false;
        // equal strings are distinct copies: take the earlier one (a key "__proto__", an own property
        // from JSON.parse, would set the prototype if assigned)
        if (k !== '__proto__') o[k] = y;
        // the very same mapping or list in both (YAML aliases) was not necessarily checked
      } else if (typeof x === 'object' && x !== null) checkApart(x, depth + 1);
    } else if (typeof x === 'object' && x !== null) {
      if (typeof y === 'object' && y !== null && shareBelow(x, y, depth)) {
        if (k !== '__proto__') o[k] = y;
      } else {
        if (typeof y !== 'object' || y === null) checkApart(x, depth + 1);
        same = false;
      }
    } else {
      if (typeof x === 'string' && x.length > MAX_STRING_LENGTH) inLimits = false;
      same = false;
    }
  }
  if (same) {
    // same keys in the same order, or the shared copy would print differently
    let i = start;
    for (const k in p) {
      if (i === top || keyStack[i] !== k) {
        same = false;
        break;
      }
      i++;
    }
    if (i !== top) same = false;
  }
  top = start;
  return same;
}

function shareList(o: unknown[], p: unknown[], depth: number): boolean {
  let same = o.length === p.length;
  const n = same ? o.length : Math.min(o.length, p.length);
  for (let i = 0; i < n; i++) {
    const x = o[i];
    const y = p[i];
    if (x === y) {
      if (typeof x === 'string') {
        if (x.length > MAX_STRING_LENGTH) inLimits = false;
        o[i] = y;
      } else if (typeof x === 'object' && x !== null) checkApart(x, depth + 1);
    } else if (typeof x === 'object' && x !== null) {
      if (typeof y === 'object' && y !== null && shareBelow(x, y, depth)) o[i] = y;
      else {
        if (typeof y !== 'object' || y === null) checkApart(x, depth + 1);
        same = false;
      }
    } else {
      if (typeof x === 'string' && x.length > MAX_STRING_LENGTH) inLimits = false;
      same = false;
    }
  }
  // the items beyond the previous list's end are not compared
  for (let i = n; i < o.length; i++) checkApart(o[i], depth + 1);
  return same;
}
