/**
 * Two nodes and a ReplicaSet of four pods, two of them (and a pod of no ReplicaSet) on node a with
 * NoExecute tolerations for ever: when node a is lost they stay on it, marked not Ready pass after pass
 * (neither evicted nor replaced). For the tests of MarkPodsNotReady's writes across checkpoints.
 */
import type { KObject } from '../../src/engine/model/types';
import { node, pod, replicaSet } from './scenario';

const owner: KObject = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-rs-default-web', controller: true, blockOwnerDeletion: true };
const tolerations: KObject[] = ['unreachable', 'not-ready'].map((t) => ({ key: `node.kubernetes.io/${t}`, operator: 'Exists', effect: 'NoExecute' }));

export const lostNodeObjects = (): KObject[] => [
  node('a'),
  node('b'),
  replicaSet('default', 'web', 4, { app: 'web' }),
  pod('default', 'web-1', 'a', { labels: { app: 'web' }, owner, tolerations }),
  pod('default', 'web-2', 'b', { labels: { app: 'web' }, owner }),
  pod('default', 'web-3', 'a', { labels: { app: 'web' }, owner, tolerations }),
  pod('default', 'web-4', 'b', { labels: { app: 'web' }, owner }),
  pod('default', 'other', 'a', { labels: { app: 'x' }, tolerations }),
];
