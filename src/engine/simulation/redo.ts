/**
 * What a simulation ran before a restore took it back: the checkpoints the restore dropped (from the one it went back
 * to), the trace and the problems up to where it stood. Going forward again, the simulation takes those passes from
 * them by a hand-off (handOff.ts, its source this one's own past run) instead of stepping them: it is deterministic,
 * so where it stands settled on a checkpoint of that run's position, the run's next checkpoint is what the step would
 * make, record for record. At 5,000 nodes the pass in which a zone's nodes go Unknown was stepped a second time after a
 * step back over it (over a second of engine, the controllers cold after the restore), and the Step after a Step Back
 * from pass 0 stepped pass 0 again.
 *
 * The dropped checkpoints are never edited after the restore (thinning and merges touch only the store's list, and a
 * hand-off adopts copies of their fields: handOff.ts ownCopy), nor are decisions once made.
 */
import type { Problem } from '../problems';
import type { Decision } from '../trace/decision';
import type { DecisionList } from '../trace/decisionLog';
import type { Checkpoint } from './checkpointStore';
import { handOffNext, samePosition, type HandOffSource, type HandOffTarget } from './handOff';

export class Redo implements HandOffSource {
  /** the checkpoints, oldest first: the one restored, then those dropped (and an earlier redo's beyond them) */
  readonly store: { readonly list: readonly Checkpoint[] };
  readonly trace: { readonly length: number; slice(start: number, end: number): Decision[] };
  /**
   * The first checkpoint the restore that made this dropped: that restore undid its Ready log in place (ReadyLog.undo), so
   * the conditions the log holds are the live pods' own but for the pods it put back whole, until anything moves the pods
   * again (another restore, a hand-off: `spend`). Its redo writes the pass's Ready fields there (HandOff's `liveLog`).
   */
  private undone?: Checkpoint;

  private constructor(
    list: readonly Checkpoint[],
    /** the trace's length at `list[0]`: the decisions before it are not kept */
    private readonly base: number,
    private readonly tail: readonly Decision[],
    readonly problems: readonly Problem[],
  ) {
    this.store = { list };
    this.undone = list[1];
    this.trace = {
      length: base + tail.length,
      slice: (start, end) => {
        if (start < base) throw new RangeError(`redo: decisions before ${base} are not kept (asked from ${start})`);
        return tail.slice(start - base, end - base);
      },
    };
  }

  /**
   * What the run had before the restore to `list[k]`, or `older` when nothing is dropped. An older redo whose
   * checkpoints go on past the last one dropped (a second step back before going forward again) is kept beyond it:
   * the same run, so its checkpoints and decisions there are the ones these would have been followed by.
   */
  static beforeRestore(
    list: readonly Checkpoint[],
    k: number,
    trace: Pick<DecisionList, 'length' | 'slice'>,
    problems: readonly Problem[],
    older: Redo | undefined,
  ): Redo | undefined {
    older?.spend();
    if (k + 1 >= list.length) return older;
    const base = list[k].traceLength;
    let kept = list.slice(k);
    let tail = trace.slice(base);
    let said = problems.slice();
    const last = list[list.length - 1];
    const j = older ? older.store.list.findIndex((c) => samePosition(c, last)) : -1;
    if (older && j >= 0 && j + 1 < older.store.list.length && older.base <= trace.length && older.trace.length > trace.length) {
      kept = kept.concat(older.store.list.slice(j + 1));
      tail = tail.concat(older.tail.slice(trace.length - older.base));
      if (older.problems.length > said.length) said = said.concat(older.problems.slice(said.length));
    }
    return new Redo(kept, base, tail, said);
  }

  /**
   * A hand-off begins, which moves the pods: for `next` (an own hand-off's) that is the checkpoint `undone`, the pods whose
   * conditions in its Ready log are not live (ReadyLog.undoneExcept); else undefined. From then on, none is trusted.
   */
  spend(next?: Checkpoint): ReadonlySet<string> | undefined {
    const live = next !== undefined && next === this.undone ? next.pods.readyLog.undoneExcept : undefined;
    this.undone = undefined;
    return live;
  }
}

/**
 * Takes the owed rest into the redo: whether a Step onto pass `upTo` at once after a Step Back whose restore left its rest
 * owed and not begun is a redo (handOffNext's, `heavy` as there); if so that rest is dropped (CheckpointStore.dropOwed) and the hand-off restores those
 * controllers from the ones that ran before both moves, with both moves' records (HandOff's `chained`), as a Step Back at
 * once after one does. Paid first, the Step onto the Unknown pass after three Step Backs at 5,000 nodes restored the
 * ReplicaSet controller and the binder to the pass stepped back onto, then again to the next.
 */
export function takeOwed(redo: Redo | undefined, target: HandOffTarget, upTo: number, heavy: (pods: number) => boolean): boolean {
  return redo !== undefined && handOffNext(redo, target, upTo, heavy) !== undefined && target.store.dropOwed();
}
