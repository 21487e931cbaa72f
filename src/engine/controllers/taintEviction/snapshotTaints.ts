/**
 * The root of decisions about NoExecute taints that were already in the snapshot (spec 1.4).
 * No decision of the run added them (the world remembers every taint it applies or patches, and
 * node lifecycle every taint it adds), so a pod evicted or scheduled for one would cite nothing.
 * As node lifecycle cites its AssumptionMade for a node that was stale in the snapshot, the taint
 * manager records an AssumptionMade naming the node's untraced NoExecute taints, the first time a
 * decision needs one, and remembers it as each taint's fact: that decision and every later one
 * about the taints cite it, and so does a removal of the taint.
 */
import { formatTime, isZeroTime } from '../../model/time';
import { nodeRef, type Taint } from '../../model/types';
import { taintText } from '../../model/tolerations';
import type { ControllerHost } from '../controllerHost';

/** `details.assumption` of these decisions. */
export const SNAPSHOT_TAINTS_ASSUMPTION = 'noExecuteTaintsInSnapshot';
export const SNAPSHOT_TAINTS_SOURCE = 'controller-stepper: NoExecute taints in the snapshot (spec 1.4)';

/** The fact under which the node lifecycle controller (or the world) remembers a taint's latest decision. */
export const taintFact = (t: Pick<Taint, 'key' | 'effect'>): string => `taint:${t.key}:${t.effect}`;

/** Records one root for those of the node's NoExecute taints that no decision stands for (nothing when each has one). */
export function rootSnapshotTaints(host: ControllerHost, name: string, noExecute: readonly Taint[]): void {
  const ref = nodeRef(name);
  const untraced = noExecute.filter((t) => host.recall(ref, taintFact(t)) === undefined);
  if (!untraced.length) return;
  const texts = untraced.map(taintText);
  const seq = host.decide({
    controller: 'world',
    action: 'AssumptionMade',
    object: ref,
    summary: `NoExecute taint${texts.length > 1 ? 's' : ''} ${texts.join(', ')} already on the node in the snapshot (no decision of this run added ${texts.length > 1 ? 'them' : 'it'})`,
    because: [
      {
        rule: "the node's NoExecute taint is in the snapshot and no decision of this run added it: what the taint manager decides about it rests on the snapshot",
        values: {
          node: name,
          taints: texts,
          timeAdded: untraced.map((t) => (t.timeAdded === undefined || isZeroTime(t.timeAdded) ? 'none' : formatTime(t.timeAdded))),
        },
      },
    ],
    source: SNAPSHOT_TAINTS_SOURCE,
    details: { assumption: SNAPSHOT_TAINTS_ASSUMPTION },
  });
  for (const t of untraced) host.remember(ref, taintFact(t), seq);
}
