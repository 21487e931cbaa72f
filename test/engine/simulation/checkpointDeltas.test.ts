/**
 * A checkpoint's node, Lease and ReplicaSet deltas are kept as lists and their maps made when first
 * read (checkpointDeltas.ts Changes). The table compares a Changes with the map the checkpoint kept
 * before (a Map of the same adds): its entries and their order, its keys read without the map, a
 * copy of its own, and a map set in its place (thinning). The scenarios then ask of every checkpoint
 * a simulation saves that its lists hold each key once and the map made of them holds the same keys
 * in the same order (a node changed and beating between two checkpoints is listed once). A step back
 * reads the checkpoints before it as lists (entriesOf): it leaves their maps unmade, and its state is a
 * fresh run's.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Changes, entriesOf, keysOf, ownDelta } from '../../../src/engine/simulation/checkpointDeltas';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import type { Checkpoint } from '../../../src/engine/simulation/checkpointStore';
import { node, pod, scenarioOf, type EventSpec } from '../../helpers/scenario';

type Op = ['add', string, number | null] | ['read'] | ['set', [string, number | null][]];

const cases: { name: string; ops: Op[] }[] = [
  { name: 'none', ops: [] },
  {
    name: 'adds, read at the end',
    ops: [
      ['add', 'b', 1],
      ['add', 'a', null],
      ['add', 'c', 3],
    ],
  },
  { name: 'adds, read, read again', ops: [['add', 'x', 1], ['add', 'y', 2], ['read'], ['read']] },
  {
    name: 'a map set in its place (thinning merges into it)',
    ops: [
      ['add', 'x', 1],
      [
        'set',
        [
          ['w', 0],
          ['x', 5],
        ],
      ],
    ],
  },
  {
    name: 'read, then a map set',
    ops: [
      ['add', 'x', 1],
      ['read'],
      [
        'set',
        [
          ['z', null],
          ['x', 2],
        ],
      ],
    ],
  },
];

const entries = (m: Map<string, number | null>) => [...m];

describe('a delta kept as lists, its map made when read', () => {
  for (const c of cases)
    it(c.name, () => {
      const order = ['a', 'b', 'c'];
      const changes = new Changes<number>(order);
      let model = new Map<string, number | null>();
      for (const op of c.ops) {
        if (op[0] === 'add') {
          changes.add(op[1], op[2]);
          model.set(op[1], op[2]);
        } else if (op[0] === 'set') {
          changes.delta = new Map(op[1]);
          model = new Map(op[1]);
        } else assert.deepEqual(entries(changes.delta), entries(model), 'read');
        assert.deepEqual([...keysOf(changes)], [...model.keys()], 'its keys');
      }
      // a copy of its own holds what the map would, whether or not it was read before (adds are done: the save made it)
      const copy = ownDelta(changes);
      assert.deepEqual(entries(copy.delta), entries(model), 'a copy of its own');
      assert.equal(copy.order, order);
      assert.deepEqual(entries(changes.delta), entries(model));
      assert.deepEqual([...keysOf(changes)], [...model.keys()]);
      assert.equal(changes.order, order);
    });
});

/** `every`: checkpointEvery (100: a checkpoint's interval holds both a node's change and its kubelet's status post, every 5 minutes) */
const scenarios: { name: string; events: EventSpec[]; every: number }[] = [
  // the nodes' heartbeats and Lease renewals in every checkpoint, and the node controller's own writes
  {
    name: 'a kubelet stopped: its node goes Unknown and is tainted while the others beat',
    events: [{ at: '12s', kind: 'kubelet', action: 'stop', target: { nodes: ['b'] } } as EventSpec],
    every: 1,
  },
  {
    name: 'a node tainted by the user and deleted, while the others beat',
    events: [
      { at: '7s', kind: 'taint', target: { nodes: ['a'] }, taint: { key: 'k', effect: 'NoSchedule' } } as EventSpec,
      { at: '31s', kind: 'delete', ref: 'Node/c' } as EventSpec,
    ],
    every: 1,
  },
  {
    name: 'a node tainted by the user between two checkpoints 100 passes apart, its kubelet posting meanwhile',
    events: [{ at: '7s', kind: 'taint', target: { nodes: ['a'] }, taint: { key: 'k', effect: 'NoSchedule' } } as EventSpec],
    every: 100,
  },
];

describe('the deltas every checkpoint of a run keeps', () => {
  for (const c of scenarios)
    it(c.name, () => {
      const sim = createSimulation(scenarioOf({ objects: [node('a'), node('b'), node('c')], version: '1.35', events: c.events }), { checkpointEvery: c.every });
      const list = () => (sim as unknown as { store: { list: Checkpoint[] } }).store.list;
      let seen = 0;
      for (let p = 1; p <= 130; p++) {
        sim.goToPass(p);
        const cp = list()[list().length - 1];
        for (const [part, d] of [
          ['nodes', cp.nodes],
          ['leases', cp.leases],
          ['replicaSets', cp.replicaSets],
        ] as const) {
          // the lists first (the map not made yet), then the map made of them
          const keys = [...keysOf<unknown>(d)];
          assert.equal(new Set(keys).size, keys.length, `pass ${p}, ${part}: each key once (${keys.join()})`);
          assert.deepEqual([...d.delta.keys()], keys, `pass ${p}, ${part}`);
          seen += keys.length;
        }
      }
      assert.ok(seen > 0, 'the checkpoints held changed records');
    });
});

/** `from`: the pass stepped to one at a time (a user's steps: a checkpoint each), then one Step Back; `events` as above */
const stepBacks: { name: string; events: EventSpec[]; from: number }[] = [
  { name: 'a quiet pass: the nodes beat and renew', events: [], from: 6 },
  {
    name: 'the pass after a kubelet stopped and its node went Unknown (its pods marked not ready)',
    events: [{ at: '5s', kind: 'kubelet', action: 'stop', target: { nodes: ['b'] } } as EventSpec],
    from: 10,
  },
  {
    name: 'the pass after a user taint (a node changed otherwise)',
    events: [{ at: '12s', kind: 'taint', target: { nodes: ['a'] }, taint: { key: 'k', effect: 'NoSchedule' } } as EventSpec],
    from: 4,
  },
];

describe('a one-pass step back reads the deltas before it as lists', () => {
  for (const c of stepBacks)
    it(c.name, () => {
      const objects = [node('a'), node('b'), node('c'), pod('default', 'p1', 'a'), pod('default', 'p2', 'b'), pod('default', 'p3', 'b')];
      const make = () => createSimulation(scenarioOf({ objects, version: '1.35', events: c.events }));
      const sim = make();
      for (let p = 0; p <= c.from; p++) sim.goToPass(p, { interactive: true });
      const deltas = () =>
        (sim as unknown as { store: { list: Checkpoint[] } }).store.list.flatMap((cp) =>
          (['nodes', 'leases', 'replicaSets', 'pods'] as const).map((part) => ({ at: `pass ${cp.pass}, ${part}`, d: cp[part] })),
        );
      // the ones kept as lists until now (thinning merges some into maps)
      const lists = deltas().filter(({ d }) => !(entriesOf<unknown>(d) instanceof Map));
      assert.ok(lists.length > 0);
      sim.goToPass(c.from - 1, { interactive: true });
      const kept = new Set(deltas().map(({ d }) => d));
      for (const { at, d } of lists) if (kept.has(d)) assert.ok(!(entriesOf<unknown>(d) instanceof Map), `${at}: its map was made by the step back`);
      const fresh = make();
      fresh.goToPass(c.from - 1);
      assert.equal(JSON.stringify(sim.state()), JSON.stringify(fresh.state()), 'the state after the step back');
    });
});
