/**
 * explain(ref): "why did this happen" — the decisions about the object, each
 * with its chain of causes back to the world events (oldest first) — and "why
 * did this not happen": every running controller's `whyNot`, plus the
 * simulation's own reasons (a controller that does not run, a
 * controller-manager that is not leading after a failover, an object that
 * never existed).
 */
import type { ObjectRef } from '../model/types';
import { nsKey } from '../model/types';
import { formatTime } from '../model/time';
import type { ClusterState } from '../model/cluster';
import { causeChain } from '../trace/causes';
import type { Explanation } from './api';
import type { SimulationImpl } from './simulation';

/** Which controllers could decide something about an object of this kind. */
const CONCERNED: Record<string, string[]> = {
  Node: ['node-lifecycle'],
  Zone: ['node-lifecycle'],
  Pod: ['node-lifecycle', 'taint-eviction', 'replicaset', 'scheduler'],
  ReplicaSet: ['replicaset'],
};

export function existsIn(cluster: ClusterState, ref: ObjectRef): boolean {
  const parts = ref.split('/');
  const kind = parts[0];
  const name = parts.slice(1);
  switch (kind) {
    case 'Node': return cluster.nodes.has(name[0]);
    case 'Pod': return name.length === 2 && cluster.pods.has(nsKey(name[0], name[1]));
    case 'ReplicaSet': return name.length === 2 && cluster.replicaSets.has(nsKey(name[0], name[1]));
    case 'DaemonSet': return name.length === 2 && cluster.daemonSets.has(nsKey(name[0], name[1]));
    case 'Lease': return cluster.leases.has(name[name.length - 1]);
    default: return false;
  }
}

export function explainObject(sim: SimulationImpl, ref: ObjectRef): Explanation {
  const host = sim.host;
  const kind = ref.split('/')[0];
  const exists = kind === 'Zone' ? sim.zones().some((z) => z.zone === ref) : existsIn(host.cluster, ref);
  const seqs = host.byObject.get(ref) ?? [];
  const happened = seqs.map((s) => ({ decision: host.trace[s - 1], chain: causeChain(host.trace, s) }));
  const whyNot: Explanation['whyNot'] = [];

  if (!exists && !seqs.length && !existsIn(sim.scenario.snapshot.cluster, ref)) {
    whyNot.push({ what: 'anything', check: { rule: 'the object never existed: it is not in the snapshot and nothing in the timeline created it', values: { object: ref } } });
    return { object: ref, exists, happened, whyNot };
  }
  if (sim.leaderStartsAt !== undefined) {
    whyNot.push({
      what: 'any controller decision',
      check: { rule: 'kube-controller-manager is not leading: after a failover the new leader waits for the old leader\'s lease to expire', values: { newLeaderAt: formatTime(sim.leaderStartsAt) } },
      wouldFireAt: formatTime(sim.leaderStartsAt),
    });
  }
  for (const p of sim.plan) {
    if (p.enabled || !(CONCERNED[kind] ?? []).includes(p.name)) continue;
    whyNot.push({ what: `decisions of ${p.name}`, check: { rule: `${p.name} does not run: ${p.reason}`, values: { controller: p.name } } });
  }
  if (kind === 'Node' && exists) {
    const name = ref.slice('Node/'.length);
    const view = sim.kubelets.view(name);
    if (view && (view.status || view.lease)) {
      whyNot.push({
        what: 'Ready leaving True (node status Unknown)',
        check: {
          rule: `the node's kubelet is running: it ${[view.status ? 'posts node status' : '', view.lease && sim.kubelets.settings.leases ? 'renews its Lease' : ''].filter(Boolean).join(' and ')}`,
          values: {
            ...(view.lastPost !== undefined ? { lastPost: formatTime(view.lastPost) } : {}),
            ...(view.nextPost !== undefined ? { nextPost: formatTime(view.nextPost) } : {}),
            ...(view.nextRenew !== undefined ? { nextLeaseRenewal: formatTime(view.nextRenew) } : {}),
          },
        },
      });
    }
  }
  for (const c of host.controllers) whyNot.push(...c.whyNot(host, ref));
  return { object: ref, exists, happened, whyNot };
}
