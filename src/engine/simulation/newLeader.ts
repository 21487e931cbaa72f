/**
 * Why-nots across a failover of kube-controller-manager: the old leader vanishes without releasing its lease, nothing
 * is decided until the new leader acquires it (leaderElectLeaseDuration later), and the new leader's controllers start
 * then with empty memory (monitorNodeHealth's first pass makes every node's probeTimestamp "now", the zone queues and
 * the taint eviction's scheduled deletions start over), which no reading of the old controllers' memory gives. A
 * simulation of the same scenario and options run to the new leader's start stands where this one will (the run is
 * deterministic): its answers then are the answers. Asked during the wait (no controller runs, so none answers), they
 * are given with the wait said in their checks; asked before the failover, an answer that names a time at or after it
 * takes the new leader's time for the same outcome, conditional on the failover. What the new leader decides as it
 * starts is named at that instant.
 *
 * Bounded by the cluster's size: above NEW_LEADER_MAX_PODS pods the second simulation would hold the answer for
 * seconds and a second copy of the cluster; the answers are then the wait alone (explain.ts) and, before it, no time.
 */
import { formatTime, type Micros } from '../model/time';
import type { ObjectRef } from '../model/types';
import { outcomesOf } from '../trace/outcomes';
import type { WhyNot } from '../trace/whyNot';
import { whyNotOfControllers, type Explainable, type WhyNotAsk } from './explain';

/** Above this many pods the new leader's answers are not worked out (a second simulation of the cluster). */
export const NEW_LEADER_MAX_PODS = 20_000;

/** A simulation made afresh, to be run to the new leader's start. */
export interface LeaderRun extends Explainable {
  runUntil(t: Micros): void;
}

/** The new leader's run of each simulation, made once per new leader's start and dropped once no failover is on the way. */
const made = new WeakMap<Explainable, { at: Micros; run: LeaderRun }>();

/** Drops the new leader's run kept for `sim` (no failover on the way now: a second cluster held for nothing). */
export function forgetNewLeader(sim: Explainable): void {
  made.delete(sim);
}

/** The same run standing at the new leader's start `at` (its first pass done), or undefined when the cluster is too big. */
function newLeaderRun(sim: Explainable, make: () => LeaderRun, at: Micros): LeaderRun | undefined {
  if (sim.host.cluster.pods.size > NEW_LEADER_MAX_PODS) return undefined;
  const kept = made.get(sim);
  if (kept?.at === at) return kept.run;
  const run = make();
  run.runUntil(at);
  made.set(sim, { at, run });
  return run;
}

/** The new leader's why-nots of `ref` as it starts at `at`, those it decides then named at that instant; undefined when not worked out. */
export function newLeaderAnswers(sim: Explainable, make: () => LeaderRun, at: Micros, ref: ObjectRef, ask?: WhyNotAsk): WhyNot[] | undefined {
  const run = newLeaderRun(sim, make, at);
  if (!run) return undefined;
  const when = formatTime(at);
  const started: WhyNot[] = [];
  const trace = run.host.trace;
  for (let i = trace.length - 1; i >= 0 && trace.at(i)!.time === when; i--) {
    const d = trace.at(i)!;
    for (const o of outcomesOf(d))
      if (o.object === ref)
        started.unshift({
          what: d.summary,
          outcome: o.outcome,
          object: ref,
          check: { rule: `the new leader's ${d.controller} controller decides it as it starts: ${d.because[0]?.rule ?? d.summary}`, values: { seq: d.seq } },
          wouldFireAt: when,
        });
  }
  return [...started, ...whyNotOfControllers(run, ref, undefined, ask)];
}

/** The controllers' why-nots of `ref` during a failover's wait (sim.leaderStartsAt): the new leader's, as it starts. */
export function whyNotDuringWait(sim: Explainable, make: () => LeaderRun, ref: ObjectRef, ask?: WhyNotAsk): WhyNot[] {
  const at = sim.leaderStartsAt;
  const answers = at === undefined ? undefined : newLeaderAnswers(sim, make, at, ref, ask);
  if (!answers) return [];
  const newLeaderAt = formatTime(at!);
  const wait = `kube-controller-manager leads again at ${newLeaderAt}, after the failover's wait: its controllers start then with empty memory`;
  // the wait is said in the answer's check; its path stays the new leader's
  return answers.map((w) => ({ ...w, check: { rule: `${wait}; then ${w.check.rule}`, values: { newLeaderAt, ...(w.check.values ?? {}) } } }));
}
