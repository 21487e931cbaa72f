/**
 * `handlePodUpdate` (taint_eviction.go / taint_manager.go): a deleted pod's work is cancelled; a
 * pod bound to a node in `taintedNodes`, or whose tolerations changed there, goes through
 * processPodOnNode, with the check that says which update it was and the decision behind it.
 */
import type { ControllerHost } from '../controllerHost';
import { podRef } from '../../model/types';
import { cancelWorkWithEvent } from './cancelWorkWithEvent';
import { podEvictionAccepts } from './machine';
import { processPodOnNode } from './processPodOnNode';
import type { TaintEvictionState } from './state';
import type { PodItem } from './work';

/** `handlePodUpdate` */
export function handlePodUpdate(te: TaintEvictionState, host: ControllerHost, item: PodItem): void {
  const key = `${item.namespace}/${item.name}`;
  const pod = host.cluster.pods.get(key);
  if (!pod) {
    // cancel() acts only where the machine accepts CANCEL (an evicted pod's work is gone already): no look-up for the others
    const w = te.work.get(key);
    if (!w || !podEvictionAccepts(w.state, 'CANCEL')) return;
    const deleted = host.recall(podRef(item.namespace, item.name), 'deleted');
    cancelWorkWithEvent(te, host, key, [{ rule: 'the pod was deleted' }], deleted !== undefined ? [deleted] : [], 'handlePodUpdate');
    return;
  }
  // Keyed by the node at the time of the event: a stale item is not ours to process.
  if ((pod.nodeName ?? '') !== item.nodeName) return;
  if (!pod.nodeName) return;
  const taints = te.taintedNodes.get(pod.nodeName);
  if (!taints) return;
  processPodOnNode(te, host, key, pod, pod.nodeName, taints, false, 'handlePodUpdate', undefined, item);
}
