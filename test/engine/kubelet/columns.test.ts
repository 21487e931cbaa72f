/**
 * The kubelets' columns by slot (kubelet/state.ts KubeletColumns) against what the map of state
 * objects they replaced gave: nodes added, deleted and added again keep the map's order (a new name
 * last, a name set again in its place, the later ones moving down on a delete), and with it the
 * order of each instant's renewal batch; every slot is found by its name; a checkpoint taken before
 * the changes puts the same order and times back. Each case runs a list of changes at given
 * instants, with the model (a Map of names) beside it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Kubelets } from '../../../src/engine/kubelet/kubelets';
import { emptyCluster } from '../../../src/engine/model/cluster';
import { toLeaseRecord, toNodeRecord } from '../../../src/engine/model/convert';
import { seconds, type Micros } from '../../../src/engine/model/time';
import { lease, node, T0_MICROS } from '../../helpers/scenario';

const SETTINGS = {
  updateFrequency: seconds(10),
  reportFrequency: seconds(60),
  leaseRenewInterval: seconds(10),
  leases: true,
  gracePeriod: seconds(40),
  checkDue: true,
};
const s = (n: number): Micros => T0_MICROS + seconds(n);

type Change = { at: number; add?: string; remove?: string; stop?: string };
const cases: { name: string; start: string[]; changes: Change[] }[] = [
  { name: 'no change', start: ['a', 'b', 'c'], changes: [] },
  { name: 'the middle one deleted: the later ones move down', start: ['a', 'b', 'c', 'd'], changes: [{ at: 12, remove: 'b' }] },
  {
    name: 'the first deleted, then added again: it goes last',
    start: ['a', 'b', 'c'],
    changes: [
      { at: 12, remove: 'a' },
      { at: 23, add: 'a' },
    ],
  },
  {
    name: 'the last deleted, a new one added',
    start: ['a', 'b', 'c'],
    changes: [
      { at: 5, remove: 'c' },
      { at: 15, add: 'e' },
    ],
  },
  { name: 'an existing node added again: it keeps its place', start: ['a', 'b', 'c'], changes: [{ at: 14, add: 'b' }] },
  {
    name: 'many deletes and adds, a kubelet stopped among them',
    start: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r'],
    changes: [
      { at: 3, remove: 'a' },
      { at: 3, remove: 'r' },
      { at: 11, stop: 'e' },
      { at: 11, add: 's' },
      { at: 21, remove: 'j' },
      { at: 22, add: 'a' },
      { at: 22, add: 'j' },
      { at: 35, remove: 's' },
    ],
  },
];

function made(start: string[]) {
  const cluster = emptyCluster();
  const batches: string[][] = [];
  const k = new Kubelets(cluster, SETTINGS, {
    nodeStatusChanged() {},
    leaseCreated() {},
    leasesRenewed: (batch, count) => batches.push(batch.slice(0, count).map((l) => l.meta.name)),
  });
  for (const name of start) {
    cluster.nodes.set(name, toNodeRecord(node(name))!);
    cluster.leases.set(name, toLeaseRecord(lease(name, '1s'))!);
  }
  k.init(T0_MICROS);
  return { k, cluster, batches };
}

describe('the kubelets in columns keep the order and values of the map they replaced', () => {
  for (const c of cases)
    it(c.name, () => {
      const { k, cluster, batches } = made(c.start);
      const model = new Map(c.start.map((n) => [n, true]));
      const saved = k.save();
      const viewsAtSave = JSON.stringify(k.views());
      let done = 0;
      for (let t = 1; t <= 45; t++) {
        for (const ch of c.changes.filter((x) => x.at === t)) {
          if (ch.remove) {
            cluster.nodes.delete(ch.remove);
            k.removeNode(ch.remove);
            model.delete(ch.remove);
          }
          if (ch.add) {
            const rec = toNodeRecord(node(ch.add, { heartbeatAgo: '0s' }))!;
            cluster.nodes.set(ch.add, rec);
            k.addNode(rec, s(t));
            model.set(ch.add, model.get(ch.add) ?? true);
          }
          if (ch.stop) {
            k.stop(ch.stop, undefined);
            model.set(ch.stop, false);
          }
        }
        batches.length = 0;
        k.materialise(s(t));
        const running = [...model].filter(([, on]) => on).map(([n]) => n);
        // a batch renews the running kubelets due now, in the model's order
        for (const b of batches)
          assert.deepEqual(
            b,
            running.filter((n) => b.includes(n)),
            `the batch's order at ${t}s`,
          );
        done += batches.length;
        assert.deepEqual(
          k.views().map((v) => v.node),
          [...model.keys()],
          `the slots' order at ${t}s`,
        );
        for (const name of model.keys()) assert.equal(k.view(name)?.node, name, `${name}'s slot found by its name at ${t}s`);
        for (const name of c.start) if (!model.has(name)) assert.equal(k.view(name), undefined, `${name} gone at ${t}s`);
      }
      assert.ok(done >= 4, 'renewals at 10, 20, 30 and 40 s');
      k.restore(saved, cluster);
      assert.equal(JSON.stringify(k.views()), viewsAtSave, 'the checkpoint before the changes put back');
      for (const name of c.start) assert.equal(k.view(name)?.node, name);
    });
});
