/**
 * Simulation against reality, decision by decision. Both sides are cut into
 * comparable units: one per decision, except where the trace keeps several
 * in one record (PodsMarkedNotReady names its pods; PodsCreated/PodsDeleted
 * count pods whose real names are random). A unit matches a real one of the
 * same action, object and detail (a taint, a zone state) within the
 * tolerance; each side is matched at most once, nearest first.
 *
 * Only what the evidence could show is compared: the kinds of decision that
 * appear in `reality:` (a log without --v=4 has no taint lines, an events
 * export no zone states), within the evidence's span. Everything else is
 * counted as not compared, never as a difference.
 */
import type { Decision } from '../trace/decision';
import type { DecisionList } from '../trace/decisionLog';
import { formatDuration, formatTime, parseTimestamp, type Duration, type Micros } from '../model/time';
import type { RealityEntry } from './reality';

export interface Unit {
  time: Micros;
  action: string;
  object: string;
  detail?: string;
}

export interface SimUnit extends Unit {
  decision: Decision;
}

export interface RealUnit extends Unit {
  entry: RealityEntry;
}

export interface CompareReport {
  tolerance: Duration;
  window: { from: Micros; to: Micros };
  matched: { real: RealUnit; sim: SimUnit; delta: Duration }[];
  onlyReal: { real: RealUnit; reasons: string[] }[];
  onlySimulated: { sim: SimUnit; reasons: string[] }[];
  /** simulated units of kinds the evidence does not show, by action */
  notCompared: Record<string, number>;
  /** simulated units of compared kinds after the evidence ends */
  afterEvidence: number;
  agree: boolean;
}

export interface CompareContext {
  version: string;
  /** objects the simulated cluster has (for "evidence missing" reasons) */
  hasObject(ref: string): boolean;
  /** actions the simulated version can take at all */
  versionHas(action: string, controller?: string): boolean;
}

const IGNORED = new Set(['MonitorPass', 'AssumptionMade']);

/** The trace's decisions as units. */
export function simUnits(trace: DecisionList): SimUnit[] {
  const out: SimUnit[] = [];
  for (const d of trace) {
    if (d.controller === 'world' || IGNORED.has(d.action)) continue;
    const time = parseTimestamp(d.time)!;
    const base = { time, action: d.action, decision: d };
    const pods = Array.isArray(d.details?.pods) ? (d.details!.pods as string[]) : [];
    if (d.action === 'PodsMarkedNotReady') {
      out.push({ ...base, object: d.object });
      for (const p of pods) out.push({ ...base, object: `Pod/${p}` });
    } else if (d.action === 'PodsCreated' || d.action === 'PodsDeleted') {
      for (let i = 0; i < Math.max(1, pods.length); i++) out.push({ ...base, object: d.object });
    } else if (d.action === 'TaintAdded' || d.action === 'TaintRemoved') {
      const m = /taint (\S+)/.exec(d.summary);
      out.push({ ...base, object: d.object, detail: m ? normaliseTaint(m[1]) : undefined });
    } else if (d.action === 'ZoneStateChanged') {
      const m = /is now (\w+)/.exec(d.summary);
      out.push({ ...base, object: d.object, detail: m?.[1] });
    } else {
      out.push({ ...base, object: d.object });
    }
  }
  return out;
}

/** `key=value:Effect` -> `key:Effect`: logs print taints without values. */
export function normaliseTaint(t: string): string {
  const colon = t.lastIndexOf(':');
  const eq = t.indexOf('=');
  return eq >= 0 && eq < colon ? `${t.slice(0, eq)}${t.slice(colon)}` : t;
}

const grainOf = (u: Unit) => `${u.action}@${u.object.slice(0, u.object.indexOf('/'))}`;
const keyOf = (u: Unit) => `${u.action} ${u.object} ${u.action === 'PodsCreated' || u.action === 'PodsDeleted' ? '' : (u.detail ?? '')}`;

export function compareDecisions(
  trace: DecisionList,
  reality: readonly RealityEntry[],
  tolerance: Duration,
  ctx: CompareContext,
  start: Micros,
): CompareReport {
  const real: RealUnit[] = reality
    .map((entry) => ({
      time: entry.at,
      action: entry.action,
      object: entry.object,
      detail: entry.action === 'TaintAdded' || entry.action === 'TaintRemoved' ? normaliseTaint(entry.detail ?? '') || undefined : entry.detail,
      entry,
    }))
    .sort((a, b) => a.time - b.time);
  const last = real.length ? real[real.length - 1].time : start;
  const window = { from: start, to: last + tolerance };
  const grains = new Set(real.map(grainOf));
  const realActions = new Set<string>(real.map((r) => r.action));
  const notCompared: Record<string, number> = {};
  let afterEvidence = 0;
  const sims: SimUnit[] = [];
  for (const u of simUnits(trace)) {
    if (!grains.has(grainOf(u))) {
      // an action the evidence shows for another kind (PodsMarkedNotReady per pod, not the node's own): said, so the count does not read as a contradiction
      const label = realActions.has(u.action) ? `${u.action} on ${u.object.slice(0, u.object.indexOf('/'))}` : u.action;
      notCompared[label] = (notCompared[label] ?? 0) + 1;
      continue;
    }
    if (u.time > window.to) {
      afterEvidence++;
      continue;
    }
    sims.push(u);
  }
  const simByKey = new Map<string, SimUnit[]>();
  for (const u of sims) simByKey.set(keyOf(u), [...(simByKey.get(keyOf(u)) ?? []), u]);
  // nearest pairs first, over all pairs within the tolerance: each side is used once
  const pairs: { r: RealUnit; s: SimUnit; d: number }[] = [];
  for (const r of real)
    for (const s of simByKey.get(keyOf(r)) ?? []) if (Math.abs(s.time - r.time) <= tolerance) pairs.push({ r, s, d: Math.abs(s.time - r.time) });
  pairs.sort((a, b) => a.d - b.d || a.r.time - b.r.time || a.s.time - b.s.time);
  const used = new Set<SimUnit>();
  const paired = new Map<RealUnit, SimUnit>();
  for (const p of pairs)
    if (!used.has(p.s) && !paired.has(p.r)) {
      used.add(p.s);
      paired.set(p.r, p.s);
    }
  const matched: CompareReport['matched'] = [];
  const onlyReal: CompareReport['onlyReal'] = [];
  for (const r of real) {
    const s = paired.get(r);
    if (s) matched.push({ real: r, sim: s, delta: s.time - r.time });
    else
      onlyReal.push({
        real: r,
        reasons: whyOnlyReal(
          r,
          (simByKey.get(keyOf(r)) ?? []).filter((x) => !used.has(x)),
          trace,
          ctx,
          tolerance,
        ),
      });
  }
  const onlySimulated = sims.filter((s) => !used.has(s)).map((sim) => ({ sim, reasons: whyOnlySimulated(sim, real, tolerance) }));
  return { tolerance, window, matched, onlyReal, onlySimulated, notCompared, afterEvidence, agree: !onlyReal.length && !onlySimulated.length };
}

function whyOnlyReal(r: RealUnit, sameKey: SimUnit[], trace: DecisionList, ctx: CompareContext, tolerance: Duration): string[] {
  const reasons: string[] = [];
  const nearest = sameKey.sort((a, b) => Math.abs(a.time - r.time) - Math.abs(b.time - r.time))[0];
  if (nearest) {
    const d = nearest.time - r.time;
    reasons.push(
      `simulated ${formatDuration(Math.abs(d))} ${d > 0 ? 'later' : 'earlier'} (${formatTime(nearest.time)}), beyond the tolerance of ${formatDuration(tolerance)}: a setting that differs (nodeMonitorGracePeriod, tolerationSeconds, podEvictionTimeout, the eviction rates) or the inferred time of the world event`,
    );
    return reasons;
  }
  if (!ctx.versionHas(r.action, r.entry.controller))
    reasons.push(
      `a version difference: Kubernetes ${ctx.version} as simulated does not take ${r.action}${r.entry.controller ? ` in ${r.entry.controller}` : ''}`,
    );
  const obj = r.object;
  if (r.action === 'NodeRegistered' && trace.some((d) => d.action === 'NodeRegistered' && d.object === r.object && parseTimestamp(d.time)! <= r.time)) {
    reasons.push(
      `the real controller registered ${r.object} again: a kube-controller-manager that restarts (or a new leader) registers every node anew, and the timeline has no restart then. Add \`- at: ${formatTime(r.time)}\` with \`restartControllerManager: true\` to events:`,
    );
    return reasons;
  }
  const unplaced =
    obj.startsWith('Pod/') && /^(PodEvicted|PodEvictionCancelled|PodEvictionScheduled|PodsMarkedNotReady)$/.test(r.action) && neverBound(trace, obj);
  if (!ctx.hasObject(obj)) reasons.push(`evidence missing: ${obj} is not in the simulated cluster (give --snapshot, or add it to objects:)`);
  else if (unplaced)
    reasons.push(
      `evidence missing: the evidence does not say which node ${obj} ran on, and the simulated pod was never on one (PodUnschedulable): what happens to a pod follows from its node's failure. Give --snapshot with the nodes and pods (kubectl get nodes,pods -A -o yaml), or set the pod's spec.nodeName under objects:`,
    );
  else if (!trace.some((d) => d.object === obj || (Array.isArray(d.details?.pods) && (d.details!.pods as string[]).includes(obj.slice(4))))) {
    reasons.push(
      `the simulation decided nothing about ${obj}: a world event may be missing from events: (a kubelet stop, a taint, a deletion), or a setting differs`,
    );
  }
  const disrupted = zoneDisruptionBefore(trace, r.time);
  if (disrupted && /^(TaintAdded|NodeQueuedForTainting|NodeQueuedForEviction|PodEvicted)$/.test(r.action)) {
    reasons.push(
      `the simulated ${disrupted.object === 'Zone/' ? 'zone of the nodes without a zone label' : disrupted.object} was in ${disrupted.state} (seq ${disrupted.seq}), which holds tainting and evictions back: the real zone had Ready nodes the evidence does not name (give --snapshot with the whole cluster), or a zone setting differs`,
    );
  }
  if (!reasons.length && r.action === 'PodEvictionCancelled')
    // taint_eviction.go cancels a scheduled deletion when the pod's node no longer has a NoExecute taint the pod does not
    // tolerate forever (the node Ready again), or the pod is gone or moved
    reasons.push(
      `the real controller cancelled ${obj}'s deletion: the NoExecute taint it waited on left the node (the node was Ready again) or its tolerations changed, and the evidence shows no recovery before ${formatTime(r.time)}. If the node came back then, add \`- at: ${formatTime(r.time)}\` with \`kubelet: start\` and its node to events:`,
    );
  if (!reasons.length) reasons.push('the simulation took other decisions about this object, not this one: a setting or the timeline differs');
  return reasons;
}

/** The simulated pod was found unschedulable and never bound to a node. */
function neverBound(trace: DecisionList, pod: string): boolean {
  let unschedulable = false;
  for (const d of trace) {
    if (d.object !== pod) continue;
    if (d.action === 'PodBound') return false;
    if (d.action === 'PodUnschedulable') unschedulable = true;
  }
  return unschedulable;
}

/** The last simulated zone state change before t into a disrupted state, when it still holds at t. */
function zoneDisruptionBefore(trace: DecisionList, t: Micros): { object: string; state: string; seq: number } | undefined {
  const latest = new Map<string, { state: string; seq: number }>();
  for (const d of trace) {
    if (d.action !== 'ZoneStateChanged') continue;
    if (parseTimestamp(d.time)! > t) break;
    const m = /is now (\w+)/.exec(d.summary);
    if (m) latest.set(d.object, { state: m[1], seq: d.seq });
  }
  for (const [object, z] of latest) if (z.state === 'FullDisruption' || z.state === 'PartialDisruption') return { object, ...z };
  return undefined;
}

function whyOnlySimulated(s: SimUnit, real: RealUnit[], tolerance: Duration): string[] {
  const near = real.filter((r) => keyOf(r) === keyOf(s)).sort((a, b) => Math.abs(a.time - s.time) - Math.abs(b.time - s.time))[0];
  if (near)
    return [
      `the nearest real one is ${formatDuration(Math.abs(near.time - s.time))} away (${formatTime(near.time)}), beyond the tolerance of ${formatDuration(tolerance)}`,
    ];
  return [
    'no evidence of it: the evidence may be trimmed or logged at a lower verbosity (taint lines need --v=4), or the real controller did not do it (a setting or the timeline differs)',
  ];
}
