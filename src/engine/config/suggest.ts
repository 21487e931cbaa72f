/** "Did you mean": the closest candidate by edit distance (case-insensitive), if close enough. */
export function closest(input: string, candidates: readonly string[]): string | undefined {
  const a = input.toLowerCase();
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = distance(a, c.toLowerCase());
    // Ties go to the candidate of the closer length (a substitution is likelier than a dropped letter), then by name.
    const closer = best === undefined ? 0 : Math.abs(c.length - a.length) - Math.abs(best.length - a.length);
    if (d < bestD || (d === bestD && best !== undefined && (closer < 0 || (closer === 0 && c < best)))) { best = c; bestD = d; }
  }
  const limit = Math.max(2, Math.floor(a.length / 3));
  return bestD <= limit ? best : undefined;
}

/** Levenshtein distance with adjacent transpositions (optimal string alignment). */
export function distance(a: string, b: string): number {
  const m = a.length, n = b.length;
  const d: number[][] = Array.from({ length: m + 1 }, (_, i) => [i, ...Array(n).fill(0)]);
  for (let j = 1; j <= n; j++) d[0][j] = j;
  for (let i = 1; i <= m; i++) {
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[m][n];
}
