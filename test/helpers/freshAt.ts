/**
 * A fresh run's views at some passes, for the restore tests that go back and forth in another
 * simulation of the same scenario and check it against the fresh one at each place it lands.
 */
import assert from 'node:assert/strict';
import type { Simulation } from '../../src/engine/simulation/api';
import { traceToJsonLines } from '../../src/engine/trace/serialize';

/**
 * Steps `fresh` to each of `passes` (in order) and keeps `view` of it there and its trace; the check
 * returned asserts that `sim` shows the same views (each key apart) and trace as the fresh run at `n`.
 */
export function freshAt<S extends Simulation, V extends Record<string, string>>(
  fresh: S,
  passes: readonly number[],
  view: (sim: S) => V,
): (sim: S, n: number, where: string) => void {
  const at = new Map<number, { views: V; traceLength: number }>();
  for (const n of [...passes].sort((a, b) => a - b)) {
    fresh.goToPass(n);
    at.set(n, { views: view(fresh), traceLength: fresh.trace.length });
  }
  const lines = traceToJsonLines(fresh.trace).split('\n');
  return (sim, n, where) => {
    const want = at.get(n)!;
    const got = view(sim);
    for (const key of Object.keys(want.views)) assert.equal(got[key], want.views[key], `${key} ${where}`);
    assert.equal(traceToJsonLines(sim.trace), lines.slice(0, want.traceLength).join('\n') + '\n', `trace ${where}`);
  };
}
