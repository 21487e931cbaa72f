/**
 * A pod's update finds the owner index's set that holds it through the pod's controller
 * (informerHandlers.ts setHolding) before the per-pod map `ownerOfPod`: the two must name the
 * same set, and the verifying controller throws when they do not.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { World, rsObject, podObject } from './harness';

interface Case {
  name: string;
  /** what is done to the index before the update (nothing: an index as the controller keeps it) */
  spoil?: (w: World) => void;
  /** undefined: the update goes through, and the counts are the pods' */
  throws?: RegExp;
}

const cases: Case[] = [
  { name: 'an update under the same controller counts the pod where the index holds it' },
  {
    name: 'the verifying controller throws when the controller set holds a pod that ownerOfPod does not name',
    spoil: (w) => w.rs.ownerOfPod.delete('default/web-a'),
    throws: /pod default\/web-a is in the set of uid-rs-web, which ownerOfPod does not name/,
  },
];

for (const c of cases) {
  test(`a pod's set found through its controller: ${c.name}`, () => {
    const w = new World({
      minor: 31,
      replicaSets: [rsObject('web', { replicas: 2 })],
      pods: [podObject('web-a', 'web', { node: 'n1' }), podObject('web-b', 'web', { node: 'n1' })],
    });
    w.settle();
    c.spoil?.(w);
    const pod = w.host.cluster.pods.get('default/web-a')!;
    pod.conditions.find((x) => x.type === 'Ready')!.status = 'False';
    if (c.throws) {
      assert.throws(() => w.host.updatePod(pod), c.throws);
      return;
    }
    w.host.updatePod(pod);
    w.settle();
    const rs = w.host.cluster.replicaSets.get('default/web')!;
    assert.deepEqual([rs.status?.replicas, rs.status?.readyReplicas], [2, 1]);
  });
}
