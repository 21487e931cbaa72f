/**
 * Why the ReplicaSet controller did not (yet) do something to a pod or a ReplicaSet.
 */
import type { ControllerHost } from '../host';
import type { Explanation } from '../../simulation/api';
import type { ObjectRef } from '../../model/types';
import { formatTime } from '../../model/time';
import { EXPECTATIONS_TIMEOUT } from './machine';
import { keptOutcome } from './entry';
import type { ReplicaSetCore } from './core';

export function replicaSetWhyNot(rsc: ReplicaSetCore, host: ControllerHost, object: ObjectRef): Explanation['whyNot'] {
  const out: Explanation['whyNot'] = [];
  const [kind, ns, name] = object.split('/');
  if (kind === 'Pod' && ns && name) {
    const stored = rsc.kept.get(`${ns}/${name}`);
    const k = stored && keptOutcome(stored, `${ns}/${name}`);
    if (k && host.cluster.pods.has(`${ns}/${name}`)) {
      out.push({
        what: `deleted by the scale-down of ${k.rs} (decision ${k.seq})`,
        check: { rule: `kept: ${k.outcome.versus} (the last pod deleted) ranked before it: ${k.outcome.text}`, values: { ranking: k.outcome.rule, deletedInstead: k.outcome.versus, ...k.outcome.values } },
      });
    }
    for (const p of rsc.podProblems.get(`${ns}/${name}`) ?? []) out.push({ what: 'adopted or counted by a ReplicaSet', check: { rule: p.message, values: { code: p.code } } });
    return out;
  }
  if (kind === 'ReplicaSet' && ns && name) {
    const rs = host.cluster.replicaSets.get(`${ns}/${name}`);
    if (!rs) return out;
    const check = rsc.check(rs);
    for (const p of check.problems) {
      if (p.severity === 'error') out.push({ what: 'pods created or deleted for this ReplicaSet', check: { rule: p.message, values: { code: p.code } } });
    }
    const entry = rsc.entries.get(`${ns}/${name}`);
    if (!entry) return out;
    const c = rsc.ctx(entry);
    if (rsc.expectationsPending(entry) && c.expectedAt !== null) {
      out.push({
        what: 'manageReplicas (creating or deleting pods)',
        check: { rule: 'expectations are not satisfied: creations/deletions this controller made are not yet observed', values: { outstandingAdds: c.add, outstandingDeletes: c.del } },
        wouldFireAt: formatTime(c.expectedAt + EXPECTATIONS_TIMEOUT + 1),
      });
    }
    if (entry.actor.state().includes('queue.backoff') && c.dueAt !== null) {
      out.push({
        what: 'the next sync',
        check: { rule: 'the last sync failed: the key is requeued with the workqueue backoff (5ms doubling per consecutive failure)', values: { failures: c.failures } },
        wouldFireAt: formatTime(c.dueAt),
      });
    }
    if (c.resyncAt !== null) {
      out.push({
        what: 'availableReplicas counted',
        check: { rule: 'pods count as available minReadySeconds after they became ready; the ReplicaSet is synced again then', values: { minReadySeconds: rs.minReadySeconds } },
        wouldFireAt: formatTime(c.resyncAt),
      });
    }
  }
  return out;
}
