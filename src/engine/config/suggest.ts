/**
 * "Did you mean": the closest candidate by edit distance (case-insensitive), if close enough.
 *
 * Bounded work whatever the input: a word longer than MAX_SUGGEST_LENGTH gets no suggestion
 * (nobody mistypes 3 MB). The candidates of a list are prepared once, in lower case and in
 * sorted order, so neighbours share their first letters (node names mostly differ in their
 * last ones): the distance's rows for a shared beginning are computed once, and once a
 * beginning is further than the best distance found so far from every beginning of the word,
 * every candidate that starts with it is passed over at one comparison each. So an unknown
 * name against 5,000 nodes computes a few hundred rows, not 5,000 whole distances
 * (docs/limits-and-fuzzing.md has the figures).
 */
export const MAX_SUGGEST_LENGTH = 128;

export function closest(input: string, candidates: readonly string[]): string | undefined {
  let v = prepared.get(candidates);
  if (!v) {
    v = new Vocabulary(candidates);
    prepared.set(candidates, v);
  }
  return v.closest(input);
}

/** The lists already prepared: a caller that asks about many names against one list keeps the array. */
const prepared = new WeakMap<readonly string[], Vocabulary>();

interface Candidate {
  word: string;
  lower: string;
}

/** Candidates of one length (in lower case), sorted, each with the beginning it shares with the one before. */
interface LengthGroup {
  sorted: Candidate[];
  /** shared[i]: letters sorted[i] has in common at its start with sorted[i - 1] */
  shared: Int32Array;
}

const byLower = (x: Candidate, y: Candidate): number => (x.lower < y.lower ? -1 : x.lower > y.lower ? 1 : x.word < y.word ? -1 : x.word > y.word ? 1 : 0);

/** Candidates prepared for many questions: by length, and sorted within a length. */
export class Vocabulary {
  private readonly groups = new Map<number, LengthGroup>();
  private readonly longest: number;

  constructor(words: readonly string[]) {
    const byLength = new Map<number, Candidate[]>();
    let longest = 0;
    for (const word of words) {
      if (word.length > MAX_SUGGEST_LENGTH) continue;
      const lower = word.toLowerCase();
      let list = byLength.get(lower.length);
      if (!list) byLength.set(lower.length, (list = []));
      list.push({ word, lower });
      if (lower.length > longest) longest = lower.length;
    }
    for (const [length, list] of byLength) {
      const sorted = list.sort(byLower);
      const shared = new Int32Array(sorted.length);
      for (let i = 1; i < sorted.length; i++) {
        const c = sorted[i].lower,
          p = sorted[i - 1].lower;
        let k = 0;
        while (k < c.length && c.charCodeAt(k) === p.charCodeAt(k)) k++;
        shared[i] = k;
      }
      this.groups.set(length, { sorted, shared });
    }
    this.longest = longest;
  }

  /**
   * The candidate at the least distance within the limit; ties go to the candidate of the
   * closer length (a substitution is likelier than a dropped letter), then by name.
   */
  closest(input: string): string | undefined {
    if (input.length > MAX_SUGGEST_LENGTH) return undefined;
    const a = input.toLowerCase();
    const limit = Math.max(2, Math.floor(a.length / 3));
    // most typos are one or two edits: a small bound rules out most beginnings within a letter
    // or two, so the bound grows only while nothing is found within it
    for (let bound = 1; bound <= limit; bound++) {
      const found = this.within(a, bound);
      if (found) return found.word;
    }
    return undefined;
  }

  /** The closest candidate at a distance of at most `bound`, by the tie rule; undefined if none is. */
  private within(a: string, bound: number): Candidate | undefined {
    const m = a.length;
    const width = m + 1;
    let rows: Int32Array | undefined;
    let rowMin: Int32Array | undefined;
    let best: Candidate | undefined;
    let bestD = bound + 1;
    let bestGap = 0;
    // a length further from the word's than the bound holds nothing within it
    for (let length = Math.max(0, m - bound); length <= m + bound; length++) {
      const group = this.groups.get(length);
      if (!group) continue;
      // rows[k]: the distances from each beginning of `a` to the first k letters of the candidate on hand
      rows ??= new Int32Array((this.longest + 1) * width);
      rowMin ??= new Int32Array(this.longest + 1);
      for (let j = 0; j <= m; j++) rows[j] = j;
      let valid = 0;
      const { sorted, shared } = group;
      for (let i = 0; i < sorted.length; i++) {
        valid = Math.min(valid, shared[i]);
        const cut = Math.min(bound, bestD);
        if (Math.abs(length - m) > cut) break;
        // the distance never falls from one row to the next: a beginning already too far rules out the candidate
        if (valid > 0 && rowMin[valid] > cut) continue;
        const c = sorted[i];
        for (let k = valid + 1; k <= length; k++) {
          rowMin[k] = nextRow(rows, k, width, a, c.lower);
          valid = k;
          if (rowMin[k] > cut) break;
        }
        if (valid < length || rowMin[length] > cut) continue;
        const d = rows[length * width + m];
        if (d > cut) continue;
        const gap = Math.abs(c.word.length - m);
        if (d < bestD || gap < bestGap || (gap === bestGap && c.word < best!.word)) {
          best = c;
          bestD = d;
          bestGap = gap;
        }
      }
    }
    return best;
  }
}

/**
 * Row k of the optimal string alignment distance between `a` and `b`'s first k letters, from
 * rows k - 1 and k - 2; returns the row's least value.
 */
function nextRow(rows: Int32Array, k: number, width: number, a: string, b: string): number {
  const here = k * width,
    up = here - width,
    up2 = up - width;
  const bk = b.charCodeAt(k - 1);
  const bk1 = k > 1 ? b.charCodeAt(k - 2) : -1;
  rows[here] = k;
  let least = k;
  for (let j = 1; j < width; j++) {
    const aj = a.charCodeAt(j - 1);
    let d = Math.min(rows[up + j] + 1, rows[here + j - 1] + 1, rows[up + j - 1] + (aj === bk ? 0 : 1));
    if (k > 1 && j > 1 && aj === bk1 && a.charCodeAt(j - 2) === bk) d = Math.min(d, rows[up2 + j - 2] + 1);
    rows[here + j] = d;
    if (d < least) least = d;
  }
  return least;
}

/**
 * Levenshtein distance with adjacent transpositions (optimal string alignment), over three
 * rolling rows. With `atMost`, any answer above it is reported as `atMost + 1` as soon as a
 * whole row exceeds it (the distance never falls again).
 */
export function distance(a: string, b: string, atMost = Infinity): number {
  const m = a.length,
    n = b.length;
  if (Math.abs(m - n) > atMost) return atMost + 1;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  let cur = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= m; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > atMost) return atMost + 1;
    [prev2, prev, cur] = [prev, cur, prev2];
  }
  return prev[n];
}

const byPrefix = new WeakMap<ReadonlySet<string>, { size: number; lists: Map<string, string[]> }>();

/**
 * The names in `set` that start with `prefix` (the candidates for a reference such as
 * `Pod/ns/name`), the same array each time while the set has not grown, so that `closest`
 * prepares them once for every unknown reference instead of once each. Sets handed here only
 * ever grow (names known so far, and those later events create).
 */
export function namesStartingWith(set: ReadonlySet<string>, prefix: string): readonly string[] {
  let cache = byPrefix.get(set);
  if (!cache || cache.size !== set.size) byPrefix.set(set, (cache = { size: set.size, lists: new Map() }));
  let list = cache.lists.get(prefix);
  if (!list) {
    list = [];
    for (const name of set) if (name.startsWith(prefix)) list.push(name);
    cache.lists.set(prefix, list);
  }
  return list;
}
