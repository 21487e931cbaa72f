/**
 * The simulated kubelets (spec 1.3 "Kubelets"): who runs at start, when they
 * post status and renew Leases (1.12 vs 1.13+), reposts when the API's
 * conditions differ, and what `kubelet:`/`condition:` events do.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { formatTime, seconds, minutes, type Micros } from '../../../src/engine/model/time';
import type { KObject } from '../../../src/engine/model/types';
import { fakeFactory, FakeController } from '../../helpers/fakeControllers';
import { lease, node, pod, scenarioOf, T0_MICROS, type EventSpec } from '../../helpers/scenario';

const s = (n: number): Micros => T0_MICROS + seconds(n);

// every kubelet materialise passes over (nothing due before KubeletState.due) is checked against the full computation
// (SimulationOptions.checks.kubeletDue), unless `kubeletDue` is false
function sim(objects: KObject[], version: string, events: EventSpec[] = [], scripts: Parameters<typeof fakeFactory>[0] = {}, kubeletDue = true) {
  const log: string[] = [];
  const built: FakeController[] = [];
  const x = createSimulation(scenarioOf({ objects, version, events }), { controllerFactory: fakeFactory(scripts, log, built), checks: { kubeletDue } });
  return { sim: x, log, built };
}

const heartbeat = (x: ReturnType<typeof sim>['sim'], name: string, type = 'Ready') => {
  const c = x.cluster.nodes.get(name)!.conditions.find((c) => c.type === type)!;
  return formatTime(c.lastHeartbeatTime);
};
const ready = (x: ReturnType<typeof sim>['sim'], name: string) => x.cluster.nodes.get(name)!.conditions.find((c) => c.type === 'Ready')!.status;
const renew = (x: ReturnType<typeof sim>['sim'], name: string) => {
  const l = x.cluster.leases.get(name);
  return l?.renewTime === undefined ? undefined : formatTime(l.renewTime);
};

describe('which kubelets run at the start', () => {
  const cases: { name: string; objects: KObject[]; version: string; running: boolean }[] = [
    {
      name: 'a Ready heartbeat 39s old is within the 40s grace period: running',
      objects: [node('a', { heartbeatAgo: '39s' })],
      version: '1.12',
      running: true,
    },
    {
      name: 'a Ready heartbeat exactly 40s old is within the grace period: running',
      objects: [node('a', { heartbeatAgo: '40s' })],
      version: '1.12',
      running: true,
    },
    { name: 'a Ready heartbeat 41s old is stale: stopped', objects: [node('a', { heartbeatAgo: '41s' })], version: '1.12', running: false },
    { name: 'a stale heartbeat with a fresh Lease: running', objects: [node('a', { heartbeatAgo: '4m' }), lease('a', '3s')], version: '1.31', running: true },
    { name: 'a stale heartbeat and a stale Lease: stopped', objects: [node('a', { heartbeatAgo: '4m' }), lease('a', '3m')], version: '1.31', running: false },
    { name: 'a node without conditions: stopped', objects: [node('a', { noConditions: true })], version: '1.31', running: false },
    { name: '1.32 grace period is 50s: a heartbeat 45s old is running', objects: [node('a', { heartbeatAgo: '45s' })], version: '1.32', running: true },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const { sim: x } = sim(c.objects, c.version);
      assert.equal(x.kubelets.isRunning('a'), c.running);
    });
  }
});

describe('status posts and Lease renewals', () => {
  it('1.12: a running kubelet posts its conditions unchanged every nodeStatusUpdateFrequency, first at start + 10s', () => {
    const { sim: x } = sim([node('a', { heartbeatAgo: '5s' })], '1.12');
    x.runUntil(s(9));
    assert.equal(heartbeat(x, 'a'), '2025-12-31T23:59:55.000Z');
    x.runUntil(s(10));
    assert.equal(heartbeat(x, 'a'), '2026-01-01T00:00:10.000Z');
    assert.equal(heartbeat(x, 'a', 'MemoryPressure'), '2026-01-01T00:00:10.000Z');
    x.runUntil(s(37));
    assert.equal(heartbeat(x, 'a'), '2026-01-01T00:00:30.000Z');
    assert.equal(x.cluster.leases.size, 0, '1.12 has no node Leases');
    assert.equal(x.trace.length, 0, 'plain posts are not decisions');
  });

  it('1.31: the Lease is renewed every 10s but an unchanged status only every 5m', () => {
    const { sim: x } = sim([node('a', { heartbeatAgo: '5s' }), lease('a', '2s')], '1.31');
    x.runUntil(s(25));
    assert.equal(renew(x, 'a'), '2026-01-01T00:00:20.000Z');
    assert.equal(heartbeat(x, 'a'), '2025-12-31T23:59:55.000Z');
    x.runUntil(minutes(5) + T0_MICROS - 1);
    assert.equal(heartbeat(x, 'a'), '2025-12-31T23:59:55.000Z');
    x.runUntil(minutes(5) + T0_MICROS);
    assert.equal(heartbeat(x, 'a'), '2026-01-01T00:05:00.000Z');
  });

  it('1.31: a running kubelet creates its Lease when it is missing, and the controllers hear of it', () => {
    const { sim: x, log } = sim([node('a', { heartbeatAgo: '5s' })], '1.31', [], { 'node-lifecycle': {} });
    assert.equal(x.cluster.leases.size, 0);
    x.runUntil(s(10));
    assert.equal(renew(x, 'a'), '2026-01-01T00:00:10.000Z');
    assert.ok(log.includes('node-lifecycle lease added a'));
  });

  // The kubelets keep the Lease record they renew (no map look-up per renewal): a Lease replaced or
  // deleted by the world, or a step back, must be what later renewals write into.
  const leaseCases: { name: string; events: EventSpec[]; back?: number; want: string | undefined; created?: boolean }[] = [
    {
      name: 'a Lease applied mid-run is the record the next renewal writes',
      events: [{ at: '15s', kind: 'apply', object: lease('a', '1h') } as EventSpec],
      want: '2026-01-01T00:00:30.000Z',
    },
    {
      name: 'a Lease deleted mid-run is created again at the next renewal',
      events: [{ at: '15s', kind: 'delete', ref: 'Lease/kube-node-lease/a' } as EventSpec],
      want: '2026-01-01T00:00:30.000Z',
      created: true,
    },
    { name: 'after stepping back, renewals write into the restored record', events: [], back: 2, want: '2026-01-01T00:00:30.000Z' },
  ];
  for (const c of leaseCases) {
    it(`1.31: ${c.name}`, () => {
      const { sim: x } = sim([node('a', { heartbeatAgo: '5s' }), lease('a', '2s')], '1.31', c.events);
      x.runUntil(s(c.back ? 20 : 16));
      const seen = x.cluster.leases.get('a');
      if (c.back) x.goToPass(c.back);
      x.runUntil(s(30));
      assert.equal(renew(x, 'a'), c.want);
      if (c.created) assert.notEqual(x.cluster.leases.get('a'), seen, 'a new record');
    });
  }

  it('announces plain heartbeats to the controllers as node updates (they re-read the heartbeat)', () => {
    const { sim: x, log } = sim([node('a')], '1.12', [], { 'node-lifecycle': {} });
    x.runUntil(s(20));
    assert.equal(log.filter((l) => l === 'node-lifecycle node updated a').length, 2);
  });

  it('announces the plain posts of one instant as one batch to a controller that takes batches', () => {
    const log: string[] = [];
    class Batching extends FakeController {
      onNodeHeartbeats(_h: unknown, batch: readonly { meta: { name: string } }[], count: number): void {
        log.push(
          `heartbeats ${batch
            .slice(0, count)
            .map((n) => n.meta.name)
            .join(',')}`,
        );
      }
    }
    const x = createSimulation(scenarioOf({ objects: [node('a'), node('b'), node('c', { heartbeatAgo: '2m' })], version: '1.12' }), {
      controllerFactory: (name) => (name === 'node-lifecycle' ? new Batching(name, {}, log) : undefined),
      checks: { kubeletDue: true },
    });
    x.runUntil(s(20));
    // c's kubelet is stopped; a and b post every 10 s, as heartbeats only (no node update each)
    assert.deepEqual(
      log.filter((l) => !l.startsWith('node-lifecycle wake')),
      ['node-lifecycle start reconstructed 2026-01-01T00:00:00.000Z', 'heartbeats a,b', 'heartbeats a,b'],
    );
    assert.equal(heartbeat(x, 'b'), '2026-01-01T00:00:20.000Z');
  });

  it('a stopped kubelet posts nothing', () => {
    const { sim: x } = sim([node('a', { heartbeatAgo: '2m' })], '1.12');
    x.runUntil(s(60));
    assert.equal(heartbeat(x, 'a'), '2025-12-31T23:58:00.000Z');
  });
});

describe('kubelet events', () => {
  it('kubelet: stop stops status posts and Lease renewals; the last post before is kept', () => {
    const { sim: x } = sim([node('a'), lease('a', '1s')], '1.31', [{ at: '25s', kind: 'kubelet', action: 'stop', target: { nodes: ['a'] } } as EventSpec]);
    x.runUntil(s(90));
    assert.equal(renew(x, 'a'), '2026-01-01T00:00:20.000Z');
    assert.equal(x.trace.at(0)!.action, 'KubeletStopped');
    assert.equal(x.trace.at(0)!.object, 'Node/a');
  });

  it('kubelet: stop with only: lease keeps posting status (every 5m in 1.31)', () => {
    const { sim: x } = sim([node('a'), lease('a', '1s')], '1.31', [
      { at: '25s', kind: 'kubelet', action: 'stop', only: 'lease', target: { nodes: ['a'] } } as EventSpec,
    ]);
    x.runUntil(minutes(5) + T0_MICROS);
    assert.equal(renew(x, 'a'), '2026-01-01T00:00:20.000Z');
    assert.equal(heartbeat(x, 'a'), '2026-01-01T00:05:00.000Z');
  });

  it('kubelet: stop with only: status keeps renewing the Lease', () => {
    const { sim: x } = sim([node('a'), lease('a', '1s')], '1.31', [
      { at: '25s', kind: 'kubelet', action: 'stop', only: 'status', target: { nodes: ['a'] } } as EventSpec,
    ]);
    x.runUntil(minutes(6) + T0_MICROS);
    assert.equal(renew(x, 'a'), '2026-01-01T00:06:00.000Z');
    assert.equal(heartbeat(x, 'a'), '2025-12-31T23:59:55.000Z');
  });

  it('kubelet: start posts at once with Ready=True, then every interval from then', () => {
    const { sim: x } = sim([node('a', { heartbeatAgo: '10m', ready: 'Unknown' })], '1.12', [
      { at: '12s', kind: 'kubelet', action: 'start', target: { nodes: ['a'] } } as EventSpec,
    ]);
    x.runUntil(s(12));
    assert.equal(heartbeat(x, 'a'), '2026-01-01T00:00:12.000Z');
    assert.equal(ready(x, 'a'), 'True');
    assert.equal(formatTime(x.cluster.nodes.get('a')!.conditions.find((c) => c.type === 'Ready')!.lastTransitionTime), '2026-01-01T00:00:12.000Z');
    x.runUntil(s(31));
    assert.equal(heartbeat(x, 'a'), '2026-01-01T00:00:22.000Z');
    assert.equal(x.trace.at(0)!.action, 'KubeletStarted');
  });

  it('kubelet: start with conditions posts what it is given', () => {
    const { sim: x } = sim([node('a', { heartbeatAgo: '10m' })], '1.31', [
      { at: '5s', kind: 'kubelet', action: 'start', target: { nodes: ['a'] }, conditions: { Ready: 'False', DiskPressure: 'True' } } as EventSpec,
    ]);
    x.runUntil(s(5));
    const conds = Object.fromEntries(x.cluster.nodes.get('a')!.conditions.map((c) => [c.type, c.status]));
    assert.deepEqual(conds, { MemoryPressure: 'False', Ready: 'False', DiskPressure: 'True' });
    assert.equal(renew(x, 'a'), '2026-01-01T00:00:05.000Z');
  });

  it('condition: a running kubelet posts it at once and keeps posting it', () => {
    const { sim: x } = sim([node('a')], '1.12', [
      { at: '15s', kind: 'condition', target: { nodes: ['a'] }, condition: { type: 'Ready', status: 'False', reason: 'KubeletNotReady' } } as EventSpec,
    ]);
    x.runUntil(s(15));
    const r = () => x.cluster.nodes.get('a')!.conditions.find((c) => c.type === 'Ready')!;
    assert.deepEqual(
      [r().status, r().reason, formatTime(r().lastHeartbeatTime), formatTime(r().lastTransitionTime)],
      ['False', 'KubeletNotReady', '2026-01-01T00:00:15.000Z', '2026-01-01T00:00:15.000Z'],
    );
    x.runUntil(s(45));
    assert.deepEqual(
      [r().status, formatTime(r().lastHeartbeatTime), formatTime(r().lastTransitionTime)],
      ['False', '2026-01-01T00:00:45.000Z', '2026-01-01T00:00:15.000Z'],
    );
    assert.equal(x.trace.at(0)!.action, 'NodeConditionChanged');
  });

  it('condition: on a stopped kubelet it is one post, and the kubelet stays stopped', () => {
    const { sim: x } = sim([node('a', { heartbeatAgo: '5m' })], '1.12', [
      { at: '15s', kind: 'condition', target: { nodes: ['a'] }, condition: { type: 'Ready', status: 'False' } } as EventSpec,
    ]);
    x.runUntil(s(60));
    assert.equal(heartbeat(x, 'a'), '2026-01-01T00:00:15.000Z');
    assert.equal(ready(x, 'a'), 'False');
    assert.equal(x.kubelets.isRunning('a'), false);
  });

  it('a kubelet posting Ready=False leaves its pods alone', () => {
    const { sim: x } = sim([node('a'), pod('default', 'p', 'a')], '1.12', [
      { at: '15s', kind: 'condition', target: { nodes: ['a'] }, condition: { type: 'Ready', status: 'False' } } as EventSpec,
    ]);
    x.runUntil(s(60));
    assert.equal(x.cluster.pods.get('default/p')!.conditions.find((c) => c.type === 'Ready')!.status, 'True');
  });
});

describe('reposts when the API differs from what the kubelet posts', () => {
  it('re-posts Ready=True at its next 10s tick after a controller set Unknown while only the Lease stopped', () => {
    const scripts = {
      'node-lifecycle': {
        wakes: [s(31)],
        onWake: (host: Parameters<NonNullable<Parameters<typeof fakeFactory>[0]['node-lifecycle']>['onWake'] & {}>[0]) => {
          if (host.now !== s(31)) return;
          const n = host.cluster.nodes.get('a')!;
          for (const c of n.conditions) {
            c.status = 'Unknown';
            c.lastTransitionTime = host.now;
          }
          host.updateNodeStatus(n);
        },
      },
    };
    const { sim: x } = sim(
      [node('a'), lease('a', '1s')],
      '1.31',
      [{ at: '25s', kind: 'kubelet', action: 'stop', only: 'lease', target: { nodes: ['a'] } } as EventSpec],
      scripts,
    );
    x.runUntil(s(39));
    assert.equal(ready(x, 'a'), 'Unknown');
    x.runUntil(s(40));
    assert.equal(ready(x, 'a'), 'True');
    assert.equal(heartbeat(x, 'a'), '2026-01-01T00:00:40.000Z');
    const d = x.trace.find((t) => t.action === 'NodeConditionChanged')!;
    assert.equal(d.controller, 'world');
    assert.equal(d.time, '2026-01-01T00:00:40.000Z');
    assert.match(d.summary, /Ready=True \(was Unknown\)/);
  });

  it('a running kubelet whose snapshot shows Ready=Unknown re-posts Ready=True at start + 10s', () => {
    const { sim: x } = sim([node('a', { ready: 'Unknown', heartbeatAgo: '30s' })], '1.12');
    x.runUntil(s(9));
    assert.equal(ready(x, 'a'), 'Unknown');
    x.runUntil(s(10));
    assert.equal(ready(x, 'a'), 'True');
  });
});

describe('kubelets passed over until their next due time', () => {
  for (const on of [true, false])
    it(`the check (checks.kubeletDue) ${on ? 'throws' : 'is not made when off'} when a kubelet's timing changed without resetting its due time`, () => {
      const x = sim([node('a'), node('b')], '1.31', [], {}, on);
      x.sim.runUntil(s(25));
      const st = x.sim.kubelets.get('a')!;
      // a due time kept wrongly (as when a timing change forgot to reset it); b's renewal at 30s runs the loop
      st.due = s(100);
      if (on) assert.throws(() => x.sim.runUntil(s(31)), /passed over/);
      else {
        x.sim.runUntil(s(31));
        // unchecked, a's renewal due at 30s is passed over: what the check is there to catch
        assert.equal(renew(x.sim, 'b'), '2026-01-01T00:00:30.000Z');
        assert.notEqual(renew(x.sim, 'a'), '2026-01-01T00:00:30.000Z');
      }
    });
  const keptGrid: { name: string; field: 'nextRenew' | 'nextPost'; at: number; thrown: RegExp }[] = [
    { name: 'a renewal grid time kept a second off: the check throws', field: 'nextRenew', at: 31, thrown: /renewal grid point/ },
    { name: 'a post grid time kept a second off: the check throws', field: 'nextPost', at: 31, thrown: /post grid point/ },
  ];
  for (const c of keptGrid)
    it(c.name, () => {
      const x = sim([node('a'), node('b')], '1.31');
      x.sim.runUntil(s(25));
      const st = x.sim.kubelets.get('a')!;
      // the grid points materialise takes from the kept times (KubeletState.nextPost, nextRenew) are
      // checked against the ones worked out from the anchors
      st[c.field] += seconds(1);
      assert.throws(() => x.sim.runUntil(s(c.at)), c.thrown);
    });
  it('stop, start, conditions and reposts give the same posts with and without passing over', () => {
    const events: EventSpec[] = [
      { at: '15s', kind: 'kubelet', target: { nodes: ['a'] }, action: 'stop' } as EventSpec,
      { at: '17s', kind: 'kubelet', target: { nodes: ['b'] }, action: 'stop', only: 'lease' } as EventSpec,
      { at: '2m', kind: 'kubelet', target: { nodes: ['a'] }, action: 'start' } as EventSpec,
      { at: '3m3s', kind: 'condition', target: { nodes: ['b'] }, condition: { type: 'MemoryPressure', status: 'True' } } as EventSpec,
      { at: '4m', kind: 'kubelet', target: { nodes: ['b'] }, action: 'start' } as EventSpec,
    ];
    const x = sim([node('a'), node('b'), node('c')], '1.31', events);
    for (let t = 5; t <= 900; t += 7) {
      x.sim.runUntil(s(t));
      for (const n of ['a', 'b', 'c']) assert.ok(heartbeat(x.sim, n) !== undefined);
    }
    assert.ok(renew(x.sim, 'a') !== undefined);
  });
});

describe("one node's kubelet view", () => {
  it('is the view views() lists for that node, at every step, through a stop, a Lease-only stop and a start', () => {
    const { sim: x } = sim([node('a'), node('b'), node('c'), lease('a', '2s'), lease('b', '2s'), lease('c', '2s')], '1.31', [
      { at: '12s', kind: 'kubelet', action: 'stop', target: { nodes: ['a'] } } as EventSpec,
      { at: '20s', kind: 'kubelet', action: 'stop', only: 'lease', target: { nodes: ['b'] } } as EventSpec,
      { at: '45s', kind: 'kubelet', action: 'start', target: { nodes: ['a'] } } as EventSpec,
    ]);
    let compared = 0;
    for (let i = 0; i < 16; i++) {
      x.step();
      for (const v of x.kubelets.views()) {
        assert.deepEqual(x.kubelets.view(v.node), v, `node ${v.node} at ${formatTime(x.now)}`);
        compared++;
      }
      assert.equal(x.kubelets.view('no-such-node'), undefined);
    }
    assert.equal(compared, 48);
  });
});
