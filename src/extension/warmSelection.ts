/**
 * The first selection of an object of each kind after open cost 140–175 ms click to paint in code-server at
 * 5,000 nodes, later ones a third of that: the why (`explain`), the machines the panel offers (the engine's
 * machine lookup, made once per position) and the lineage run their code for the first time, and V8 compiles
 * it then. In idle time after open the panel computes the same for one object of each kind (a node, a pod,
 * a zone, a ReplicaSet), one kind a piece, and drops the result: nothing is sent, nothing selected, and the
 * engine is only read (explain and the machine lookup change nothing decided).
 *
 * Once a node fails, a pod on it and its ReplicaSet are warmed too, once a session: their why chains to the
 * pods' deletions, through the node's taint and its zone queue's walk of the zone's nodes, code no other
 * warmed object runs. The first ReplicaSet clicked in the 5,000-node outage (pass 21) paid 126 ms of
 * explain in a cold process against 13 ms the fourth time (bench/README.md, "rsclick").
 */
import type { Simulation } from '../engine/simulation/api';
import { podOnFailingNode } from '../engine/simulation/failingPod';
import type { DecisionList } from '../engine/trace/decisionLog';
import { selectionParts } from './selectionParts';
import type { PrepareSlice } from './idlePrepare';
import type { Session } from './session';

/** The kinds a user selects in the panel, each with its own why and machine. */
export const WARMED_KINDS = ['Node', 'Pod', 'Zone', 'ReplicaSet'] as const;

/** How far back the trace is searched for an object of each kind (its newest decisions are the ones a user reads). */
const TRACE_LOOKBACK = 2_000;

/**
 * One object of each kind, the newest one a decision names (what the log shows, so what a user is likely to
 * click, and an object whose why has entries to draw), among `kinds`.
 */
export function tracedRefs(sim: Simulation, kinds: ReadonlySet<string>): Map<string, string> {
  const found = new Map<string, string>();
  const trace: DecisionList = sim.trace;
  for (let i = trace.length - 1; i >= 0 && i >= trace.length - TRACE_LOOKBACK && found.size < kinds.size; i--) {
    const ref = trace.at(i)!.object;
    const kind = ref.slice(0, ref.indexOf('/'));
    if (kinds.has(kind) && !found.has(kind)) found.set(kind, ref);
  }
  return found;
}

/** The cluster's first object of each kind (for the kinds no decision names yet). */
function firstRefs(sim: Simulation): Record<string, string | undefined> {
  const first = <T>(m: ReadonlyMap<string, T> | undefined) => m?.keys().next().value;
  const prefixed = (kind: string, key: string | undefined) => key && `${kind}/${key}`;
  return {
    Node: prefixed('Node', first(sim.cluster?.nodes)),
    Pod: prefixed('Pod', first(sim.cluster?.pods)),
    Zone: sim.zones(() => false)[0]?.zone,
    ReplicaSet: prefixed('ReplicaSet', first(sim.cluster?.replicaSets)),
  };
}

/** The first pod a ReplicaSet controls on a failing node, and that ReplicaSet (none while no node fails). */
export const failingRefs = (sim: Simulation): string[] => (sim.cluster ? podOnFailingNode(sim.cluster) : []);

/** What the selection's message computes for `ref` (session.ts's selectionMessage, the view's parts aside), dropped. */
function computeOnce(sim: Simulation, ref: string): void {
  // the host serialises every message it posts: the why's shapes too
  JSON.stringify({ explanation: sim.explain(ref), ...selectionParts(sim, ref) });
}

/**
 * The warm-up as an idle task (IdlePrepare's PrepareSlice): one object a piece while `more()` says so, on the
 * simulation shown when the piece runs; true while work is left. Each kind is warmed once with an object a
 * decision names; a kind no decision names yet is warmed with the cluster's first object (its why has little
 * to draw, so part of the code stays cold) and again at a later idle time once a decision names one (after
 * open, the first pass's). At most two pieces per kind in a session, and the failing pod and its ReplicaSet once.
 */
export function selectionWarmUp(sim: () => Simulation): PrepareSlice {
  /** the kinds not yet warmed with an object a decision names */
  const cold = new Set<string>(WARMED_KINDS);
  /** the kinds warmed with the cluster's first object */
  const roughly = new Set<string>();
  let queue: string[] | undefined;
  /** a pod on a failing node and its ReplicaSet were warmed */
  let failingWarmed = false;
  /** the trace's length when the queue was made: a later idle time looks again only if it grew */
  let seen = -1;
  return (more) => {
    const s = sim();
    if (!queue?.length) {
      if ((!cold.size && failingWarmed) || s.trace.length === seen) return false;
      seen = s.trace.length;
      const traced = tracedRefs(s, cold);
      const first = roughly.size < cold.size ? firstRefs(s) : {};
      // the dearest why first: the user in an outage clicks what fails
      queue = failingWarmed ? [] : failingRefs(s);
      failingWarmed = queue.length > 0;
      for (const kind of WARMED_KINDS) {
        if (!cold.has(kind)) continue;
        const ref = traced.get(kind) ?? (roughly.has(kind) ? undefined : first[kind]);
        if (ref === undefined) continue;
        if (traced.has(kind)) cold.delete(kind);
        else roughly.add(kind);
        queue.push(ref);
      }
    }
    do {
      const ref = queue.shift();
      if (ref !== undefined) computeOnce(s, ref);
    } while (queue.length && more());
    return queue.length > 0;
  };
}

/** The warm-up first, then `rest` (the session's idle work), as one idle task for IdlePrepare. */
export function warmUpFirst(warm: PrepareSlice, rest: PrepareSlice): PrepareSlice {
  return (more) => (warm(more) || !more() ? true : rest(more));
}

/**
 * The panel's idle work, as ctx.ts gives it to IdlePrepare: the selections warmed, then the session's (idleSlice); while
 * the shown simulation is being made (swapAtOpen.ts), the session's first: the warm-up would make it at once.
 */
export function panelIdleWork(session: () => Pick<Session, 'sim' | 'idleSlice' | 'shownPending'>): PrepareSlice {
  const rest: PrepareSlice = (more) => session().idleSlice(more);
  const all = warmUpFirst(
    selectionWarmUp(() => session().sim),
    rest,
  );
  return (more) => (session().shownPending ? rest(more) : all(more));
}

/**
 * The work the panel's next step owes anyway (IdlePrepare's `owed`): the checkpoint a user's step leaves pending, which the
 * next step takes before its pass (10-40 ms of a quiet click at 5,000 nodes; after the Unknown pass 50-70), and the pod
 * order a restore left owed. Not the binder's node index: a step that places nothing does not build it, and one kept
 * meanwhile is kept up to date by every step (tried: the click after the Unknown pass 257-309 → 509-588 ms in the page,
 * bench/README.md "ahead22"). Then the pods the view was told changed by Ready writes alone, marked stale (RecordsView.staleLists:
 * left to every click's own update, 50,000 at a time, or bunched into the click that passes their bound, they cost it
 * 8-40 ms). None while the shown simulation is being made (reading it would make it at once).
 */
export function panelOwedWork(session: () => Pick<Session, 'sim' | 'shownPending' | 'staleSlice'>): PrepareSlice {
  return (more) => {
    const s = session();
    return !s.shownPending && ((s.sim.prepareSlice?.(more, true) ?? false) || (more() && s.staleSlice(more)));
  };
}
