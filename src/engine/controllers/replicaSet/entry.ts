/**
 * What the ReplicaSet controller keeps per ReplicaSet (an entry: its machine, the pods it
 * made and is replacing, views and checks kept), the pod index's sets, and the small helpers
 * every part of the controller shares.
 */
import type { MachineTransition } from '../../trace/decision';
import type { MachineView } from '../../simulation/api';
import type { ObjectRef, PodRecord, ReplicaSetRecord } from '../../model/types';
import type { Micros } from '../../model/time';
import { TransitionTable, type TableActor } from '../../machines/contextTable';
import { assignments, copyMachineContext, replicaSetMachine } from './machine';
import type { RuleOutcome } from './ranking';
import type { StatusCounter } from './status';
import type { PodTally } from './tally';
import type { ReplicaSetCheck } from './validate';

/** ReplicaSets with more pods than this in `details.pods` are listed up to it */
export const MAX_LISTED = 50;
export const SOURCE = 'replicaset: syncReplicaSet (pkg/controller/replicaset/replica_set.go)';

type Actor = TableActor<typeof replicaSetMachine>;

/**
 * Every ReplicaSet's machine is plain data stepped through one table that
 * xstate fills (machines/contextTable.ts): a live actor per ReplicaSet cost most of the
 * controller's time at scale.
 */
let transitionTable: TransitionTable<typeof replicaSetMachine> | undefined;
export const machineTable = () => (transitionTable ??= new TransitionTable(replicaSetMachine, { assignments, copyContext: copyMachineContext }));

export interface Entry {
  key: string;
  /** the key's namespace and name (key = `${ns}/${name}`), for resolveControllerRef */
  ns: string;
  name: string;
  uid: string;
  /** the pod name prefix and the names' seed (see nextName) for the ReplicaSet name `name`, made at the first creation */
  naming?: { name: string; prefix: string; seed: string };
  /** `ReplicaSet/<key>`, made once: every decision about the ReplicaSet keeps it */
  ref?: ObjectRef;
  /** the updateReplicaSetStatus machine's transition id (`replicaSetStatus/<key>`), made at the first status write: each write's transition keeps it */
  statusId?: string;
  actor: Actor;
  /** pod name counter (the seeded "random" suffixes) */
  counter: number;
  /** keys of this ReplicaSet's pods that went away (not by its own scale-down) and are not yet replaced */
  removed: { key: string; fact: string }[];
  /** the last PodsCreated/PodsDeleted seq, so that older scale events are not cited again */
  lastManageSeq: number;
  /** signature of the last ExpectationsPending decision, so it is not repeated */
  lastPending?: string;
  lastTransition?: MachineTransition & { seq?: number };
  /** what the last checkpoint kept of this entry (see `savedEntry`) */
  lastSaved?: SavedEntry;
  /** its index in the entries the last checkpoint kept (ReplicaSetCore.savedEntries), while no entry came or went since */
  savedAt: number;
  /** written since the last checkpoint, and so in ReplicaSetCore.changedEntries (see `markChanged`) */
  changed: boolean;
  /** `entries` holds it (see `send`) */
  live: boolean;
  /** `timed` holds it (see `noteTimers`) */
  timed: boolean;
  /** the check of `checks` under the entry's key, while `checks` has had `checkSeen` changes (see `check`) */
  checked: CachedCheck | undefined;
  checkSeen: number;
  /** `byOwner`'s set for the entry's uid, as found while the index was made `podsMade`-th (see `podsOf`) */
  pods: PodSet | undefined;
  podsMade: number;
  /** what machines() last gave for this entry, given again while its state and last transition are the same */
  view: MachineView | undefined;
}

export interface KeptRecord {
  rs: ObjectRef;
  seq: number;
  outcome: RuleOutcome & { versus: string };
}

/**
 * The pods one scale-down kept, sharing one record: why each was kept is worked out only when
 * explain asks (with burstReplicas 2, scaling 3,000 to 0 is 1,500 syncs, and explaining every
 * kept pod at each was most of the run).
 */
export interface KeptBySync {
  rs: ObjectRef;
  seq: number;
  why: { get(name: string): (RuleOutcome & { versus: string }) | undefined };
}

export function keptOutcome(k: KeptRecord | KeptBySync, key: string): KeptRecord | undefined {
  if (!('why' in k)) return k;
  const outcome = k.why.get(key.slice(key.indexOf('/') + 1));
  return outcome ? { rs: k.rs, seq: k.seq, outcome } : undefined;
}

/** an entry in a checkpoint: the machine as plain state instead of the actor */
export type SavedEntry = Omit<
  Entry,
  | 'actor'
  | 'lastSaved'
  | 'savedAt'
  | 'changed'
  | 'ref'
  | 'statusId'
  | 'ns'
  | 'name'
  | 'naming'
  | 'live'
  | 'timed'
  | 'checked'
  | 'checkSeen'
  | 'pods'
  | 'podsMade'
  | 'view'
> & { snapshot: unknown };

/**
 * A ReplicaSet's check and what it was made from: checkReplicaSet reads the record's selector, template
 * (its labels), spec object (spec.replicas), replicas and name (the key the check is kept under), nothing else.
 * Never edited (a check made again is a new object), so checkpoints and the simulations restored from them
 * share these.
 */
export interface CachedCheck {
  selector: unknown;
  template: unknown;
  spec: unknown;
  replicas: number | undefined;
  check: ReplicaSetCheck;
}

/**
 * A check made from this selector, template, spec object and replicas, for the record under the same key (else
 * it is made again). Not only for the very record it was made for: a restored record, and the records of a
 * simulation made like another (startLike.ts), are copies sharing those objects with the one checked
 * (simulation/checkpoint.ts cloneReplicaSet), and checkReplicaSet would find what it found then; a record
 * changed since (apply, patch, scale) has another selector, template, spec or replicas, and is checked again.
 */
export function isCurrent(c: CachedCheck | undefined, rs: ReplicaSetRecord): c is CachedCheck {
  return c !== undefined && c.selector === rs.selector && c.template === rs.template && c.spec === rs.raw.spec && c.replicas === rs.replicas;
}

export interface Claimed {
  /** how many pods are claimed (filteredPods.length) */
  count: number;
  /** the claimed pods when the walk listed them */
  pods?: PodRecord[];
  error?: string;
  terminating?: number;
  counted?: StatusCounter;
  /** the running counts the claim was read from */
  tally?: PodTally;
}

/** one owner's pods in the index: pod key -> the record the pod's last event carried */
export class PodSet extends Map<string, PodRecord> {
  /**
   * the running counts of a ReplicaSet's pods (tally.ts), made at its first sync; never for orphans. Read through
   * ReplicaSetCore.tallyOf: one made before the controller's last restore (`tallyMade` behind its `talliesMade`) is void
   */
  tally: PodTally | undefined = undefined;
  tallyMade = 0;
  /**
   * `byUid.get(owner)`, kept here (the controller sets it where either changes: newEntry, dropEntry,
   * a set made), so that a pod event in the same owner finds its ReplicaSet without a look-up by uid
   */
  entry: Entry | undefined = undefined;
  /** `owner`: the controller's uid, '' for the orphans of a namespace */
  constructor(readonly owner: string) {
    super();
  }
}

/** the echoes of the controller's own status writes, heard and owed (statusEcho.ts) */
export class StatusEchoes {
  /** the entry whose status write the host is announcing (updateStatus) */
  writing: Entry | undefined = undefined;
  /** the entry whose sync heard the echo of its own write (the sync running) */
  heard: Entry | undefined = undefined;
  /** entries whose echo is owed, all at `at` */
  owed: Entry[] = [];
  at: Micros = 0;
}

export const nsOf = (key: string) => key.slice(0, key.indexOf('/'));
/** a list the trace keeps, at its length (a push onto an array reserves room for 16 more) */
export const exact = <T>(list: T[]): T[] => list.slice();
export const byKey = (a: [string, unknown], b: [string, unknown]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
export const byPodName = (a: PodRecord, b: PodRecord) => (a.meta.name < b.meta.name ? -1 : a.meta.name > b.meta.name ? 1 : 0);
export const byEntryKey = (a: Entry, b: Entry) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
