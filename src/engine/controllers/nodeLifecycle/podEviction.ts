/**
 * The pod eviction path (1.12 … 1.26 without taint-based evictions, pkg/controller/nodelifecycle/node_lifecycle_controller.go):
 * processNoTaintBaseEviction, evictPods, cancelPodEviction, the per-item work
 * of doEvictionPass, processPod; and pkg/controller/util/node's DeletePods,
 * SetPodTerminationReason and MarkPodsNotReady. nodeEvictionMap (1.17+) is the
 * node machine's eviction region (idle = unmarked, queuedForEviction =
 * toBeEvicted, evicted).
 */
import { type Micros, formatDuration, formatTime } from '../../model/time';
import { type ConditionStatus, type NodeRecord, type PodCondition, type PodRecord, nodeRef, nsKey, podRef, zoneRef } from '../../model/types';
import { zoneKeyOf } from '../../model/zones';
import type { Check, MachineTransition } from '../../trace/decision';
import type { ControllerHost, PodsReadyWrites } from '../controllerHost';
import { askDeletePodsPod, askMarkPodsNotReady } from './controllerUtilsMachines';
import { NODE_LOST_REASON, podEvictionTimeoutElapsed, podStatusReason } from './guards';
import type { NodeHealthEvent } from './machines';
import type { Answer } from './nodeMachines';
import { releasedByZoneLeft, zoneLeftHolds } from './zoneQueues';
import { RateLimitedTimedQueue, effectiveRate } from './rateLimitedQueue';
import { FILE, NodeLifecycleState, UTIL_FILE, showRate } from './state';
import { findCondition } from './taints';

/** processPod: a pod bound to a node whose saved Ready is not True is marked not ready. */
export function processPod(nlc: NodeLifecycleState, host: ControllerHost, key: string): void {
  const pod = host.cluster.pods.get(key);
  if (!pod || !pod.nodeName) return;
  const h = nlc.health.get(pod.nodeName);
  if (!h) return;
  const node = host.cluster.nodes.get(pod.nodeName);
  if (!node) return;
  if (!h.savedReady) return;
  // In taint-based eviction mode only node updates are processed here; otherwise the pod may be evicted at once.
  if (!nlc.rules.taintBasedEvictions && !processNoTaintBaseEviction(nlc, host, node, h.savedReady.status, [pod])) {
    nlc.retryPods.add(key);
    return;
  }
  if (h.savedReady.status !== 'True') {
    const ok = markPodsNotReady(nlc, host, pod.nodeName, [pod], 'processPod');
    if (!ok) nlc.retryPods.add(key);
  }
}

/** processNoTaintBaseEviction (1.12: inline in monitorNodeStatus). */
/** Returns false when an immediate pod deletion failed (1.17+: the caller retries). */
export function processNoTaintBaseEviction(
  nlc: NodeLifecycleState,
  host: ControllerHost,
  node: NodeRecord,
  observed: ConditionStatus,
  pods?: PodRecord[],
): boolean {
  const h = nlc.health.get(node.meta.name)!;
  const timeout = host.config.podEvictionTimeout;
  if (observed === 'False') {
    if (podEvictionTimeoutElapsed(host.now, h.readyTransition, timeout))
      return evictPods(nlc, host, node, 'False', h.readyTransition, 'readyTransitionTimestamp', pods);
  } else if (observed === 'Unknown') {
    if (podEvictionTimeoutElapsed(host.now, h.probe, timeout)) return evictPods(nlc, host, node, 'Unknown', h.probe, 'probeTimestamp', pods);
  } else {
    cancelPodEviction(nlc, host, node, 'Ready is True');
  }
  return true;
}

/**
 * evictPods: queues the node in its zone's eviction queue; from 1.17, when the
 * node was already evicted (nodeEvictionMap), deletes the given pods at once.
 */
export function evictPods(
  nlc: NodeLifecycleState,
  host: ControllerHost,
  node: NodeRecord,
  status: ConditionStatus,
  since: Micros,
  sinceName: string,
  pods?: PodRecord[],
): boolean {
  const name = node.meta.name;
  const zone = nlc.tracks.get(name)?.zone ?? zoneKeyOf(node);
  nlc.addPodEvictorForNewZone(zone);
  const q = nlc.queues.get(zone)!;
  // nodeEvictionMap (1.17+) is the machine's eviction region: evicted, or toBeEvicted (queuedForEviction) from here on
  if (nlc.rules.nodeEvictionMap && nlc.evictionState(name) === 'evicted') {
    return deletePodList(
      nlc,
      host,
      name,
      pods ?? nlc.podsOn(host, name),
      [{ rule: "the node's pods were already evicted (nodeEvictionMap: evicted): pods that arrive later are deleted at once", values: { node: name } }],
      nlc.src('evictPods'),
    );
  }
  // in the set: Add refuses, nothing changes; unless the machine is idle while the queue has the node queued
  // (it came back to a zone whose queue kept it, zoneQueues.ts): the machine then learns it is queued
  if (q.has(name) && !(q.isQueued(name) && nlc.evictionState(name) === 'idle')) return true;
  const answer = nlc.askNode(name, { type: 'QUEUED_FOR_EVICTION', ...zoneLeftHolds(nlc, name, zone) });
  if (!answer) return true;
  q.add(name, node.meta.uid, host.now);
  const ref = nodeRef(name);
  const tr = nlc.commitNode(answer);
  const seq = nlc.decide(host, {
    action: 'NodeQueuedForEviction',
    object: ref,
    summary: `Node is ${status === 'False' ? 'NotReady' : 'unresponsive'}: its pods are queued for eviction in ${zoneRef(zone)}`,
    because: [
      { rule: `Ready condition is ${status}`, values: { Ready: status } },
      {
        rule: `now > ${sinceName} + podEvictionTimeout`,
        values: {
          now: formatTime(host.now),
          [sinceName]: formatTime(since),
          podEvictionTimeout: formatDuration(host.config.podEvictionTimeout),
          deadline: formatTime(since + host.config.podEvictionTimeout),
        },
      },
      {
        rule: "the zone queue releases nodes at the zone's eviction rate (token bucket, burst 1)",
        values: { zone: zoneRef(zone), zoneState: nlc.zoneActors.get(zone)?.state() ?? 'Initial', rate: showRate(effectiveRate(q.limiter)) },
      },
    ],
    causes: nlc.causes(host.recall(ref, 'ready-status')),
    machine: tr,
    source: nlc.src(nlc.rules.legacyStatusFunctions ? 'evictPods' : 'processNoTaintBaseEviction'),
  });
  host.remember(ref, 'queued', seq);
  return true;
}

/** cancelPodEviction: drops the node from the eviction queue. */
export function cancelPodEviction(nlc: NodeLifecycleState, host: ControllerHost, node: NodeRecord, why: string): boolean {
  nlc.slots.unsettle(node.meta.name);
  const name = node.meta.name;
  const zone = nlc.tracks.get(name)?.zone ?? zoneKeyOf(node);
  const q = nlc.queues.get(zone);
  const wasQueued = q?.isQueued(name) ?? false;
  // the machine back to idle (nodeEvictionMap's unmarked) when the node is in the queue's set and not idle
  let answer: Answer | null = null;
  if (wasQueued || (q?.has(name) && nlc.evictionState(name) !== 'idle')) {
    answer = nlc.askNode(name, { type: 'EVICTION_CANCELLED' });
    if (!answer) return false;
  }
  const removed = q?.remove(name) ?? false;
  const tr = answer ? nlc.commitNode(answer) : null;
  const ref = nodeRef(name);
  if (wasQueued) {
    nlc.decide(host, {
      action: 'EvictionCancelled',
      object: ref,
      summary: `Cancelled the pod eviction queued for Node ${name}`,
      because: [{ rule: `cancelPodEviction: ${why}`, values: { Ready: findCondition(node.conditions, 'Ready')?.status ?? 'none', zone: zoneRef(zone) } }],
      causes: nlc.causes(host.recall(ref, 'ready-status'), host.recall(ref, 'queued')),
      machine: tr,
      source: nlc.src('cancelPodEviction'),
    });
  }
  return removed;
}

export function evictItem(nlc: NodeLifecycleState, host: ControllerHost, zone: string, q: RateLimitedTimedQueue, item: { value: string; addedAt: Micros }) {
  nlc.slots.unsettle(item.value);
  // doEvictionPass only logs a node no longer in the lister ("Node %v no longer present in
  // nodeLister!") and runs DeletePods on its name all the same (1.12 on); nothing takes a deleted
  // node out of its zone's queue. Its health machine went with it (removeNode), so none is asked.
  const removed = !nlc.known.has(item.value);
  const ok = deletePodList(
    nlc,
    host,
    item.value,
    nlc.podsOn(host, item.value),
    [
      {
        rule: 'the zone eviction queue released the node (doEvictionPass)',
        values: { node: item.value, zone: zoneRef(zone), rate: showRate(effectiveRate(q.limiter)), queuedAt: formatTime(item.addedAt) },
      },
    ],
    nlc.src('doEvictionPass'),
    removed ? null : { type: 'EVICTION_PASS', ...releasedByZoneLeft(nlc, item.value, zone) },
  );
  if (!ok) return { ok: false, wait: 0 } as const; // "We are not setting eviction status here."
  return { ok: true } as const;
}

/**
 * DeletePods: for each pod of the node, SetPodTerminationReason first (every pod, DaemonSet
 * pods and pods already being deleted included), then the delete, except for DaemonSet pods
 * and pods already being deleted; false when a deletion failed. A failed status write is not a
 * conflict here, and DeletePods goes on to the delete (only a conflict skips the pod). `pass`: the
 * node machine's event, null for a node the controller removed (no machine: each deletion records
 * DeletePods' machine for its pod).
 */
export function deletePodList(
  nlc: NodeLifecycleState,
  host: ControllerHost,
  nodeName: string,
  pods: PodRecord[],
  because: Check[],
  source: string,
  pass: Extract<NodeHealthEvent, { type: 'EVICTION_PASS' }> | null = { type: 'EVICTION_PASS' },
): boolean {
  const ref = nodeRef(nodeName);
  // EVICTION_PASS, asked at the first deletion and committed when all are done (a failure leaves the
  // node to be evicted: upstream sets nodeEvictionMap's evicted only then). Each PodEvicted records
  // the answered transition; the machine, and the view of its last transition, move only at the commit.
  let answer: Answer | null = null;
  let recordedBy: number | undefined;
  const cause = nlc.causes(host.recall(ref, 'queued'));
  for (const pod of pods) {
    if (pod.nodeName !== nodeName) continue;
    const pref = podRef(pod.meta.namespace, pod.meta.name);
    // DeletePods' checks for this pod, asked of its machine before anything is written
    const kept = !nlc.deletes(host, pod, nodeName);
    const podAnswer = askDeletePodsPod(`${pod.meta.namespace}/${pod.meta.name}`, {
      type: 'DELETE_PODS_POD',
      statusReason: podStatusReason(pod) ?? 'none',
      keptBy: !kept ? 'none' : pod.meta.deletionTimestamp !== undefined ? 'deletion in progress' : 'DaemonSet',
    });
    const status = setPodTerminationReason(nlc, host, pod, nodeName, podAnswer.to !== 'reasonKept', podAnswer);
    if (kept) {
      if (status.written) {
        nlc.decide(host, {
          action: 'PodStatusUpdated',
          object: pref,
          summary: `Set the status of pod ${pod.meta.namespace}/${pod.meta.name} to NodeLost (kept: ${pod.meta.deletionTimestamp !== undefined ? 'already being deleted' : 'managed by a DaemonSet'})`,
          because: [...because, status.check, { rule: 'DeletePods does not delete a pod managed by a DaemonSet or already being deleted' }],
          causes: cause,
          machine: podAnswer,
          source: nlc.src('SetPodTerminationReason', UTIL_FILE),
          details: { node: nodeName, reason: NODE_LOST_REASON, message: status.message },
        });
      }
      continue;
    }
    if (!answer && pass) {
      answer = nlc.askNode(nodeName, pass);
      if (!answer) return true;
    }
    const tr = answer ? answer.transition : podAnswer;
    if (!host.apiCall('node-lifecycle', 'delete', 'pods', pref, tr)) return false;
    host.deletePod(pod);
    const seq = nlc.decide(host, {
      action: 'PodEvicted',
      object: pref,
      summary: `Deleted pod ${pod.meta.namespace}/${pod.meta.name} from Node ${nodeName}`,
      because: [...because, status.check, { rule: 'the pod is not managed by a DaemonSet and not already being deleted (DeletePods)' }],
      causes: cause,
      machine: tr,
      source,
      details: status.written ? { node: nodeName, statusReason: NODE_LOST_REASON, statusMessage: status.message } : { node: nodeName },
    });
    host.remember(pref, 'deleted', seq);
    recordedBy = seq;
  }
  if (answer) nlc.commitNode(answer, recordedBy);
  else if (pass && nlc.evictionState(nodeName) === 'queuedForEviction') nlc.sendNode(nodeName, pass);
  return true;
}

/**
 * SetPodTerminationReason (pkg/controller/util/node): status.reason NodeLost and its message,
 * written with UpdateStatus, unless the reason is NodeLost already (`write`: DeletePods' machine's
 * answer, controllerUtilsMachines.ts).
 */
export function setPodTerminationReason(
  nlc: NodeLifecycleState,
  host: ControllerHost,
  pod: PodRecord,
  nodeName: string,
  write: boolean,
  machine?: MachineTransition,
): { written: boolean; already: boolean; message: string; check: Check } {
  const message = `Node ${nodeName} which was running pod ${pod.meta.name} is unresponsive`;
  if (!write) {
    return { written: false, already: true, message, check: { rule: "SetPodTerminationReason: the pod's status reason is NodeLost already (no write)" } };
  }
  if (!host.apiCall('node-lifecycle', 'update', 'pods', podRef(pod.meta.namespace, pod.meta.name), machine)) {
    return {
      written: false,
      already: false,
      message,
      check: { rule: 'SetPodTerminationReason: the status write failed; DeletePods goes on (only a conflict skips the pod)' },
    };
  }
  pod.statusReason = NODE_LOST_REASON;
  pod.statusMessage = message;
  host.updatePod(pod);
  return {
    written: true,
    already: false,
    message,
    check: { rule: "SetPodTerminationReason: the pod's status was written first (UpdateStatus)", values: { reason: NODE_LOST_REASON, message } },
  };
}

/**
 * `keys`: the pods' keys as the pod index holds them (podsOn's `keysOut`), else made here. The
 * index's strings are hashed already; a key made anew is a concatenation that every map it is
 * looked up in (the host's, each controller's) must first flatten and hash: 50,000 of them when
 * a zone's nodes go Unknown at 5,000 nodes.
 */
export function markPodsNotReady(
  nlc: NodeLifecycleState,
  host: ControllerHost,
  nodeName: string,
  pods: PodRecord[],
  fn: string,
  keys?: readonly string[],
): boolean {
  const ref = nodeRef(nodeName);
  const updated: string[] = [];
  let failed = 0;
  // the pods to mark counted, the machine's answer, then the writes (the same checks again: no list is built)
  const toMark = (pod: PodRecord): PodCondition | undefined => {
    if (pod.nodeName !== nodeName) return undefined;
    const ready = findCondition(pod.conditions, 'Ready');
    return !ready || (nlc.rules.markOnlyChangedPods && ready.status === 'False') ? undefined : ready;
  };
  // the conditions to set, by the pod's place in `pods` (undefined: not marked), found once: the
  // writes below come back to them after the machine's answer
  const marks = new Array<PodCondition | undefined>(pods.length);
  let count = 0;
  for (let i = 0; i < pods.length; i++) if ((marks[i] = toMark(pods[i])) !== undefined) count++;
  const tr = askMarkPodsNotReady(nodeName, { type: 'MARK_PODS_NOT_READY', podsToMark: count });
  if (!tr) return true;
  // The pods listed from the index (`keys`) are bound to the node and indexed under it: a host that
  // takes a batch is told of them at once, after the writes (its controllers, informers that note
  // work and never act at once, hear them in the same order as one by one)
  const batch: PodsReadyWrites | undefined =
    keys !== undefined && host.updatePodsReady ? { node: nodeName, count: 0, pods: [], keys: [], ready: [], statusWas: [], timeWas: [] } : undefined;
  for (let i = 0; i < pods.length; i++) {
    const ready = marks[i];
    if (ready === undefined) continue;
    const pod = pods[i];
    // apiCall answers true, and records nothing, when no call can fail: no reference made then
    if (host.apiCallsMayFail?.() !== false && !host.apiCall('node-lifecycle', 'update', 'pods', podRef(pod.meta.namespace, pod.meta.name), tr)) {
      failed++;
      continue;
    }
    const was = ready.status;
    const wasTime = ready.lastTransitionTime;
    ready.status = 'False';
    if (nlc.rules.markOnlyChangedPods && was !== 'False') ready.lastTransitionTime = host.now;
    // one key for the host, the controllers it tells and the decision's list
    const key = keys !== undefined ? keys[i] : nsKey(pod.meta.namespace, pod.meta.name);
    if (batch === undefined) host.updatePod(pod, key, ready, was, wasTime);
    else {
      batch.count++;
      batch.pods.push(pod);
      batch.keys.push(key);
      batch.ready.push(ready);
      batch.statusWas.push(was);
      batch.timeWas.push(wasTime);
    }
    if (was !== 'False') updated.push(key);
  }
  if (batch !== undefined && batch.count > 0) host.updatePodsReady!(batch);
  if (updated.length) {
    const nodeReady = findCondition(host.cluster.nodes.get(nodeName)?.conditions ?? [], 'Ready')?.status ?? 'none';
    nlc.decide(host, {
      action: 'PodsMarkedNotReady',
      object: ref,
      summary: `Marked ${updated.length} pod${updated.length === 1 ? '' : 's'} on Node ${nodeName} not ready`,
      because: [
        {
          rule:
            fn === 'processPod'
              ? 'a pod was bound to a node whose Ready condition is not True'
              : "the node's Ready condition left True in this pass (or an earlier attempt failed)",
          values: { Ready: nodeReady },
        },
        { rule: "each pod's Ready condition is set to False", values: { pods: updated.length } },
      ],
      causes: nlc.causes(host.recall(ref, 'ready-status')),
      machine: tr,
      source: nlc.src(fn === 'processPod' ? 'processPod' : fn, fn === 'processPod' ? FILE : UTIL_FILE),
      details: { pods: updated },
    });
  }
  return failed === 0;
}
