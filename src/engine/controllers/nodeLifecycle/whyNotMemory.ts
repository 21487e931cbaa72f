/**
 * What the node lifecycle controller's why-nots read: the controller's memory, and the shapes a
 * question walks once (a zone's other nodes, the timeline's kubelet stops).
 */
import type { ControllerHost } from '../controllerHost';
import type { Micros } from '../../model/time';
import type { ZoneStateName } from '../../simulation/api';
import type { QueueForecast, QueueForecastAsk } from './queueForecast';
import type { RateLimitedTimedQueue } from './rateLimitedQueue';
import type { NodeLifecycleRules } from './versionRules';

/** What the why-not reads of the controller's memory (NodeLifecycleController implements it). */
export interface NodeLifecycleMemory {
  readonly _rules: NodeLifecycleRules;
  enabled(host: ControllerHost): boolean;
  isKnown(name: string): boolean;
  firstProbeOf(host: ControllerHost, name: string): Micros | undefined;
  healthOf(name: string):
    | {
        probe: Micros;
        readyTransition: Micros;
        savedReady?: { lastHeartbeatTime?: Micros; lastTransitionTime?: Micros } | null;
        lease?: { renewTime?: Micros } | null;
      }
    | undefined;
  trackOf(name: string): { zone: string; excluded?: string } | undefined;
  inMasterDisruption(): boolean;
  queueOf(zone: string): RateLimitedTimedQueue | undefined;
  zoneStateOf(zone: string): ZoneStateName | undefined;
  zoneCountsOf(zone: string): { total: number; notReady: number } | undefined;
  firstZoneOf?(host: ControllerHost, zone: string): { total: number; notReady: number; state: ZoneStateName } | undefined;
  nextMonitor(): Micros;
  nodeStateOf(name: string): string | undefined;
  nextTokenOf(zone: string, now: Micros): Micros | undefined;
  queueForecast(zone: string, now: Micros, ask?: QueueForecastAsk): QueueForecast | undefined;
}

/** A zone's other nodes, as a why-not reads them once per question (StatusUnknownWhyNot.zoneWalk). */
export interface ZoneWalk {
  blockers: string[];
  /** the pass each goes Unknown at, soonest first; `counted` when it takes part in the disruption checks */
  goUnknown: { name: string; at: Micros; counted: boolean; resumeSeenAt?: Micros }[];
  /** the pass evictPods or markNodeForTainting Adds each to the zone's queue */
  arrivals: { value: string; at: Micros }[];
}

/** A node of the zone whose kubelet the timeline stops while it posts (StatusUnknownWhyNot.timelineStopsOf). */
export interface TimelineStop {
  name: string;
  /** the instant of the timeline's stop */
  stop: Micros;
  /** the monitor pass that sets its Ready to Unknown, and the one that Adds it to the zone's queue */
  unknownAt: Micros;
  queuedAt: Micros;
  /** it takes part in the disruption checks (its Unknown changes the zone's counts) */
  counted: boolean;
  /** the monitor pass that reads its kubelet started again by the timeline, after its Unknown */
  resumeSeenAt?: Micros;
  /** the timeline sets its Ready condition on the way in a way the forecast does not follow: no time through the queue */
  unforeseen?: true;
}
