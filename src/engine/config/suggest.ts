/**
 * "Did you mean": the closest candidate by edit distance (case-insensitive), if close enough.
 *
 * Bounded work whatever the input: a word longer than MAX_SUGGEST_LENGTH gets no suggestion
 * (nobody mistypes 3 MB), a candidate whose length alone puts it out of reach is skipped, and
 * the distance stops as soon as it exceeds the limit. So a scenario with many unknown names
 * against 5,000 nodes costs little more than reading the names.
 */
export const MAX_SUGGEST_LENGTH = 128;

export function closest(input: string, candidates: readonly string[]): string | undefined {
  if (input.length > MAX_SUGGEST_LENGTH) return undefined;
  const a = input.toLowerCase();
  const limit = Math.max(2, Math.floor(a.length / 3));
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    if (Math.abs(c.length - a.length) > limit || c.length > MAX_SUGGEST_LENGTH) continue;
    const d = distance(a, c.toLowerCase(), Math.min(limit, bestD));
    // Ties go to the candidate of the closer length (a substitution is likelier than a dropped letter), then by name.
    const closer = best === undefined ? 0 : Math.abs(c.length - a.length) - Math.abs(best.length - a.length);
    if (d < bestD || (d === bestD && best !== undefined && (closer < 0 || (closer === 0 && c < best)))) { best = c; bestD = d; }
  }
  return bestD <= limit ? best : undefined;
}

/**
 * Levenshtein distance with adjacent transpositions (optimal string alignment), over three
 * rolling rows. With `atMost`, any answer above it is reported as `atMost + 1` as soon as a
 * whole row exceeds it (the distance never falls again).
 */
export function distance(a: string, b: string, atMost = Infinity): number {
  const m = a.length, n = b.length;
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
