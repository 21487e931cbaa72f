/**
 * The machines, transition by transition (xstate decides; these tables say
 * what it must decide), and the transition table that stands in for 5,000
 * node actors giving exactly a real actor's answers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTracedActor } from '../../../../src/engine/machines/traced';
import { nodeHealthMachine, zoneMachine, monitorMachine } from '../../../../src/engine/controllers/nodeLifecycle';
import { MachineTable } from '../../../../src/engine/machines/table';
import { nodeHealthEventKey, type NodeHealthEvent } from '../../../../src/engine/controllers/nodeLifecycle/machines';
import { NodeMachines } from '../../../../src/engine/controllers/nodeLifecycle/nodeMachines';
import { ZoneAnswers, sendZoneEvent } from '../../../../src/engine/controllers/nodeLifecycle/zoneMachines';
import type { ZoneEvent } from '../../../../src/engine/controllers/nodeLifecycle/machines';
import { rig, node, lease, iso, drive, names } from './helpers';

/** markNodeForTainting's event for a node its zone's queue does not hold (Add takes it) */
const MARK: NodeHealthEvent = { type: 'MARK_NODE_FOR_TAINTING', queuedHere: false, inZoneSet: false, ownTaint: false, removesUntainted: true };
/** markNodeAsReachable's event for a node with one NoExecute taint to remove */
const REACHABLE: NodeHealthEvent = { type: 'MARK_NODE_AS_REACHABLE', noExecuteTaints: 1, queuedHere: false };

type Step = [NodeHealthEvent, string | null];

test('node health machine: every transition', () => {
  const cases: { name: string; steps: Step[] }[] = [
    { name: 'observed Ready', steps: [[{ type: 'READY_OBSERVED', status: 'True' }, 'ready.True,eviction.idle']] },
    {
      name: 'stops heartbeating, queued, tainted, recovers',
      steps: [
        [{ type: 'READY_OBSERVED', status: 'True' }, 'ready.True,eviction.idle'],
        [{ type: 'STATUS_UNKNOWN_SET' }, 'ready.Unknown,eviction.idle'],
        [MARK, 'ready.Unknown,eviction.queuedForTainting'],
        [{ type: 'TAINT_PASS' }, 'ready.Unknown,eviction.tainted'],
        [{ type: 'READY_OBSERVED', status: 'True' }, 'ready.True,eviction.tainted'],
        [REACHABLE, 'ready.True,eviction.idle'],
      ],
    },
    {
      name: 'NotReady then Unknown: the swap keeps it tainted',
      steps: [
        [{ type: 'READY_OBSERVED', status: 'False' }, 'ready.False,eviction.idle'],
        [MARK, 'ready.False,eviction.queuedForTainting'],
        [{ type: 'TAINT_PASS' }, 'ready.False,eviction.tainted'],
        [{ type: 'STATUS_UNKNOWN_SET' }, 'ready.Unknown,eviction.tainted'],
        [{ type: 'TAINT_SWAPPED' }, 'ready.Unknown,eviction.tainted'],
      ],
    },
    {
      name: 'dropped from the queue when Ready again',
      steps: [
        [{ type: 'READY_OBSERVED', status: 'Unknown' }, 'ready.Unknown,eviction.idle'],
        [MARK, 'ready.Unknown,eviction.queuedForTainting'],
        [{ type: 'DEQUEUED' }, 'ready.Unknown,eviction.idle'],
      ],
    },
    {
      name: '1.12 pod eviction: queued, evicted, cancelled',
      steps: [
        [{ type: 'STATUS_UNKNOWN_SET' }, 'ready.Unknown,eviction.idle'],
        [{ type: 'QUEUED_FOR_EVICTION' }, 'ready.Unknown,eviction.queuedForEviction'],
        [{ type: 'EVICTION_PASS' }, 'ready.Unknown,eviction.evicted'],
        [{ type: 'EVICTION_PASS' }, 'ready.Unknown,eviction.evicted'],
        [{ type: 'EVICTION_CANCELLED' }, 'ready.Unknown,eviction.idle'],
        [{ type: 'QUEUED_FOR_EVICTION' }, 'ready.Unknown,eviction.queuedForEviction'],
        [{ type: 'EVICTION_CANCELLED' }, 'ready.Unknown,eviction.idle'],
      ],
    },
  ];
  const table = new MachineTable(nodeHealthMachine, nodeHealthEventKey);
  for (const c of cases) {
    const real = createTracedActor(nodeHealthMachine, 'node/x');
    const memo = table.instance('node/x');
    for (const [e, want] of c.steps) {
      const r = real.send(e);
      const m = memo.send(e);
      assert.equal(r?.to ?? null, want, `${c.name}: ${e.type}`);
      assert.deepEqual(m, r, `${c.name}: the table answers as the actor does (${e.type})`);
    }
  }
});

/** Where each eviction event is accepted: in the sub-states upstream takes it from, refused elsewhere. */
test('node health machine: each eviction event only in the sub-states upstream takes it from', () => {
  const states = ['idle', 'queuedForTainting', 'tainted', 'queuedForEviction', 'evicted'] as const;
  const accepted: [NodeHealthEvent, string[]][] = [
    [MARK, ['idle', 'tainted']],
    [{ type: 'TAINT_PASS' }, ['queuedForTainting', 'tainted']],
    [{ type: 'TAINT_PASS', reconstructed: true }, ['idle', 'queuedForTainting', 'tainted']],
    [{ type: 'TAINT_SWAPPED' }, ['idle', 'queuedForTainting', 'tainted']],
    [REACHABLE, ['idle', 'queuedForTainting', 'tainted']],
    [{ type: 'DEQUEUED' }, ['queuedForTainting']],
    [{ type: 'QUEUED_FOR_EVICTION' }, ['idle']],
    [{ type: 'EVICTION_PASS' }, ['queuedForEviction', 'evicted']],
    // idle too: a node that came back to a zone whose queue kept it (zoneMove.test.ts)
    [{ type: 'EVICTION_CANCELLED' }, ['idle', 'queuedForEviction', 'evicted']],
    [{ type: 'REGISTERED_AGAIN' }, ['evicted']],
    // a node that changed zone: the queue of the zone it left holds it, or releases it (zoneQueues.ts)
    [{ ...MARK, heldByZoneLeft: true }, ['idle', 'queuedForTainting', 'tainted']],
    [{ type: 'QUEUED_FOR_EVICTION', heldByZoneLeft: true }, ['idle', 'queuedForEviction', 'evicted']],
    [{ type: 'TAINT_PASS', fromZoneLeft: true }, ['idle', 'queuedForTainting', 'tainted']],
    [{ type: 'EVICTION_PASS', fromZoneLeft: true }, ['idle', 'queuedForEviction', 'evicted']],
    [{ type: 'DEQUEUED', queuedElsewhere: true }, ['queuedForTainting']],
  ];
  const table = new MachineTable(nodeHealthMachine, nodeHealthEventKey);
  for (const [e, where] of accepted) {
    for (const st of states) {
      const got = table.step({ ready: 'Unknown', eviction: st }, e);
      assert.equal(got !== null, where.includes(st), `${nodeHealthEventKey(e)} in ${st}`);
    }
  }
  // the ready region: an observation of the status the machine is in already is no news
  const ready: [ReadyLike, NodeHealthEvent, string | null][] = [
    ['True', { type: 'READY_OBSERVED', status: 'True' }, null],
    ['True', { type: 'READY_OBSERVED', status: 'Unknown' }, 'ready.Unknown,eviction.idle'],
    ['NotObserved', { type: 'READY_MISSING' }, null],
    ['False', { type: 'READY_MISSING' }, 'ready.NotObserved,eviction.idle'],
    ['Unknown', { type: 'STATUS_UNKNOWN_SET' }, 'ready.Unknown,eviction.idle'],
  ];
  for (const [from, e, want] of ready)
    assert.equal(table.step({ ready: from, eviction: 'idle' }, e)?.text ?? null, want, `${nodeHealthEventKey(e)} in ${from}`);
});
type ReadyLike = 'NotObserved' | 'True' | 'False' | 'Unknown';

test("node health machine: NODE_ADDED (classifyNodes' new node) starts the machine over, and only for a node knownNodeSet does not hold", () => {
  const table = new MachineTable(nodeHealthMachine, nodeHealthEventKey);
  const live = (value: object) =>
    createTracedActor(nodeHealthMachine, 'node/x', { snapshot: nodeHealthMachine.resolveState({ value } as never), traceGuards: true });
  for (const ready of ['NotObserved', 'True', 'False', 'Unknown'] as const) {
    for (const eviction of ['idle', 'queuedForTainting', 'tainted', 'queuedForEviction', 'evicted'] as const) {
      const from = { ready, eviction };
      const added = table.step(from, { type: 'NODE_ADDED', inKnownNodeSet: false });
      assert.equal(added?.text, 'ready.NotObserved,eviction.idle', `new node from ${ready}/${eviction}`);
      assert.deepEqual(added.guards, [{ guard: 'notInKnownNodeSet', value: true }]);
      assert.equal(added.stays, false, 'a transition (the decision records it), not "nothing to do"');
      assert.equal(table.step(from, { type: 'NODE_ADDED', inKnownNodeSet: true }), null, `a known node is not added again (${ready}/${eviction})`);
      // NODE_DELETED: classifyNodes' deleted node (the machine is dropped after); a node still listed is refused
      const deleted = table.step(from, { type: 'NODE_DELETED', inNodeList: false });
      assert.deepEqual([deleted?.text, deleted?.guards], ['ready.NotObserved,eviction.idle', [{ guard: 'notInNodeList', value: true }]]);
      assert.equal(table.step(from, { type: 'NODE_DELETED', inNodeList: true }), null, `a listed node is not removed (${ready}/${eviction})`);
      // the table answers as a live actor does
      const a = live(from);
      assert.equal(a.send({ type: 'NODE_ADDED', inKnownNodeSet: false })?.to, 'ready.NotObserved,eviction.idle');
      assert.deepEqual(a.lastGuards(), [{ guard: 'notInKnownNodeSet', value: true }]);
    }
  }
  assert.throws(() => new NodeMachines(true, () => {}).ask('a', { type: 'NODE_ADDED', inKnownNodeSet: true }), /refuses NODE_ADDED/);
});

test('NodeMachines: the answer comes before the write, and a refusal throws when strict', () => {
  const seen: string[] = [];
  const strict = new NodeMachines(true, (t) => seen.push(`${t.from}->${t.to}`));
  assert.throws(() => strict.ask('a', { type: 'TAINT_PASS' }), /node health machine of a in ready.NotObserved,eviction.idle refuses TAINT_PASS/);
  const answer = strict.ask('a', MARK)!;
  assert.equal(answer.transition.to, 'ready.NotObserved,eviction.queuedForTainting');
  assert.equal(strict.eviction('a'), 'idle', 'asking changes nothing');
  assert.deepEqual(seen, []);
  strict.commit(answer);
  assert.equal(strict.eviction('a'), 'queuedForTainting');
  assert.deepEqual(seen, ['ready.NotObserved,eviction.idle->ready.NotObserved,eviction.queuedForTainting']);
  const lenient = new NodeMachines(false, () => {});
  assert.equal(lenient.ask('a', { type: 'EVICTION_PASS' }), null, 'refused: nothing to write');
  assert.equal(lenient.send('a', { type: 'DEQUEUED' }), null);
  assert.equal(lenient.eviction('a'), 'idle');
});

test("zone machine: ComputeZoneState's guards pick the state", () => {
  const cases: [number, number, string][] = [
    [3, 0, 'Normal'],
    [0, 2, 'FullDisruption'],
    [1, 3, 'PartialDisruption'],
    [3, 2, 'Normal'],
    [4, 3, 'Normal'],
  ];
  for (const [ready, notReady, want] of cases) {
    const a = createTracedActor(zoneMachine, 'zone/z');
    const t = a.send({ type: 'ZONE_HEALTH', ready, notReady, unhealthyZoneThreshold: 0.55 });
    assert.deepEqual(t, { id: 'zone/z', from: 'Initial', to: want, event: 'ZONE_HEALTH' }, `${ready} ready, ${notReady} not`);
  }
  const a = createTracedActor(zoneMachine, 'zone/z');
  assert.equal(a.send({ type: 'ALL_ZONES_FULLY_DISRUPTED' })!.to, 'FullDisruption');
});

test('monitor machine: the loop and master disruption mode', () => {
  const a = createTracedActor(monitorMachine, 'monitor');
  assert.equal(a.send({ type: 'PASS_START' })!.to, 'loop.passing,disruption.Normal');
  assert.equal(a.send({ type: 'EXIT_MASTER_DISRUPTION' }), null, 'not in master disruption');
  assert.equal(a.send({ type: 'ENTER_MASTER_DISRUPTION' })!.to, 'loop.passing,disruption.AllZonesFullyDisrupted');
  assert.equal(a.send({ type: 'PASS_END' })!.to, 'loop.waiting,disruption.AllZonesFullyDisrupted');
  assert.equal(a.send({ type: 'EXIT_MASTER_DISRUPTION' })!.to, 'loop.waiting,disruption.Normal');
});

test('a node that recovers while waiting in a stopped zone queue is taken out of it (EvictionCancelled)', () => {
  const all = names('a-', 6);
  const r = rig({ minor: 35, nodes: [...all.map((n) => node(n, { zone: 'a' })), node('b-1', { zone: 'b' })], leases: [...all, 'b-1'].map((n) => lease(n, 0)) });
  drive(r, 80, { alive: () => ['a-5', 'a-6', 'b-1'], lease: true });
  r.host.now = r.host.now + 1;
  r.renewLease('a-1');
  r.post('a-1', 'True');
  drive(r, 90, { alive: () => ['a-1', 'a-5', 'a-6', 'b-1'], lease: true });
  const c = r.decisions('EvictionCancelled', 'Node/a-1');
  assert.deepEqual(
    c.map((d) => d.time),
    [iso(85)],
  );
  assert.match(c[0].summary, /taint queue/);
  assert.deepEqual(c[0].machine, {
    id: 'node/a-1',
    from: 'ready.True,eviction.queuedForTainting',
    to: 'ready.True,eviction.idle',
    event: 'MARK_NODE_AS_REACHABLE',
  });
});

test('zone machine answers: asked before anything is taken, the same answer as sending, from every state', () => {
  const answers = new ZoneAnswers();
  const counts: [number, number][] = [
    [3, 0],
    [0, 2],
    [1, 3],
    [3, 2],
    [4, 3],
    [0, 0],
    [5, 5],
  ];
  const froms: (ZoneEvent | undefined)[] = [
    undefined,
    { type: 'ALL_ZONES_FULLY_DISRUPTED' },
    { type: 'ZONE_HEALTH', ready: 1, notReady: 3, unhealthyZoneThreshold: 0.55 },
    { type: 'ZONE_HEALTH', ready: 3, notReady: 0, unhealthyZoneThreshold: 0.55 },
  ];
  for (const from of froms) {
    for (const [ready, notReady] of counts) {
      const actor = createTracedActor(zoneMachine, 'zone/z');
      if (from) actor.send(from);
      const before = actor.state();
      const asked = answers.ask('z', actor, ready, notReady, 0.55);
      assert.equal(actor.state(), before, 'asking takes nothing');
      assert.equal(answers.ask('z', actor, ready, notReady, 0.55), asked, 'asked again: the same');
      assert.equal(
        sendZoneEvent(actor, { type: 'ZONE_HEALTH', ready, notReady, unhealthyZoneThreshold: 0.55 }).to,
        asked,
        `${before}: ${ready} ready, ${notReady} not`,
      );
    }
  }
});

/**
 * markNodeForTainting and markNodeAsReachable ask the machine with what upstream reads, and its guards
 * choose: a transition, "nothing to do" (a transition with no target, which strict mode accepts), or a
 * refusal. The expected answers are the checks the controller made itself before the machine chose.
 */
test('node health machine: markNodeForTainting and markNodeAsReachable, chosen by its guards from every state', () => {
  const states = ['idle', 'queuedForTainting', 'tainted', 'queuedForEviction', 'evicted'] as const;
  const table = new MachineTable(nodeHealthMachine, nodeHealthEventKey);
  const answer = (st: string, e: NodeHealthEvent): string => {
    const step = table.step({ ready: 'Unknown', eviction: st }, e);
    return step === null ? 'refused' : step.stays ? 'stays' : step.text.replace('ready.Unknown,eviction.', '');
  };
  const bools = [false, true];
  let stays = 0;
  for (const st of states)
    for (const queuedHere of bools)
      for (const inZoneSet of bools)
        for (const ownTaint of bools)
          for (const removesUntainted of bools)
            for (const heldByZoneLeft of bools) {
              // a node waiting in the queue is in its set
              if (queuedHere && !inZoneSet) continue;
              const e: NodeHealthEvent = { type: 'MARK_NODE_FOR_TAINTING', queuedHere, inZoneSet, ownTaint, removesUntainted, heldByZoneLeft };
              const addTakesIt = (removesUntainted && !ownTaint) || !inZoneSet;
              const asks = (!queuedHere && addTakesIt) || (queuedHere && st === 'idle');
              const want = !['idle', 'queuedForTainting', 'tainted'].includes(st)
                ? 'refused'
                : !asks
                  ? 'stays'
                  : st === 'queuedForTainting' && !heldByZoneLeft
                    ? 'refused'
                    : 'queuedForTainting';
              if (want === 'stays') stays++;
              assert.equal(answer(st, e), want, `${st}: ${JSON.stringify(e)}`);
            }
  assert.ok(stays > 10, 'the table has "nothing to do" answers');
  for (const st of states)
    for (const noExecuteTaints of [0, 1, 2])
      for (const queuedHere of bools) {
        const e: NodeHealthEvent = { type: 'MARK_NODE_AS_REACHABLE', noExecuteTaints, queuedHere };
        const asks = noExecuteTaints > 0 || queuedHere || st !== 'idle';
        const want = !['idle', 'queuedForTainting', 'tainted'].includes(st) ? 'refused' : asks ? 'idle' : 'stays';
        assert.equal(answer(st, e), want, `${st}: ${JSON.stringify(e)}`);
      }
});

test('NodeMachines: "nothing to do" is an answer strict mode accepts, with nothing to commit', () => {
  const seen: string[] = [];
  const strict = new NodeMachines(true, (t) => seen.push(t.to));
  const nothing = strict.ask('a', { type: 'MARK_NODE_AS_REACHABLE', noExecuteTaints: 0, queuedHere: false });
  assert.ok(nothing);
  assert.equal(nothing.stays, true);
  assert.equal(nothing.transition.from, nothing.transition.to);
  assert.throws(() => strict.commit(nothing), /nothing to do/);
  assert.equal(strict.send('a', { type: 'MARK_NODE_AS_REACHABLE', noExecuteTaints: 0, queuedHere: false }), null);
  assert.deepEqual(seen, [], 'no transition recorded');
  const queued = strict.ask('a', MARK)!;
  assert.equal(queued.stays, false);
  strict.commit(queued);
  // the same node asked again while it waits in the queue: nothing to do, not a refusal
  const again = strict.ask('a', { ...MARK, queuedHere: true, inZoneSet: true });
  assert.equal(again?.stays, true);
  // waiting nowhere, taken by Add, and no zone it left holds it: a machine that disagrees with the queues refuses
  assert.throws(() => strict.ask('a', MARK), /refuses MARK_NODE_FOR_TAINTING/);
});
