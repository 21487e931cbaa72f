/**
 * A ReplicaSet check a checkpoint kept is used again for the record put back, or for the record of a simulation
 * made like another (startLike.ts), while that record has the selector, template, spec object and replicas the
 * check was made from (entry.ts isCurrent): checkReplicaSet reads nothing else but the name. Copies share those
 * objects (cloneReplicaSet); a record changed since is checked again. Either way the restored controller must
 * check every ReplicaSet as a controller started on the same records does.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { World, T0, podObject, rsObject } from './harness';
import { TestHost } from './harness';
import { behaviourOf, kubeVersion } from '../../../../src/engine/versions/table';
import { defaultControllerConfig, defaultKubeletConfig } from '../../../../src/engine/config/defaults';
import { clonePod, cloneReplicaSet } from '../../../../src/engine/simulation/checkpoint';
import { createReplicaSetController } from '../../../../src/engine/controllers/replicaSet';
import type { CachedCheck } from '../../../../src/engine/controllers/replicaSet/entry';
import type { KObject, ReplicaSetRecord } from '../../../../src/engine/model/types';

const MINOR = 31;
const KEY = 'default/web';

/** what a case does to the copy of `default/web` before the restore (nothing: the copy as cloneReplicaSet makes it) */
interface Case {
  name: string;
  change?: (rs: ReplicaSetRecord) => void;
  /** the checkpoint's check is the one used (none made again) */
  reused: boolean;
  manageable: boolean;
}

const cases: Case[] = [
  { name: 'a copy sharing its selector, template and spec keeps the check the checkpoint kept', reused: true, manageable: true },
  {
    name: 'another record of the same name with the same objects (deleted and created again) keeps the check: the uid is not read',
    change: (rs) => {
      rs.meta.uid = 'uid-rs-web-2';
    },
    reused: true,
    manageable: true,
  },
  {
    name: 'a copy with a selector object of the same labels is checked again, and found the same',
    change: (rs) => {
      rs.selector = { matchLabels: { app: 'web' } };
    },
    reused: false,
    manageable: true,
  },
  {
    name: 'a copy whose new selector does not match its template is checked again and not managed',
    change: (rs) => {
      rs.selector = { matchLabels: { app: 'other' } };
    },
    reused: false,
    manageable: false,
  },
  {
    name: 'a copy scaled to -1 is checked again and not managed',
    change: (rs) => {
      rs.replicas = -1;
      rs.raw = { ...rs.raw, spec: { ...(rs.raw.spec as KObject), replicas: -1 } };
    },
    reused: false,
    manageable: false,
  },
  {
    name: 'a copy whose spec object was replaced (no spec.replicas any more) is checked again: taken as 1',
    change: (rs) => {
      rs.replicas = undefined;
      const spec = { ...(rs.raw.spec as KObject) };
      delete spec.replicas;
      rs.raw = { ...rs.raw, spec };
    },
    reused: false,
    manageable: true,
  },
  {
    name: 'a copy with a new template whose labels the selector does not match is checked again and not managed',
    change: (rs) => {
      rs.template = { metadata: { labels: { app: 'changed' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } };
    },
    reused: false,
    manageable: false,
  },
];

function copiedHost(w: World): TestHost {
  const behaviour = behaviourOf(kubeVersion(MINOR));
  const host = new TestHost({ now: T0, config: defaultControllerConfig(behaviour), kubelet: defaultKubeletConfig(behaviour), behaviour });
  for (const [k, rs] of w.host.cluster.replicaSets) host.cluster.replicaSets.set(k, cloneReplicaSet(rs));
  for (const [k, p] of w.host.cluster.pods) host.cluster.pods.set(k, clonePod(p));
  return host;
}

const checked = (c: { manageable: boolean; problems: unknown[] }) => JSON.stringify({ manageable: c.manageable, problems: c.problems });

describe('a ReplicaSet check carried over a restore', () => {
  for (const c of cases) {
    it(c.name, () => {
      const w = new World({
        minor: MINOR,
        replicaSets: [rsObject('web'), rsObject('db', { replicas: 2 })],
        pods: [podObject('web-a', 'web'), podObject('db-a', 'db')],
      });
      const saved = w.rs.save() as { checks: [string, CachedCheck][] };
      const kept = new Map(saved.checks);
      const host = copiedHost(w);
      c.change?.(host.cluster.replicaSets.get(KEY)!);

      const restored = createReplicaSetController({ verifyTallies: true });
      restored.restore(saved, host);
      const started = createReplicaSetController({ verifyTallies: true });
      started.start(host, 'reconstructed');

      for (const [key, rs] of host.cluster.replicaSets) {
        const got = restored.check(rs);
        assert.equal(checked(got), checked(started.check(rs)), `${key}: checked as a controller started on the same records`);
        const reused = key === KEY ? c.reused : true;
        assert.equal(got === kept.get(key)!.check, reused, `${key}: the checkpoint's check ${reused ? 'used' : 'made again'}`);
      }
      assert.equal(restored.check(host.cluster.replicaSets.get(KEY)!).manageable, c.manageable);
      // the pods' problems are the checkpoint's by design (restore.test.ts); the ReplicaSets' are the checks'
      const ofReplicaSets = (ps: { code: string }[]) => ps.filter((p) => p.code.startsWith('replicaset-'));
      assert.deepEqual(ofReplicaSets(restored.problems()), ofReplicaSets(started.problems()));
    });
  }
});
