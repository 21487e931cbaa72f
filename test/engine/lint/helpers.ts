/**
 * Test documents with marked ranges: `«...»` marks the exact range a problem
 * must have (stripped before linting), `|` a caret. A small snapshot to name.
 */
import { MemoryFs } from '../../../src/engine/snapshot/source';

/** Strips `«` `»` markers; returns the text and the marked [start, end) ranges in order. */
export function marked(src: string): { text: string; ranges: [number, number][] } {
  let text = '';
  const ranges: [number, number][] = [];
  const open: number[] = [];
  for (const ch of src) {
    if (ch === '«') open.push(text.length);
    else if (ch === '»') ranges.push([open.pop()!, text.length]);
    else text += ch;
  }
  return { text, ranges };
}

/** Strips the one `|` caret; returns the text and its offset. */
export function caret(src: string): { text: string; offset: number } {
  const offset = src.indexOf('|');
  if (offset < 0 || src.indexOf('|', offset + 1) >= 0) throw new Error('exactly one | caret expected');
  return { text: src.slice(0, offset) + src.slice(offset + 1), offset };
}

/** Applies a fix's edits to a text. */
export function applyEdits(text: string, edits: { offset: number; endOffset: number; newText: string }[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.offset - a.offset)) out = out.slice(0, e.offset) + e.newText + out.slice(e.endOffset);
  return out;
}

export const DIR = '/ws';
export const SCENARIO = `${DIR}/scenario.yaml`;
export const CLUSTER = `${DIR}/cluster.yaml`;

/** Two nodes in zone a, one pod, one ReplicaSet; kubelets report v1.12 (so the loader does not warn about Leases). */
export const CLUSTER_YAML = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Node
  metadata:
    name: node-a1
    labels: {topology.kubernetes.io/zone: zone-a}
  status:
    conditions:
    - {type: Ready, status: "True", lastHeartbeatTime: "2026-01-01T00:00:00Z", lastTransitionTime: "2025-12-01T00:00:00Z"}
    nodeInfo: {kubeletVersion: v1.12.1}
- apiVersion: v1
  kind: Node
  metadata:
    name: node-a2
    labels: {topology.kubernetes.io/zone: zone-a}
  status:
    conditions:
    - {type: Ready, status: "True", lastHeartbeatTime: "2026-01-01T00:00:00Z", lastTransitionTime: "2025-12-01T00:00:00Z"}
    nodeInfo: {kubeletVersion: v1.12.1}
- apiVersion: apps/v1
  kind: ReplicaSet
  metadata: {name: web, namespace: default, uid: rs-1}
  spec: {replicas: 1, selector: {matchLabels: {app: web}}, template: {metadata: {labels: {app: web}}, spec: {containers: [{name: c, image: nginx}]}}}
- apiVersion: v1
  kind: Pod
  metadata:
    name: web-1
    namespace: default
    labels: {app: web}
    ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: web, uid: rs-1, controller: true}]
  spec: {nodeName: node-a1, containers: [{name: c, image: nginx}]}
  status: {phase: Running}
`;

export const LEASES_YAML = `apiVersion: v1
kind: List
items:
- apiVersion: coordination.k8s.io/v1
  kind: Lease
  metadata: {name: node-a1, namespace: kube-node-lease}
  spec: {holderIdentity: node-a1, leaseDurationSeconds: 40, renewTime: "2026-01-01T00:00:00.000000Z"}
- apiVersion: coordination.k8s.io/v1
  kind: Lease
  metadata: {name: node-a2, namespace: kube-node-lease}
  spec: {holderIdentity: node-a2, leaseDurationSeconds: 40, renewTime: "2026-01-01T00:00:00.000000Z"}
`;

export function workspace(extra: Record<string, string> = {}): MemoryFs {
  return new MemoryFs({ [CLUSTER]: CLUSTER_YAML, ...extra });
}

/** A scenario over cluster.yaml: the head, then `body` (controllerManager, kubelet, events, ...). */
export function scenario(version: string, body: string): string {
  return `apiVersion: controllerstepper.io/v1alpha1
kind: Scenario
kubernetesVersion: "${version}"
startTime: "2026-01-01T00:00:00Z"
snapshot: ./cluster.yaml
${body}`;
}
