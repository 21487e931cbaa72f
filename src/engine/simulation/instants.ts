/**
 * The parts of the simulation's loop (simulation.ts) that are about one instant: when the
 * scenario's events fall, the world's decisions of a new leader and of a kubelet's repost, and how far an instant's controller work got
 * when a run yielded inside it (SimulationOptions.shouldYield).
 */
import type { SimController } from '../controllers/controller';
import { formatDuration, formatTime, type Micros } from '../model/time';
import type { Problem } from '../problems';
import type { ScenarioEvent, TimeSpec } from '../snapshot/types';
import type { SimHost } from './simHost';
import { MAX_HORIZON } from '../model/limits';
import type { nodeBefore } from '../kubelet/kubelets';
import { CONTROLLER_MANAGER_REF } from './world';

/** An instant's rounds of controller work, and how far they got (SimulationOptions.shouldYield). */
export interface MidInstant {
  t: Micros;
  monitorDue: boolean;
  /** the trace's length when the instant began */
  traceFrom: number;
  round: number;
  /** the controllers of this round, in order, and the next one to ask */
  order: SimController[];
  index: number;
  woke: boolean;
  /** the controller at `index` stopped with work left: it is woken first, without asking whether it is due */
  again: boolean;
}

/** How many times the controllers are woken again at one instant while work is still due. */
export const MAX_ROUNDS = 100;

/**
 * The rounds of controller work at one instant: every controller due, in order, until none is.
 * A yield (`shouldYield`) after a controller's work, or inside it (the controller then says it has
 * work left), leaves `m` where the next call goes on from ('yielded'); `shouldAbort` leaves the
 * instant part-done for good ('aborted').
 */
export function runRounds(
  host: SimHost,
  m: MidInstant,
  ask: (() => boolean) | undefined,
  shouldAbort: (() => boolean) | undefined,
): 'done' | 'yielded' | 'aborted' {
  const t = m.t;
  let yielded = false;
  const shouldYield = ask ? () => (yielded ||= ask() === true) : undefined;
  for (; m.round < MAX_ROUNDS; m.round++, m.order = [...host.controllers], m.index = 0, m.woke = false) {
    for (; m.index < m.order.length; m.index++) {
      const c = m.order[m.index];
      if (!host.controllers.includes(c)) continue;
      if (!m.again) {
        const w = c.nextWake();
        const due = (w !== undefined && w <= t) || (m.round === 0 && m.monitorDue && c.name === 'node-lifecycle');
        if (!due) continue;
      }
      const left = c.wake(host, shouldYield) === true;
      m.woke = true;
      m.again = left;
      if (shouldAbort?.() === true) return 'aborted';
      if (left || shouldYield?.()) {
        if (!left) m.index++;
        return 'yielded';
      }
    }
    if (!m.woke) break;
    if (
      !host.controllers.some((c) => {
        const w = c.nextWake();
        return w !== undefined && w <= t;
      })
    )
      break;
  }
  return 'done';
}

/** A run stops at the horizon (limits.ts), however far it asks (`--until 100000h`); said once in `problems`, as a warning. */
export function withinHorizon(startTime: Micros, t: Micros, problems: Problem[]): Micros {
  const last = startTime + MAX_HORIZON;
  if (t <= last) return t; // NaN too is taken as "as far as the horizon"
  sayOnce(problems, beyondHorizon(last));
  return last;
}

/** Said once when a caller asks for a time past the horizon (model/limits.ts): the run stops at `last`. */
export function beyondHorizon(last: Micros): Problem {
  return {
    code: 'beyond-horizon',
    severity: 'warning',
    message: `the run stops at ${formatTime(last)}, ${formatDuration(MAX_HORIZON)} after the start: the longest run the simulation takes`,
  };
}

/** Said once when the controllers still have work due at one instant after `rounds` rounds. */
export function livelock(t: Micros, rounds: number): Problem {
  return { code: 'controller-livelock', severity: 'warning', message: `at ${formatTime(t)} a controller still had work due after ${rounds} rounds; moving on` };
}

/** Said when neither the scenario nor the snapshot gives a time to start from. */
export const NO_START_TIME: Problem = {
  code: 'no-start-time',
  severity: 'warning',
  message: 'no timestamp in the snapshot: the clock starts at 1970-01-01T00:00:00Z; write a scenario with startTime to choose',
};

/**
 * The scenario's events in the order they happen: by time, then file order (spec 1.3). An event
 * before the start is applied at the start, with a warning.
 */
export function scheduleEvents(
  events: readonly ScenarioEvent[],
  timeOf: (at: TimeSpec) => Micros,
  startTime: Micros,
  problem: (p: Problem) => void,
): { time: Micros; ev: ScenarioEvent }[] {
  return events
    .map((ev) => ({ time: timeOf(ev.at), ev }))
    .map((e) => {
      if (e.time < startTime) {
        problem({
          code: 'event-before-start',
          severity: 'warning',
          message: `events[${e.ev.index}] is before startTime (${formatTime(e.time)}); applied at startTime`,
          position: e.ev.position,
        });
        return { time: startTime, ev: e.ev };
      }
      return e;
    })
    .map((e, i) => ({ ...e, i }))
    .sort((a, b) => a.time - b.time || a.ev.index - b.ev.index || a.i - b.i)
    .map(({ time, ev }) => ({ time, ev }));
}

/** The decision that a new leader took over after a failover's wait; the controllers start afresh after it. */
export function recordNewLeader(host: SimHost, leaderElectLeaseDuration: Micros): void {
  const seq = host.decide({
    controller: 'world',
    action: 'ControllerManagerRestarted',
    object: CONTROLLER_MANAGER_REF,
    summary: 'A new leader acquired the lease: controllers start now with empty memory',
    because: [
      {
        rule: "the old leader's lease expired (leaderElectLeaseDuration)",
        values: { leaderElectLeaseDuration: formatDuration(leaderElectLeaseDuration) },
      },
    ],
    causes: [host.recall(CONTROLLER_MANAGER_REF, 'restarted') ?? 0],
    source: 'leaderelection: LeaderElector.tryAcquireOrRenew',
  });
  host.remember(CONTROLLER_MANAGER_REF, 'restarted', seq);
}

/** A kubelet that re-posted conditions the API held otherwise (a scenario's patch of its status, say). */
export function recordRepost(host: SimHost, name: string, before: ReturnType<typeof nodeBefore>): void {
  const node = host.cluster.nodes.get(name);
  if (!node) return;
  const changed = node.conditions
    .filter((c) => before.conditions.find((b) => b.type === c.type)?.status !== c.status)
    .map((c) => `${c.type}=${c.status} (was ${before.conditions.find((b) => b.type === c.type)?.status ?? 'absent'})`);
  const ref = `Node/${name}`;
  const seq = host.decide({
    controller: 'world',
    action: 'NodeConditionChanged',
    object: ref,
    summary: `Kubelet re-posted its conditions: ${changed.join(', ') || 'reasons updated'}`,
    because: [
      { rule: "the node's conditions in the API differed from what the running kubelet posts; it posts at its next status update", values: { changed } },
    ],
    causes: [host.recall(ref, 'heartbeat') ?? 0, host.recall(ref, 'ready-status') ?? 0],
    source: 'kubelet: tryUpdateNodeStatus',
  });
  if (changed.some((c) => c.startsWith('Ready='))) host.remember(ref, 'ready-status', seq);
}

/**
 * Adds a problem said once per run, unless the problems hold one of its code: read from the problems
 * themselves, which a step back cuts and a hand-off extends (a flag beside them stayed set after a
 * step back to before the problem, which was then not said again, and missed the one a hand-off brings).
 */
export function sayOnce(problems: Problem[], p: Problem): void {
  if (!problems.some((q) => q.code === p.code)) problems.push(p);
}
