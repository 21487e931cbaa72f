/**
 * Answers read against the node lifecycle controller's master disruption mode (every zone in FullDisruption: it removes
 * its not-ready and unreachable taints everywhere and evicts nothing), found by scripts/whyNotHunt.ts on all-zones-down,
 * where the timeline stops every kubelet at +30s; each run through the audit, every answer named and every never run forward:
 * - seed 23: a kubelet start at +20s of a node the +30s stop takes down with the others made it "a node of another zone
 *   that stays up" (its first event was no stop), so zone b's forecast named taints at +1m10s..+1m30s that never came;
 * - seeds 28 and 34: a pod's deletion under the controller's taint said for +6m (+5m10s), cancelled when the last zone
 *   went down: no node stays Ready until then (masterAhead.ts);
 * - HUNT_PARTIAL HUNT_RESTART seed 803: a node whose lapsing kubelet re-posts Ready before the last zone could go down
 *   keeps it up for a grace period from the pass that reads it, so a time named before then stands;
 * - HUNT_PARTIAL seed 1063: flapping nodes followed round by round (lapseRounds.ts): a time named stands while they are
 *   never down together before it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { wrongAnswers } from '../../helpers/whyNotAudit';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { whyNotOfControllers } from '../../../src/engine/simulation/explain';
import { nodeFs } from '../../../src/platform/nodeFs';
import { formatTime, minutes, seconds } from '../../../src/engine/model/time';

const kubelet = (action: 'stop' | 'start', node: string) => ({ kind: 'kubelet', action, target: { nodes: [node] } });
const notReady = (node: string) => ({ kind: 'condition', target: { nodes: [node] }, condition: { type: 'Ready', status: 'False' } });

const cases: { name: string; events: [number, object][] }[] = [
  { name: 'a start before the stop of every node is no node that stays up (seed 23)', events: [[20, kubelet('start', 'node-a5')]] },
  { name: "a pod's deletion scheduled under the unreachable taint (seed 28)", events: [[20, kubelet('stop', 'node-b2')]] },
  {
    // the reader's bound: a stopped node's Unknown comes at a pass past probeTimestamp + grace, from the controller's probe
    // (before, the Lease renewal's time: node-a3, stopped at +20s, said no time for its taint at +1m; the others went
    // Unknown at +1m5s)
    name: 'a node stopped before the others is tainted before every zone can be down (seed 56)',
    events: [[20, kubelet('stop', 'node-a3')]],
  },
  {
    // in the mode already, which node-b2's re-post of Ready ends at +1m50s: the node's answer named that end as a bound, the
    // pod's deletion under its taint said no time (its own path held no notInMasterDisruption: the node's, its via, did)
    name: "a pod's deletion under the taint of a node in the mode a re-post ends (HUNT_PARTIAL, HUNT_RESTART seed 215)",
    events: [
      [45, { ...kubelet('stop', 'node-b1'), only: 'status' }],
      [60, { ...kubelet('start', 'node-b2'), only: 'status' }],
      [60, { kind: 'restartControllerManager', failover: false }],
    ],
  },
  {
    // node-a4's kubelet, started `only: status`, flaps: Unknown at +1m35s and +2m35s, Ready again at its re-posts at +1m45s
    // and +2m45s; node-c1's, started so at +2m, goes Unknown at +2m50s and is tainted at +2m55s: every zone might have been
    // down from +2m50s, but node-a4, read Ready again at +2m45s, stays so past +3m25s (no time was said); the restart at +3m
    // takes the pods' taints away (without it, their deletions at +6m55s wait on the flaps: the row after this one)
    name: 'a node tainted while a flapping node of another zone is up again (HUNT_PARTIAL, HUNT_RESTART seed 803)',
    events: [
      [45, { ...kubelet('start', 'node-a4'), only: 'status' }],
      [120, { ...kubelet('start', 'node-c1'), only: 'status' }],
      [180, { kind: 'taint', target: { nodes: ['node-c1'] }, taint: { key: 'example.com/maint', effect: 'NoExecute' } }],
      [180, { kind: 'restartControllerManager', failover: false }],
    ],
  },
  {
    // seed 803's run without its restart: node-a4 and node-c1 flap out of step, so node-c1's pods go at +6m55s, which the
    // reader said no time for while it followed one round of each (287 answers)
    name: 'two flapping nodes of two zones, never down together: the deletions keep their time (seed 803 without its restart)',
    events: [
      [45, { ...kubelet('start', 'node-a4'), only: 'status' }],
      [120, { ...kubelet('start', 'node-c1'), only: 'status' }],
      [180, { kind: 'taint', target: { nodes: ['node-c1'] }, taint: { key: 'example.com/maint', effect: 'NoExecute' } }],
    ],
  },
  {
    // node-a6 and node-a3 of zone a, started `only: status` at +45s and +3m, flap a minute apart (Unknown at +4m35s and
    // +4m50s, read Ready again at +4m40s and +4m55s, and so on): never down together, so the mode never begins again and
    // node-c1's pods go at +7m55s; the reader followed one round of each and said no time from +4m (288 answers)
    name: 'two flapping nodes of the last zone up, never down together: the deletions keep their time (HUNT_PARTIAL seed 1063)',
    events: [
      [45, { ...kubelet('start', 'node-a6'), only: 'status' }],
      [180, { ...kubelet('start', 'node-a3'), only: 'status' }],
    ],
  },
  {
    name: "a pod's deletion under a taint to come, nodes set Ready=False first (seed 34)",
    events: [
      [30, notReady('node-a6')],
      [10, notReady('node-a1')],
      [60, { kind: 'taint', target: { nodes: ['node-a3'] }, taint: { key: 'example.com/maint', effect: 'NoExecute' } }],
    ],
  },
];

for (const c of cases)
  test(`master disruption ahead: ${c.name}: every time named comes then, every never holds`, () => {
    const a = wrongAnswers('all-zones-down.yaml', c.events);
    assert.deepEqual(a.wrong, []);
    assert.ok(a.timedChecked > 0, 'some answers named a time and were run forward');
  });

/**
 * The bound reads the controller's probeTimestamp, not the last heartbeat: a controller started with empty memory
 * (`controllerMemory: fresh`) observes every node anew at the start, so its probes are the start (+0s) while the
 * heartbeats are 2 s older. node-a1 comes tainted unreachable:NoExecute; every kubelet stops at +5s; with a 60 s grace
 * every zone goes down at the pass after +1m00s (+1m05s), so toleration-sixty's deletion at +1m00s comes first. Read
 * from the heartbeats, every zone could be down from +59s and the answer lost its time.
 */
test('master disruption ahead: the bound is the controller probe, not the older heartbeat: the time named comes then', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-probe-'));
  try {
    const three = readFileSync(resolve('examples/clusters/three-zones.yaml'), 'utf8');
    const at = three.indexOf('      name: node-a1\n');
    const end = three.indexOf('      name: node-a2\n');
    const a1 = three
      .slice(at, end)
      .replace(
        '    spec:\n      podCIDR: 10.244.0.0/24\n',
        '    spec:\n      podCIDR: 10.244.0.0/24\n      taints:\n' +
          ['NoExecute', 'NoSchedule'].map((e) => `        - {key: node.kubernetes.io/unreachable, effect: ${e}, timeAdded: 2025-12-31T23:59:50Z}\n`).join(''),
      )
      .replace(
        '        - type: Ready\n          status: "True"\n          lastHeartbeatTime: 2025-12-31T23:59:58Z',
        '        - type: Ready\n          status: Unknown\n          lastHeartbeatTime: 2025-12-31T23:59:00Z',
      );
    assert.ok(a1.includes('effect: NoExecute') && a1.includes('status: Unknown'), 'node-a1 rewritten');
    writeFileSync(join(dir, 'cluster.yaml'), three.slice(0, at) + a1 + three.slice(end));
    writeFileSync(
      join(dir, 'scenario.yaml'),
      [
        'apiVersion: controllerstepper.io/v1alpha1',
        'kind: Scenario',
        'metadata: {name: probe-bound}',
        'kubernetesVersion: "1.31"',
        'startTime: "2026-01-01T00:00:00Z"',
        'controllerMemory: fresh',
        'controllerManager: {nodeMonitorGracePeriod: 60s}',
        'snapshot: ./cluster.yaml',
        'events:',
        '  - {at: 5s, kubelet: stop, selector: {matchLabels: {kubernetes.io/os: linux}}}',
        '',
      ].join('\n'),
    );
    const sim = createSimulation(loadScenario(join(dir, 'scenario.yaml'), nodeFs()));
    sim.runUntil(sim.startTime + seconds(6));
    const pod = 'Pod/default/toleration-sixty';
    const said = whyNotOfControllers(sim, pod).filter((w) => w.outcome === 'PodDeletedByTaintEviction');
    assert.deepEqual(
      said.map((w) => w.wouldFireAt ?? 'no time'),
      [formatTime(sim.startTime + minutes(1))],
    );
    const seen = sim.trace.length;
    sim.runUntil(sim.startTime + minutes(3));
    const later = sim.trace.slice(seen);
    const evicted = later.find((d) => d.action === 'PodEvicted' && d.object === pod);
    assert.equal(evicted?.time, formatTime(sim.startTime + minutes(1)), 'the run deletes it then');
    const down = later.filter((d) => d.action === 'ZoneStateChanged' && /now FullDisruption/.test(d.summary));
    assert.equal(down.length, 3, 'every zone goes down after it');
    assert.ok(down.every((d) => d.time === formatTime(sim.startTime + seconds(65))));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
