/**
 * The causes memory (SimHost.remember / recall) is kept per object, in pairs,
 * and checkpoints keep a log of what was remembered: a fact remembered again
 * replaces the earlier one, facts of one object or of objects whose refs share
 * a prefix stay apart, and a step back gives the facts as they were then.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setFact, type Facts } from '../../../src/engine/simulation/simHost';
import { factsAt, factsFrom } from '../../../src/engine/simulation/facts';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { node, scenarioOf } from '../../helpers/scenario';

describe('the causes memory', () => {
  it('keeps the latest decision per object and fact', () => {
    const sim = createSimulation(scenarioOf({ objects: [node('a')], version: '1.31' }));
    const host = sim.host;
    host.remember('Node/a', 'heartbeat', 3);
    host.remember('Node/a', 'ready-status', 4);
    host.remember('Node/ab', 'heartbeat', 5);
    host.remember('Node/a', 'heartbeat', 6);
    assert.equal(host.recall('Node/a', 'heartbeat'), 6);
    assert.equal(host.recall('Node/a', 'ready-status'), 4);
    assert.equal(host.recall('Node/ab', 'heartbeat'), 5);
    assert.equal(host.recall('Node/ab', 'ready-status'), undefined);
    assert.equal(host.recall('Node/b', 'heartbeat'), undefined);
  });

  it('setFact replays a log in order, the later entry winning', () => {
    const facts: Facts = new Map();
    const log = ['Pod/x/p', 'created', 1, 'Pod/x/p', 'applied', 1, 'Pod/x/p', 'created', 9];
    for (let i = 0; i < log.length; i += 3) setFact(facts, log[i] as string, log[i + 1] as string, log[i + 2] as number);
    assert.deepEqual(facts.get('Pod/x/p'), ['created', 9, 'applied', 1]);
  });

  it('a step back recalls what was remembered up to the checkpoint', () => {
    const sim = createSimulation(scenarioOf({ objects: [node('a')], version: '1.31' }), { checkpointEvery: 1 });
    sim.goToPass(2);
    sim.host.remember('Node/a', 'test-fact', 100);
    sim.goToPass(4);
    sim.host.remember('Node/a', 'test-fact', 200);
    sim.goToPass(6);
    assert.equal(sim.host.recall('Node/a', 'test-fact'), 200);
    sim.goToPass(3);
    assert.equal(sim.host.recall('Node/a', 'test-fact'), 100);
    sim.goToPass(1);
    assert.equal(sim.host.recall('Node/a', 'test-fact'), undefined);
  });
});

describe('the causes memory put back in place (factsAt)', () => {
  type Log = (string | number)[];
  /** `upTo`: the logs up to the checkpoint; `since`: after it (the live memory is made from both) */
  const cases: { name: string; upTo: Log[]; since: Log[] }[] = [
    {
      name: 'nothing remembered since',
      upTo: [
        ['Pod/x/a', 'created', 1],
        ['Pod/x/b', 'created', 2],
      ],
      since: [],
    },
    {
      name: 'a fact remembered again since: its earlier decision',
      upTo: [['Pod/x/a', 'created', 1, 'Pod/x/a', 'ready', 2]],
      since: [['Pod/x/a', 'created', 7]],
    },
    {
      name: 'a fact new to an object since: gone, the others kept in order',
      upTo: [
        ['Pod/x/a', 'created', 1],
        ['Pod/x/b', 'created', 2],
      ],
      since: [['Pod/x/a', 'evicted', 8, 'Pod/x/b', 'ready', 9]],
    },
    {
      name: 'an object first remembered since: gone',
      upTo: [['Pod/x/a', 'created', 1]],
      since: [
        ['Pod/x/c', 'created', 5],
        ['Pod/x/a', 'created', 6, 'Pod/x/d', 'created', 7],
      ],
    },
    {
      name: 'remembered in several checkpoints before and after, twice in one log',
      upTo: [['Pod/x/a', 'created', 1, 'Pod/x/b', 'created', 2], [], ['Pod/x/a', 'ready', 3, 'Pod/x/a', 'created', 4]],
      since: [
        ['Pod/x/a', 'ready', 5, 'Pod/x/b', 'created', 6, 'Pod/x/b', 'created', 7],
        ['Pod/x/e', 'created', 8],
      ],
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const live = factsFrom([...c.upTo, ...c.since]);
      const got = factsAt(live, c.since, c.upTo);
      assert.equal(got, live, 'the live map, put back in place');
      assert.deepEqual([...got], [...factsFrom(c.upTo)], 'as made from the logs up to the checkpoint, order included');
    });
});
