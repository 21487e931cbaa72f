#!/usr/bin/env node
// Writes the bundled example clusters (examples/clusters/*.yaml) as
// `kubectl get nodes,pods,replicasets,daemonsets,leases -A -o yaml` would
// export them. Deterministic: run it again and git shows no change.
import { writeFileSync } from 'node:fs';
import { stringify } from 'yaml';

const root = new URL('..', import.meta.url).pathname;
const NOW = Date.parse('2026-01-01T00:00:00Z');
const iso = (ms) => new Date(ms).toISOString().replace('.000Z', 'Z');
const micro = (ms) => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');
let uidCounter = 0;
const uid = () => `00000000-0000-4000-8000-${(++uidCounter).toString(16).padStart(12, '0')}`;
// The alphabet Kubernetes uses for generated name suffixes (no vowels, no 0/1/3).
const ALNUM = 'bcdfghjklmnpqrstvwxz2456789';
const suffix = (i) => Array.from({ length: 5 }, (_, k) => ALNUM[Math.floor((i * 7919 + 104_729) / ALNUM.length ** k) % ALNUM.length]).join('');

const DEFAULT_TOLERATIONS = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];

function node(name, zone, { region = 'us-east-1', heartbeatAgo = 2_000, ready = 'True', extraLabels = {}, taints } = {}) {
  const hb = iso(NOW - heartbeatAgo);
  const cond = (type, status, reason, message) => ({
    type,
    status,
    lastHeartbeatTime: hb,
    lastTransitionTime: '2025-12-01T00:00:00Z',
    reason,
    message,
  });
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      uid: uid('node'),
      creationTimestamp: '2025-12-01T00:00:00Z',
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'topology.kubernetes.io/region': region,
        'topology.kubernetes.io/zone': zone,
        'failure-domain.beta.kubernetes.io/region': region,
        'failure-domain.beta.kubernetes.io/zone': zone,
        ...extraLabels,
      },
    },
    spec: { podCIDR: '10.244.0.0/24', ...(taints ? { taints } : {}) },
    status: {
      capacity: { cpu: '4', memory: '16Gi', pods: '110' },
      allocatable: { cpu: '3920m', memory: '15Gi', pods: '110' },
      conditions: [
        cond('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
        cond('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
        cond('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
        cond(
          'Ready',
          ready,
          ready === 'True' ? 'KubeletReady' : 'KubeletNotReady',
          ready === 'True' ? 'kubelet is posting ready status' : 'container runtime is down',
        ),
      ],
      nodeInfo: {
        kubeletVersion: 'v1.31.4',
        containerRuntimeVersion: 'containerd://1.7.22',
        osImage: 'Ubuntu 22.04.5 LTS',
        architecture: 'amd64',
        operatingSystem: 'linux',
      },
    },
  };
}

function lease(nodeObj, heartbeatAgo = 2_000) {
  return {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: {
      name: nodeObj.metadata.name,
      namespace: 'kube-node-lease',
      uid: uid('lease'),
      creationTimestamp: '2025-12-01T00:00:00Z',
      ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: nodeObj.metadata.name, uid: nodeObj.metadata.uid }],
    },
    spec: { holderIdentity: nodeObj.metadata.name, leaseDurationSeconds: 40, renewTime: micro(NOW - heartbeatAgo) },
  };
}

function pod(name, nodeName, { namespace = 'default', owner, tolerations = DEFAULT_TOLERATIONS, labels = {}, createdAgo = 3_600_000 } = {}) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      uid: uid('pod'),
      creationTimestamp: iso(NOW - createdAgo),
      labels,
      ...(owner
        ? {
            ownerReferences: [
              { apiVersion: 'apps/v1', kind: owner.kind, name: owner.metadata.name, uid: owner.metadata.uid, controller: true, blockOwnerDeletion: true },
            ],
          }
        : {}),
    },
    spec: { nodeName, containers: [{ name: 'main', image: 'registry.k8s.io/pause:3.9' }], tolerations },
    status: {
      phase: 'Running',
      conditions: [
        { type: 'Initialized', status: 'True', lastTransitionTime: iso(NOW - createdAgo) },
        { type: 'Ready', status: 'True', lastTransitionTime: iso(NOW - createdAgo + 5_000) },
        { type: 'ContainersReady', status: 'True', lastTransitionTime: iso(NOW - createdAgo + 5_000) },
        { type: 'PodScheduled', status: 'True', lastTransitionTime: iso(NOW - createdAgo) },
      ],
      containerStatuses: [{ name: 'main', ready: true, restartCount: 0, image: 'registry.k8s.io/pause:3.9', started: true }],
    },
  };
}

function replicaSet(name, replicas, labels, namespace = 'default') {
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: { name, namespace, uid: uid('rs'), generation: 1, creationTimestamp: iso(NOW - 86_400_000), labels },
    spec: {
      replicas,
      selector: { matchLabels: labels },
      template: { metadata: { labels }, spec: { containers: [{ name: 'main', image: 'registry.k8s.io/pause:3.9' }] } },
    },
    status: { replicas, fullyLabeledReplicas: replicas, readyReplicas: replicas, availableReplicas: replicas, observedGeneration: 1 },
  };
}

function daemonSet(name, namespace = 'kube-system') {
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: { name, namespace, uid: uid('ds'), generation: 1, creationTimestamp: '2025-12-01T00:00:00Z', labels: { 'k8s-app': name } },
    spec: {
      selector: { matchLabels: { 'k8s-app': name } },
      template: {
        metadata: { labels: { 'k8s-app': name } },
        spec: { containers: [{ name, image: 'registry.k8s.io/kube-proxy:v1.31.4' }], tolerations: [{ operator: 'Exists' }] },
      },
    },
  };
}

/** One cluster: zones given as [zone, nodeCount]; `web` pods spread round-robin. */
function cluster({ zones, webPods, extraPods = () => [] }) {
  uidCounter = 0;
  const nodes = [];
  for (const [zone, count, prefix] of zones) for (let i = 1; i <= count; i++) nodes.push(node(`node-${prefix}${i}`, zone));
  const ds = daemonSet('kube-proxy');
  const web = replicaSet('web-7d9f', webPods, { app: 'web' });
  const pods = [];
  nodes.forEach((n) =>
    pods.push(
      pod(`kube-proxy-${n.metadata.name.slice(5)}`, n.metadata.name, {
        namespace: 'kube-system',
        owner: ds,
        tolerations: [{ operator: 'Exists' }],
        labels: { 'k8s-app': 'kube-proxy' },
      }),
    ),
  );
  for (let i = 0; i < webPods; i++) {
    pods.push(pod(`web-7d9f-${suffix(i)}`, nodes[i % nodes.length].metadata.name, { owner: web, labels: { app: 'web' } }));
  }
  pods.push(...extraPods(nodes));
  return { apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items: [...nodes, ...pods, web, ds, ...nodes.map((n) => lease(n))] };
}

const HEADER = '# Generated by scripts/make-example-clusters.mjs: a kubectl export\n# (kubectl get nodes,pods,replicasets,daemonsets,leases -A -o yaml).\n';
function write(file, list) {
  writeFileSync(`${root}examples/clusters/${file}`, HEADER + stringify(list, { lineWidth: 0 }));
}

// Two zones of three nodes and one of six: the small cluster most examples use.
write(
  'three-zones.yaml',
  cluster({
    zones: [
      ['us-east-1a', 6, 'a'],
      ['us-east-1b', 3, 'b'],
      ['us-east-1c', 3, 'c'],
    ],
    webPods: 12,
    extraPods: () => [
      pod('toleration-zero', 'node-a1', {
        tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 0 }, DEFAULT_TOLERATIONS[0]],
      }),
      pod('toleration-sixty', 'node-a1', {
        tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }, DEFAULT_TOLERATIONS[0]],
      }),
      pod('toleration-unset', 'node-a1', { tolerations: [] }),
      pod('toleration-forever', 'node-a1', {
        tolerations: [{ key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' }, DEFAULT_TOLERATIONS[0]],
      }),
    ],
  }),
);

// A zone larger than largeClusterSizeThreshold (50): 60 nodes in us-east-1a, 3 in us-east-1b.
write(
  'large-zone.yaml',
  cluster({
    zones: [
      ['us-east-1a', 60, 'a'],
      ['us-east-1b', 3, 'b'],
    ],
    webPods: 63,
  }),
);
