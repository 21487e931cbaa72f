/**
 * Which pods a scale-down deletes first: getPodsToDelete
 * (pkg/controller/replicaset/replica_set.go) over the orderings of
 * pkg/controller/controller_utils.go.
 *
 * 1.12 (`controller.ActivePods`, sort.Sort), rules in order:
 *   1. unassigned < assigned   2. Pending < Unknown < Running   3. not ready < ready
 *   4. ready for a shorter time < longer (zero ready time first)
 *   5. more container restarts < fewer   6. newer creationTimestamp < older (zero first)
 * 1.17+ (`controller.ActivePodsWithRanks`, PR #80004): after rule 3, pods doubled up
 *   on a node with more active pods of the related ReplicaSets (same controller,
 *   e.g. one Deployment) come first; a ReplicaSet without a controller has no
 *   related pods, so the rank never decides.
 * 1.21+ : after rule 3, a lower `controller.kubernetes.io/pod-deletion-cost`
 *   comes first (PodDeletionCost gate: alpha 1.21, beta on 1.22);
 *   with LogarithmicScaleDown (alpha 1.21, beta on 1.22, GA 1.31) ready time and
 *   creation time compare floor(log2(age in ns)) buckets, and pods in the same
 *   bucket are ordered by UID (pseudo-random), which ends the comparison.
 *
 * Go's sort.Sort is not stable and the informer's list order is random, so
 * Kubernetes leaves the order of pods equal under every rule undefined; the
 * simulation breaks such ties by name (a named, documented rule: `name`).
 *
 * Every comparison reports the rule that decided it, so each deleted pod can be
 * explained against the pods kept, and each kept pod against the pods deleted.
 */
import type { PodRecord } from '../../model/types';
import { formatDuration, formatTime, isZeroTime, type Micros } from '../../model/time';
import { isPodActive, isPodReady, maxContainerRestarts, podDeletionCost, podReadyTime } from './podUtil';

export type RankingRuleId = 'unassigned' | 'phase' | 'ready' | 'deletionCost' | 'doubledUp' | 'readyTime' | 'restarts' | 'creationTime' | 'name';

export interface RankingSettings {
  /** ActivePodsWithRanks (1.17+): rank by related active pods on the same node */
  rankDoubledUp: boolean;
  /** PodDeletionCost gate */
  podDeletionCost: boolean;
  /** LogarithmicScaleDown gate */
  logarithmicScaleDown: boolean;
  /** the reference time for logarithmic comparisons (ActivePodsWithRanks.Now) */
  now: Micros;
}

/** A pod with what the ranking reads, computed once. */
export interface RankedPod {
  pod: PodRecord;
  name: string;
  uid: string;
  assigned: boolean;
  phaseOrdinal: number;
  ready: boolean;
  readyTime: Micros;
  restarts: number;
  cost: number;
  rank: number;
  created: Micros;
  /** as they were when ranked: a kept pod is explained later, when asked (see whyKept) */
  phase: string;
  nodeName: string;
  /** log2 buckets of readyTime and created against `bucketsAt`, worked out once per pod and sync */
  buckets?: { at: Micros; ready: number; created: number };
}

/** podPhaseToOrdinal: Pending 0, Unknown 1, Running 2 (anything else 0, like a missing map key). */
const PHASE_ORDINAL: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

export interface RuleOutcome {
  rule: RankingRuleId;
  /** the rule in words, from the point of view of the pod ranked first */
  text: string;
  values: Record<string, unknown>;
}

interface Rule {
  id: RankingRuleId;
  /** < 0: a is deleted before b; > 0: b before a; 0: this rule does not decide */
  compare(a: RankedPod, b: RankedPod, s: RankingSettings): number;
  explain(first: RankedPod, second: RankedPod, s: RankingSettings): RuleOutcome;
}

const time = (t: Micros): string => (isZeroTime(t) ? '<none>' : formatTime(t));

/** afterOrZero(t1, t2) as a comparison: a zero time first, then the later time first. */
function afterOrZero(t1: Micros, t2: Micros): number {
  if (t1 === t2) return 0;
  if (isZeroTime(t1) || isZeroTime(t2)) return isZeroTime(t1) ? -1 : 1;
  return t1 > t2 ? -1 : 1;
}

const HALF_POW = 0.5;
/** Go's math.Log2 (via Frexp: exact for powers of two), truncated as int64(...) does. */
export function goLog2Floor(x: number): number {
  // frexp: x = frac * 2^exp with frac in [0.5, 1)
  let exp = Math.floor(Math.log2(x)) + 1;
  let frac = x / 2 ** exp;
  if (frac >= 1) {
    frac /= 2;
    exp += 1;
  }
  if (frac < HALF_POW) {
    frac *= 2;
    exp -= 1;
  }
  const v = frac === HALF_POW ? exp - 1 : Math.log(frac) * Math.LOG2E + exp;
  return Math.trunc(v);
}

/** logarithmicRankDiff(t1, t2, now): floor(log2(now - t in ns)) of each (or -1), subtracted. */
export function logarithmicRank(t: Micros, now: Micros): number {
  const d = (now - t) * 1000; // nanoseconds, as Go's time.Duration
  return d > 0 ? goLog2Floor(d) : -1;
}

/** The pod's log2 bucket of its ready or creation time (a sort asks for each pod's many times). */
function bucketOf(p: RankedPod, what: 'ready' | 'created', now: Micros): number {
  let b = p.buckets;
  if (b === undefined || b.at !== now) b = p.buckets = { at: now, ready: NaN, created: NaN };
  let v = b[what];
  if (Number.isNaN(v)) v = b[what] = logarithmicRank(what === 'ready' ? p.readyTime : p.created, now);
  return v;
}

function logCompare(what: 'ready' | 'created', t1: Micros, t2: Micros, a: RankedPod, b: RankedPod, s: RankingSettings): number {
  if (t1 === t2) return 0;
  if (!s.logarithmicScaleDown || isZeroTime(s.now) || isZeroTime(t1) || isZeroTime(t2)) return afterOrZero(t1, t2);
  const diff = bucketOf(a, what, s.now) - bucketOf(b, what, s.now);
  if (diff === 0) return a.uid < b.uid ? -1 : a.uid > b.uid ? 1 : 0;
  return diff < 0 ? -1 : 1;
}

function logExplain(
  what: 'ready' | 'created',
  t1: Micros,
  t2: Micros,
  first: RankedPod,
  second: RankedPod,
  s: RankingSettings,
): { text: string; values: Record<string, unknown> } {
  const since = what === 'ready' ? 'ready since' : 'created';
  const values: Record<string, unknown> = { [first.name]: time(t1), [second.name]: time(t2) };
  if (s.logarithmicScaleDown && !isZeroTime(s.now) && !isZeroTime(t1) && !isZeroTime(t2)) {
    const r1 = logarithmicRank(t1, s.now);
    const r2 = logarithmicRank(t2, s.now);
    values.log2Buckets = { [first.name]: r1, [second.name]: r2 };
    values.now = formatTime(s.now);
    if (r1 === r2) {
      values.uids = { [first.name]: first.uid, [second.name]: second.uid };
      return {
        text: `LogarithmicScaleDown: ${since} times fall in the same log2 bucket (${r1}), so the lower UID goes first (pseudo-random)`,
        values,
      };
    }
    return {
      text: `LogarithmicScaleDown: ${what === 'ready' ? 'ready for' : 'age of'} a shorter time on a log2 scale goes first (bucket ${r1} < ${r2})`,
      values,
    };
  }
  if (isZeroTime(t1)) return { text: `a pod with no ${what === 'ready' ? 'ready' : 'creation'} time goes first`, values };
  values.difference = formatDuration(t1 - t2);
  return { text: what === 'ready' ? 'ready for a shorter time goes first' : 'newer pods go first (later creationTimestamp)', values };
}

const RULES: Record<RankingRuleId, Rule> = {
  unassigned: {
    id: 'unassigned',
    compare: (a, b) => (a.assigned === b.assigned ? 0 : a.assigned ? 1 : -1),
    explain: (f, s2) => ({
      rule: 'unassigned',
      text: 'unassigned pods (no spec.nodeName) go before assigned ones',
      values: { [f.name]: f.nodeName || '<none>', [s2.name]: s2.nodeName || '<none>' },
    }),
  },
  phase: {
    id: 'phase',
    compare: (a, b) => a.phaseOrdinal - b.phaseOrdinal,
    explain: (f, s2) => ({ rule: 'phase', text: 'Pending < Unknown < Running', values: { [f.name]: f.phase, [s2.name]: s2.phase } }),
  },
  ready: {
    id: 'ready',
    compare: (a, b) => (a.ready === b.ready ? 0 : a.ready ? 1 : -1),
    explain: (f, s2) => ({
      rule: 'ready',
      text: 'not ready goes before ready',
      values: { [f.name]: f.ready ? 'Ready' : 'NotReady', [s2.name]: s2.ready ? 'Ready' : 'NotReady' },
    }),
  },
  deletionCost: {
    id: 'deletionCost',
    compare: (a, b, s) => (s.podDeletionCost ? a.cost - b.cost : 0),
    explain: (f, s2) => ({
      rule: 'deletionCost',
      text: 'lower controller.kubernetes.io/pod-deletion-cost goes first',
      values: { [f.name]: f.cost, [s2.name]: s2.cost },
    }),
  },
  doubledUp: {
    id: 'doubledUp',
    compare: (a, b, s) => (s.rankDoubledUp ? b.rank - a.rank : 0),
    explain: (f, s2) => ({
      rule: 'doubledUp',
      text: 'pods doubled up on a node with more active pods of the related ReplicaSets go first',
      values: { [f.name]: { node: f.nodeName, podsOnNode: f.rank }, [s2.name]: { node: s2.nodeName, podsOnNode: s2.rank } },
    }),
  },
  readyTime: {
    id: 'readyTime',
    compare: (a, b, s) => (a.ready && b.ready ? logCompare('ready', a.readyTime, b.readyTime, a, b, s) : 0),
    explain: (f, s2, s) => ({ rule: 'readyTime', ...logExplain('ready', f.readyTime, s2.readyTime, f, s2, s) }),
  },
  restarts: {
    id: 'restarts',
    compare: (a, b) => b.restarts - a.restarts,
    explain: (f, s2) => ({ rule: 'restarts', text: 'more container restarts go first', values: { [f.name]: f.restarts, [s2.name]: s2.restarts } }),
  },
  creationTime: {
    id: 'creationTime',
    compare: (a, b, s) => logCompare('created', a.created, b.created, a, b, s),
    explain: (f, s2, s) => ({ rule: 'creationTime', ...logExplain('created', f.created, s2.created, f, s2, s) }),
  },
  name: {
    id: 'name',
    compare: (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    explain: (f, s2) => ({
      rule: 'name',
      text: 'equal under every Kubernetes rule (upstream order undefined); the simulation takes names in order',
      values: { first: f.name, then: s2.name },
    }),
  },
};

/** The rules in the order the version applies them. */
export function rulesFor(s: RankingSettings): RankingRuleId[] {
  const ids: RankingRuleId[] = ['unassigned', 'phase', 'ready'];
  if (s.podDeletionCost) ids.push('deletionCost');
  if (s.rankDoubledUp) ids.push('doubledUp');
  ids.push('readyTime', 'restarts', 'creationTime', 'name');
  return ids;
}

/** Ranks pods for deletion: ranks[i] = active related pods on the pod's node (getPodsRankedByRelatedPodsOnSameNode). */
export function rankPods(pods: readonly PodRecord[], related: readonly PodRecord[]): RankedPod[] {
  const onNode = new Map<string, number>();
  for (const p of related) if (isPodActive(p)) onNode.set(p.nodeName ?? '', (onNode.get(p.nodeName ?? '') ?? 0) + 1);
  return pods.map((pod) => ({
    pod,
    name: pod.meta.name,
    uid: pod.meta.uid,
    assigned: !!pod.nodeName,
    phaseOrdinal: PHASE_ORDINAL[pod.phase] ?? 0,
    ready: isPodReady(pod),
    readyTime: podReadyTime(pod),
    restarts: maxContainerRestarts(pod),
    cost: podDeletionCost(pod).cost,
    rank: onNode.get(pod.nodeName ?? '') ?? 0,
    created: pod.meta.creationTimestamp,
    phase: pod.phase,
    nodeName: pod.nodeName ?? '',
  }));
}

/** The first rule that orders a before b (or b before a), with its explanation from the first pod's side. */
export function decidingRule(a: RankedPod, b: RankedPod, s: RankingSettings, rules: readonly RankingRuleId[] = rulesFor(s)): RuleOutcome & { order: number } {
  for (const id of rules) {
    const c = RULES[id].compare(a, b, s);
    if (c !== 0) {
      const [first, second] = c < 0 ? [a, b] : [b, a];
      return { ...RULES[id].explain(first, second, s), order: c };
    }
  }
  return { ...RULES.name.explain(a, b, s), order: 0 };
}

export function compareRanked(a: RankedPod, b: RankedPod, s: RankingSettings): number {
  for (const id of rulesFor(s)) {
    const c = RULES[id].compare(a, b, s);
    if (c !== 0) return c;
  }
  return 0;
}

/** compareRanked, then names, its rules looked up once. */
function totalOrder(s: RankingSettings): (a: RankedPod, b: RankedPod) => number {
  const compares = rulesFor(s).map((id) => RULES[id].compare);
  return (a, b) => {
    for (let i = 0; i < compares.length; i++) {
      const c = compares[i]!(a, b, s);
      if (c !== 0) return c;
    }
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  };
}

/**
 * The first `m` of `items` in `order`, sorted: what a full sort's first `m` would be when the order
 * is total, in one pass that compares most items with the current last only.
 */
function firstInOrder<T>(items: readonly T[], m: number, order: (a: T, b: T) => number): T[] {
  if (m * 8 >= items.length) return [...items].sort(order).slice(0, m);
  const top: T[] = [];
  for (const x of items) {
    if (top.length === m && order(x, top[m - 1]!) >= 0) continue;
    let lo = 0,
      hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (order(top[mid]!, x) < 0) lo = mid + 1;
      else hi = mid;
    }
    top.splice(lo, 0, x);
    if (top.length > m) top.pop();
  }
  return top;
}

const byName = (a: RankedPod, b: RankedPod): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Whether compareRanked is transitive for these settings (see getPodsToDelete). */
function transitive(s: RankingSettings): boolean {
  return !s.logarithmicScaleDown || isZeroTime(s.now);
}

export interface PodsToDelete {
  /** the pods to delete, best candidates first */
  deleted: RankedPod[];
  /** the pods kept, in ranking order: the first `keptListed` of them (all by default) */
  kept: RankedPod[];
  /** false when every pod is deleted: upstream does not sort then */
  sorted: boolean;
  /** for each deleted pod: the rule that put it before the first pod kept */
  whyDeleted: Map<string, RuleOutcome & { versus: string }>;
  /** for each kept pod: the rule that put the last pod deleted before it */
  /** why each kept pod was kept, worked out when asked: a sync keeps thousands, and explain asks about one */
  whyKept: { get(name: string): (RuleOutcome & { versus: string }) | undefined };
}

/**
 * getPodsToDelete(filteredPods, relatedPods, diff): sorts only when some pods
 * are kept; returns the first diff. Upstream sorts every pod at every sync
 * (burstReplicas 2 over 3,000 pods is 1,500 syncs). Without
 * LogarithmicScaleDown the order is total (each rule a weak order, names
 * last), so only the first `diff` and the `keptListed` kept after them (for the
 * decision's details) are put in order, which gives the pods a sort would.
 * With it, the order is not transitive (equal ready times fall through to the
 * next rules, different ones in one log2 bucket compare UIDs), so what comes
 * first depends on the sort, as upstream's does on the informer's order: the
 * simulation keeps the sort it always made, by name and then
 * Array.prototype.sort.
 */
export function getPodsToDelete(
  pods: readonly PodRecord[],
  related: readonly PodRecord[],
  diff: number,
  s: RankingSettings,
  keptListed = Number.POSITIVE_INFINITY,
): PodsToDelete {
  const ranked = rankPods(pods, related);
  const whyDeleted = new Map<string, RuleOutcome & { versus: string }>();
  const noneKept = { get: () => undefined };
  if (diff >= ranked.length) {
    ranked.sort(byName);
    return { deleted: ranked, kept: [], sorted: false, whyDeleted, whyKept: noneKept };
  }
  const d0 = Math.max(0, diff);
  const listed = Math.min(ranked.length, d0 + Math.max(1, Math.min(keptListed, ranked.length)));
  const order = totalOrder(s);
  const first = transitive(s) ? firstInOrder(ranked, listed, order) : ranked.sort(byName).sort(order).slice(0, listed);
  const deleted = first.slice(0, d0);
  const kept = first.slice(d0, d0 + Math.min(keptListed, ranked.length));
  const firstKept = first[d0];
  const lastDeleted = deleted[deleted.length - 1];
  if (firstKept) for (const d of deleted) whyDeleted.set(d.name, { ...decidingRule(d, firstKept, s), versus: firstKept.name });
  let keptByName: Map<string, RankedPod> | undefined;
  const whyKept = {
    get: (name: string) => {
      if (!lastDeleted) return undefined;
      if (!keptByName) {
        const gone = new Set(deleted.map((d) => d.name));
        keptByName = new Map(ranked.filter((r) => !gone.has(r.name)).map((r) => [r.name, r]));
      }
      const k = keptByName.get(name);
      return k ? { ...decidingRule(lastDeleted, k, s), versus: lastDeleted.name } : undefined;
    },
  };
  return { deleted, kept, sorted: true, whyDeleted, whyKept };
}
