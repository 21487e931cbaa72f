/**
 * The fuzzer's minimiser runs in the fuzzer's own process on inputs made to break things: it
 * must shrink a case while it still fails, stay within its tries, and never overflow its stack
 * (a 10,000-case run once died on that, before writing its reproducers).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FuzzCase } from './cases';
import { minimise, nestingOf } from './minimise';

const scenario = (events: string[], extra = ''): FuzzCase => ({
  id: 1,
  recipe: [],
  entry: '/case/scenario.yaml',
  horizonSeconds: 600,
  files: {
    '/case/scenario.yaml': `apiVersion: controllerstepper.io/v1alpha1\nkind: Scenario\nsnapshot: ./snap.yaml\nevents:\n${events.map((e) => `  - ${e}\n`).join('')}${extra}`,
    '/case/snap.yaml': 'kind: List\nitems: []\n',
    '/case/unused.yaml': 'kind: List\nitems: []\n',
  },
});

const deep = (n: number) => `{at: 1s, patch: {object: Node/a, merge: {status: ${'{"a":'.repeat(n)}1${'}'.repeat(n)}}}}`;

test('nestingOf counts flow brackets and block indentation in one pass', () => {
  const cases: { name: string; text: string; want: number }[] = [
    { name: 'flat text', text: 'a: 1\nb: 2\n', want: 0 },
    { name: 'block indentation, two spaces a level', text: 'a:\n  b:\n    c: 1\n', want: 2 },
    { name: 'flow nesting', text: 'a: [[{x: [1]}]]\n', want: 4 },
    { name: 'a closing bracket too many does not go below zero', text: ']] [1]\n', want: 1 },
    { name: '200,000 levels, without recursion', text: `${'['.repeat(200_000)}${']'.repeat(200_000)}`, want: 200_000 },
  ];
  for (const c of cases) assert.equal(nestingOf(c.text), c.want, c.name);
});

test('the minimiser keeps only what the failure needs', async () => {
  const c = scenario(['{at: 1s, kubelet: stop, nodes: [a]}', '{at: 2s, kubelet: start, nodes: [BUG]}', '{at: 3s, kubelet: stop, nodes: [b]}']);
  const small = await minimise(c, async (k) => k.files[k.entry].includes('BUG'), { tries: 100, millis: 60_000 });
  const text = small.files[small.entry];
  assert.match(text, /BUG/);
  assert.doesNotMatch(text, /nodes:\s*\n?\s*-?\s*\[?a\b/, 'the first event is gone');
  assert.doesNotMatch(text, /\bb\b\]?\s*$/m, 'the last event is gone');
  assert.equal(small.files['/case/unused.yaml'], undefined, 'a file the scenario does not name is dropped');
});

test('the minimiser stops at its number of tries', async () => {
  for (const tries of [0, 1, 5, 17]) {
    let calls = 0;
    const c = scenario(Array.from({ length: 30 }, (_, i) => `{at: ${i}s, kubelet: stop, nodes: [n${i}]}`));
    await minimise(
      c,
      async () => {
        calls++;
        return false;
      },
      { tries, millis: 60_000 },
    );
    assert.equal(calls, tries, `limit ${tries}`);
  }
});

test('a case nested far beyond any stack is minimised without overflowing it', async () => {
  const cases: { name: string; c: FuzzCase }[] = [
    { name: 'a deep patch in an event', c: scenario(['{at: 1s, kubelet: stop, nodes: [a]}', deep(100_000)]) },
    { name: 'a deep value after the events', c: scenario(['{at: 1s, kubelet: stop, nodes: [a]}'], `deep: ${'['.repeat(100_000)}1${']'.repeat(100_000)}\n`) },
  ];
  for (const { name, c } of cases) {
    let calls = 0;
    const small = await minimise(
      c,
      async (k) => {
        calls++;
        return k.files[k.entry].includes('{"a":{"a":') || k.files[k.entry].includes('[[[');
      },
      { tries: 40, millis: 60_000 },
    );
    assert.ok(calls > 0, `${name}: tried`);
    assert.ok(small.files[small.entry].length > 0, name);
  }
});
