/**
 * What a kubelet posts in its node's status (pkg/kubelet/nodestatus/setters.go): its own
 * conditions, their reasons and messages, and how what it would post compares with the node.
 */
import type { ConditionStatus, NodeCondition, NodeRecord } from '../model/types';

/** Condition types the kubelet itself posts (NetworkUnavailable is set by the network plugin/route controller). */
export const KUBELET_CONDITION_TYPES: ReadonlySet<string> = new Set(['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure', 'OutOfDisk']);

/** The kubelet's reasons and messages for each condition and status (pkg/kubelet/nodestatus/setters.go). */
export const KUBELET_REASONS: Record<string, Partial<Record<ConditionStatus, [string, string]>>> = {
  Ready: { True: ['KubeletReady', 'kubelet is posting ready status'], False: ['KubeletNotReady', 'kubelet is not ready'] },
  MemoryPressure: {
    False: ['KubeletHasSufficientMemory', 'kubelet has sufficient memory available'],
    True: ['KubeletHasInsufficientMemory', 'kubelet has insufficient memory available'],
  },
  DiskPressure: { False: ['KubeletHasNoDiskPressure', 'kubelet has no disk pressure'], True: ['KubeletHasDiskPressure', 'kubelet has disk pressure'] },
  PIDPressure: {
    False: ['KubeletHasSufficientPID', 'kubelet has sufficient PID available'],
    True: ['KubeletHasInsufficientPID', 'kubelet has insufficient PID available'],
  },
  OutOfDisk: { False: ['KubeletHasSufficientDisk', 'kubelet has sufficient disk space available'], True: ['KubeletOutOfDisk', 'out of disk space'] },
};

export interface PostedCondition {
  type: string;
  status: ConditionStatus;
  reason?: string;
  message?: string;
}

/** What a live kubelet would post for this node: its own conditions, Unknown read as healthy. */
export function desiredFromNode(node: NodeRecord): PostedCondition[] {
  const out: PostedCondition[] = [];
  for (const c of node.conditions) {
    if (!KUBELET_CONDITION_TYPES.has(c.type)) continue;
    if (c.status === 'Unknown') out.push(healthy(c.type));
    else out.push({ type: c.type, status: c.status, reason: c.reason, message: c.message });
  }
  return out;
}

function healthy(type: string): PostedCondition {
  const status: ConditionStatus = type === 'Ready' ? 'True' : 'False';
  const r = KUBELET_REASONS[type]?.[status];
  return { type, status, reason: r?.[0], message: r?.[1] };
}

/** `kubelet: start`: Ready=True and pressure False, unless `conditions` gives other statuses. */
export function startDesired(node: NodeRecord, previous: PostedCondition[], conditions?: Record<string, string>): PostedCondition[] {
  const types: string[] = [];
  for (const c of node.conditions) if (KUBELET_CONDITION_TYPES.has(c.type) && !types.includes(c.type)) types.push(c.type);
  for (const p of previous) if (!types.includes(p.type)) types.push(p.type);
  if (!types.includes('Ready')) types.unshift('Ready');
  for (const t of Object.keys(conditions ?? {})) if (!types.includes(t)) types.push(t);
  // pushed, not mapped: a list without holes, as desiredFromNode's (map makes one with holes,
  // another kind of list where materialise walks every running kubelet's list)
  const out: PostedCondition[] = [];
  for (const type of types) {
    const given = conditions?.[type];
    if (given === 'True' || given === 'False' || given === 'Unknown') {
      const r = KUBELET_REASONS[type]?.[given];
      out.push({ type, status: given, reason: r?.[0], message: r?.[1] });
    } else out.push(healthy(type));
  }
  return out;
}

export function differs(node: NodeRecord, desired: PostedCondition[]): boolean {
  for (const d of desired) {
    const c = conditionOf(node.conditions, d.type);
    if (!c || c.status !== d.status) return true;
  }
  return false;
}

/** `conditions.find` by type without a closure per call (every heartbeat of every node comes here). */
export function conditionOf(conditions: NodeCondition[], type: string): NodeCondition | undefined {
  for (let i = 0; i < conditions.length; i++) if (conditions[i].type === type) return conditions[i];
  return undefined;
}
