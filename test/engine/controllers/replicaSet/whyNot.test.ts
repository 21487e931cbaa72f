/**
 * "Why are the missing pods not created" for a ReplicaSet, as data: the check that blocks it
 * (the machine's own expectations guard, asked of the ReplicaSet's machine), and a time that
 * comes true when nothing else changes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTime, minutes, type Micros } from '../../../../src/engine/model/time';
import type { WhyNot } from '../../../../src/engine/trace/whyNot';
import { World, podObject, rsObject } from './harness';

const created = (w: World) => w.host.actions('PodsCreated');
const podsCreatedWhyNot = (w: World, key: string): WhyNot | undefined =>
  w.rs.whyNot(w.host, `ReplicaSet/${key}`).find((x) => x.outcome === 'ReplicaSetPodsCreated');

interface Case {
  name: string;
  world: () => World;
  /** what the test does before asking; returns the instant the blocking check should give way */
  steps: (w: World) => Micros | undefined;
  blocking?: string;
  never?: boolean;
}

const threePods = () =>
  new World({ minor: 31, replicaSets: [rsObject('web', { replicas: 3 })], pods: [0, 1, 2].map((i) => podObject(`p${i}`, 'web', { node: 'n1' })) });

const cases: Case[] = [
  {
    name: 'nothing lacking: no why-not',
    world: threePods,
    steps: (w) => {
      w.settle();
      return undefined;
    },
  },
  {
    name: 'a deletion never observed holds the replacement back until the expectations expire',
    world: threePods,
    steps: (w) => {
      w.settle();
      w.host.dropPodEvents = true;
      const at = w.host.now;
      w.scale('default/web', 2);
      w.settle();
      w.host.dropPodEvents = false;
      w.advance(60);
      w.scale('default/web', 3);
      w.settle();
      return at + minutes(5) + 1;
    },
    blocking: 'expectationsExpired',
  },
  {
    name: 'a selector that does not match the template: never',
    world: () => new World({ minor: 31, replicaSets: [rsObject('web', { replicas: 2, selector: { matchLabels: { app: 'other' } } })] }),
    steps: (w) => {
      w.settle();
      return undefined;
    },
    blocking: 'manageable',
    never: true,
  },
];

for (const c of cases) {
  test(`ReplicaSet why-not: ${c.name}`, () => {
    const w = c.world();
    const at = c.steps(w);
    const why = podsCreatedWhyNot(w, 'default/web');
    if (c.blocking === undefined) {
      assert.equal(why, undefined);
      return;
    }
    assert.ok(why, 'a why-not for the missing pods');
    assert.equal(why.blocking?.guard, c.blocking);
    assert.equal(why.blocking?.holds, false);
    assert.equal(why.never === true, c.never === true);
    if (at === undefined) return;
    assert.equal(why.wouldFireAt, formatTime(at));
    // nothing else changes: the pods are created then, not before
    const before = created(w).length;
    w.runUntil(at - 1);
    assert.equal(created(w).length, before, 'not before the time it names');
    w.runUntil(at);
    assert.equal(created(w).length, before + 1);
    assert.equal(created(w).at(-1)!.time, formatTime(at));
    assert.equal(podsCreatedWhyNot(w, 'default/web'), undefined, 'nothing lacking any more');
  });
}
