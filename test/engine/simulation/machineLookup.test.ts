/**
 * The Simulation API answers for every machine by its id, a controller's or a stateless one's, and
 * names the machines of an object (simulation/machineLookup.ts): the extension asks here only.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../src/platform/nodeFs';
import { defaultHorizon } from '../../../src/cli/horizon';
import { statelessMachineOf } from '../../../src/engine/controllers/statelessMachines';

const examples = join(__dirname, '..', '..', '..', 'examples');

test('machineIds: an object names its own machines and the stateless machines that may answer about it', () => {
  const sim = createSimulation(loadScenario(join(examples, 'one-node-stops.yaml'), nodeFs()));
  const rows: [string, { own: string[]; stateless: string[] }][] = [
    ['Node/n1', { own: ['node/n1'], stateless: ['noScheduleTaints/n1', 'nodeLabels/n1', 'fixDeprecatedTaintKey/n1', 'markPodsNotReady/n1'] }],
    ['Pod/default/web-1', { own: ['pod/default/web-1', 'taint-eviction/default/web-1'], stateless: ['deletePods/default/web-1'] }],
    ['ReplicaSet/default/web', { own: ['replicaset/default/web'], stateless: ['claimPods/default/web', 'replicaSetStatus/default/web'] }],
    ['Zone/us-east-1a', { own: ['zone/us-east-1a'], stateless: [] }],
    ['ControllerManager/kube-controller-manager', { own: ['monitor'], stateless: [] }],
  ];
  for (const [object, want] of rows) assert.deepEqual(sim.machineIds(object), want, object);
});

for (const file of ['rs-deletion-cost.yaml', 'outage-1.31.yaml', 'outage-1.12.yaml']) {
  test(`example ${file}: machine(id) is every controller's machine, and every stateless machine in the state its last answer reached`, () => {
    const sim = createSimulation(loadScenario(join(examples, file), nodeFs()));
    sim.runUntil(defaultHorizon(sim.scenario, sim.startTime));
    const all = sim.machines();
    assert.ok(all.length > 0);
    const strip = (m: { id: string; state: string; lastTransition?: unknown; definition: unknown } | undefined) =>
      m && { id: m.id, state: m.state, lastTransition: m.lastTransition, drawn: m.definition !== undefined };
    for (const m of all) assert.deepEqual(strip(sim.machine(m.id)), strip(m), m.id);
    // each stateless instance that answered: drawn in the state of its last recorded answer that was carried out
    const last = new Map<string, { to: string; seq: number }>();
    for (const d of sim.trace)
      if (d.machine && d.action !== 'ApiCallFailed' && statelessMachineOf(d.machine.id)) last.set(d.machine.id, { to: d.machine.to, seq: d.seq });
    assert.ok(last.size > 0, 'some stateless machine answered');
    for (const [id, { to, seq }] of last) {
      const v = sim.machine(id);
      assert.ok(v, id);
      assert.deepEqual([v.state, v.lastTransition?.seq], [to, seq], id);
      assert.ok(v.definition, `${id} has its definition to draw`);
    }
    if (file.startsWith('rs-'))
      assert.ok(
        [...last.keys()].some((id) => id.startsWith('replicaSetStatus/')),
        'the status machine is one of them',
      );
    // a stateless instance that has not answered is in its initial state; an id no machine has is undefined
    assert.deepEqual([sim.machine('nodeLabels/no-such-node')?.state, sim.machine('nodeLabels/no-such-node')?.lastTransition], ['observed', undefined]);
    assert.equal(sim.machine('node/no-such-node'), undefined);
    assert.equal(sim.machine('nothing'), undefined);
  });
}

/** positions of a run: [pass to go to, in order] (going back restores a checkpoint) */
const positions: [string, number[]][] = [
  ['outage-1.31.yaml', [3, 12, 20, 9, 15]],
  ['outage-1.12.yaml', [4, 18, 7]],
  ['rs-deletion-cost.yaml', [2, 6, 1]],
];

for (const [file, passes] of positions) {
  test(`example ${file}: machine(id) asks each controller for its one view, as the full list holds it, at each position and after a step back`, () => {
    const sim = createSimulation(loadScenario(join(examples, file), nodeFs()));
    let listed = 0;
    const machines = sim.machines.bind(sim);
    // definitions compared by content (some controllers make theirs on each call)
    const texts = new Map<unknown, string>();
    const text = (d: unknown) => texts.get(d) ?? (texts.set(d, JSON.stringify(d)), texts.get(d)!);
    for (const pass of passes) {
      sim.goToPass(pass);
      const all = machines();
      assert.ok(all.length > 0);
      sim.machines = () => (listed++, machines());
      for (const m of all) {
        const v = sim.machine(m.id);
        assert.ok(v, m.id);
        assert.deepEqual(
          [v.id, v.state, v.lastTransition, text(v.definition)],
          [m.id, m.state, m.lastTransition, text(m.definition)],
          `${m.id} at pass ${pass}`,
        );
      }
      assert.equal(sim.machine('node/no-such-node'), undefined);
      assert.equal(sim.machine('replicaset/default/no-such-set'), undefined);
      assert.equal(sim.machine('taint-eviction/default/no-such-pod'), undefined);
      sim.machines = machines;
    }
    assert.equal(listed, 0, 'no list of every machine is made');
  });
}

test("a pod's taint eviction worker after its work ended: drawn in the state its last answer reached (evicted after PodEvicted), not gone", () => {
  // the controller drops a worker once the pod is deleted (upstream's TimedWorker is done): the Machine tab of the
  // PodEvicted decision said "has no machine at this point", while its Why named the machine that deleted the pod
  const sim = createSimulation(loadScenario(join(examples, 'one-node-stops.yaml'), nodeFs()));
  sim.runUntil(Date.parse('2026-01-01T00:02:10Z') * 1000);
  const evicted = (pod: string) => sim.trace.find((d) => d.action === 'PodEvicted' && d.object === `Pod/default/${pod}`);
  const cases: { pod: string; state: string | undefined; from?: string; event?: string }[] = [
    // scheduled for its 60 s, then the deadline: deleted at 2m10s
    { pod: 'toleration-sixty', state: 'evicted', from: 'deleting', event: 'DELETED' },
    // no toleration: deleted at once when the taint came
    { pod: 'toleration-unset', state: 'evicted', from: 'deleting', event: 'DELETED' },
    // tolerates forever: never had a worker
    { pod: 'toleration-forever', state: undefined },
  ];
  for (const c of cases) {
    const m = sim.machine(`taint-eviction/default/${c.pod}`);
    assert.equal(m?.state, c.state, c.pod);
    if (!c.state) continue;
    assert.deepEqual(
      { from: m?.lastTransition?.from, to: m?.lastTransition?.to, event: m?.lastTransition?.event, seq: m?.lastTransition?.seq },
      { from: c.from, to: c.state, event: c.event, seq: evicted(c.pod)?.seq },
      c.pod,
    );
    assert.ok(m?.definition, `${c.pod}: its definition to draw`);
  }
});
