/**
 * What the simulation shows of itself, as data: zones, the state export,
 * machines and explanations. Controllers build these and every shell reads
 * them, so they sit below both (controllers/controller.ts and
 * simulation/api.ts import them from here, not from each other).
 */
import type { KObject, ObjectRef } from '../model/types';
import type { Decision, MachineTransition } from './decision';
import type { WhyNot } from './whyNot';

export type ZoneStateName = 'Initial' | 'Normal' | 'PartialDisruption' | 'FullDisruption';

export interface ZoneView {
  /** `Zone/KEY` */
  zone: string;
  state: ZoneStateName;
  /** nodes that take part in disruption checks */
  nodes: number;
  notReady: number;
  /** current eviction (or tainting) rate, nodes per second */
  evictionRate: number;
  /** when the zone's queue can next release a node, if anything is queued */
  nextTokenAt?: string;
  /** the queued node names in processing order: every zone's, or only the zones asked for (`zones(namesOf)`) */
  queued: string[];
  /**
   * how many nodes are queued; present only when the names were asked for by zone, since a panel shows
   * the names on demand (a zone down at 5,000 nodes queues 1,667)
   */
  queuedCount?: number;
}

/** Spec 2.2 / `--output state --format json`. */
export interface StateView {
  time: string;
  zones: ZoneView[];
  objects: { apiVersion: 'v1'; kind: 'List'; items: KObject[] };
}

export interface MachineView {
  /** `node/NAME`, `zone/KEY`, `replicaset/NS/NAME`, `monitor` */
  id: string;
  /** dotted state path */
  state: string;
  /** the machine's own definition (xstate `machine.definition` / toJSON) so the UI draws it without drift */
  definition: unknown;
  lastTransition?: MachineTransition & { seq?: number };
}

/** The answer to "why" and "why not" for one object. */
export interface Explanation {
  object: ObjectRef;
  exists: boolean;
  /** decisions about the object, each with the chain of causes back to world events (oldest first) */
  happened: { decision: Decision; chain: Decision[] }[];
  /** for what did not happen: the check that holds it back, and when it would fire, if it ever will */
  whyNot: WhyNot[];
  /** not in the snapshot and nothing in the timeline created it up to now: most likely a misspelt name */
  neverExisted?: true;
}
