/**
 * The small cluster the ReplicaSet entry tests run (restoreEntries, savedEntries): two nodes, a
 * ReplicaSet of three pods over both, one of one pod, a quiet one, and a waiting one whose pods are
 * not available for `slow.minReadySeconds` (its entry is timed meanwhile).
 */
import type { KObject } from '../../../../src/engine/model/types';
import { node, pod, replicaSet } from '../../../helpers/scenario';

const owner = (name: string): KObject => ({
  apiVersion: 'apps/v1',
  kind: 'ReplicaSet',
  name,
  uid: `uid-rs-default-${name}`,
  controller: true,
  blockOwnerDeletion: true,
});

export function entryCluster(slow: { replicas: number; minReadySeconds: number }): KObject[] {
  return [
    node('a'),
    node('b'),
    replicaSet('default', 'web', 3, { app: 'web' }),
    replicaSet('default', 'db', 1, { app: 'db' }),
    replicaSet('default', 'quiet', 1, { app: 'quiet' }),
    withMinReady(replicaSet('default', 'slow', slow.replicas, { app: 'slow' }), slow.minReadySeconds),
    pod('default', 'web-1', 'a', { labels: { app: 'web' }, owner: owner('web') }),
    pod('default', 'web-2', 'b', { labels: { app: 'web' }, owner: owner('web') }),
    pod('default', 'web-3', 'b', { labels: { app: 'web' }, owner: owner('web') }),
    pod('default', 'db-1', 'b', { labels: { app: 'db' }, owner: owner('db') }),
    pod('default', 'quiet-1', 'a', { labels: { app: 'quiet' }, owner: owner('quiet') }),
    pod('default', 'slow-1', 'a', { labels: { app: 'slow' }, owner: owner('slow') }),
  ];
}

function withMinReady(rs: KObject, seconds: number): KObject {
  const spec = rs.spec as Record<string, unknown>;
  return { ...rs, spec: { ...spec, minReadySeconds: seconds } };
}
