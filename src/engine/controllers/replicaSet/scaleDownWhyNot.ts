/**
 * Which pods a scale-down will delete, and when: manageReplicas' getPodsToDelete (ranking.ts) run
 * ahead of the sync that makes it, for a ReplicaSet with more active pods than spec.replicas now, or
 * one the timeline scales below its active pods (`scale:`, read ahead by the world while only scales
 * come first). The syncs are those of manageReplicas: at most burstReplicas deletions each, the
 * deletions observed at once (a pod on a running kubelet is gone at once), so the next sync at the
 * same instant deletes the next batch, ranked again without the pods gone (a doubled-up pod no
 * longer doubled up ranks elsewhere). The ranking reads each pod's node, phase, readiness, restarts
 * and times, and the related ReplicaSets' pods: where any of them can change before the scale (a pod
 * not bound or started yet, a node failing, a related ReplicaSet short or scaled too, an injected
 * fault), the outcome is given without a time.
 */
import type { ControllerHost } from '../controllerHost';
import type { ObjectRef, PodRecord, ReplicaSetRecord } from '../../model/types';
import { podRef, replicaSetRef } from '../../model/types';
import { formatTime, isZeroTime, type Micros } from '../../model/time';
import type { WhyNot, WhyNotCheck, WhyNotWorld } from '../../trace/whyNot';
import { cutList, wholeLists, whyNotFrom } from '../../trace/whyNot';
import { claimedInCluster, controllerOf, isPodActive, isPodReady, podReadyTime, specReplicas } from './podUtil';
import { syncedAgainAt } from './machine';
import { getPodsToDelete, type RuleOutcome } from './ranking';
import { rankingSettings, relatedPods } from './manageReplicas';
import type { ReplicaSetCore } from './core';
import { readReach, type Reach } from './scaleDownReach';

export interface ScaleDownForecast {
  ref: ObjectRef;
  /** the timeline's scale (undefined: the surplus is there now, synced before any scale); `after`: the other events read on the way */
  scale?: { at: Micros; replicas: number; after?: Micros[] };
  /** a surplus there now whose sync comes at or after the timeline's `scale`, which that sync reads */
  surplusNow?: boolean;
  /** when the sync runs, when it can be named */
  at?: Micros;
  replicas: number;
  active: number;
  burst: number;
  /**
   * the pods deleted, in the order the syncs delete them, with their batch (1-based) and why each went
   * before the first pod kept; `step` 0 is the first scale's (or the surplus'), k the k-th of `later`
   */
  deleted: { name: string; batch: number; step: number; why?: RuleOutcome & { versus: string } }[];
  /** why a pod is kept: the last pod deleted ranked before it (the last sync's ranking) */
  whyKept(name: string): (RuleOutcome & { versus: string }) | undefined;
  /** what can change the ranking or hold the sync back before then (no time is named while any) */
  unsettled: string[];
  /** the pods ranked not ready though ready now: their node goes Unknown on the way (scaleDownReach.ts), from when */
  notReadyFrom: Map<string, Micros>;
  /** the pods the timeline deletes at a scale's instant, before its sync ranks (no scale-down answer for them) */
  goneByTimeline: Set<string>;
  /**
   * the timeline's later scales of the ReplicaSet, read in turn (a pod the first keeps can go at one);
   * `after`: the instants of the timeline's other events read on the way to it (from now)
   */
  later: { at: Micros; replicas: number; after?: Micros[] }[];
  /** why the pods left after `later[0..step-1]` cannot be ranked ahead at the later scale `step` (1-based) */
  laterUnsettled?: { step: number; why: string };
  /** the later scales (1-based) that delete pods a scale up made on the way, not named here */
  unnamed?: number[];
}

/**
 * The scale-down ahead of a ReplicaSet, or undefined when none is (no surplus now, no timeline scale
 * below its active pods, an orphan to adopt first, a ReplicaSet it cannot manage or being deleted).
 */
export function forecastScaleDown(
  rsc: ReplicaSetCore,
  host: ControllerHost,
  rs: ReplicaSetRecord,
  world: WhyNotWorld | undefined,
): ScaleDownForecast | undefined {
  const key = `${rs.meta.namespace}/${rs.meta.name}`;
  const memoKey = `scaleDown:${key}`;
  const memo = world?.memo?.get(memoKey) as ScaleDownForecast | null | undefined;
  if (memo !== undefined) return memo ?? undefined;
  const out = forecast(rsc, host, rs, key, world);
  world?.memo?.set(memoKey, out ?? null);
  return out;
}

/** The timeline's scales of the ReplicaSet `key` a forecast reads: all listed, and the first it is synced to (`up`). */
export function scalesRead(key: string, world: WhyNotWorld | undefined) {
  const listed = world?.scalesOf?.(key);
  // the first scale after other events too, where the world reads what those events reach (scaleDownReach.ts)
  const after = world?.eventsUntil ? listed?.[0] : undefined;
  const up = world?.scalesTo?.(key) ?? (after ? { at: after.at, replicas: after.replicas } : undefined);
  return { listed, up };
}

/** Whether a scale-down may be ahead of `rs` with `indexed` pods in the index: a surplus now, or the scale `up` below them. */
export function surplusAhead(rs: ReplicaSetRecord, indexed: number, up: { replicas: number } | undefined): boolean {
  return indexed > specReplicas(rs) || (up !== undefined && up.replicas < indexed);
}

function forecast(rsc: ReplicaSetCore, host: ControllerHost, rs: ReplicaSetRecord, key: string, world: WhyNotWorld | undefined): ScaleDownForecast | undefined {
  const check = rsc.check(rs);
  if (!check.manageable || rs.meta.deletionTimestamp !== undefined) return undefined;
  const entry = rsc.entries.get(key);
  const { listed, up } = scalesRead(key, world);
  const scales = listed ?? (up ? [{ ...up, afterOthers: false }] : []);
  // a cheap look first: the index's pods of the ReplicaSet (it may lag the cluster; the walk below does not)
  const indexed = entry ? (rsc.podsOf(entry)?.size ?? 0) : 0;
  if (!surplusAhead(rs, indexed, up)) return undefined;
  const { pods, adoptable } = claimedInCluster(host.cluster.pods.values(), rs, (l) => check.selector.matches(l));
  if (adoptable) return undefined;
  const now = pods.length > specReplicas(rs);
  const c = entry ? rsc.ctx(entry) : undefined;
  const backoff = entry?.actor.state().includes('queue.backoff') === true;
  // a sync that failed is retried after the workqueue's backoff; certain when no injected fault is left to fail it
  const mayFail = host.apiCallsMayFail?.() !== false;
  const due = c?.dueAt == null ? undefined : backoff ? syncedAgainAt(c.dueAt, c.resyncAt) : c.dueAt;
  // a surplus there now whose sync comes at or after a scale of the timeline: the scale queues the key at once (in
  // backoff too: workqueue.Add), and that sync reads the scale
  const early = now && due !== undefined ? scales.find((s) => s.at <= due) : undefined;
  const scale = early ? { at: early.at, replicas: early.replicas } : !now && up && up.replicas < pods.length ? up : undefined;
  if (!now && !scale) return undefined;
  const replicas = scale ? scale.replicas : specReplicas(rs);
  const unsettled: string[] = [];
  if (!entry || !c) unsettled.push('the controller has not seen the ReplicaSet yet');
  else {
    if (rsc.expectationsPending(entry)) unsettled.push("the ReplicaSet's expectations are not satisfied yet");
    if (backoff && mayFail) unsettled.push("the ReplicaSet's last sync failed (workqueue backoff)");
  }
  if (host.apiCallsMayFail?.()) unsettled.push('an injected API fault is pending');
  const at = scale ? scale.at : due;
  if (at === undefined) unsettled.push("the ReplicaSet's key waits to be processed");
  const settings = { ...rankingSettings(rsc, host), now: at ?? host.now };
  const owner = controllerOf(rs.meta);
  let related = settings.rankDoubledUp && owner ? relatedPods(rsc, host, rs) : [];
  let first: Reach | undefined;
  // a shortfall now is made up before the scale: the pods it creates are ranked too
  if (scale && pods.length < specReplicas(rs))
    unsettled.push(`the ReplicaSet has ${pods.length} active pods for ${specReplicas(rs)} replicas: it creates pods first`);
  if (at !== undefined && (scale || at > host.now)) {
    // the pods (and the related ReplicaSets' pods, which rank them doubled up on a node) as the sync reads them then
    first = readReach(host, world, pods, related.filter(isPodActive), at);
    if ('why' in first) unsettled.push(first.why);
  }
  if (scale && related.length) {
    for (const other of host.cluster.replicaSets.values()) {
      const o = controllerOf(other.meta);
      if (other === rs || !o || o.uid !== owner!.uid || other.meta.namespace !== rs.meta.namespace) continue;
      const s = world?.scalesTo?.(`${other.meta.namespace}/${other.meta.name}`);
      if (s && s.at <= scale.at) unsettled.push(`the timeline scales the related ReplicaSet/${other.meta.namespace}/${other.meta.name} at ${formatTime(s.at)}`);
      const mine = related.filter((p) => isPodActive(p) && controllerOf(p.meta)?.uid === other.meta.uid).length;
      if (mine !== specReplicas(other))
        unsettled.push(`the related ReplicaSet/${other.meta.namespace}/${other.meta.name} has ${mine} active pods for ${specReplicas(other)} replicas`);
    }
  }
  // the syncs at that instant: burstReplicas each, ranked again without the pods gone
  const burst = host.config.burstReplicas;
  let remaining = pods;
  const deleted: ScaleDownForecast['deleted'] = [];
  let last: ReturnType<typeof getPodsToDelete> | undefined;
  const notReadyFrom = new Map<string, Micros>();
  const goneByTimeline = new Set<string>();
  const syncs = (step: number, to: number, now: Micros | undefined, reach?: Reach): void => {
    const ranked = { ...settings, now: now ?? host.now };
    const view = reach && !('why' in reach) ? reach.view : undefined;
    if (reach && !('why' in reach) && reach.gone.size) {
      for (const p of remaining) if (reach.gone.has(p.meta.uid)) goneByTimeline.add(p.meta.name);
      remaining = remaining.filter((p) => !reach.gone.has(p.meta.uid));
    }
    for (let batch = 1; remaining.length > to && burst > 0; batch++) {
      const count = Math.min(remaining.length - to, burst);
      const read = view?.size ? remaining.map((p) => view.get(p.meta.uid) ?? p) : remaining;
      for (const v of view?.values() ?? []) {
        const since = v.conditions.find((x) => x.type === 'Ready' && x.status !== 'True')?.lastTransitionTime;
        if (since !== undefined && !notReadyFrom.has(v.meta.name)) notReadyFrom.set(v.meta.name, since);
      }
      const choice = getPodsToDelete(read, related, count, ranked);
      for (const d of choice.deleted)
        deleted.push({ name: d.name, batch, step, ...(choice.whyDeleted.get(d.name) ? { why: choice.whyDeleted.get(d.name)! } : {}) });
      const gone = new Set(choice.deleted.map((d) => d.pod.meta.uid));
      remaining = remaining.filter((p) => !gone.has(p.meta.uid));
      if (related.length) related = related.filter((p) => !gone.has(p.meta.uid));
      last = choice;
    }
  };
  syncs(0, replicas, at, first);
  const ref = replicaSetRef(rs.meta.namespace, rs.meta.name);
  const later = at === undefined ? [] : scales.filter((s) => s.at > at);
  const read: ScaleDownForecast['later'] = later.map((s) => ({ at: s.at, replicas: s.replicas }));
  const newFirst = !settings.rankDoubledUp && !settings.podDeletionCost && !settings.logarithmicScaleDown;
  const { unsettled: laterUnsettled, unnamed } = readLater(
    host,
    rs,
    world,
    ref,
    later,
    replicas,
    owner?.uid,
    newFirst,
    (step, s, reach) => {
      syncs(step, s.replicas, s.at, reach);
      if (reach.instants.length) read[step - 1]!.after = reach.instants;
    },
    () => remaining,
    () => related,
  );
  return {
    ref,
    ...(scale ? { scale: { ...scale, ...(first && !('why' in first) && first.instants.length ? { after: first.instants } : {}) } } : {}),
    ...(early ? { surplusNow: true } : {}),
    ...(at !== undefined ? { at } : {}),
    replicas,
    active: pods.length,
    burst,
    deleted,
    whyKept: (name) => last?.whyKept.get(name),
    unsettled,
    notReadyFrom,
    goneByTimeline,
    later: read,
    ...(laterUnsettled ? { laterUnsettled } : {}),
    ...(unnamed.length ? { unnamed } : {}),
  };
}

/**
 * The timeline's later scales of the ReplicaSet, in turn: a scale up deletes nothing; a scale down
 * runs the syncs at its instant, ranked then, while only scales came before it and nothing the
 * ranking reads can change (the pods as they are now, the related ReplicaSets not scaled by then).
 * The pods a scale up makes are ranked at a later scale down too, where they cannot be read ahead
 * (their node, readiness and times): no time then, but under 1.12's ActivePods (no ranks, no
 * deletion cost, no logarithmic buckets, `newFirst`), where every one of them comes before every
 * pod there now that is assigned, Running and Ready since before that scale up (it is unassigned,
 * Pending, not ready, or ready for a shorter time: rules 1-4), so a scale down deletes them first
 * and the pods there now only past them. The first scale that cannot be read, and why (undefined
 * when every one can), and the scales down that delete pods made on the way (`unnamed`).
 */
function readLater(
  host: ControllerHost,
  rs: ReplicaSetRecord,
  world: WhyNotWorld | undefined,
  ref: ObjectRef,
  later: readonly { at: Micros; replicas: number; afterOthers: boolean }[],
  replicas: number,
  owner: string | undefined,
  newFirst: boolean,
  syncs: (step: number, s: { at: Micros; replicas: number }, reach: Extract<Reach, { view: unknown }>) => void,
  remaining: () => readonly PodRecord[],
  related: () => readonly PodRecord[],
): { unsettled?: ScaleDownForecast['laterUnsettled']; unnamed: number[] } {
  let spec = replicas;
  let grown: { at: Micros; replicas: number } | undefined;
  // the pods the scales up make and no scale down has deleted yet
  let made = 0;
  const unnamed: number[] = [];
  for (const [i, s] of later.entries()) {
    const step = i + 1;
    const down = s.replicas < spec;
    spec = s.replicas;
    if (!down) {
      const active = remaining().length + made;
      if (s.replicas > active) {
        grown ??= s;
        made += s.replicas - active;
      }
      continue;
    }
    const unsettled = (why: string) => ({ unsettled: { step, why }, unnamed });
    const ranksMade = (g: { at: Micros; replicas: number }) =>
      `the timeline scales ${ref} up to ${g.replicas} at ${formatTime(g.at)} before it scales it to ${s.replicas} at ${formatTime(s.at)}: the pods it creates are ranked too`;
    if (grown && !newFirst) return unsettled(ranksMade(grown));
    // the pods as the sync at that instant reads them, through the timeline's other events on the way
    const reach = readReach(host, world, remaining(), related().filter(isPodActive), s.at);
    if ('why' in reach) return unsettled(`the ranking may change before the scale to ${s.replicas} at ${formatTime(s.at)}: ${reach.why}`);
    const sibling = owner && related().length ? relatedScaledBy(host, rs, owner, world, s.at) : undefined;
    if (sibling) return unsettled(`the ranking may change before the scale to ${s.replicas} at ${formatTime(s.at)}: ${sibling}`);
    if (!grown || made === 0) {
      syncs(step, s, reach);
      continue;
    }
    // every pod there now must rank after the pods made since `grown`: assigned, Running, Ready since before it
    const up = grown;
    const after = remaining().find((p) => {
      if (reach.gone.has(p.meta.uid)) return false;
      const v = reach.view.get(p.meta.uid) ?? p;
      const readySince = podReadyTime(v);
      return !v.nodeName || v.phase !== 'Running' || !isPodReady(v) || isZeroTime(readySince) || readySince >= up.at;
    });
    if (after) return unsettled(`${ranksMade(up)}, and Pod/${after.meta.namespace}/${after.meta.name} may rank before them`);
    const active = remaining().filter((p) => !reach.gone.has(p.meta.uid)).length + made;
    const deleting = active - s.replicas;
    // one sync's batch: the sync numbers of the pods there now would count the pods made
    if (deleting > host.config.burstReplicas) return unsettled(`${ranksMade(up)}, in more than one sync (burstReplicas ${host.config.burstReplicas})`);
    if (deleting > 0) unnamed.push(step);
    made -= Math.min(made, Math.max(0, deleting));
    if (made === 0) grown = undefined;
    syncs(step, { at: s.at, replicas: s.replicas - made }, reach);
  }
  return { unnamed };
}

/** A ReplicaSet of the same controller (its pods rank this one's) the timeline scales by then. */
function relatedScaledBy(host: ControllerHost, rs: ReplicaSetRecord, owner: string, world: WhyNotWorld | undefined, until: Micros): string | undefined {
  for (const other of host.cluster.replicaSets.values()) {
    if (other === rs || controllerOf(other.meta)?.uid !== owner || other.meta.namespace !== rs.meta.namespace) continue;
    const s = world?.scalesOf?.(`${other.meta.namespace}/${other.meta.name}`)[0];
    if (s && s.at <= until) return `the timeline scales the related ReplicaSet/${other.meta.namespace}/${other.meta.name} at ${formatTime(s.at)}`;
  }
  return undefined;
}

const WHAT_POD = 'deleted by a scale-down (manageReplicas / getPodsToDelete)';
const UPSTREAM = 'manageReplicas -> getPodsToDelete (replica_set.go), ranked by ActivePods / ActivePodsWithRanks (controller_utils.go)';

/**
 * When the forecast's sync comes (`step` 0: the first; k: the k-th later scale): certain now, or
 * under the timeline's scales up to it; undefined while something can change it.
 */
function timing(f: ScaleDownForecast, step = 0): Partial<WhyNot> {
  if (f.unsettled.length || f.at === undefined) return {};
  const text = scaleText(f, step);
  if (text) return { conditional: { if: text, at: formatTime(step ? f.later[step - 1]!.at : f.at) } };
  return { wouldFireAt: formatTime(f.at) };
}

/** The timeline's scales up to the later scale `upTo` (all of them by default): "the timeline scales X to N at S and to M at S2". */
function scaleText(f: ScaleDownForecast, upTo = f.later.length): string | undefined {
  const parts = [...(f.scale ? [f.scale] : []), ...f.later.slice(0, upTo)].map((s) => `to ${s.replicas} at ${formatTime(s.at)}`);
  // the other events read on the way are part of the condition: the answer holds when they come as written
  // read from now: the last scale read on the way has them all
  const after = [f.scale, ...f.later.slice(0, upTo)]
    .map((s) => s?.after)
    .filter((a) => a !== undefined)
    .at(-1);
  const runs = after?.length ? `runs its other events at ${after.map(formatTime).join(' and at ')} and ` : '';
  return parts.length ? `the timeline ${runs}scales ${f.ref} ${parts.join(' and ')}` : undefined;
}

function surplusCheck(f: ScaleDownForecast): WhyNotCheck {
  return {
    guard: 'morePodsThanReplicas',
    upstream: 'manageReplicas (diff > 0)',
    holds: !f.scale || f.surplusNow === true,
    rule: 'more active pods than spec.replicas',
    unmet: `as many active pods as spec.replicas until the timeline scales ${f.ref} to ${f.scale?.replicas} at ${f.scale ? formatTime(f.scale.at) : ''}`,
    values: {
      activePods: f.active,
      replicas: f.replicas,
      burstReplicas: f.burst,
      ...(f.scale ? { timelineScalesTo: f.scale.replicas, timelineScalesAt: formatTime(f.scale.at) } : {}),
    },
  };
}

function settledCheck(f: ScaleDownForecast): WhyNotCheck {
  return {
    guard: 'rankingSettled',
    upstream: 'getPodsToDelete reads each pod as the sync finds it',
    holds: f.unsettled.length === 0,
    rule: f.scale ? 'nothing the ranking reads can change before the scale' : 'the next sync can be named',
    unmet: `${f.scale ? 'the ranking may change before the scale' : 'the next sync cannot be named'}: ${f.unsettled.slice(0, 3).join('; ')}${f.unsettled.length > 3 ? `; … (${f.unsettled.length} in all)` : ''}`,
  };
}

/** A pod's answer: deleted by the forecast's syncs (when), or kept, with the rule and the pod that ranked before it. */
export function podScaleDownWhyNot(f: ScaleDownForecast, pod: PodRecord): WhyNot {
  const ref = podRef(pod.meta.namespace, pod.meta.name);
  const mine = f.deleted.find((d) => d.name === pod.meta.name);
  // what keeps a time from being named blocks first
  const path: WhyNotCheck[] = f.unsettled.length ? [settledCheck(f), surplusCheck(f)] : [surplusCheck(f)];
  if (mine) {
    const why = mine.why;
    const n = f.deleted.filter((d) => d.step === mine.step).length;
    const later = mine.step ? f.later[mine.step - 1] : undefined;
    path.push({
      guard: 'getPodsToDelete',
      upstream: UPSTREAM,
      holds: f.unsettled.length === 0,
      rule: `ranked among the ${n} pods deleted${later ? ` at the scale to ${later.replicas} at ${formatTime(later.at)}` : ''} (sync ${mine.batch}${n > f.burst ? ` of burstReplicas ${f.burst}` : ''})${why ? `: before ${why.versus} (the first pod kept): ${why.text}` : ': every active pod goes'}`,
      values: {
        batch: mine.batch,
        ...(f.notReadyFrom.has(mine.name) ? { notReadyFrom: formatTime(f.notReadyFrom.get(mine.name)!) } : {}),
        ...(later ? { timelineScalesTo: later.replicas, timelineScalesAt: formatTime(later.at) } : {}),
        ...(why ? { ranking: why.rule, kept: why.versus, ...why.values } : {}),
      },
    });
    const w = whyNotFrom(WHAT_POD, 'PodDeletedByScaleDown', ref, f.unsettled.length ? path : path.slice(0, -1), timing(f, mine.step));
    return f.unsettled.length
      ? w
      : { ...w, check: { rule: `${w.check.rule}; ${path[path.length - 1]!.rule}`, values: { ...w.check.values, ...path[path.length - 1]!.values } } };
  }
  const kept = f.whyKept(pod.meta.name);
  const all = wholeLists({ deleting: f.deleted.map((d) => d.name) });
  // read under the scale: the surplus comes, and the ranking keeps the pod
  const surplus = path.length - 1;
  path[surplus] = { ...path[surplus]!, holds: true };
  path.push({
    guard: 'getPodsToDelete',
    upstream: UPSTREAM,
    holds: false,
    rule: 'the pod ranks among the pods deleted',
    unmet: kept ? `kept: ${kept.versus} (the last pod deleted) ranks before it: ${kept.text}` : 'kept by the ranking',
    values: { deleting: cutList(f.deleted.map((d) => d.name)), ...(kept ? { ranking: kept.rule, deletedInstead: kept.versus, ...kept.values } : {}) },
  });
  if (f.unsettled.length) return whyNotFrom(WHAT_POD, 'PodDeletedByScaleDown', ref, path, all);
  if (f.laterUnsettled) {
    // kept by the scales read, but a later one ranks what cannot be read now: what blocks is that
    const next = f.later[f.laterUnsettled.step - 1]!;
    path.splice(path.length - 1, 0, {
      guard: 'laterScalesRead',
      upstream: 'getPodsToDelete reads each pod as the sync finds it',
      holds: false,
      rule: 'every later scale of the ReplicaSet can be ranked now',
      unmet: f.laterUnsettled.why,
      values: { timelineScalesTo: next.replicas, timelineScalesAt: formatTime(next.at) },
    });
    return whyNotFrom(WHAT_POD, 'PodDeletedByScaleDown', ref, path, all);
  }
  const text = scaleText(f);
  return whyNotFrom(WHAT_POD, 'PodDeletedByScaleDown', ref, path, { never: true, ...(text ? { neverIf: `${text}: it is kept` } : {}), ...all });
}

/** The ReplicaSet's answer: its surplus pods deleted, which, and when. */
export function replicaSetScaleDownWhyNot(f: ScaleDownForecast): WhyNot {
  const path: WhyNotCheck[] = f.unsettled.length ? [settledCheck(f), surplusCheck(f)] : [surplusCheck(f)];
  // the first sync that deletes: the timeline's deletes at a scale's instant may leave that sync no surplus (outage-1.31
  // seed 40: scaled to 11 and one of 12 deleted at +10s, said deleting at +10s; a later scale down may delete then)
  const step = f.deleted[0]?.step ?? 0;
  const first = f.deleted.filter((d) => d.step === step);
  const names = first.map((d) => d.name);
  if (!first.length && f.goneByTimeline.size)
    path.push({
      guard: 'surplusLeft',
      upstream: 'manageReplicas (diff > 0)',
      holds: false,
      rule: 'the sync finds more active pods than spec.replicas',
      unmet: `the timeline deletes ${[...f.goneByTimeline].join(', ')} before the sync at the scale's instant: no surplus is left`,
    });
  // pods a scale up makes, deleted by a scale down at or before the first that deletes pods of now: not named, no time
  const made = f.unnamed?.find((u) => !first.length || u <= step);
  if (made !== undefined)
    path.push({
      guard: 'deletesPodsOfNow',
      upstream: 'manageReplicas -> getPodsToDelete (replica_set.go)',
      holds: false,
      rule: 'the first sync that deletes deletes pods there now',
      unmet: `the scale to ${f.later[made - 1]!.replicas} at ${formatTime(f.later[made - 1]!.at)} first deletes pods a scale up of the timeline makes, not named here`,
    });
  const when = first.length && made === undefined ? timing(f, step) : {};
  const w = whyNotFrom('the surplus pods deleted (manageReplicas)', 'ReplicaSetPodsDeleted', f.ref, path, { ...when, ...wholeLists({ deleting: names }) });
  return {
    ...w,
    check: { ...w.check, values: { ...w.check.values, deleting: cutList(names), deletions: names.length, syncs: first.at(-1)?.batch ?? 0 } },
  };
}
