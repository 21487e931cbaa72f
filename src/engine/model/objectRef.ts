/**
 * Object references as users write them (`Kind/namespace/name`, or
 * `Kind/name` in the kind's default namespace): the scenario's events and
 * expectations, the world applying those events, and the language server's
 * go-to-definition all read them with this one parser, so that they agree on
 * what a reference names.
 */
import { defaultNamespaceOf, type ObjectRef } from './types';

/** The kinds a reference may name (matched without regard to case), and whether they are namespaced. */
const REF_KINDS: Record<string, { kind: string; namespaced: boolean }> = {
  node: { kind: 'Node', namespaced: false },
  pod: { kind: 'Pod', namespaced: true },
  replicaset: { kind: 'ReplicaSet', namespaced: true },
  daemonset: { kind: 'DaemonSet', namespaced: true },
  lease: { kind: 'Lease', namespaced: true },
};

export interface ParsedObjectRef {
  /** as the API spells it: `Pod`, whatever the case written */
  kind: string;
  /** undefined for a Node */
  namespace?: string;
  name: string;
  /** the trace's name for the object: `Node/NAME` or `Kind/NAMESPACE/NAME` */
  ref: ObjectRef;
}

/** Parses `Kind/ns/name` or `Kind/name` (namespace `default`; kube-node-lease for a Lease). */
export function parseObjectRef(text: string): ParsedObjectRef | { error: string } {
  const parts = text.split('/');
  const k = REF_KINDS[parts[0]?.toLowerCase() ?? ''];
  if (!k) return { error: `expected Kind/namespace/name or Kind/name with Kind one of Node, Pod, ReplicaSet, DaemonSet, Lease, found ${JSON.stringify(text)}` };
  if (parts.some((p) => p === '')) return { error: `an empty part in ${JSON.stringify(text)}` };
  if (!k.namespaced) {
    if (parts.length !== 2) return { error: `a ${k.kind} has no namespace: write ${k.kind}/NAME, found ${JSON.stringify(text)}` };
    return { kind: k.kind, name: parts[1], ref: `${k.kind}/${parts[1]}` };
  }
  if (parts.length !== 2 && parts.length !== 3) return { error: `expected ${k.kind}/NAMESPACE/NAME, found ${JSON.stringify(text)}` };
  const [namespace, name] = parts.length === 2 ? [defaultNamespaceOf(k.kind)!, parts[1]] : [parts[1], parts[2]];
  return { kind: k.kind, namespace, name, ref: `${k.kind}/${namespace}/${name}` };
}
