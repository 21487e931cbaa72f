/**
 * A NoExecute taint the timeline adds at the same instant as a kubelet stop (another node's, or its own
 * node's, as a zone's outage and a maintenance taint written together): the taint eviction controller
 * deletes the pods that do not tolerate it at that instant (or when their toleration runs out), so the
 * pod's answer and its ReplicaSet's replacement are named from the taint. On main the first event of the
 * instant hid the taint (a pod on the node said its node's own taint, minutes or an hour later), and the
 * replacement did not count a pod on a node the timeline taints among the pods it waits for, nor a pod
 * the timeline deletes at the stop's instant (web-7d9f-6wlhb, on the node whose kubelet stops).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { whyNotOfControllers } from '../../../src/engine/simulation/explain';
import { nodeFs } from '../../../src/platform/nodeFs';
import { seconds } from '../../../src/engine/model/time';
import type { Scenario } from '../../../src/engine/snapshot/types';
import { audit, missText, unsoundText } from '../../helpers/whyNotAudit';

type Event = Scenario['events'][number];
const T = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString();
const taint = (node: string) =>
  ({ kind: 'taint', target: { nodes: [node] }, taint: { key: 'example.com/maint', effect: 'NoExecute' } }) as Omit<Event, 'at' | 'index'>;
const stop = (node: string) => ({ kind: 'kubelet', action: 'stop', target: { nodes: [node] } }) as Omit<Event, 'at' | 'index'>;

/** toleration-seconds (node-a1's kubelet stops at +30s; web-7d9f-gszhb runs on node-a2) with these events added. */
function withEvents(events: [number, Omit<Event, 'at' | 'index'>][]): Scenario {
  const sc = loadScenario(join('examples', 'toleration-seconds.yaml'), nodeFs());
  const all: Event[] = [...sc.events];
  for (const [at, e] of events) all.push({ ...e, at: { offset: seconds(at) }, index: all.length } as Event);
  return { ...sc, events: all };
}

const cases: { name: string; events: [number, Omit<Event, 'at' | 'index'>][]; object: string; outcome: string; said: { at: number; if: RegExp } }[] = [
  {
    name: "a pod on a node the timeline stops and taints at the same instant: deleted at the taint's instant",
    events: [
      [30, stop('node-a2')],
      [30, taint('node-a2')],
    ],
    object: 'Pod/default/web-7d9f-gszhb',
    outcome: 'PodDeletedByTaintEviction',
    said: { at: 30, if: /^the timeline taints Node\/node-a2 with example\.com\/maint:NoExecute at / },
  },
  {
    name: "the ReplicaSet's replacement waits for that pod too: made at the taint's instant",
    events: [[30, taint('node-a2')]],
    object: 'ReplicaSet/default/web-7d9f',
    outcome: 'ReplicaSetPodsCreated',
    said: { at: 30, if: /^the timeline taints Node\/node-a2 with example\.com\/maint:NoExecute at / },
  },
  {
    name: "a pod of it the timeline deletes at the kubelet stop's instant is one of the deletions the replacement waits for",
    events: [[30, { kind: 'delete', ref: 'Pod/default/web-7d9f-6wlhb' } as Omit<Event, 'at' | 'index'>]],
    object: 'ReplicaSet/default/web-7d9f',
    outcome: 'ReplicaSetPodsCreated',
    said: { at: 30, if: /^the timeline deletes Pod\/default\/web-7d9f-6wlhb at / },
  },
];

for (const c of cases) {
  test(`same instant: ${c.name}`, () => {
    const sc = withEvents(c.events);
    const sim = createSimulation(sc);
    sim.runUntil(sim.startTime + seconds(10));
    const w = whyNotOfControllers(sim, c.object).find((x) => x.outcome === c.outcome);
    assert.ok(w, 'answered');
    assert.equal(w.conditional?.at, T(c.said.at), JSON.stringify({ rule: w.check.rule, c: w.conditional, at: w.wouldFireAt }));
    assert.match(w.conditional!.if, c.said.if);
    sim.runUntil(sim.startTime + seconds(120));
    const [kind, ns, name] = c.object.split('/');
    const d = sim.trace.find((x) =>
      kind === 'Pod' ? x.action === 'PodEvicted' && x.object === c.object : x.action === 'PodsCreated' && x.object === `ReplicaSet/${ns}/${name}`,
    );
    assert.equal(d?.time, T(c.said.at), 'the run forward');
    const a = audit(sc, sim.startTime + seconds(120));
    assert.deepEqual(a.misses.filter((m) => !m.exempt).map(missText), []);
    assert.deepEqual([...a.unsound, ...a.wrong].map(unsoundText), []);
  });
}

/** rs-scale-down-1.31 (six pods, a-f) scaled to 4 at +1m, then at +2m: to 3, the timeline deletes e, and to `last`. */
function scalesAroundDelete(last: number): Scenario {
  const sc = loadScenario(join('examples', 'rs-scale-down-1.31.yaml'), nodeFs());
  const all: Event[] = sc.events.filter((e) => e.kind !== 'scale');
  const add = (at: number, e: object) => all.push({ ...e, at: { offset: seconds(at) }, index: all.length } as Event);
  add(60, { kind: 'scale', replicaSet: 'default/shop-5c8d', replicas: 4 });
  add(120, { kind: 'scale', replicaSet: 'default/shop-5c8d', replicas: 3 });
  add(120, { kind: 'delete', ref: 'Pod/default/shop-5c8d-e' });
  add(120, { kind: 'scale', replicaSet: 'default/shop-5c8d', replicas: last });
  return { ...sc, events: all };
}

// the sync after the instant reads the last scale, after the delete between: on main the first scale's replicas were
// read for the instant (d and c "kept" where the run deletes them), and a merged scale kept the first one's "no other
// event before it" (d "deleted at +2m" where the run keeps it)
for (const c of [
  { last: 2, deleted: ['c'], kept: ['d', 'f'] },
  { last: 1, deleted: ['c', 'd'], kept: ['f'] },
])
  test(`same instant: two scales with a delete between them, to 3 then ${c.last}: the sync reads the last`, () => {
    const sc = scalesAroundDelete(c.last);
    for (const asked of [30, 90]) {
      const sim = createSimulation(sc);
      sim.runUntil(sim.startTime + seconds(asked));
      for (const p of [...c.deleted, ...c.kept]) {
        const w = whyNotOfControllers(sim, `Pod/default/shop-5c8d-${p}`).find((x) => x.outcome === 'PodDeletedByScaleDown');
        const said = JSON.stringify({ c: w?.conditional, never: w?.never, neverIf: w?.neverIf });
        if (c.deleted.includes(p)) assert.equal(w?.conditional?.at ?? w?.wouldFireAt, T(120), `asked at +${asked}s, ${p}: ${said}`);
        else assert.ok(w?.never, `asked at +${asked}s, ${p} is kept: ${said}`);
      }
    }
    const sim = createSimulation(sc);
    sim.runUntil(sim.startTime + seconds(180));
    const gone = sim.trace.filter((d) => d.action === 'PodsDeleted' && d.time === T(120)).flatMap((d) => (d.details as { pods: string[] }).pods);
    assert.deepEqual(
      gone,
      c.deleted.map((p) => `shop-5c8d-${p}`),
      'the run forward',
    );
    const a = audit(sc, sim.startTime + seconds(180));
    assert.deepEqual([...a.unsound, ...a.wrong].map(unsoundText), []);
  });
