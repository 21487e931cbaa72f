/**
 * `cancelWorkWithEvent`: the pod's eviction machine takes CANCEL, its timer and work item go, and
 * a PodEvictionCancelled is recorded citing the schedule it cancels.
 */
import type { ControllerHost } from '../controllerHost';
import { formatTime } from '../../model/time';
import { podRef } from '../../model/types';
import type { Check } from '../../trace/decision';
import { becauseWithGuards } from '../../machines/guardChecks';
import { type TaintEvictionState, uniq } from './state';

/** `cancelWorkWithEvent`: a PodEvictionCancelled only when a timer was waiting (upstream emits the event only then). */
export function cancelWorkWithEvent(te: TaintEvictionState, host: ControllerHost, key: string, because: Check[], causes: number[], caller: string): void {
  const w = te.work.get(key);
  if (!w) return;
  const t = te.send(w, 'CANCEL');
  if (!t) return;
  if (w.timer) te.timers.cancel(w.timer);
  te.work.delete(key);
  const ref = podRef(w.namespace, w.name);
  host.decide({
    controller: 'taint-eviction',
    action: 'PodEvictionCancelled',
    object: ref,
    summary: `Cancelled the deletion of pod ${key} that was scheduled for ${formatTime(w.fireAt)}`,
    because: becauseWithGuards([...because, { rule: 'a deletion was scheduled', values: { deadline: formatTime(w.fireAt), node: w.nodeName } }], t),
    causes: uniq([...(w.scheduledSeq !== undefined ? [w.scheduledSeq] : []), ...causes]),
    machine: t,
    source: te.source(`${caller} -> cancelWorkWithEvent`),
  });
}
