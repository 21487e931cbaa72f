/**
 * explain(ref): "why did this happen" — the decisions about the object, each
 * with its chain of causes back to the world events (oldest first) — and "why
 * did this not happen": every running controller's `whyNot`, plus the
 * simulation's own reasons (a controller that does not run, a
 * controller-manager that is not leading after a failover, an object that
 * never existed).
 */
import type { ObjectRef, Taint } from '../model/types';
import { nsKey } from '../model/types';
import { formatTime, parseTimestamp } from '../model/time';
import type { ClusterState } from '../model/cluster';
import { causeChain } from '../trace/causes';
import type { Explanation, ZoneView } from '../trace/views';
import type { SimController } from '../controllers/controller';
import type { ControllerHost } from '../controllers/controllerHost';
import type { Micros } from '../model/time';
import type { Scenario, TimeSpec } from '../snapshot/types';
import { resolveNodeTarget } from './world';
import type { Kubelets } from '../kubelet/kubelets';
import type { SimHost } from './simHost';
import type { ControllerPlan } from './controllerPlan';
import type { WhyNot, WhyNotWorld } from '../trace/whyNot';
import { controllerOf, isPodActive } from '../controllers/replicaSet/podUtil';
import { readKubeletResume } from './kubeletResumes';
import { chainToNodeTaint } from './nodeTaintChain';
import { chainToPodDeletions } from './podDeletionChain';
import { readUntaint } from './untaintAhead';
import { readKubeletRepost } from './kubeletRepost';
import { nextRestart, readRestart } from './restartAhead';
import { acrossFailover } from './failoverAhead';
import { readScaleDown } from './scaleAhead';
import { readMasterDisruption, type NodesAhead } from './masterAhead';
import { readTimelineDelete } from './deleteAhead';
import { readDeletedFirst } from './deletedFirst';
import { readTaintSwap, scheduledThroughNotReady } from './swapAhead';
import { eventsUntil, podAtOf } from './podsAhead';

/** Which controllers could decide something about an object of this kind. */
const CONCERNED: Record<string, string[]> = {
  Node: ['node-lifecycle'],
  Zone: ['node-lifecycle'],
  Pod: ['node-lifecycle', 'taint-eviction', 'replicaset', 'scheduler'],
  ReplicaSet: ['replicaset'],
};

/**
 * What explain reads of a simulation. Narrower than the Simulation so that the
 * simulation can call explain without the two importing each other.
 */
export interface Explainable {
  readonly scenario: Pick<Scenario, 'snapshot' | 'events'>;
  timeOf(at: TimeSpec): Micros;
  /** the whole host: the controllers' why-not reads it */
  readonly host: ControllerHost & Pick<SimHost, 'byObject' | 'trace' | 'controllers'>;
  readonly kubelets: Pick<Kubelets, 'view' | 'settings' | 'period'>;
  readonly plan: readonly ControllerPlan[];
  /** when the controller-manager leads again after a failover, while it does not */
  readonly leaderStartsAt: Micros | undefined;
  /** while it does not: the controllers' why-nots as the new leader gives them when it starts (newLeader.ts) */
  whyNotDuringWait?(ref: ObjectRef, ask?: WhyNotAsk): WhyNot[];
  /** the why-nots of the new leader that starts at `at`, as it starts (newLeader.ts); undefined when not worked out */
  newLeaderAnswers?(at: Micros, ref: ObjectRef, ask?: WhyNotAsk): WhyNot[] | undefined;
  /** no failover on the way: the new leader's run kept for newLeaderAnswers is dropped */
  forgetNewLeader?(): void;
  zones(): ZoneView[];
  /** false: `c` is left unasked about `ref` (its restore owed, GoToPassOptions.viewsFirst, and it would answer nothing about it) */
  asks?(c: SimController, ref: ObjectRef, world?: WhyNotWorld): boolean;
}

export function existsIn(cluster: ClusterState, ref: ObjectRef): boolean {
  const parts = ref.split('/');
  const kind = parts[0];
  const name = parts.slice(1);
  switch (kind) {
    case 'Node':
      return cluster.nodes.has(name[0]);
    case 'Pod':
      return name.length === 2 && cluster.pods.has(nsKey(name[0], name[1]));
    case 'ReplicaSet':
      return name.length === 2 && cluster.replicaSets.has(nsKey(name[0], name[1]));
    case 'DaemonSet':
      return name.length === 2 && cluster.daemonSets.has(nsKey(name[0], name[1]));
    case 'Lease':
      return cluster.leases.has(name[name.length - 1]);
    default:
      return false;
  }
}

export function explainObject(sim: Explainable, ref: ObjectRef): Explanation {
  const host = sim.host;
  const kind = ref.split('/')[0];
  const exists = kind === 'Zone' ? sim.zones().some((z) => z.zone === ref) : existsIn(host.cluster, ref);
  const seqs = host.byObject.get(ref) ?? [];
  const happened = seqs.map((s) => ({ decision: host.trace.at(s - 1)!, chain: causeChain(host.trace, s) }));
  const whyNot: Explanation['whyNot'] = [];

  if (!exists && !seqs.length && !existsIn(sim.scenario.snapshot.cluster, ref)) {
    whyNot.push({
      what: 'anything',
      check: { rule: 'the object never existed: it is not in the snapshot and nothing in the timeline created it', values: { object: ref } },
    });
    return { object: ref, exists, happened, whyNot, neverExisted: true };
  }
  if (sim.leaderStartsAt !== undefined) {
    whyNot.push({
      what: 'any controller decision',
      check: {
        rule: "kube-controller-manager is not leading: after a failover the new leader waits for the old leader's lease to expire",
        values: { newLeaderAt: formatTime(sim.leaderStartsAt) },
      },
      wouldFireAt: formatTime(sim.leaderStartsAt),
    });
  }
  for (const p of sim.plan) {
    if (p.enabled || !(CONCERNED[kind] ?? []).includes(p.name)) continue;
    whyNot.push({ what: `decisions of ${p.name}`, check: { rule: `${p.name} does not run: ${p.reason}`, values: { controller: p.name } } });
  }
  whyNot.push(...whyNotOfControllers(sim, ref));
  return { object: ref, exists, happened, whyNot };
}

/** An event of the timeline about a node's kubelet or conditions. */
interface NodeEvent {
  at: Micros;
  /** a whole kubelet stop (status and Lease) */
  stop: boolean;
  /** a kubelet start that posts status again */
  start: boolean;
  /** a whole kubelet start (status and Lease, no `only`) */
  restarts?: boolean;
  /** a start whose posts come too seldom to keep the node Ready (status alone, Leases the heartbeat) */
  lapses?: true;
  ready?: string;
  /** the event after the first (what ends a stop), kept on the first */
  then?: NodeEvent;
  /** kept on the first: the timeline has events about the node after `then` too */
  more?: boolean;
}

/** What the simulation's kubelets say of a node, for the controllers' why-not. */
export function worldOf(sim: Explainable): WhyNotWorld {
  // the timeline's next event about each node's kubelet or conditions, from now: made once per question
  let next: Map<string, NodeEvent> | undefined;
  let deletes: Map<string, { at: Micros; pod: ObjectRef }> | undefined;
  let deleted: Map<string, Micros> | undefined;
  let every: Map<string, { at: Micros; replicas: number; afterOthers: boolean }[]> | undefined;
  let taints: Map<string, { at: Micros; taint?: Taint }> | undefined;
  let sorted: { e: Scenario['events'][number]; t: Micros }[] | undefined;
  let podAt: NonNullable<WhyNotWorld['podAt']> | undefined;
  const ahead = () =>
    (sorted ??= sim.scenario.events
      .map((e) => ({ e, t: sim.timeOf(e.at) }))
      .filter((x) => x.t > sim.host.now)
      .sort((a, b) => a.t - b.t || a.e.index - b.e.index));
  const stoppedNow = (node: string) => {
    const v = sim.kubelets.view(node);
    return v !== undefined && !v.status && !v.lease;
  };
  const nextOf = (node: string) => {
    if (!next) {
      next = new Map();
      for (const { e, t } of ahead()) {
        if (e.kind !== 'kubelet' && e.kind !== 'condition') continue;
        for (const n of resolveNodeTarget(sim.host.cluster.nodes, e.target).found) {
          const name = n.meta.name;
          const event: NodeEvent = {
            at: t,
            stop: e.kind === 'kubelet' && e.action === 'stop' && !e.only,
            start: e.kind === 'kubelet' && e.action === 'start' && e.only !== 'lease',
            // a start of the status posts alone, where Leases are the heartbeat: it posts at once, then too seldom to keep the
            // node Ready (kubeletLapse.ts)
            ...(e.kind === 'kubelet' && e.action === 'start' && e.only === 'status' && sim.kubelets.settings.leases ? { lapses: true } : {}),
            ...(e.kind === 'kubelet' && e.action === 'start' && !e.only ? { restarts: true } : {}),
            ...(e.kind === 'condition' && e.condition.type === 'Ready' ? { ready: e.condition.status } : {}),
          };
          const first = next.get(name);
          // a whole stop of a kubelet stopped by then does nothing (all-zones-down with node-a2 stopped at +20s before every
          // node at +30s: its Unknown at +1m was said to have no time for the second stop)
          const last = first ? (first.more ? undefined : (first.then ?? first)) : undefined;
          if (event.stop && (last ? last.stop : !first && stoppedNow(name))) continue;
          if (!first) next.set(name, event);
          else if (!first.then) first.then = event;
          else first.more = true;
        }
      }
    }
    return next.get(node);
  };
  const world: WhyNotWorld = {
    memo: new Map(),
    eventsUntil: (until) => eventsUntil(sim.scenario.events, (at) => sim.timeOf(at), sim.host, until),
    podAt: (pod, at) => (podAt ??= podAtOf(sim.host, world, (ref, w, asked) => whyNotOfControllers(sim, ref, w, { asked, scalesRead: false })))(pod, at),
    scalesTo(replicaSet) {
      // the first scale when no other event comes before it (after one, the pods or the controller may have changed
      // first): scalesOf's, so that the two never read one instant differently
      const first = world.scalesOf!(replicaSet)[0];
      return first && !first.afterOthers ? { at: first.at, replicas: first.replicas } : undefined;
    },
    scalesOf(replicaSet) {
      if (!every) {
        every = new Map();
        let others = false;
        for (const { e, t } of ahead()) {
          if (e.kind !== 'scale') {
            others = true;
            continue;
          }
          const list = every.get(e.replicaSet) ?? [];
          if (!list.length) every.set(e.replicaSet, list);
          // two scales at one instant: the sync after them reads the last, after whatever came between them
          const last = list[list.length - 1];
          if (last?.at === t) list[list.length - 1] = { at: t, replicas: e.replicas, afterOthers: last.afterOthers || others };
          else list.push({ at: t, replicas: e.replicas, afterOthers: others });
        }
      }
      return every.get(replicaSet) ?? [];
    },
    deletesOf(replicaSet) {
      if (!deletes) {
        deletes = new Map();
        // a delete read ahead while only scales and deletes come first: a scale of its own ReplicaSet changes its count
        // first, or at the delete's instant (the sync after the instant reads both: rs-slow-start seed 4 with HUNT_PARTIAL,
        // a delete and a scale down at +20s named a replacement then)
        const prefix: { e: Scenario['events'][number]; t: Micros }[] = [];
        for (const x of ahead()) {
          if (x.e.kind !== 'scale' && x.e.kind !== 'delete') break;
          prefix.push(x);
        }
        const scaledAt = new Map<string, Micros>();
        for (const { e, t } of prefix) if (e.kind === 'scale' && !scaledAt.has(e.replicaSet)) scaledAt.set(e.replicaSet, t);
        for (const { e, t } of prefix) {
          if (e.kind === 'delete') {
            const [kind, ns, name, more] = e.ref.split('/');
            const pod = kind === 'Pod' && name && !more ? sim.host.cluster.pods.get(nsKey(ns, name)) : undefined;
            const owner = pod && isPodActive(pod) ? controllerOf(pod.meta) : undefined;
            const key = owner ? `${ns}/${owner.name}` : undefined;
            if (key && !((scaledAt.get(key) ?? Infinity) <= t) && !deletes.has(key)) deletes.set(key, { at: t, pod: `Pod/${ns}/${name}` });
          }
        }
      }
      return deletes.get(replicaSet);
    },
    deletedAt(pod) {
      if (!deleted) {
        deleted = new Map();
        for (const { e, t } of ahead()) if (e.kind === 'delete' && !deleted.has(e.ref)) deleted.set(e.ref, t);
      }
      return deleted.get(pod);
    },
    nodeEvents(node) {
      const out: ReturnType<NonNullable<WhyNotWorld['nodeEvents']>> = [];
      for (const { e, t } of ahead()) {
        if (e.kind !== 'kubelet' && e.kind !== 'condition' && e.kind !== 'taint' && e.kind !== 'untaint') continue;
        if (!resolveNodeTarget(sim.host.cluster.nodes, e.target).found.some((n) => n.meta.name === node)) continue;
        out.push(e.kind === 'taint' || e.kind === 'untaint' ? { at: t, kind: e.kind, taint: e.taint } : { at: t, kind: 'kubelet' });
      }
      return out;
    },
    taintsAt(node) {
      if (!taints) {
        taints = new Map();
        // the first instant with an event about each node's kubelet, conditions or taints: a NoExecute taint only when it
        // is that instant's, beside kubelet stops or starts alone (their effect on the node comes a grace period later); a
        // condition or another taint or untaint at that instant changes what the taint eviction reads: no taint then
        const first = new Map<string, { at: Micros; events: Scenario['events'][number][] }>();
        for (const { e, t } of ahead()) {
          if (e.kind !== 'kubelet' && e.kind !== 'condition' && e.kind !== 'taint' && e.kind !== 'untaint') continue;
          for (const n of resolveNodeTarget(sim.host.cluster.nodes, e.target).found) {
            const x = first.get(n.meta.name);
            if (!x) first.set(n.meta.name, { at: t, events: [e] });
            else if (x.at === t) x.events.push(e);
          }
        }
        for (const [name, { at, events }] of first) {
          const noExecute = events.filter((e) => e.kind === 'taint' && e.taint.effect === 'NoExecute');
          const taint = noExecute.length === 1 && events.every((e) => e === noExecute[0] || e.kind === 'kubelet') ? noExecute[0] : undefined;
          taints.set(name, { at, ...(taint?.kind === 'taint' ? { taint: taint.taint } : {}) });
        }
      }
      const x = taints.get(node);
      return x?.taint ? { at: x.at, taint: x.taint } : undefined;
    },
    readyAt(node) {
      const n = nextOf(node);
      // another event about the kubelet at that instant, after it, posts again first (a start posts Ready=True: the hunt's
      // notready-then-unknown seed 37, node-b1 set Ready=False and started at +30s, was said tainted at +30s)
      return n?.ready !== undefined && n.then?.at !== n.at ? { at: n.at, status: n.ready } : undefined;
    },
    resumesAt(node) {
      const n = nextOf(node);
      const stopped = sim.kubelets.view(node)?.status === false;
      const r = stopped ? n : n?.stop ? n.then : undefined;
      if (!r) return undefined;
      const seenAt = monitorPassAtOrAfter(sim.host, r.at);
      // a stop again after the start (or any event about the kubelet): the outcome may come after all
      // (a start that posts too seldom to keep the node Ready is as good as a stop again: kubeletLapse.ts)
      const again = (stopped ? n!.then !== undefined : n!.more === true) || r.lapses === true;
      return { at: r.at, start: r.start, again, ...(seenAt !== undefined ? { seenAt } : {}), ...(!stopped ? { stoppedAt: n!.at } : {}) };
    },
    stopsAt(node) {
      const first = nextOf(node);
      // a whole start of a running kubelet, then its stop and nothing after: the start posts and renews at once, and the
      // stop counts from there (a stop after a start was taken for none: rs-zone-outage with node-b1 started at +20s,
      // stopped with its zone at +30s, said node-b2 tainted at +1m10s, tainted at +1m20s behind node-b1)
      const restart = first?.restarts && first.then?.stop && !first.more && sim.kubelets.view(node)?.status === true ? first : undefined;
      const n = restart ? first!.then : first;
      if (!n?.stop) return undefined;
      const s = sim.kubelets.settings;
      const then = !restart && n.then?.ready !== undefined ? { readyAfter: { at: n.then.at, status: n.then.ready } } : {};
      return {
        at: n.at,
        postEvery: sim.kubelets.period,
        ...(s.leases ? { renewEvery: s.leaseRenewInterval } : {}),
        ...then,
        ...(restart ? { restartAt: restart.at } : {}),
      };
    },
    kubelet(node) {
      const v = sim.kubelets.view(node);
      if (!v) return undefined;
      const leases = v.lease && sim.kubelets.settings.leases;
      const does = [...(v.status ? ['posts node status'] : []), ...(leases ? ['renews its Lease'] : [])];
      return {
        running: does.length > 0,
        ...(v.status && !leases && sim.kubelets.period > sim.host.config.nodeMonitorGracePeriod ? { lapses: true as const } : {}),
        does,
        ...(v.lastPost !== undefined ? { lastPost: v.lastPost } : {}),
        ...(v.nextPost !== undefined ? { nextPost: v.nextPost } : {}),
        ...(leases && v.nextRenew !== undefined ? { nextRenew: v.nextRenew } : {}),
        ...(v.status
          ? {
              postEvery: sim.kubelets.period,
              updateEvery: sim.kubelets.settings.updateFrequency,
              postsReady: v.desired.find((d) => d.type === 'Ready')?.status,
            }
          : {}),
        ...(leases ? { renewEvery: sim.kubelets.settings.leaseRenewInterval } : {}),
      };
    },
  };
  return world;
}

/** Which controllers a why-not asks, and whether a timeline scale-down is read (whyNotOfControllers). */
export interface WhyNotAsk {
  /** the controllers asked (all by default) */
  asked?: (c: SimController) => boolean;
  /**
   * a timeline scale-down before a pod's eviction takes its time away (scaleAhead.ts); off for a scale-down's own
   * forecast (podAt), which syncs the scales in turn
   */
  scalesRead?: boolean;
}

/**
 * Every running controller's why-not for the object, each then read against the timeline, a reader taking the answer
 * the one before gave (the order matters):
 * 1. the chains make a time from the answers the outcome waits for: a pod's wait for its node's NoExecute taint from
 *    the node lifecycle controller's answer of that taint (chainToNodeTaint), a replacement's from its pods' deletions
 *    (chainToPodDeletions);
 * 2. on the pod's or node's node: readKubeletResume (a start the timeline holds cancels an outage; not for a scheduled
 *    taint eviction a Ready=False keeps, scheduledThroughNotReady), then for a taint
 *    eviction readUntaint and readTaintSwap (an untaint or a not-ready/unreachable swap on the way): they read the
 *    chained time, so they come after the chains;
 * 3. readMasterDisruption, readRestart, readScaleDown: each takes away a time that something of the timeline may come
 *    before (every zone down, a restart, a scale-down's sync);
 * 4. readTimelineDelete: a pod deletion still named at or after the timeline's delete of that pod never comes. Last,
 *    as it reads only answers that still name a time: one made uncertain above stays uncertain, not "never".
 */
export function whyNotOfControllers(sim: Explainable, ref: ObjectRef, world: WhyNotWorld = worldOf(sim), ask: WhyNotAsk = {}): WhyNot[] {
  if (sim.leaderStartsAt !== undefined && sim.whyNotDuringWait) return sim.whyNotDuringWait(ref, ask);
  const asked = ask.asked ?? (() => true);
  const scalesRead = ask.scalesRead ?? true;
  const host = sim.host;
  const out: WhyNot[] = [];
  const restored = (c: SimController) => sim.asks?.(c, ref, world) ?? true;
  for (const c of host.controllers) if (asked(c) && restored(c)) out.push(...c.whyNot(host, ref, world));
  const nodes = host.controllers.find((c) => c.whyNotOf);
  const node = nodeOfRef(host, ref);
  const restart = nextRestart(sim.scenario.events, (at) => sim.timeOf(at), host.now);
  // the pod's own scale-down answer, asked of the ReplicaSet controller when the question left it out (a replacement's chain)
  let byScale: { w?: WhyNot } | undefined;
  const scaleAnswer = () =>
    (byScale ??= {
      w: [...out, ...host.controllers.filter((c) => !asked(c) && c.name === 'replicaset' && restored(c)).flatMap((c) => c.whyNot(host, ref, world))].find(
        (w) => w.outcome === 'PodDeletedByScaleDown',
      ),
    }).w;
  const nodeRecord = node !== undefined ? host.cluster.nodes.get(node) : undefined;
  const passAtOrAfter = (t: Micros) => monitorPassAtOrAfter(host, t);
  const nodesAhead: NodesAhead = {
    probeOf: (n) => nodes?.probeOf?.(n),
    passAtOrAfter,
    unknownAt: (n) => {
      const at = nodes?.whyNot(host, `Node/${n}`, world).find((w) => w.outcome === 'NodeStatusUnknown')?.wouldFireAt;
      return at !== undefined ? parseTimestamp(at) : undefined;
    },
  };
  const podRecord = nodeRecord && ref.startsWith('Pod/') ? host.cluster.pods.get(ref.slice('Pod/'.length)) : undefined;
  const on = podRecord && nodeRecord ? { host, pod: podRecord, node: nodeRecord, world, running: (n: string) => kubeletRuns(sim, n) } : undefined;
  // a failover on the way: nothing is decided until the new leader starts, which answers with empty memory (newLeader.ts)
  const leaderAt = restart?.failover ? restart.at + host.config.leaderElectLeaseDuration : undefined;
  if (leaderAt === undefined) sim.forgetNewLeader?.();
  let leader: { answers?: WhyNot[] } | undefined;
  const leaderAnswers = () => (leader ??= { answers: leaderAt === undefined ? undefined : sim.newLeaderAnswers?.(leaderAt, ref, ask) }).answers;
  const answers = out.map((w) => {
    const ahead = answerAhead(w);
    const master = nodes ? readMasterDisruption(ahead, host, world, nodeRecord, nodesAhead) : ahead;
    const read = leaderAt === undefined ? readRestart(master, restart, on) : master;
    const done = readTimelineDelete(scalesRead ? readScaleDown(read, host.cluster, world, scaleAnswer) : read, world);
    return leaderAt === undefined ? done : (acrossFailover(done, ref, restart!.at, leaderAt, leaderAnswers) ?? done);
  });
  return ref.startsWith('Pod/') ? readDeletedFirst(answers) : answers;
  function answerAhead(w: WhyNot): WhyNot {
    const chained =
      w.blocking?.guard === 'nodeHasNoExecuteTaint' && nodes
        ? chainToNodeTaint(sim, w, ref, nodes, world)
        : w.waitsForDeletion
          ? chainToPodDeletions(sim, w, w.waitsForDeletion, world, (pod) => whyNotOfControllers(sim, pod, world, { asked: deletes }))
          : w;
    const pod = node && ref.startsWith('Pod/') && chained.outcome === 'PodDeletedByTaintEviction' ? host.cluster.pods.get(ref.slice('Pod/'.length)) : undefined;
    const kept = pod && node && scheduledThroughNotReady(chained, host, pod, node, world);
    const resumed = node && !kept ? readKubeletResume(chained, node, world) : chained;
    if (!pod || !node) return resumed;
    const untainted = readKubeletRepost(readUntaint(resumed, host, pod, node, world), host, node, world, passAtOrAfter);
    return readTaintSwap(untainted, host, pod, node, world, nodes);
  }
}

/** Whether the node's kubelet posts status and, where Leases are on, renews its Lease (a lapsed half lets it go Unknown). */
function kubeletRuns(sim: Explainable, node: string): boolean {
  const v = sim.kubelets.view(node);
  return v?.status === true && (!sim.kubelets.settings.leases || v.lease === true);
}

/** The node a node's or pod's why-not goes through. */
/** The node lifecycle controller's monitor pass at or after `t` (undefined without that controller). */
function monitorPassAtOrAfter(host: Explainable['host'], t: Micros): Micros | undefined {
  return host.controllers.find((c) => c.monitorPassAtOrAfter)?.monitorPassAtOrAfter!(t);
}

function nodeOfRef(host: ControllerHost, ref: ObjectRef): string | undefined {
  const [kind, ns, name] = ref.split('/');
  if (kind === 'Node') return ns;
  return kind === 'Pod' && name ? host.cluster.pods.get(nsKey(ns, name))?.nodeName : undefined;
}

/** the controllers whose why-nots of a pod can be a deletion (the others' answers would be dropped) */
const DELETING = new Set<string>(['taint-eviction', 'node-lifecycle']);
const deletes = (c: SimController): boolean => DELETING.has(c.name);
