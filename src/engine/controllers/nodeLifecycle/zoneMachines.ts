/**
 * The zone machines' answers (machines.ts zoneMachine): the state ComputeZoneState's guards give a
 * zone's counts, asked of the machine (TracedActor.ask: xstate's pure `transition`) before handleDisruption
 * commits anything, so that "are all zones fully disrupted" and every zone's limiter come from the
 * machine's own transitions.
 *
 * Why a cache: a monitor pass asks every zone (every 5 s), and a pure transition costs tens of µs;
 * the answer is a function of the zone's state and the event's fields, so the last one is kept per
 * zone with those as its key (a quiet zone asks the same every pass).
 */
import type { TracedActor } from '../../machines/traced';
import type { MachineTransition } from '../../trace/decision';
import type { ZoneStateName } from '../../simulation/api';
import { attachGuards, guardChecks } from '../../machines/guardChecks';
import { zoneGuardRules, zoneMachine, type ZoneEvent } from './machines';

type ZoneActor = TracedActor<typeof zoneMachine>;

export class ZoneAnswers {
  private last = new Map<string, { key: string; to: ZoneStateName }>();

  /** The answers `from` kept (a restore: the machine and the rule are the same, so each answer is still its key's). */
  takeOver(from: ZoneAnswers): void {
    if (from !== this) this.last = from.last;
  }

  /** The state the zone's machine would go to on ZONE_HEALTH with these counts (nothing changed). */
  ask(zone: string, actor: ZoneActor, ready: number, notReady: number, unhealthyZoneThreshold: number): ZoneStateName {
    const from = actor.state();
    const key = `${from}|${ready}|${notReady}|${unhealthyZoneThreshold}`;
    const hit = this.last.get(zone);
    if (hit && hit.key === key) return hit.to;
    const to = actor.ask({ type: 'ZONE_HEALTH', ready, notReady, unhealthyZoneThreshold }) as ZoneStateName | null;
    if (to === null) throw new Error(`node lifecycle: the zone machine ${actor.id} in ${from} refuses ZONE_HEALTH`);
    this.last.set(zone, { key, to });
    return to;
  }
}

/** Sends a zone its event; the machine accepts every event in every state, so a refusal is a broken machine. */
export function sendZoneEvent(actor: ZoneActor, e: ZoneEvent): MachineTransition {
  const tr = actor.send(e);
  if (!tr) throw new Error(`node lifecycle: the zone machine ${actor.id} in ${actor.state()} refuses ${e.type}`);
  return attachGuards(tr, guardChecks(actor.lastGuards(), e, zoneGuardRules));
}
