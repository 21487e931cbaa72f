/**
 * The comparisons upstream's NodeUpdated and PodUpdated make (`helper.Semantic.DeepEqual`) to
 * decide whether an informer update is work for the taint eviction controller: the NoExecute
 * taints of a node, the tolerations of a pod.
 */
import type { Taint, Toleration } from '../../model/types';

/** `helper.Semantic.DeepEqual` of two NoExecute taint lists (order, key, value, effect, timeAdded). */
export function sameTaints(a: readonly Taint[], b: readonly Taint[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i],
      y = b[i];
    if (x.key !== y.key || (x.value ?? '') !== (y.value ?? '') || x.effect !== y.effect || x.timeAdded !== y.timeAdded) return false;
  }
  return true;
}

/**
 * `sameTaints(getNoExecuteTaints(a), getNoExecuteTaints(b))` without building
 * the two lists: NodeUpdated runs on every heartbeat of every node.
 */
export function sameNoExecuteTaints(a: readonly Taint[], b: readonly Taint[]): boolean {
  if (a === b) return true;
  let i = 0,
    j = 0;
  for (;;) {
    while (i < a.length && a[i].effect !== 'NoExecute') i++;
    while (j < b.length && b[j].effect !== 'NoExecute') j++;
    if (i === a.length || j === b.length) return i === a.length && j === b.length;
    const x = a[i++],
      y = b[j++];
    if (x.key !== y.key || (x.value ?? '') !== (y.value ?? '') || x.timeAdded !== y.timeAdded) return false;
  }
}

/** `helper.Semantic.DeepEqual` of two toleration lists. */
export function sameTolerations(a: readonly Toleration[], b: readonly Toleration[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const x = a[i],
      y = b[i];
    if (
      (x.key ?? '') !== (y.key ?? '') ||
      (x.operator ?? '') !== (y.operator ?? '') ||
      (x.value ?? '') !== (y.value ?? '') ||
      (x.effect ?? '') !== (y.effect ?? '') ||
      x.tolerationSeconds !== y.tolerationSeconds
    )
      return false;
  }
  return true;
}
