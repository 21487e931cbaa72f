/**
 * "Did you mean" against the plain rule: every candidate's whole distance, the least within
 * the limit, ties to the closer length and then by name. The prepared search skips most
 * candidates and most of each distance; it must still answer as the plain rule does.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_SUGGEST_LENGTH, closest, distance, namesStartingWith } from '../../../src/engine/config/suggest';
import { mulberry32 } from '../../helpers/random';

function plainRule(input: string, candidates: readonly string[]): string | undefined {
  if (input.length > MAX_SUGGEST_LENGTH) return undefined;
  const a = input.toLowerCase();
  const limit = Math.max(2, Math.floor(a.length / 3));
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    if (c.length > MAX_SUGGEST_LENGTH) continue;
    const d = distance(a, c.toLowerCase());
    if (d > limit) continue;
    const gap = Math.abs(c.length - a.length);
    if (
      best === undefined ||
      d < bestD ||
      (d === bestD && (gap < Math.abs(best.length - a.length) || (gap === Math.abs(best.length - a.length) && c < best)))
    ) {
      best = c;
      bestD = d;
    }
  }
  return best;
}

/** Node names as clouds write them, which differ in a few digits: the hard case for any shortcut. */
function cloudNames(r: () => number, n: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(`ip-10-${Math.floor(r() * 4)}-${Math.floor(r() * 256)}-${Math.floor(r() * 256)}.ec2.internal`);
  return out;
}

/** A typo: a letter changed, dropped, added, two swapped, or the case changed. */
function typo(r: () => number, w: string): string {
  const i = Math.floor(r() * (w.length + 1));
  const ch = 'abcdexyz-.0123456789'[Math.floor(r() * 20)];
  switch (Math.floor(r() * 5)) {
    case 0:
      return w.slice(0, i) + ch + w.slice(i + 1);
    case 1:
      return w.slice(0, i) + w.slice(i + 1);
    case 2:
      return w.slice(0, i) + ch + w.slice(i);
    case 3:
      return i + 1 < w.length ? w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2) : w;
    default:
      return w.toUpperCase();
  }
}

test('"did you mean" answers as the plain rule does', () => {
  const cases: { name: string; seed: number; list: (r: () => number) => string[]; words: number }[] = [
    { name: 'cloud node names, typed with one to three typos', seed: 1, list: (r) => cloudNames(r, 400), words: 300 },
    {
      name: 'short names that tie often',
      seed: 2,
      list: () => ['node-a1', 'node-a2', 'node-b1', 'node-b12', 'Node-A1', 'nodea1', 'a', 'ab', 'ba', ''],
      words: 300,
    },
    {
      name: 'names of every length up to the cap and beyond',
      seed: 3,
      list: (r) => Array.from({ length: 200 }, (_, i) => 'x'.repeat(i % 140) + String(Math.floor(r() * 100))),
      words: 200,
    },
    {
      name: 'references with a kind and a namespace',
      seed: 4,
      list: (r) => Array.from({ length: 300 }, () => `Pod/default/web-7d9f-${Math.floor(r() * 36 ** 5).toString(36)}`),
      words: 300,
    },
  ];
  for (const c of cases) {
    const r = mulberry32(c.seed);
    const names = c.list(r);
    for (let i = 0; i < c.words; i++) {
      let w = names.length && r() < 0.8 ? names[Math.floor(r() * names.length)] : cloudNames(r, 1)[0];
      for (let t = Math.floor(r() * 4); t > 0; t--) w = typo(r, w);
      assert.equal(closest(w, names), plainRule(w, names), `${c.name}: ${JSON.stringify(w)}`);
    }
  }
});

test('"did you mean" at the edges of the limit', () => {
  const cases: { name: string; input: string; names: string[]; want: string | undefined }[] = [
    { name: 'two letters added, as many as the limit allows', input: 'node-a', names: ['node-a12'], want: 'node-a12' },
    { name: 'two letters dropped', input: 'node-a12', names: ['node-a'], want: 'node-a' },
    { name: 'three letters added, beyond the limit', input: 'node-a', names: ['node-a123'], want: undefined },
    { name: 'a closer distance wins over a closer length', input: 'node-a1', names: ['node-b2', 'node-a12'], want: 'node-a12' },
    { name: 'at one distance, the closer length wins', input: 'node-a1', names: ['node-a10', 'node-b1'], want: 'node-b1' },
    { name: 'at one distance and length, the first by name', input: 'node-a1', names: ['node-c1', 'node-b1'], want: 'node-b1' },
    { name: 'a transposition is one edit', input: 'ndoe-a1', names: ['node-a1', 'nxde-a1'], want: 'node-a1' },
    { name: 'case does not count', input: 'NODE-A1', names: ['node-a1'], want: 'node-a1' },
    { name: 'an empty word against short names', input: '', names: ['a', 'ab', 'abc'], want: 'a' },
    { name: 'nothing to choose from', input: 'node-a1', names: [], want: undefined },
  ];
  for (const c of cases) assert.equal(closest(c.input, c.names), c.want, c.name);
});

test('"did you mean" answers the same about one list asked many times, and about a copy of it', () => {
  const names = cloudNames(mulberry32(5), 1000);
  const words = ['ip-10-1-2-3.ec2.internl', 'IP-10-0-17-119.EC2.INTERNAL', 'nothing-like-it', ''];
  const first = words.map((w) => closest(w, names));
  assert.deepEqual(
    words.map((w) => closest(w, names)),
    first,
  );
  assert.deepEqual(
    words.map((w) => closest(w, [...names])),
    first,
  );
});

test('the names of a set with a prefix are one array until the set grows', () => {
  const set = new Set(['Pod/a/x', 'Pod/a/y', 'Node/n1']);
  const pods = namesStartingWith(set, 'Pod/');
  assert.deepEqual([...pods], ['Pod/a/x', 'Pod/a/y']);
  assert.equal(namesStartingWith(set, 'Pod/'), pods, 'kept while the set is as it was');
  assert.deepEqual([...namesStartingWith(set, 'Node/')], ['Node/n1']);
  set.add('Pod/a/z');
  assert.deepEqual([...namesStartingWith(set, 'Pod/')], ['Pod/a/x', 'Pod/a/y', 'Pod/a/z'], 'a name added is a candidate');
});
