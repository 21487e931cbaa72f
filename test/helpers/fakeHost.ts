/**
 * A ControllerHost for controller unit tests: a world, a clock the test
 * moves by hand, and the decisions recorded in order. No simulation loop:
 * the test calls the controller's entry points itself, as Kubernetes' own
 * unit tests call monitorNodeHealth with a fake clock.
 */
import type { ApiResource, ApiVerb, ControllerHost } from '../../src/engine/controllers/controllerHost';
import type { ClusterState } from '../../src/engine/model/cluster';
import { emptyCluster } from '../../src/engine/model/cluster';
import type { Micros } from '../../src/engine/model/time';
import { formatTime } from '../../src/engine/model/time';
import type { NodeRecord, ObjectRef, PodRecord, Taint } from '../../src/engine/model/types';
import type { ControllerConfig, KubeletConfig } from '../../src/engine/config/types';
import type { VersionBehaviour } from '../../src/engine/versions/types';
import type { ControllerName, Decision, DecisionInput, MachineTransition } from '../../src/engine/trace/decision';

export interface FakeHostInit {
  now: Micros;
  config: ControllerConfig;
  kubelet: KubeletConfig;
  behaviour: VersionBehaviour;
  cluster?: ClusterState;
  /** `verb resource` -> how many calls fail next */
  faults?: Record<string, number>;
}

export class FakeHost implements ControllerHost {
  now: Micros;
  pass: number | null = null;
  cluster: ClusterState;
  config: ControllerConfig;
  kubelet: KubeletConfig;
  behaviour: VersionBehaviour;
  startTime: Micros;
  controllerStartTime: Micros;
  decisions: Decision[] = [];
  faults: Record<string, number>;
  /** ControllerHost.apiCallsMayFail: unset, as a host without it (every call asked), unless a test sets it */
  apiCallsMayFail?: () => boolean;
  /** names of the hooks called, in order, e.g. `setNodeTaints node-a` */
  calls: string[] = [];
  private facts = new Map<string, number>();

  constructor(init: FakeHostInit) {
    this.now = init.now;
    this.startTime = init.now;
    this.controllerStartTime = init.now;
    this.config = init.config;
    this.kubelet = init.kubelet;
    this.behaviour = init.behaviour;
    this.cluster = init.cluster ?? emptyCluster();
    this.faults = { ...(init.faults ?? {}) };
  }

  decide(d: DecisionInput): number {
    const seq = this.decisions.length + 1;
    this.decisions.push({
      seq,
      time: formatTime(this.now),
      pass: this.pass,
      controller: d.controller,
      action: d.action,
      object: d.object,
      summary: d.summary,
      because: d.because,
      causes: d.causes ?? [],
      machine: d.machine ?? null,
      source: d.source,
      ...(d.details ? { details: d.details } : {}),
    });
    return seq;
  }
  decisionCount(): number {
    return this.decisions.length;
  }
  remember(object: ObjectRef, fact: string, seq: number): void {
    this.facts.set(`${object}|${fact}`, seq);
  }
  recall(object: ObjectRef, fact: string): number | undefined {
    return this.facts.get(`${object}|${fact}`);
  }

  apiCall(controller: ControllerName, verb: ApiVerb, resource: ApiResource, object: ObjectRef, machine?: MachineTransition | null): boolean {
    const k = `${verb} ${resource}`;
    if ((this.faults[k] ?? 0) > 0) {
      this.faults[k]--;
      this.decide({
        controller,
        action: 'ApiCallFailed',
        object,
        summary: `${verb} ${resource} failed (injected)`,
        because: [],
        machine,
        source: 'fault injection',
      });
      return false;
    }
    return true;
  }

  setNodeTaints(node: NodeRecord, taints: Taint[]): void {
    node.taints = taints;
    this.calls.push(`setNodeTaints ${node.meta.name}`);
  }
  setNodeLabels(node: NodeRecord, labels: Record<string, string>): void {
    node.meta = { ...node.meta, labels };
    this.calls.push(`setNodeLabels ${node.meta.name}`);
  }
  updateNodeStatus(node: NodeRecord): void {
    this.calls.push(`updateNodeStatus ${node.meta.name}`);
  }
  updatePod(pod: PodRecord): void {
    this.calls.push(`updatePod ${pod.meta.namespace}/${pod.meta.name}`);
  }
  createPod(pod: PodRecord): void {
    const key = `${pod.meta.namespace}/${pod.meta.name}`;
    this.cluster.pods.set(key, pod);
    if (pod.nodeName) indexPod(this.cluster, pod.nodeName, key);
    this.calls.push(`createPod ${key}`);
  }
  deletePod(pod: PodRecord): void {
    const key = `${pod.meta.namespace}/${pod.meta.name}`;
    this.cluster.pods.delete(key);
    if (pod.nodeName) this.cluster.podsByNode.get(pod.nodeName)?.delete(key);
    this.calls.push(`deletePod ${key}`);
  }

  /** decisions of one action, for assertions */
  actions(action?: string): Decision[] {
    return action ? this.decisions.filter((d) => d.action === action) : this.decisions;
  }
}

function indexPod(c: ClusterState, node: string, key: string): void {
  let s = c.podsByNode.get(node);
  if (!s) c.podsByNode.set(node, (s = new Set()));
  s.add(key);
}
