/**
 * `npx tsx bench/suggest.ts [--nodes N] [--pods-per-node N] [--names K]`: what "did you mean"
 * costs per unknown name (issue 17), measured two ways in one run on a generated cluster:
 *
 *  - the search alone: each of K mistyped and K unrelated names against the cluster's node
 *    names and its pod references, prepared search (src/engine/config/suggest.ts) against the
 *    plain rule (every candidate's whole distance), with the same answers checked;
 *  - the loader: a scenario whose events name K unknown nodes and K unknown pods, against the
 *    same scenario with known names; the difference over 2K is the cost of one unknown name as
 *    `validate` and the editor pay it (the first unknown name of a kind also pays for preparing
 *    the candidates, printed on its own).
 *
 * Medians of 5 runs, in this process; figures, not targets (docs/limits-and-fuzzing.md).
 */
import { performance } from 'node:perf_hooks';
import { closest, distance, MAX_SUGGEST_LENGTH, Vocabulary } from '../src/engine/config/suggest';
import { generateClusterStream, listChunks } from '../src/engine/generate/index';
import { loadScenario } from '../src/engine/snapshot/scenario';
import { MemoryFs } from '../src/engine/snapshot/source';

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  const v = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(v) || v <= 0) throw new Error(`${name} wants a whole number above 0`);
  return v;
}

const nodes = option('--nodes', 5000);
const podsPerNode = option('--pods-per-node', 10);
const count = option('--names', 20);

/** The rule before it was prepared: every candidate's whole distance (kept here as the baseline). */
function plainRule(input: string, candidates: readonly string[]): string | undefined {
  if (input.length > MAX_SUGGEST_LENGTH) return undefined;
  const a = input.toLowerCase();
  const limit = Math.max(2, Math.floor(a.length / 3));
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    if (Math.abs(c.length - a.length) > limit || c.length > MAX_SUGGEST_LENGTH) continue;
    const d = distance(a, c.toLowerCase(), Math.min(limit, bestD));
    const gap = Math.abs(c.length - a.length);
    if (
      d < bestD ||
      (d === bestD && best !== undefined && (gap < Math.abs(best.length - a.length) || (gap === Math.abs(best.length - a.length) && c < best)))
    ) {
      best = c;
      bestD = d;
    }
  }
  return bestD <= limit ? best : undefined;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

function timed(f: () => void, runs = 5): number {
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    f();
    ms.push(performance.now() - t);
  }
  return median(ms);
}

/** A letter changed in the middle and one dropped near the end: two edits, as a hand types them. */
const mistype = (w: string): string => {
  const i = w.length >> 1;
  return `${w.slice(0, i)}${w[i] === 'x' ? 'y' : 'x'}${w.slice(i + 1, -3)}${w.slice(-2)}`;
};

const stream = generateClusterStream({ nodes, podsPerNode, zones: 3, detail: 'lean', seed: 'suggest-bench' });
let snapshot = '';
for (const chunk of listChunks(stream.items, 'json', 0)) snapshot += chunk;
const base = loadScenario(
  '/b/scenario.yaml',
  new MemoryFs({ '/b/snap.json': snapshot, '/b/scenario.yaml': 'apiVersion: controllerstepper.io/v1alpha1\nkind: Scenario\nsnapshot: ./snap.json\n' }),
);
const nodeNames = [...base.snapshot.cluster.nodes.keys()];
const podRefs = [...base.snapshot.cluster.pods.keys()].map((k) => `Pod/${k}`);
const pick = (xs: string[], i: number): string => xs[Math.floor((i * xs.length) / count)]!;
const mistypedNodes = Array.from({ length: count }, (_, i) => mistype(pick(nodeNames, i)));
const mistypedPods = Array.from({ length: count }, (_, i) => mistype(pick(podRefs, i)));
const unrelated = Array.from({ length: count }, (_, i) => `no-such-node-${i}`);

process.stdout.write(`did-you-mean: ${nodeNames.length} nodes, ${podRefs.length} pods, ${count} names of each kind (medians of 5)\n`);
for (const [what, words, list] of [
  ['mistyped node', mistypedNodes, nodeNames],
  ['unrelated name vs nodes', unrelated, nodeNames],
  ['mistyped pod', mistypedPods, podRefs],
] as const) {
  for (const w of words)
    if (closest(w, list) !== plainRule(w, list))
      throw new Error(`${what} ${w}: the prepared search answers ${closest(w, list)}, the plain rule ${plainRule(w, list)}`);
  const prepared =
    timed(() => {
      for (const w of words) closest(w, list);
    }) / words.length;
  const plain =
    timed(() => {
      for (const w of words) plainRule(w, list);
    }, 3) / words.length;
  process.stdout.write(
    `  ${what.padEnd(24)} prepared ${prepared.toFixed(3)} ms/name   plain rule ${plain.toFixed(3)} ms/name   (${(plain / prepared).toFixed(0)}x)\n`,
  );
}

for (const [what, list] of [
  ['node names', nodeNames],
  ['pod references', podRefs],
] as const) {
  process.stdout.write(
    `  preparing the ${list.length} ${what} once: ${timed(() => {
      new Vocabulary(list);
    }).toFixed(1)} ms\n`,
  );
}

const scenarioWith = (nodesNamed: string[], podsNamed: string[]): string =>
  [
    'apiVersion: controllerstepper.io/v1alpha1',
    'kind: Scenario',
    'snapshot: ./snap.json',
    'events:',
    ...nodesNamed.map((n, i) => `  - {at: ${i + 1}s, kubelet: stop, nodes: [${JSON.stringify(n)}]}`),
    ...podsNamed.map((p, i) => `  - {at: ${i + 1}s, delete: ${JSON.stringify(p)}}`),
    '',
  ].join('\n');
const load = (text: string) => () => {
  loadScenario('/b/scenario.yaml', new MemoryFs({ '/b/snap.json': snapshot, '/b/scenario.yaml': text }));
};
const known = timed(load(scenarioWith(nodeNames.slice(0, count), podRefs.slice(0, count))));
const unknown = timed(load(scenarioWith(mistypedNodes, mistypedPods)));
process.stdout.write(
  `  loading a scenario: ${known.toFixed(0)} ms with ${2 * count} known names, ${unknown.toFixed(0)} ms with ${2 * count} unknown: ${((unknown - known) / (2 * count)).toFixed(2)} ms per unknown name\n`,
);
