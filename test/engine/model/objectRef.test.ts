import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseObjectRef } from '../../../src/engine/model/objectRef';

describe('parseObjectRef', () => {
  const cases: { text: string; want: ReturnType<typeof parseObjectRef> | 'error'; name: string }[] = [
    { name: 'a pod with its namespace', text: 'Pod/kube-system/x', want: { kind: 'Pod', namespace: 'kube-system', name: 'x', ref: 'Pod/kube-system/x' } },
    {
      name: 'a pod without a namespace is in default',
      text: 'Pod/web-1',
      want: { kind: 'Pod', namespace: 'default', name: 'web-1', ref: 'Pod/default/web-1' },
    },
    {
      name: 'the kind is matched without regard to case and spelt as the API does',
      text: 'replicaset/web',
      want: { kind: 'ReplicaSet', namespace: 'default', name: 'web', ref: 'ReplicaSet/default/web' },
    },
    { name: 'a node has no namespace', text: 'Node/a', want: { kind: 'Node', name: 'a', ref: 'Node/a' } },
    {
      name: 'a Lease without a namespace is a node heartbeat in kube-node-lease',
      text: 'Lease/n1',
      want: { kind: 'Lease', namespace: 'kube-node-lease', name: 'n1', ref: 'Lease/kube-node-lease/n1' },
    },
    {
      name: 'a Lease with its namespace keeps it',
      text: 'Lease/kube-system/kube-controller-manager',
      want: { kind: 'Lease', namespace: 'kube-system', name: 'kube-controller-manager', ref: 'Lease/kube-system/kube-controller-manager' },
    },
    {
      name: 'a DaemonSet',
      text: 'DaemonSet/kube-system/kube-proxy',
      want: { kind: 'DaemonSet', namespace: 'kube-system', name: 'kube-proxy', ref: 'DaemonSet/kube-system/kube-proxy' },
    },
    { name: 'a node with a namespace is refused', text: 'Node/ns/n1', want: 'error' },
    { name: 'an empty part is refused', text: 'Pod//x', want: 'error' },
    { name: 'a kind the simulation does not know is refused', text: 'Deployment/web', want: 'error' },
    { name: 'a word without a slash is refused', text: 'nonsense', want: 'error' },
    { name: 'four parts are refused', text: 'Pod/a/b/c', want: 'error' },
    { name: 'a kind alone is refused', text: 'Pod', want: 'error' },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const got = parseObjectRef(c.text);
      if (c.want === 'error')
        assert.ok('error' in got && got.error.includes(JSON.stringify(c.text)), `expected an error that quotes the input, got ${JSON.stringify(got)}`);
      else assert.deepEqual(got, c.want);
    });
  }
});
