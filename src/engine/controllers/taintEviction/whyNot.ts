/**
 * The taint eviction controller's "why not (yet)" for a pod, as data
 * (trace/whyNot.ts): the controller runs, the pod is bound, its node has a
 * NoExecute taint, and processPodOnNode (decidePodOnNode, called here as the
 * controller calls it) would delete it now or at its deadline. When the node
 * has no NoExecute taint the blocking check says so, and the simulation
 * chains it to the node lifecycle controller's why-not of the taint
 * (`nodeTaintChained`).
 */
import type { ControllerHost } from '../controllerHost';
import type { Duration, Micros } from '../../model/time';
import { formatDuration, formatTime } from '../../model/time';
import type { ObjectRef, PodRecord, Taint } from '../../model/types';
import { taintText, taintsWithEffect, tolerationText } from '../../model/tolerations';
import { whyNotFrom, type WhyNot, type WhyNotCheck } from '../../trace/whyNot';
import { decidePodOnNode } from './decide';
import { taintManagerBehaviour, taintManagerRuns, type TaintManagerBehaviour } from './behaviour';

/** What the why-not reads of the controller's memory (TaintEvictionController implements it). */
export interface TaintEvictionMemory {
  workOf(key: string): { state: 'scheduled' | 'deleting'; createdAt: Micros; fireAt: Micros; min?: Duration; attempts: number; retryAt?: Micros } | undefined;
  gaveUpOf(key: string): { at: Micros } | undefined;
  behaviourOr(host: ControllerHost): TaintManagerBehaviour;
}

const WHAT = 'deletion by the taint eviction controller';
const PROCESS = 'processPodOnNode (taint manager / taint_eviction.go)';

export function explainTaintEvictionWhyNot(c: TaintEvictionMemory, host: ControllerHost, object: ObjectRef): WhyNot[] {
  const m = /^Pod\/([^/]+)\/(.+)$/.exec(object);
  if (!m) return [];
  const ref = object;
  const runs = taintManagerRuns(host);
  const path: WhyNotCheck[] = [
    {
      guard: 'taintManagerRuns',
      upstream: 'NewNodeLifecycleController / NewTaintEvictionController (--controllers, --enable-taint-manager)',
      holds: runs.runs,
      ...runs.check,
    },
  ];
  if (!runs.runs) return [whyNotFrom(WHAT, 'PodDeletedByTaintEviction', ref, path, { never: true })];
  const key = `${m[1]}/${m[2]}`;
  const pod = host.cluster.pods.get(key);
  if (!pod) return [];
  path.push({
    guard: 'bound',
    upstream: 'podUpdated (nodeName)',
    holds: !!pod.nodeName,
    rule: 'the pod is bound to a node',
    unmet: 'the pod is not bound to a node',
  });
  if (!pod.nodeName) return [whyNotFrom(WHAT, 'PodDeletedByTaintEviction', ref, path)];
  const w = c.workOf(key);
  if (w?.state === 'scheduled') {
    path.push({
      guard: 'decidePodOnNode',
      upstream: PROCESS,
      holds: false,
      rule: 'the toleration has not run out yet: the deletion is scheduled',
      values: {
        createdAt: formatTime(w.createdAt),
        tolerationSeconds: w.min !== undefined ? formatDuration(w.min) : undefined,
        deadline: formatTime(w.fireAt),
      },
    });
    return [whyNotFrom(WHAT, 'PodDeletedByTaintEviction', ref, path, { wouldFireAt: formatTime(w.fireAt) })];
  }
  if (w?.state === 'deleting') {
    path.push({
      guard: 'deletePodHandler',
      upstream: 'deletePodHandler (5 tries, 10 ms apart)',
      holds: false,
      rule: 'delete attempts are failing; deletePodHandler tries 5 times, 10 ms apart',
      values: { failedAttempts: w.attempts },
    });
    return [
      whyNotFrom(
        WHAT,
        'PodDeletedByTaintEviction',
        ref,
        path,
        w.retryAt !== undefined ? { conditional: { if: 'the next attempt succeeds', at: formatTime(w.retryAt) } } : {},
      ),
    ];
  }
  const node = host.cluster.nodes.get(pod.nodeName);
  path.push({
    guard: 'nodeExists',
    upstream: 'handleNodeUpdate',
    holds: !!node,
    rule: "the pod's node exists",
    // upstream forgets a deleted node's taints and leaves its pods to the pod garbage collector. A partial export's pod
    // bound to a node it left out was never deleted here: said so, the reader looks for the node in the export
    unmet: `${
      host.recall(`Node/${pod.nodeName}`, 'deleted') !== undefined
        ? "the pod's node was deleted: the controller forgot its taints"
        : "the pod's node is not in the snapshot (the export left it out, or it was already gone): the controller holds no taints of it"
    }; in a cluster the pod garbage collector deletes the pod (gcOrphaned), which is not simulated`,
    values: { node: pod.nodeName },
  });
  if (!node) return [whyNotFrom(WHAT, 'PodDeletedByTaintEviction', ref, path)];
  const taints = taintsWithEffect(node.taints, 'NoExecute');
  path.push({
    guard: 'nodeHasNoExecuteTaint',
    upstream: 'handleNodeUpdate / getNoExecuteTaints',
    holds: taints.length > 0,
    rule: 'the node has a NoExecute taint',
    unmet: 'the node has no NoExecute taint',
    values: { node: pod.nodeName, taints: node.taints.map(taintText) },
  });
  if (!taints.length) return [whyNotFrom(WHAT, 'PodDeletedByTaintEviction', ref, path)];
  const gave = c.gaveUpOf(key);
  if (gave) {
    path.push({
      guard: 'deletePodHandler',
      upstream: 'deletePodHandler (5 tries, 10 ms apart)',
      holds: false,
      rule: "all 5 delete attempts failed; the work item was dropped, and only the next update of the node's taints or of the pod evicts it",
      values: { failedAt: formatTime(gave.at) },
    });
    return [whyNotFrom(WHAT, 'PodDeletedByTaintEviction', ref, path)];
  }
  const d = decidePodOnNode({
    taints,
    tolerations: pod.tolerations,
    existing: 'none',
    cancelsWhenToleratedForever: c.behaviourOr(host).cancelsWhenToleratedForever,
  });
  if (d.kind === 'leave') {
    path.push({
      guard: 'decidePodOnNode',
      upstream: PROCESS,
      holds: false,
      rule: 'the pod tolerates every NoExecute taint of its node forever (no tolerationSeconds)',
      values: { node: pod.nodeName, noExecuteTaints: taints.map(taintText), usedTolerations: d.used.map(tolerationText) },
    });
    return [
      whyNotFrom(WHAT, 'PodDeletedByTaintEviction', ref, path, {
        never: true,
        counterfactual: { kind: 'dropTolerations', pod: ref, description: 'the pod without its tolerations' },
      }),
    ];
  }
  path.push({
    guard: 'handled',
    upstream: 'NoExecuteTaintManager workqueues',
    holds: false,
    rule: 'the controller has not handled the latest change of the node or pod yet',
    values: { node: pod.nodeName },
  });
  return [whyNotFrom(WHAT, 'PodDeletedByTaintEviction', ref, path)];
}

/**
 * processPodOnNode for the node's NoExecute taints plus `added`: how long after the taint the pod
 * is deleted (0: at once), or undefined when it tolerates them forever.
 */
export function delayAfterTaint(host: ControllerHost, pod: PodRecord, existing: readonly Taint[], added: Taint): { delay?: Duration; check: WhyNotCheck } {
  const taints = [...taintsWithEffect(existing, 'NoExecute'), added];
  const d = decidePodOnNode({
    taints,
    tolerations: pod.tolerations,
    existing: 'none',
    cancelsWhenToleratedForever: taintManagerBehaviour(host).cancelsWhenToleratedForever,
  });
  const delay = d.kind === 'evictNow' ? 0 : d.kind === 'schedule' ? d.min : undefined;
  return {
    delay,
    check: {
      guard: 'decidePodOnNode',
      upstream: PROCESS,
      holds: delay !== undefined,
      rule:
        delay === undefined
          ? 'once tainted, the pod would tolerate the taints forever'
          : delay === 0
            ? 'once tainted, the pod is deleted at once'
            : 'once tainted, the pod is deleted when its toleration runs out',
      values: { taint: taintText(added), tolerations: pod.tolerations.map(tolerationText), ...(delay ? { tolerationSeconds: formatDuration(delay) } : {}) },
    },
  };
}

/**
 * What handleNodeUpdate does to a pod's scheduled deletion when the node's NoExecute taints become
 * `taints`: none left cancels every pod's work; otherwise processPodOnNode with the work there
 * (upstream keeps it, its CreatedAt being earlier than now, so its deadline stands; tolerated
 * forever, 1.19+ cancels it and 1.12 leaves it), or a taint not tolerated deletes at once.
 */
export function scheduledUnder(host: ControllerHost, pod: PodRecord, taints: readonly Taint[]): 'cancel' | 'keep' | 'evictNow' {
  if (!taints.length) return 'cancel';
  const d = decidePodOnNode({
    taints: [...taints],
    tolerations: pod.tolerations,
    existing: 'scheduled',
    cancelsWhenToleratedForever: taintManagerBehaviour(host).cancelsWhenToleratedForever,
  });
  return d.kind === 'cancel' ? 'cancel' : d.kind === 'evictNow' ? 'evictNow' : 'keep';
}
