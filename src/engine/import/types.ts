/**
 * What the importers find in the evidence a cluster leaves behind: the real
 * controllers' decisions (in the trace's own vocabulary, so `compare` can line
 * them up with the simulated ones) and observations of the world (heartbeats,
 * conditions the kubelet posted, user taints, deletions, restarts) from which
 * the scenario's timeline is inferred. Every item keeps the line it came from.
 */
import type { Action, ControllerName } from '../trace/decision';
import type { Micros } from '../model/time';
import type { KObject } from '../model/types';
import type { Problem } from '../problems';

export type EvidenceFormat =
  | 'kubectl-events'
  | 'events-table'
  | 'audit-log'
  | 'controller-manager-log'
  | 'cluster-info-dump'
  | 'describe-node'
  | 'describe-pod'
  | 'get-table'
  | 'kwok-recording'
  /** the cluster's objects (a kubectl export) given among the evidence: read as the snapshot (snapshotInputs.ts) */
  | 'snapshot';

/** Where a finding came from: the file, the 1-based line, and the line itself (shortened). */
export interface Evidence {
  file: string;
  line: number;
  text: string;
  format: EvidenceFormat;
  /** within one input, what kind of record it is (a log line or a logged Event): the same decision comes by both */
  channel?: 'log' | 'event' | 'audit';
}

export interface RealDecision {
  time: Micros;
  controller: ControllerName;
  action: Action;
  /** `Node/NAME`, `Pod/NS/NAME`, `ReplicaSet/NS/NAME`, `Zone/KEY` as in the trace */
  object: string;
  /** what distinguishes two decisions of one kind on one object: a taint `key:Effect`, a zone state, a pod */
  detail?: string;
  evidence: Evidence;
  /** the same decision as other inputs (or the Event it logged) record it */
  also?: Evidence[];
}

export type Observation =
  /** the kubelet renewed its Lease or posted its status */
  | { kind: 'heartbeat'; time: Micros; node: string; via: 'lease' | 'status'; mark: 'first' | 'stop' | 'resume' | 'last'; evidence: Evidence }
  /** the kubelet (not the controller) posted a condition */
  | { kind: 'condition'; time: Micros; node: string; type: string; status: string; reason?: string; evidence: Evidence }
  /** someone other than the controllers added or removed a taint */
  | { kind: 'taint' | 'untaint'; time: Micros; node: string; key: string; value?: string; effect: string; by: string; evidence: Evidence }
  | { kind: 'delete'; time: Micros; ref: string; by: string; evidence: Evidence }
  | { kind: 'scale'; time: Micros; replicaSet: string; replicas: number; by: string; evidence: Evidence }
  /** a new kube-controller-manager leader */
  | { kind: 'restart'; time: Micros; identity: string; evidence: Evidence }
  /** an object as the evidence shows it (a Node or Pod seen in an audit body or an event) */
  | { kind: 'object'; time: Micros; object: KObject; evidence: Evidence }
  /** a node the evidence names in passing (another controller's log line): it exists, and nothing says it failed */
  | { kind: 'node-seen'; node: string; evidence: Evidence }
  /** a node's STATUS in a `kubectl get nodes` table, which has no time: Ready, NotReady (Ready False or Unknown), Unknown (no Ready condition) */
  | { kind: 'node-status'; node: string; ready: 'Ready' | 'NotReady' | 'Unknown'; unschedulable: boolean; evidence: Evidence }
  /**
   * a pod and the node it ran on; `listed`: a `kubectl get pods -o wide` row of a pod that had not ended (its READY
   * column: all containers ready), which makes the pod when no snapshot or other evidence holds it
   */
  | { kind: 'pod-on-node'; pod: string; node: string; listed?: { ready: boolean }; evidence: Evidence }
  /** a Kubernetes version named by the evidence (a user agent, a kubelet version) */
  | { kind: 'version'; version: string; evidence: Evidence }
  /** a log line whose wording only some versions print (klogPatterns.ts `minors`): the minors that print it */
  | { kind: 'wording'; minors: readonly [number, number]; evidence: Evidence };

export interface ImportResult {
  decisions: RealDecision[];
  observations: Observation[];
  problems: Problem[];
  /** each input and the format it was read as (or why it was not) */
  inputs: { file: string; format: EvidenceFormat | 'unrecognised'; lines: number }[];
}

export const emptyResult = (): ImportResult => ({ decisions: [], observations: [], problems: [], inputs: [] });

/** A line of evidence kept in a finding: long lines are cut, so a scenario stays readable. */
export function evidenceOf(file: string, line: number, text: string, format: EvidenceFormat, channel?: Evidence['channel']): Evidence {
  const t = text.trim();
  return {
    file,
    line,
    text: t.length > 240 ? `${t.slice(0, 237)}...` : t,
    format,
    channel:
      channel ??
      (format === 'audit-log'
        ? 'audit'
        : format === 'kubectl-events' || format === 'events-table' || format === 'describe-node' || format === 'describe-pod'
          ? 'event'
          : 'log'),
  };
}
