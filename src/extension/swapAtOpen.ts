/**
 * The open's roles swapped (issue 14 §5, bench/README.md "swapopen"). The simulation the open made stands on the start
 * with the shown views made from it; the run-ahead's first pass used to need a second simulation like it first (the
 * records' copy and the controllers' start taken: 0.5 s at 5,000 nodes) before its pass 0 (0.3 s), and a Step clicked
 * at once after the paint found that unfinished. Swapped, the open's simulation is the ahead one at once and steps
 * pass 0 in the slices right after the open's messages, and the start it leaves is shown by a simulation made like it
 * afterwards, in idle time, or at once when something reads the shown simulation first.
 *
 * What keeps that invisible: the start is the same for every simulation of the scenario (made from the snapshot's
 * records, which nothing edits, and the controllers' memory of the open's first checkpoint, which nothing edits
 * either: startLike.ts), and the shown views were made at the start, so they stay true for the new one; its change
 * reports until then are dropped (the views already stand there).
 */
import type { Simulation } from '../engine/simulation/api';
import type { DecisionList } from '../engine/trace/decisionLog';
import type { ZoneView } from '../engine/trace/views';
import type { ShownStart } from './runAhead';
import type { ScenarioFacts } from './scenarioInfo';

type Making = (more: () => boolean) => Simulation | undefined;

/** The start shown while its simulation is made (runAhead.ts ShownStart). */
export class PendingStart implements ShownStart {
  readonly pass = null;
  readonly partDone = false;
  readonly now: number;
  readonly lastPass: number;
  /** the start's decisions (the open's simulation's trace goes on growing) */
  readonly trace: DecisionList;
  private readonly heavy: boolean;
  /** the start's zones, every queue's names (the trees and the panel ask for them while the start is made) */
  private readonly zonesAtStart: readonly ZoneView[];
  /** what the init message reads, as the open's simulation had it at the start (its problems grow as it steps on) */
  readonly facts: ScenarioFacts;
  /** the making of the shown simulation, which stands on the start once made (its reports taken) */
  readonly making: Making;

  /** `standsFor`: the open's simulation, never stepped; `make`: the scenario's simulations, made like one in slices. */
  constructor(
    readonly standsFor: Simulation,
    make: (like: Simulation) => Making,
  ) {
    this.now = standsFor.now;
    this.lastPass = standsFor.lastPass;
    this.trace = standsFor.trace.slice();
    const { scenario, config, behaviour, startTime } = standsFor;
    this.facts = { scenario, config, behaviour, startTime, trace: this.trace, problems: standsFor.problems.slice() };
    this.heavy = standsFor.nextPassHeavy?.() ?? false;
    this.zonesAtStart = standsFor.zones(() => true);
    let pieces: Making | undefined;
    let made: Simulation | undefined;
    this.making = (more) => {
      if (made) return made;
      // begun at its first slice (the open's simulation's pass comes first)
      pieces ??= make(standsFor);
      made = pieces(more);
      if (made) {
        // the views stand on the start: what the new simulation would report is what they were made from
        made.takePodChanges?.({});
        made.takeRecordChanges?.();
      }
      return made;
    };
  }

  nextPassHeavy(): boolean {
    return this.heavy;
  }

  /** The start's zones as Simulation.zones gives them. */
  zones(namesOf?: (zone: string) => boolean): ZoneView[] {
    return this.zonesAtStart.map(({ queuedCount, ...z }) => (namesOf ? { ...z, queued: namesOf(z.zone) ? z.queued : [], queuedCount } : z));
  }
}
