/**
 * The causes memory (SimHost.remember / recall) is kept per object, in pairs,
 * and checkpoints keep a log of what was remembered: a fact remembered again
 * replaces the earlier one, facts of one object or of objects whose refs share
 * a prefix stay apart, and a step back gives the facts as they were then.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setFact, type Facts } from '../../../src/engine/simulation/simHost';
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
