/**
 * `handleNodeUpdate` (taint_eviction.go / taint_manager.go): a node's NoExecute taints as last
 * handled (`taintedNodes`), then processPodOnNode for each of its pods (in namespace/name order
 * here; upstream's order is the informer index's), or, when no NoExecute taint is left, every
 * pod's work cancelled. A deleted node is forgotten; its pods' scheduled work stays (as upstream).
 */
import type { ControllerHost } from '../controllerHost';
import { nodeRef } from '../../model/types';
import { taintText, taintsWithEffect } from '../../model/tolerations';
import { copyTaints } from '../../model/records';
import { cancelWorkWithEvent } from './cancelWorkWithEvent';
import { podEvictionAccepts } from './machine';
import { processPodOnNode } from './processPodOnNode';
import { taintFact } from './snapshotTaints';
import type { TaintEvictionState } from './state';
import type { Shared } from './work';

/** `handleNodeUpdate` */
export function handleNodeUpdate(te: TaintEvictionState, host: ControllerHost, name: string, initial: boolean): void {
  const node = host.cluster.nodes.get(name);
  const previous = te.taintedNodes.get(name) ?? [];
  if (!node) {
    // Node deleted: forget its taints; scheduled work of its pods stays (as upstream).
    te.taintedNodes.delete(name);
    return;
  }
  const taints = copyTaints(taintsWithEffect(node.taints, 'NoExecute'));
  if (taints.length === 0) te.taintedNodes.delete(name);
  else te.taintedNodes.set(name, taints);

  const keys = [...(host.cluster.podsByNode.get(name) ?? [])].sort();
  if (keys.length === 0) return;
  if (taints.length === 0) {
    const removed = previous.filter((p) => !taints.some((t) => t.key === p.key && t.effect === p.effect));
    const causes = removed.map((t) => host.recall(nodeRef(name), taintFact(t))).filter((s): s is number => s !== undefined);
    for (const key of keys) {
      // cancel() acts only where the machine accepts CANCEL: the checks are not built for the other pods
      const w = te.work.get(key);
      if (!w || !podEvictionAccepts(w.state, 'CANCEL')) continue;
      cancelWorkWithEvent(
        te,
        host,
        key,
        [{ rule: 'the node has no NoExecute taint left: every eviction on it is cancelled', values: { node: name, removedTaints: removed.map(taintText) } }],
        causes,
        'handleNodeUpdate',
      );
    }
    return;
  }
  // One text of the taints, one trigger check and one list of causes for every pod of the node.
  const shared: Shared = {
    taintTexts: taints.map(taintText),
    trigger: {
      rule: initial ? "the controller listed the node at start (informers' initial list)" : "the node's NoExecute taints changed",
      values: { node: name },
    },
    causes: new Map(),
  };
  for (const key of keys) {
    const pod = host.cluster.pods.get(key);
    if (!pod) continue;
    processPodOnNode(te, host, key, pod, name, taints, initial && te.memory === 'reconstructed', 'handleNodeUpdate', shared);
  }
}
