/**
 * Where checkpoints are saved (simulation.ts: "Checkpoints"; what one keeps: checkpointStore.ts).
 * Saving one has no effect on decisions, only on what a step back restores and replays.
 */
import type { Micros } from '../model/time';
import type { SimHost } from './simHost';
/**
 * While `goToPass` replays forward after restoring a checkpoint, and on a user's single steps
 * (`step(true)`), a checkpoint is also saved every this many passes: the next step back (the panel
 * steps back one pass at a time) then replays at most this many passes instead of up to
 * `checkpointEvery` (100 at 5,000 nodes: the first step back during an outage took 2 s). Saving
 * has no effect on decisions; the extra checkpoints are thinned like the others.
 */
export const FINE_CHECKPOINT_EVERY = 10;
/**
 * A monitor pass after which at least this share of the pods (and at least HEAVY_PASS_MIN_PODS)
 * changed since the last checkpoint is followed by a checkpoint too: such a pass (a zone's nodes
 * going Unknown and MarkPodsNotReady on 50,000 pods at 5,000 nodes, or their recovery) is the
 * dearest to replay, and a step back to it or past it would otherwise replay it from up to
 * `checkpointEvery` passes before. The pods it changed are kept by the next checkpoint anyway, and
 * there is at most one such checkpoint per that many pod changes: its fixed part (every node's and
 * Lease's times, the controllers' save) is small beside what the controllers did for them.
 */
export const HEAVY_PASS_SHARE = 0.1;
export const HEAVY_PASS_MIN_PODS = 1000;
/**
 * What makes a pass heavy in a cluster of `pods` pods (HEAVY_PASS_SHARE): `pods`, the pods it must change; `is`, the one
 * rule behind a checkpoint after it (checkpointDue), the run-ahead's forecast (Simulation.nextPassHeavy) and the redo
 * (redo.ts: a hand-off restores the controllers anew, dearer than a quiet pass's step, cheaper than a heavy one's).
 */
export function heavyPass(pods: number): { readonly pods: number; is(changed: number): boolean } {
  const heavy = Math.max(HEAVY_PASS_MIN_PODS, Math.ceil(pods * HEAVY_PASS_SHARE));
  return { pods: heavy, is: (changed) => changed >= heavy };
}
/**
 * While goToPass replays forward after restoring a checkpoint for a step back (to the pass before
 * the current one: the panel's Step Back), a checkpoint is also saved after each of the last this many
 * passes before the target: the panel steps back one pass at a time, and each of the next step backs
 * then restores the checkpoint of its own pass and replays nothing, where it replayed up to
 * FINE_CHECKPOINT_EVERY passes from the last fine one each time (at 5,000 nodes during the outage a
 * pass there costs about what a checkpoint of it does, and about half of a step back was that
 * replay). Not for a jump further back: five more checkpoints of the 5,000-node cluster made
 * `goToPass` 100 back about 1.3 times the CPU. Thinned like the others.
 */
export const STEP_BACK_CHECKPOINTS = 5;

/** Pods copied between two looks at the idle slice's clock: about 2 ms at 5,000 nodes. */
export const POD_COPY_CHUNK = 256;

/**
 * A checkpoint due after an instant (checkpointDue) is left pending and taken by `settle`, before
 * anything that can change what it must capture (the next instant, a jump, a restore, an export),
 * or when the caller has time (Simulation.prepare). Nothing in between changes the state (the views
 * only read it), so it is the checkpoint that would have been taken at once, and the panel's heavy
 * step (the Unknown pass's checkpoint of 50,000 pods at 5,000 nodes) paints before it is taken.
 */
export class PendingCheckpoint {
  private due = false;
  /**
   * `save` takes the checkpoint; `copyPods(max)` makes up to `max` more of the pod copies it will take
   * (DirtyPods.copy) and says whether some are left: the dearest part of the Unknown pass's
   * checkpoint (50,000 pods at 5,000 nodes).
   */
  constructor(private readonly to: { save(): void; copyPods?(max: number): boolean }) {}
  get pending(): boolean {
    return this.due;
  }
  /** The instant just finished is to be followed by a checkpoint. */
  mark(): void {
    this.due = true;
  }
  /** Takes the checkpoint if one is pending; whether it did. */
  settle(): boolean {
    if (!this.due) return false;
    this.due = false;
    this.to.save();
    return true;
  }
  /**
   * Idle time (Simulation.prepareSlice): the pending checkpoint's pod copies POD_COPY_CHUNK at a time
   * while `more()`, then, in a slice of its own, the rest of it (settle; it cannot be cut). Whether
   * there was anything to do.
   */
  slice(more: () => boolean): boolean {
    if (!this.due) return false;
    let copied = false;
    while (this.to.copyPods?.(POD_COPY_CHUNK)) {
      copied = true;
      if (!more()) return true;
    }
    if (copied && !more()) return true;
    this.settle();
    return true;
  }
  /** A restore: the state it was of is gone. */
  drop(): void {
    this.due = false;
  }
}

/**
 * The panel's runUntil to time `t` (`interactive`): checkpoints after each of the STEP_BACK_CHECKPOINTS
 * passes before the last pass it runs, as a step back's replay leaves them, so that the step backs
 * after it restore instead of replaying (a step back after "Run Until 5m" at 5,000 nodes replayed
 * about 35 outage passes from the last checkpoint: 4.3 s in code-server). The last pass is counted
 * from the next monitor time and the period; if a restart moves the passes, only the placement is off.
 * No fine checkpoints on the way: the run's own cost stays as it was.
 */
export function runEndReplay(pass: number | null, nextMonitorAt: number | undefined, period: number, t: number): Replay | null {
  if (nextMonitorAt === undefined || nextMonitorAt > t) return null;
  const last = (pass ?? -1) + Math.floor((t - nextMonitorAt) / Math.max(1, period)) + 1;
  return { to: last, stepBack: true, fine: false };
}

/**
 * The panel's Run Until a decision and Next decision (`runUntilDecision`, interactive): where such a run
 * ends is known only when it gets there, so while it runs a checkpoint follows every monitor pass, and of
 * those the placement did not want anyway (checkpointDue) only the last STEP_BACK_CHECKPOINTS + 1 are kept:
 * the step backs after it restore, as after a Run Until a time (runEndReplay), where the first one
 * replayed from the last regular checkpoint (from pass 0 to the Unknown pass at 5,000 nodes: 1.1-1.2 s).
 * The pass the run ends on gets none of its own (the step back goes before it). Merged away as thinning
 * does, each checkpoint's deltas go into its successor's.
 */
export class RunEndRing<C> {
  /** while an interactive runUntilDecision runs */
  running = false;
  /** the pending checkpoint is the ring's alone */
  private own = false;
  /** the ring's own checkpoints, oldest first (some may have left the store: restored past, thinned) */
  private kept: C[] = [];
  /** where the last run ended without its own checkpoint (pass, trace length): the next run, if it starts there, saves it */
  private ended: [number | null, number] | undefined;

  /** After a monitor pass's instant, `placed` by checkpointDue: whether a checkpoint follows it. */
  due(placed: boolean): boolean {
    this.own = this.running && !placed;
    return placed || this.running;
  }
  /** The last checkpoint of `list` that is not the ring's own (those are merged away). */
  lastKept(list: readonly C[]): C | undefined {
    for (let i = list.length - 1; i >= 0; i--) if (!this.kept.includes(list[i])) return list[i];
    return undefined;
  }
  /** A pass taken from another run (a hand-off) ends where the simulation stands, on a checkpoint of its own: none pending is the ring's. */
  handedOff(): void {
    this.own = false;
  }
  /** A restore: the pending checkpoint and the run's end are of a state that is gone, and so are the checkpoints not in `list`. */
  drop(list: readonly C[]): void {
    this.own = false;
    this.ended = undefined;
    this.kept = this.kept.filter((c) => list.includes(c));
  }
  /**
   * A run ended at `at` (pass, trace length): whether its pending checkpoint is the ring's alone, which is dropped; the
   * step backs then start before the run's end, and the STEP_BACK_CHECKPOINTS before it are kept (`merge`, as `saved`).
   */
  end(at: [number | null, number], list: readonly C[], merge: (cp: C) => void): boolean {
    const own = this.own;
    this.own = false;
    this.ended = own ? at : undefined;
    if (own) this.trim(list, STEP_BACK_CHECKPOINTS, merge);
    return own;
  }
  private trim(list: readonly C[], keep: number, merge: (cp: C) => void): void {
    this.kept = this.kept.filter((c) => list.includes(c));
    while (this.kept.length > keep) merge(this.kept.shift()!);
  }
  /**
   * A run starts at `at`: whether the one before ended there without its checkpoint, which is taken now, as
   * the ring's (Next decision after Next decision, a pass apart: the step back would replay that pass).
   */
  resume(at: [number | null, number]): boolean {
    const e = this.ended;
    this.ended = undefined;
    return (this.own = e !== undefined && e[0] === at[0] && e[1] === at[1]);
  }
  /**
   * A checkpoint was saved, the last of `list`; the ring's own beyond the last STEP_BACK_CHECKPOINTS + 1 go (`merge`):
   * after a user's steps the newest is the shown pass's, which the step back takes first (settle) and goes before, so
   * the five before it stay for the five step backs (with five, the fifth merged away replayed two outage passes: 0.55 s
   * at 5,000 nodes).
   */
  saved(list: readonly C[], merge: (cp: C) => void): void {
    if (!this.own) return;
    this.own = false;
    const cp = list[list.length - 1];
    if (cp === undefined || this.kept.includes(cp)) return;
    this.kept.push(cp);
    this.trim(list, STEP_BACK_CHECKPOINTS + 1, merge);
  }
}

/**
 * userStepRing: a user's single step (`step(true)`, and the last STEP_BACK_CHECKPOINTS + 2 passes of an
 * interactive goToPass: the ahead simulation's catch-up) leaves a checkpoint pending after its pass, the
 * RunEndRing's own (the last STEP_BACK_CHECKPOINTS + 1 kept), which idle time takes (prepareSlice), else the
 * next settle: the panel's first step back then restores the pass before instead of replaying up to
 * FINE_CHECKPOINT_EVERY passes and saving the step-back checkpoints on the way (at 5,000 nodes in the
 * outage: four passes and three checkpoints, about 0.3 s of CPU).
 *
 * fineDue: a user's single step also keeps the last checkpoint that stays (not the ring's own, which
 * are merged away) at most FINE_CHECKPOINT_EVERY passes behind `pass` (as goToPass leaves them behind a
 * step back), so that a step back past the ring replays at most that many passes, even after a long runUntil.
 */
export function fineDue(pass: number, lastKept: { pass: number | null } | undefined): boolean {
  const last = lastKept?.pass;
  return last === null || last === undefined || pass - last >= FINE_CHECKPOINT_EVERY;
}

/** The replay of a goToPass going back: up to pass `to`; `stepBack` when it went back one pass. */
export interface Replay {
  to: number;
  stepBack: boolean;
  /** false: no checkpoint every FINE_CHECKPOINT_EVERY passes on the way (runEndReplay) */
  fine?: boolean;
}

/** The pods on the nodes whose grace period runs out before `t` (the next monitor pass), as the controllers forecast them (checkpointDue). */
export function podsDue(host: SimHost, t: Micros | undefined): number {
  if (t === undefined) return 0;
  let pods = 0;
  for (const c of host.controllers) pods += c.podsOfNodesDueBefore?.(host, t) ?? 0;
  return pods;
}

/**
 * Whether the instant of monitor pass `pass` is followed by a checkpoint: every `every` passes; while
 * goToPass replays (`replay`), every FINE_CHECKPOINT_EVERY passes up to its target, and for a step
 * back each of the STEP_BACK_CHECKPOINTS passes before it; after a heavy pass (`dirtyPods` ≥
 * `heavy.pods`, see heavyPass); and before one, when `podsDueNext` (asked last: it walks the
 * grace deadlines due by the next pass) forecasts that the next pass makes a heavy pass's pods not
 * ready. A jump back to the pass before the heavy one (the bench's `goToPass` 100 back, 120 → 20 at
 * 5,000 nodes) then restores that checkpoint instead of the start's and replays nothing, where the
 * replay of passes 1–20 and its two fine checkpoints were a fifth of the jump. Such a checkpoint
 * holds few pods (the pods change in the heavy pass, after it), and there is one per heavy pass.
 */
export function checkpointDue(
  pass: number,
  every: number,
  replay: Replay | null,
  dirtyPods: number,
  heavy: ReturnType<typeof heavyPass>,
  podsDueNext?: () => number,
): boolean {
  if (pass % every === 0 || heavy.is(dirtyPods)) return true;
  if (
    replay !== null &&
    pass <= replay.to &&
    ((replay.fine !== false && pass % FINE_CHECKPOINT_EVERY === 0) || (replay.stepBack && pass < replay.to && pass >= replay.to - STEP_BACK_CHECKPOINTS))
  )
    return true;
  return podsDueNext !== undefined && heavy.is(podsDueNext());
}
