/**
 * 1.12's pod-eviction path read with a heartbeat the controller has not read yet: a timeline `condition` posts
 * Ready=False on node-a1, whose kubelet outage-1.12 stops at +30s (Unknown at +1m5s), between two monitor passes. The
 * next pass moves probeTimestamp and readyTransitionTimestamp to itself; the kubelet posts no more, so the node goes
 * Unknown again 40s later and the passes after count podEvictionTimeout from probeTimestamp (processNoTaintBaseEviction
 * reads readyTransitionTimestamp only while Ready is False). The answers of the node
 * (NodePodsEvicted) and of its pods (PodDeletedByPodEviction), asked between the passes and at them, each name the time
 * the run deletes the node's first pod: main said +6m10s (the stored transition to Unknown at +1m5s + 5m) where the pods
 * went at +6m40s.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { whyNotOfControllers } from '../../../src/engine/simulation/explain';
import { nodeFs } from '../../../src/platform/nodeFs';
import { formatTime, minutes, seconds } from '../../../src/engine/model/time';
import type { Scenario } from '../../../src/engine/snapshot/types';

type Event = Scenario['events'][number];

const notReady = (node: string) => ({ kind: 'condition', target: { nodes: [node] }, condition: { type: 'Ready', status: 'False' } });
const stop = (node: string) => ({ kind: 'kubelet', action: 'stop', target: { nodes: [node] } });

const cases: { name: string; node: string; events: [number, object][]; askedAt: number }[] = [
  { name: 'posted at +92s, asked at +93s (before the pass reads it)', node: 'node-a1', events: [[92, notReady('node-a1')]], askedAt: 93 },
  { name: 'posted at +92s, asked at +95s (the pass has read it)', node: 'node-a1', events: [[92, notReady('node-a1')]], askedAt: 95 },
  { name: 'posted at +92s, asked at +2m1s (Unknown again by then)', node: 'node-a1', events: [[92, notReady('node-a1')]], askedAt: 121 },
  { name: 'posted at +3m33s, asked at +3m34s', node: 'node-a1', events: [[213, notReady('node-a1')]], askedAt: 214 },
  {
    name: 'posted at +92s and +2m32s, asked at +2m40s',
    node: 'node-a1',
    events: [
      [92, notReady('node-a1')],
      [152, notReady('node-a1')],
    ],
    askedAt: 160,
  },
  // a kubelet that posts False from +20s and stops at +2m: the transition at +20s, the probe at its last post; Unknown at
  // +2m35s, so the passes after count from the probe (deleted at +6m55s; main said +5m25s from the transition)
  {
    name: 'False posted from +20s, the kubelet stopped at +2m, asked at +2m5s (the transition long before the probe)',
    node: 'node-b1',
    events: [
      [20, notReady('node-b1')],
      [120, stop('node-b1')],
    ],
    askedAt: 125,
  },
];

for (const c of cases)
  test(`1.12 pod eviction with an unread heartbeat: ${c.name}: the time named is the run's`, () => {
    const base = loadScenario(join('examples', 'outage-1.12.yaml'), nodeFs());
    const added = c.events.map(([at, e], i) => ({ ...e, at: { offset: seconds(at) }, index: base.events.length + i }) as Event);
    const sc = { ...base, events: [...base.events, ...added] };
    const sim = createSimulation(sc);
    sim.runUntil(sim.startTime + seconds(c.askedAt));
    const pods = [...sim.host.cluster.pods.values()].filter((p) => p.nodeName === c.node).map((p) => `Pod/${p.meta.namespace}/${p.meta.name}`);
    const said = [
      ...whyNotOfControllers(sim, `Node/${c.node}`).filter((w) => w.outcome === 'NodePodsEvicted'),
      ...pods.flatMap((ref) => whyNotOfControllers(sim, ref).filter((w) => w.outcome === 'PodDeletedByPodEviction' && !w.never)),
    ].map((w) => `${w.object} ${w.wouldFireAt ?? 'no time'}`);
    const seen = sim.trace.length;
    sim.runUntil(sim.startTime + minutes(10));
    const first = sim.trace.slice(seen).find((d) => d.controller === 'node-lifecycle' && d.action === 'PodEvicted' && pods.includes(d.object));
    assert.ok(first, 'the run deletes a pod of node-a1');
    const at = formatTime(Date.parse(first.time) * 1000);
    assert.ok(said.length > 1, 'the node and some pod answered');
    assert.deepEqual(
      said,
      said.map((s) => `${s.split(' ')[0]} ${at}`),
    );
  });
