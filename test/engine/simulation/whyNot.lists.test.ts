/**
 * A why-not's lists of pods are cut at 20 in the check's values ("and N more") and kept whole in
 * `WhyNot.lists`: the ReplicaSet's replacement waiting on not-ready pods or pods on failing nodes,
 * and a scale-down's pods deleted. The text answer stays short; `explain --format json` has every
 * name, and `explain --lists` prints them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import type { KObject } from '../../../src/engine/model/types';
import type { WhyNot } from '../../../src/engine/trace/whyNot';
import { node, pod, replicaSet, scenarioOf, type EventSpec } from '../../helpers/scenario';
import { runCli } from '../../helpers/cliRun';

const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-rs-default-web', controller: true };
const names = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `web-${String(i + from).padStart(2, '0')}`);

/** `notReady` pods of web with Ready=False on n1, `onFailing` ready ones on n2 (whose kubelet the timeline stops), `ready` on n3. */
function objects(notReady: number, onFailing: number, ready: number): KObject[] {
  const pods = [
    ...names(notReady).map((n) => {
      const p = pod('default', n, 'n1', { labels: { app: 'web' }, owner });
      (p.status as { conditions: unknown[] }).conditions = [{ type: 'Ready', status: 'False', lastTransitionTime: '2025-12-31T23:59:00Z' }];
      return p;
    }),
    ...names(onFailing, notReady).map((n) => pod('default', n, 'n2', { labels: { app: 'web' }, owner })),
    ...names(ready, notReady + onFailing).map((n) => pod('default', n, 'n3', { labels: { app: 'web' }, owner })),
  ];
  return [node('n1'), node('n2'), node('n3'), replicaSet('default', 'web', notReady + onFailing + ready, { app: 'web' }), ...pods];
}

const replacement = (ws: WhyNot[]) => ws.find((w) => w.outcome === 'ReplicaSetPodsCreated');
const podsOf = (list: unknown[]) => list.map((x) => (typeof x === 'string' ? x : (x as { pod: string }).pod));

const cases: { name: string; notReady: number; onFailing: number; cut: string[] }[] = [
  { name: '25 not ready: 20 named, "and 5 more", all 25 in lists', notReady: 25, onFailing: 0, cut: ['notReadyPods'] },
  { name: '3 not ready, 23 on a failing node: the second list cut alone', notReady: 3, onFailing: 23, cut: ['onFailingNodes'] },
  { name: '20 not ready: nothing cut, no lists', notReady: 20, onFailing: 0, cut: [] },
];

for (const c of cases) {
  test(`ReplicaSet replacement why-not: ${c.name}`, () => {
    const sim = createSimulation(
      scenarioOf({
        objects: objects(c.notReady, c.onFailing, 2),
        events: c.onFailing ? [{ at: '1m', kind: 'kubelet', action: 'stop', target: { nodes: ['n2'] } } as EventSpec] : [],
      }),
    );
    sim.runUntil(sim.startTime + 10e6);
    const w = replacement(sim.explain('ReplicaSet/default/web').whyNot);
    assert.ok(w, 'a replacement why-not');
    const values = w.blocking!.values!;
    for (const [key, n, from] of [
      ['notReadyPods', c.notReady, 0],
      ['onFailingNodes', c.onFailing, c.notReady],
    ] as const) {
      if (!n) continue;
      const shown = values[key] as unknown[];
      const all = names(n, from).map((x) => `default/${x}`);
      if (c.cut.includes(key)) {
        assert.equal(shown.length, 21, `${key}: 20 named and a count`);
        assert.equal(shown[20], `and ${n - 20} more`);
        assert.deepEqual(podsOf(shown.slice(0, 20)), all.slice(0, 20));
        assert.deepEqual(podsOf(w.lists![key]!), all, `${key}: every name in lists`);
      } else {
        assert.deepEqual(podsOf(shown), all);
        assert.equal(w.lists?.[key], undefined);
      }
    }
    if (!c.cut.length) assert.equal(w.lists, undefined);
  });
}

test('explain: the text cuts the list and says how to get it whole; --lists prints every name; JSON has lists', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-lists-'));
  try {
    const file = join(dir, 'cluster.json');
    writeFileSync(file, JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects(25, 0, 2) }));
    const args = [file, '--object', 'ReplicaSet/default/web', '--until', '10s'];
    const text = await runCli('explain', ...args);
    assert.equal(text.code, 0, text.err);
    assert.match(text.out, /"and 5 more"/);
    assert.ok(!text.out.includes('default/web-24'), 'the text names 20');
    assert.match(text.out, /--lists prints every one/);
    const whole = await runCli('explain', ...args, '--lists');
    assert.equal(whole.code, 0, whole.err);
    for (const n of names(25)) assert.ok(whole.out.includes(`default/${n}"`), `--lists names ${n}`);
    assert.ok(!whole.out.includes('more"'), 'no count left');
    assert.ok(!whole.out.includes('--lists prints'), 'no hint when whole');
    const json = await runCli('explain', ...args, '--format', 'json');
    const w = replacement(JSON.parse(json.out).whyNot as WhyNot[]);
    assert.deepEqual(
      podsOf(w!.lists!.notReadyPods!),
      names(25).map((x) => `default/${x}`),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
