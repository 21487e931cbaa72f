/**
 * World events (spec 1.2, 1.3): what happens in the cluster that no
 * controller decides. Each one becomes a `world` decision per object it
 * touches, `remember`s the fact it causes (fact names: simulation/simHost.ts),
 * and then changes the world through the host, which announces the change to
 * every running controller.
 *
 * Simplifications (documented for users): graceful termination is not
 * modelled, a deleted pod is gone at once; a deleted Node's pods stay (the pod
 * garbage collector is not simulated).
 */
import type { ScenarioEvent, NodeTarget } from '../snapshot/types';
import type { KObject, NodeRecord, PodPhase, PodRecord, Taint } from '../model/types';
import { NODE_LEASE_NAMESPACE, nodeRef, nsKey, podRef, replicaSetRef } from '../model/types';
import { formatDuration, formatTime, type Micros } from '../model/time';
import { copyMeta, podCondition } from '../model/records';
import type { Check } from '../trace/decision';
import { compileSelector } from '../model/labels';
import { zoneLabelsOf } from '../model/zones';
import { exportRecord } from '../model/export';
import { parseObjectRef } from '../model/objectRef';
import { taintText } from '../model/tolerations';
import { assumedLeases, MISSING_LEASES_ASSUMPTION, type MissingLeasePlan } from '../kubelet/missingLeases';
import type { SimHost } from './simHost';
import { applyObject, deleteObject, findRecord, type WorldContext } from './apply';

export const CONTROLLER_MANAGER_REF = 'ControllerManager/kube-controller-manager';

const POD_PHASES: readonly PodPhase[] = ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'];

/** The source of the missing-Lease assumption's decisions. */
export const MISSING_LEASES_SOURCE = 'controller-stepper: missingLeases assumed (spec 1.4)';

/**
 * The missing-Lease assumption (kubelet/missingLeases.ts), at the start, before the kubelets and
 * the controllers look at the world: one AssumptionMade decision per node, so that the node's own
 * trace and `explain` show it, and the node's Lease, renewed at the start time, in the world. The
 * decision is remembered as the node's heartbeat: what the controller reads from the Lease cites it.
 */
export function assumeMissingLeases(host: SimHost, plan: MissingLeasePlan, reportFrequency: number): number[] {
  const seqs: number[] = [];
  const start = host.now;
  for (const lease of assumedLeases(plan, start)) {
    const ref = nodeRef(lease.meta.name);
    const seq = host.decide({
      controller: 'world',
      action: 'AssumptionMade',
      object: ref,
      summary: "Lease taken as renewed at the start time: the snapshot holds no Lease and the node's Ready condition is True",
      because: [
        {
          rule: 'the snapshot holds no node Lease at all (as kubectl get nodes exports it), and missingLeases is assumed (the default for a snapshot file or folder)',
          values: { missingLeases: plan.mode, leasesInSnapshot: 0 },
        },
        {
          rule: 'the simulated version heartbeats with Leases: a healthy kubelet rewrites lastHeartbeatTime only every nodeStatusReportFrequency',
          values: { nodeStatusReportFrequency: formatDuration(reportFrequency) },
        },
        {
          rule: "the node's Ready condition is True: its kubelet is taken as running, its Lease renewed at the start time",
          values: { Ready: 'True', renewTime: formatTime(start) },
        },
      ],
      source: MISSING_LEASES_SOURCE,
      details: { assumption: MISSING_LEASES_ASSUMPTION, lease: `Lease/${NODE_LEASE_NAMESPACE}/${lease.meta.name}` },
    });
    host.remember(ref, 'heartbeat', seq);
    host.cluster.leases.set(lease.meta.name, lease);
    host.announceLease('added', lease);
    seqs.push(seq);
  }
  return seqs;
}

/** A JSON merge patch (RFC 7386): objects merge recursively, null removes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const base: Record<string, unknown> =
    typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch as Record<string, unknown>)) {
    if (v === null) delete base[k];
    else base[k] = mergePatch(base[k], v);
  }
  return base;
}

/** The nodes an event names: `nodes` as listed; `zone` and `selector` in name order. */
export function resolveNodeTarget(nodes: Map<string, NodeRecord>, target: NodeTarget): { found: NodeRecord[]; missing: string[] } {
  const found: NodeRecord[] = [];
  const missing: string[] = [];
  const seen = new Set<string>();
  const add = (n: NodeRecord) => {
    if (!seen.has(n.meta.name)) {
      seen.add(n.meta.name);
      found.push(n);
    }
  };
  for (const name of target.nodes ?? []) {
    const n = nodes.get(name);
    if (n) add(n);
    else missing.push(name);
  }
  const others: NodeRecord[] = [];
  if (target.zone !== undefined || target.selector !== undefined) {
    const sel = target.selector ? compileSelector(target.selector) : undefined;
    for (const n of nodes.values()) {
      if (target.zone !== undefined && zoneLabelsOf(n.meta.labels).zone !== target.zone) continue;
      if (sel && !sel.matches(n.meta.labels)) continue;
      others.push(n);
    }
    others.sort((a, b) => (a.meta.name < b.meta.name ? -1 : a.meta.name > b.meta.name ? 1 : 0));
    for (const n of others) add(n);
  }
  return { found, missing };
}

function eventCheck(ev: ScenarioEvent, now: Micros): Check {
  return { rule: 'scenario event', values: { event: ev.index, kind: ev.kind, at: formatTime(now) } };
}

function source(ev: ScenarioEvent): string {
  return `scenario: events[${ev.index}] (${ev.kind})`;
}

/** Applies one scenario event at host.now. */
export function applyWorldEvent(ctx: WorldContext, ev: ScenarioEvent): void {
  const { host } = ctx;
  const now = host.now;
  const because = [eventCheck(ev, now)];
  const src = source(ev);
  const warnMissing = (what: string) =>
    ctx.problem({
      code: 'event-target-missing',
      severity: 'warning',
      message: `events[${ev.index}] (${ev.kind}) at ${formatTime(now)}: ${what} does not exist then; nothing happened to it`,
      position: ev.position,
    });

  switch (ev.kind) {
    case 'kubelet': {
      const { found, missing } = resolveNodeTarget(host.cluster.nodes, ev.target);
      missing.forEach((m) => warnMissing(`Node/${m}`));
      if (!found.length && !missing.length) warnMissing('a node matching the target');
      for (const node of found) {
        const ref = nodeRef(node.meta.name);
        const what = ev.only === 'status' ? 'node status' : ev.only === 'lease' ? 'Lease' : 'node status and Lease';
        const wasRunning = ctx.kubelets.isRunning(node.meta.name);
        if (ev.action === 'stop') {
          const seq = host.decide({
            controller: 'world',
            action: 'KubeletStopped',
            object: ref,
            summary: `Kubelet stopped: no more ${what} ${ev.only === 'lease' ? 'renewals' : 'updates'}`,
            because: [{ rule: 'the kubelet stops posting', values: { only: ev.only ?? 'status and lease', wasRunning } }, ...because],
            source: src,
          });
          host.remember(ref, 'heartbeat', seq);
          ctx.kubelets.stop(node.meta.name, ev.only);
        } else {
          const seq = host.decide({
            controller: 'world',
            action: 'KubeletStarted',
            object: ref,
            summary: `Kubelet started: posting ${what} from now${
              ev.conditions
                ? ` with ${Object.entries(ev.conditions)
                    .map(([k, v]) => `${k}=${v}`)
                    .join(', ')}`
                : ''
            }`,
            because: [
              {
                rule: 'the kubelet resumes posting at once',
                values: { only: ev.only ?? 'status and lease', conditions: ev.conditions ?? { Ready: 'True' }, wasRunning },
              },
              ...because,
            ],
            source: src,
          });
          host.remember(ref, 'heartbeat', seq);
          const readyBefore = node.conditions.find((c) => c.type === 'Ready')?.status;
          ctx.kubelets.start(node.meta.name, now, ev.only, ev.conditions);
          const readyAfter = node.conditions.find((c) => c.type === 'Ready')?.status;
          if (readyBefore !== readyAfter || ev.only !== 'lease') host.remember(ref, 'ready-status', seq);
        }
      }
      return;
    }
    case 'condition': {
      const { found, missing } = resolveNodeTarget(host.cluster.nodes, ev.target);
      missing.forEach((m) => warnMissing(`Node/${m}`));
      const status = ev.condition.status;
      if (status !== 'True' && status !== 'False' && status !== 'Unknown') {
        ctx.problem({
          code: 'bad-condition-status',
          severity: 'error',
          message: `events[${ev.index}]: condition status must be True, False or Unknown, found ${status}`,
          position: ev.position,
        });
        return;
      }
      for (const node of found) {
        const ref = nodeRef(node.meta.name);
        const old = node.conditions.find((c) => c.type === ev.condition.type);
        const running = ctx.kubelets.isRunning(node.meta.name);
        const seq = host.decide({
          controller: 'world',
          action: 'NodeConditionChanged',
          object: ref,
          summary: `Kubelet posted ${ev.condition.type}=${status}${ev.condition.reason ? ` (${ev.condition.reason})` : ''}${old ? ` (was ${old.status})` : ''}`,
          because: [
            {
              rule: 'the kubelet posts the condition at this instant',
              values: { type: ev.condition.type, status, was: old?.status ?? 'absent', kubeletRunning: running },
            },
            ...because,
          ],
          source: src,
        });
        host.remember(ref, 'heartbeat', seq);
        host.remember(ref, `condition:${ev.condition.type}`, seq);
        if (ev.condition.type === 'Ready') host.remember(ref, 'ready-status', seq);
        ctx.kubelets.postCondition(node.meta.name, now, { type: ev.condition.type, status, reason: ev.condition.reason, message: ev.condition.message });
      }
      return;
    }
    case 'taint':
    case 'untaint': {
      const { found, missing } = resolveNodeTarget(host.cluster.nodes, ev.target);
      missing.forEach((m) => warnMissing(`Node/${m}`));
      for (const node of found) {
        const ref = nodeRef(node.meta.name);
        if (ev.kind === 'taint') {
          const t: Taint = { ...ev.taint };
          if (t.timeAdded === undefined && t.effect === 'NoExecute') t.timeAdded = now;
          const replaced = node.taints.find((x) => x.key === t.key && x.effect === t.effect);
          const seq = host.decide({
            controller: 'world',
            action: 'ObjectApplied',
            object: ref,
            summary: `User ${replaced ? 'replaced' : 'added'} taint ${taintText(t)}`,
            because: [
              { rule: 'a taint added by a user (kubectl taint)', values: { taint: taintText(t), ...(replaced ? { replaced: taintText(replaced) } : {}) } },
              ...because,
            ],
            source: src,
          });
          host.remember(ref, `taint:${t.key}:${t.effect}`, seq);
          host.setNodeTaints(node, [...node.taints.filter((x) => !(x.key === t.key && x.effect === t.effect)), t]);
        } else {
          const gone = node.taints.filter((x) => x.key === ev.taint.key && (ev.taint.effect === undefined || x.effect === ev.taint.effect));
          if (!gone.length) {
            ctx.problem({
              code: 'untaint-missing',
              severity: 'info',
              message: `events[${ev.index}] at ${formatTime(now)}: Node/${node.meta.name} has no taint ${ev.taint.key}${ev.taint.effect ? `:${ev.taint.effect}` : ''} to remove`,
              position: ev.position,
            });
            continue;
          }
          const seq = host.decide({
            controller: 'world',
            action: 'ObjectApplied',
            object: ref,
            summary: `User removed taint ${gone.map(taintText).join(', ')}`,
            because: [{ rule: 'a taint removed by a user (kubectl taint ...-)', values: { removed: gone.map(taintText) } }, ...because],
            source: src,
          });
          for (const g of gone) host.remember(ref, `untaint:${g.key}:${g.effect}`, seq);
          host.setNodeTaints(
            node,
            node.taints.filter((x) => !gone.includes(x)),
          );
        }
      }
      return;
    }
    case 'apply':
      applyObject(ctx, ev.object, because, src, ev);
      return;
    case 'patch': {
      const r = parseObjectRef(ev.ref);
      const rec = 'error' in r ? undefined : findRecord(host, r.kind, r.namespace, r.name);
      if (!rec) {
        warnMissing(ev.ref);
        return;
      }
      const patched = mergePatch(exportRecord(rec), ev.merge) as KObject;
      applyObject(ctx, patched, [{ rule: 'a JSON merge patch (RFC 7386)', values: { object: ev.ref, merge: ev.merge } }, ...because], src, ev, true);
      return;
    }
    case 'delete': {
      const r = parseObjectRef(ev.ref);
      const rec = 'error' in r ? undefined : findRecord(host, r.kind, r.namespace, r.name);
      if (!rec) {
        warnMissing(ev.ref);
        return;
      }
      deleteObject(ctx, rec, because, src, ev);
      return;
    }
    case 'pod': {
      const r = parseObjectRef(ev.pod.startsWith('Pod/') ? ev.pod : `Pod/${ev.pod}`);
      const pod = 'error' in r ? undefined : host.cluster.pods.get(nsKey(r.namespace ?? 'default', r.name));
      if (!pod) {
        warnMissing(`Pod/${ev.pod}`);
        return;
      }
      const ref = podRef(pod.meta.namespace, pod.meta.name);
      const changes: string[] = [];
      if (ev.phase !== undefined) {
        if (!(POD_PHASES as readonly string[]).includes(ev.phase)) {
          ctx.problem({
            code: 'bad-pod-phase',
            severity: 'error',
            message: `events[${ev.index}]: phase must be one of ${POD_PHASES.join(', ')}, found ${ev.phase}`,
            position: ev.position,
          });
          return;
        }
        if (pod.phase !== ev.phase) changes.push(`phase ${pod.phase} -> ${ev.phase}`);
      }
      const readyNow = pod.conditions.find((c) => c.type === 'Ready')?.status;
      if (ev.ready !== undefined && readyNow !== (ev.ready ? 'True' : 'False')) changes.push(`Ready ${readyNow ?? 'absent'} -> ${ev.ready ? 'True' : 'False'}`);
      const seq = host.decide({
        controller: 'world',
        action: 'ObjectApplied',
        object: ref,
        summary: `Pod status set by its kubelet: ${changes.length ? changes.join(', ') : 'unchanged'}`,
        because: [
          {
            rule: 'the pod status as its kubelet reports it',
            values: { ...(ev.phase !== undefined ? { phase: ev.phase } : {}), ...(ev.ready !== undefined ? { ready: ev.ready } : {}) },
          },
          ...because,
        ],
        source: src,
      });
      if (ev.phase !== undefined) {
        host.remember(ref, 'phase', seq);
        if (pod.phase !== ev.phase) host.podEditing(pod);
        pod.phase = ev.phase as PodPhase;
      }
      if (ev.ready !== undefined) {
        host.remember(ref, 'ready-status', seq);
        setPodCondition(pod, 'Ready', ev.ready, now);
        setPodCondition(pod, 'ContainersReady', ev.ready, now);
      }
      host.updatePod(pod);
      return;
    }
    case 'scale': {
      const r = parseObjectRef(ev.replicaSet.startsWith('ReplicaSet/') ? ev.replicaSet : `ReplicaSet/${ev.replicaSet}`);
      const rs = 'error' in r ? undefined : host.cluster.replicaSets.get(nsKey(r.namespace ?? 'default', r.name));
      if (!rs) {
        warnMissing(`ReplicaSet/${ev.replicaSet}`);
        return;
      }
      const ref = replicaSetRef(rs.meta.namespace, rs.meta.name);
      const seq = host.decide({
        controller: 'world',
        action: 'ObjectApplied',
        object: ref,
        summary: `Scaled to ${ev.replicas} replicas (was ${rs.replicas ?? 1})`,
        because: [{ rule: 'spec.replicas set by a user (kubectl scale)', values: { replicas: ev.replicas, was: rs.replicas ?? 1 } }, ...because],
        source: src,
      });
      host.remember(ref, 'scaled', seq);
      host.remember(ref, 'applied', seq);
      rs.replicas = ev.replicas;
      // new metadata, not the old edited: checkpoints and the records a restore puts back share it (checkpoint.ts replicaSetFrom)
      const m = copyMeta(rs.meta);
      m.generation = (m.generation ?? 1) + 1;
      rs.meta = m;
      host.announceReplicaSet('updated', rs);
      return;
    }
    case 'fail': {
      const ref = `ApiCall/${ev.verb}/${ev.resource}`;
      const seq = host.decide({
        controller: 'world',
        action: 'FaultInjected',
        object: ref,
        summary: `The next ${ev.count} ${ev.verb} ${ev.resource} call(s) of the controllers will fail`,
        because: [{ rule: 'an injected API fault', values: { verb: ev.verb, resource: ev.resource, count: ev.count } }, ...because],
        source: src,
      });
      host.remember(ref, 'fault', seq);
      host.armFault(ev.verb, ev.resource, ev.count, seq);
      return;
    }
    case 'restartControllerManager': {
      const seq = host.decide({
        controller: 'world',
        action: 'ControllerManagerRestarted',
        object: CONTROLLER_MANAGER_REF,
        summary: ev.failover
          ? `Leader lost without releasing its lease: nothing is decided until ${formatTime(now + host.config.leaderElectLeaseDuration)}`
          : 'kube-controller-manager restarted: controllers start now with empty memory',
        because: [
          ev.failover
            ? {
                rule: 'a new leader waits for the old lease to expire (leaderElectLeaseDuration)',
                values: {
                  leaderElectLeaseDuration: formatDuration(host.config.leaderElectLeaseDuration),
                  newLeaderAt: formatTime(now + host.config.leaderElectLeaseDuration),
                },
              }
            : { rule: 'in-memory controller state is lost; the first monitor pass runs at once', values: { firstPassAt: formatTime(now) } },
          ...because,
        ],
        source: src,
      });
      host.remember(CONTROLLER_MANAGER_REF, 'restarted', seq);
      ctx.restart(ev.failover, seq);
      return;
    }
  }
}

/**
 * Writes a new list with a new condition rather than editing either in place: a live pod shares
 * its conditions, but the Ready one, with the snapshot's record and checkpoints (see clonePod).
 */
function setPodCondition(pod: PodRecord, type: string, ready: boolean, now: Micros): void {
  const status = ready ? 'True' : 'False';
  const i = pod.conditions.findIndex((x) => x.type === type);
  if (i < 0) {
    pod.conditions = [...pod.conditions, podCondition(type, status, now, undefined, undefined)];
    return;
  }
  const c = pod.conditions[i];
  if (c.status === status) return;
  const conds = pod.conditions.slice();
  conds[i] = podCondition(c.type, status, now, c.reason, c.message);
  pod.conditions = conds;
}
