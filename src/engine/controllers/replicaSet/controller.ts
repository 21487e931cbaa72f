/**
 * The ReplicaSet controller of kube-controller-manager
 * (pkg/controller/replicaset/replica_set.go), driven by the simulation's
 * informer events and virtual clock. Each ReplicaSet's in-memory state
 * (expectations, workqueue) is its xstate machine (machine.ts); pods are plain
 * records, indexed here by controller uid so that a sync does not scan every
 * pod of the cluster.
 *
 * Informer handlers (addPod/updatePod/deletePod, addRS/updateRS/deleteRS) note
 * what to do; `wake` runs syncReplicaSet for every key due:
 *   expectations satisfied? -> claim pods (adopt orphans, release non-matching)
 *   -> manageReplicas (slow-start creations / ranked deletions)
 *   -> calculateStatus / updateReplicaSetStatus -> requeue (minReadySeconds, backoff)
 */
import type { ControllerHost } from '../controllerHost';
import type { PodBefore, SimController, WatchType } from '../controller';
import type { Explanation, MachineView } from '../../simulation/api';
import type { Check, MachineTransition } from '../../trace/decision';
import type { Problem } from '../../problems';
import type { ObjectRef, OwnerReference, PodRecord, ReplicaSetRecord } from '../../model/types';
import { podRef, replicaSetRef } from '../../model/types';
import { formatDuration, formatTime, MICROS_PER_SECOND, type Micros } from '../../model/time';
import { formatSelector } from '../../model/labels';
import { generateName, generateUid, podNamePrefix } from '../../model/podNames';
import { copyMachineContext, EXPECTATIONS_TIMEOUT, replicaSetMachine, type ReplicaSetMachineContext, type ReplicaSetMachineEvent } from './machine';
import { TransitionTable, type PlainState as MachineState, type TableActor } from './pureMachine';
import { controllerOf, isPodActive, isPodReady, isTerminating, podKey, specReplicas } from './podUtil';
import { getPodsToDelete, type RankingSettings, type RuleOutcome } from './ranking';
import { calculateStatus, StatusCounter, statusChanges, statusFromCounts, statusNeedsUpdate } from './status';
import { PodTally, setLabelFreezing } from './tally';
import { podFromTemplate, controllerRefTo } from './podTemplate';
import { checkPodOwners, checkReplicaSet, type ReplicaSetCheck } from './validate';
import { machineView } from '../../machines/view';

/** controller.SlowStartInitialBatchSize */
export const SLOW_START_INITIAL_BATCH_SIZE = 1;
/**
 * ActivePodsWithRanks (doubled-up pods ranked first) arrived with
 * kubernetes/kubernetes#80004, released in 1.17; before, controller.ActivePods.
 */
export const RANKS_DOUBLED_UP_SINCE_MINOR = 17;
/** ReplicaSets with more pods than this in `details.pods` are listed up to it */
const MAX_LISTED = 50;
/** made once: a template literal is a new string (a tree of pieces) each time it is evaluated */
const SLOW_START_RULE = `slow start: batches of ${SLOW_START_INITIAL_BATCH_SIZE}, 2, 4, … doubling, stopping after the first batch with a failure`;
/** distinct summary texts shared (see ReplicaSetController.text) */
const MAX_TEXTS = 10_000;

type Actor = TableActor<typeof replicaSetMachine>;

/**
 * Every ReplicaSet's machine is plain data stepped through one table that
 * xstate fills (pureMachine.ts): a live actor per ReplicaSet cost most of the
 * controller's time at scale.
 */
let transitionTable: TransitionTable<typeof replicaSetMachine> | undefined;
const table = () => (transitionTable ??= new TransitionTable(replicaSetMachine, copyMachineContext));

interface Entry {
  key: string;
  /** the key's namespace and name (key = `${ns}/${name}`), for resolveControllerRef */
  ns: string;
  name: string;
  uid: string;
  /** the pod name prefix and the names' seed (see nextName) for the ReplicaSet name `name`, made at the first creation */
  naming?: { name: string; prefix: string; seed: string };
  /** `ReplicaSet/<key>`, made once: every decision about the ReplicaSet keeps it */
  ref?: ObjectRef;
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

interface KeptRecord {
  rs: ObjectRef;
  seq: number;
  outcome: RuleOutcome & { versus: string };
}

/**
 * The pods one scale-down kept, sharing one record: why each was kept is worked out only when
 * explain asks (with burstReplicas 2, scaling 3,000 to 0 is 1,500 syncs, and explaining every
 * kept pod at each was most of the run).
 */
interface KeptBySync {
  rs: ObjectRef;
  seq: number;
  why: { get(name: string): (RuleOutcome & { versus: string }) | undefined };
}

function keptOutcome(k: KeptRecord | KeptBySync, key: string): KeptRecord | undefined {
  if (!('why' in k)) return k;
  const outcome = k.why.get(key.slice(key.indexOf('/') + 1));
  return outcome ? { rs: k.rs, seq: k.seq, outcome } : undefined;
}

/** an entry in a checkpoint: the machine as plain state instead of the actor */
type SavedEntry = Omit<Entry, 'actor' | 'lastSaved' | 'ref' | 'ns' | 'name' | 'naming' | 'live' | 'timed' | 'checked' | 'checkSeen' | 'pods' | 'podsMade' | 'view'> & { snapshot: unknown };

interface CachedCheck {
  /** none for a check put back by a restore: it is made again at its first use */
  rs: ReplicaSetRecord | undefined;
  selector: unknown;
  template: unknown;
  spec: unknown;
  replicas: number | undefined;
  check: ReplicaSetCheck;
}

/** A check made for this very record, selector, template, spec and replicas (else it is made again). */
function isCurrent(c: CachedCheck | undefined, rs: ReplicaSetRecord): c is CachedCheck {
  return c !== undefined && c.rs === rs && c.selector === rs.selector && c.template === rs.template && c.spec === rs.raw.spec && c.replicas === rs.replicas;
}

interface Saved {
  entries: SavedEntry[];
  kept: [string, KeptRecord][];
  /** the checks and the pods' problems as they were (restored as they are, not made again: see `restore`) */
  checks?: [string, ReplicaSetCheck][];
  podProblems?: [string, Problem[]][];
  /** the controller's `checkedOwners` (the set itself; lost when the checkpoint is copied as JSON) */
  checked?: WeakSet<OwnerReference[]>;
}

const SOURCE = 'replicaset: syncReplicaSet (pkg/controller/replicaset/replica_set.go)';
/** the machine's definition for the UI, computed once */
let machineDefinition: unknown;
const nsOf = (key: string) => key.slice(0, key.indexOf('/'));

export interface ReplicaSetControllerOptions {
  /** extra text mixed into generated pod names (default none: names depend on the ReplicaSet's uid only) */
  seed?: string;
  /**
   * For a host whose pod events may reach the controller late or never (a
   * test host holding back or losing watch events): while it answers true,
   * syncs read every pod instead of the running counts (tally.ts), which
   * hold only what the events told.
   */
  readsEveryPod?: () => boolean;
}

/**
 * Tests turn this on to have every sync that uses the running counts also
 * read every pod as before, and throw when the two differ (and machines()
 * build its views anew beside the ones it keeps).
 */
let verifyTallies = false;
export function setTallyVerification(on: boolean): void {
  verifyTallies = on;
  setLabelFreezing(on);
}

interface Claimed {
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
class PodSet extends Map<string, PodRecord> {
  /** the running counts of a ReplicaSet's pods (tally.ts), made at its first sync; never for orphans */
  tally: PodTally | undefined = undefined;
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

export class ReplicaSetController implements SimController {
  readonly name = 'replicaset' as const;
  private entries = new Map<string, Entry>();
  /** the entries sorted by key, for machines(); null when an entry came or went since */
  private sortedEntries: Entry[] | null = null;
  /** pod key -> the set of `byOwner` or `orphans` that holds it (its `owner`: the uid of the pod's controller, '' for an orphan) */
  private ownerOfPod = new Map<string, PodSet>();
  /** controller uid -> pod key -> the record the pod's last event carried (see `podsIn`), and the running counts */
  private byOwner = new Map<string, PodSet>();
  /** namespace -> pod key -> record, for pods without a controller */
  private orphans = new Map<string, PodSet>();
  /** ReplicaSet checks, by key; recomputed when the record object changes */
  private checks = new Map<string, CachedCheck>();
  private podProblems = new Map<string, Problem[]>();
  /**
   * The ownerReferences arrays checked (checkPod checks a pod again only when its record gets
   * another array). Keyed by the array rather than the record: a step back puts back copies of
   * records, and the copies share their arrays. Checkpoints hold this set itself, not a copy: every
   * array of a pod in a checkpoint had been checked when it was saved (start and every pod event
   * check), and arrays checked later belong to records made later, which a restored state does not
   * hold; so after a restore the set answers for every pod as it did in the live run at that time.
   */
  private checkedOwners = new WeakSet<OwnerReference[]>();
  /** what the last checkpoint kept of `checks` and `podProblems`, while they are unchanged */
  private savedChecks: [string, ReplicaSetCheck][] | undefined;
  private savedPodProblems: [string, Problem[]][] | undefined;
  /** pods that survived a scale-down: which rule kept them */
  private kept = new Map<string, KeptRecord | KeptBySync>();
  /** keys this controller is deleting right now (not "removed" pods to replace) */
  private deletingNow = new Set<string>();
  private wakeCache: Micros | undefined | null = null;
  /** entries with something scheduled (a due key, a delayed add, pending expectations) */
  private timed = new Set<Entry>();
  /** entries by controller uid and by namespace */
  private byUid = new Map<string, Entry>();
  private byNamespace = new Map<string, Set<Entry>>();
  /** the tallies' classes of the pods whose class is not the usual one (tally.ts) */
  private podClasses = new Map<PodRecord, number>();
  /** see `text` */
  private texts = new Map<string, string>();

  constructor(private readonly options: ReplicaSetControllerOptions = {}) {}

  // ---------------------------------------------------------------- lifecycle

  start(host: ControllerHost, _memory?: 'reconstructed' | 'fresh'): void {
    this.rebuildIndexes(host);
    for (const [key, rs] of [...host.cluster.replicaSets].sort(byKey)) {
      this.check(rs);
      const entry = this.newEntry(key, rs);
      this.enqueue(entry, host.now);
    }
    for (const pod of host.cluster.pods.values()) this.checkPod(host, pod);
  }

  private newEntry(key: string, rs: ReplicaSetRecord, saved?: SavedEntry): Entry {
    const actor = table().instance(`replicaset/${key}`, saved ? (saved.snapshot as MachineState<ReplicaSetMachineContext>) : undefined);
    const slash = key.indexOf('/');
    // every field written here, in one order: entries of one shape keep the property reads on them monomorphic
    const entry: Entry = {
      key, ns: key.slice(0, slash), name: key.slice(slash + 1), uid: rs.meta.uid, naming: undefined, ref: undefined, actor,
      counter: saved?.counter ?? 0, removed: saved ? [...saved.removed] : [], lastManageSeq: saved?.lastManageSeq ?? 0,
      lastPending: saved?.lastPending, lastTransition: saved?.lastTransition ? saved.lastTransition : undefined,
      lastSaved: undefined, live: true, timed: false, checked: undefined, checkSeen: -1, pods: undefined, podsMade: -1,
      view: undefined,
    };
    this.entries.set(key, entry);
    this.sortedEntries = null;
    this.byUid.set(entry.uid, entry);
    const pods = this.byOwner.get(entry.uid);
    if (pods) pods.entry = entry;
    let ns = this.byNamespace.get(nsOf(key));
    if (!ns) this.byNamespace.set(nsOf(key), (ns = new Set()));
    ns.add(entry);
    this.noteTimers(entry);
    this.wakeCache = null;
    return entry;
  }

  private dropEntry(entry: Entry): void {
    this.entries.delete(entry.key);
    this.sortedEntries = null;
    entry.live = false;
    if (this.byUid.get(entry.uid) === entry) {
      this.byUid.delete(entry.uid);
      const pods = this.byOwner.get(entry.uid);
      if (pods && pods.entry === entry) pods.entry = undefined;
    }
    this.byNamespace.get(nsOf(entry.key))?.delete(entry);
    this.untime(entry);
    this.dropTally(entry.uid);
    this.wakeCache = null;
  }

  /**
   * keeps `timed` in step with the machine's context; `entry.timed` says whether the set holds
   * it, so that most sends touch the set not at all (what is done with `timed` does not depend
   * on its order: wake sorts what it takes from it, nextWake takes the minimum)
   */
  private noteTimers(entry: Entry): void {
    const c = this.ctx(entry);
    if (c.dueAt !== null || c.resyncAt !== null || (c.expectedAt !== null && this.expectationsPending(entry))) {
      if (!entry.timed) {
        entry.timed = true;
        this.timed.add(entry);
      }
    } else this.untime(entry);
  }

  private untime(entry: Entry): void {
    if (!entry.timed) return;
    entry.timed = false;
    this.timed.delete(entry);
  }

  /** `index` for every pod into empty maps (a restore does this for every pod: kept to the inserts) */
  private rebuildIndexes(host: ControllerHost): void {
    this.indexesMade++;
    this.podClasses.clear();
    const ownerOfPod = (this.ownerOfPod = new Map());
    const byOwner = (this.byOwner = new Map());
    const orphans = (this.orphans = new Map());
    for (const [key, pod] of host.cluster.pods) {
      const ref = controllerOf(pod.meta);
      const owner = ref ? ref.uid : '';
      const map = owner === '' ? orphans : byOwner;
      const k = owner === '' ? nsOf(key) : owner;
      let set = map.get(k);
      if (!set) {
        map.set(k, (set = new PodSet(owner)));
        if (owner !== '') set.entry = this.byUid.get(owner);
      }
      set.set(key, pod);
      ownerOfPod.set(key, set);
    }
  }

  /**
   * `oldSet`: the set that holds the pod (`ownerOfPod`), when the caller has just read it.
   * The set a pod's key points to is the one of its owner (`byOwner`, or `orphans` for its
   * namespace): sets are made when missing and never dropped but all at once (rebuildIndexes).
   */
  private index(key: string, pod: PodRecord | undefined, oldSet = this.ownerOfPod.get(key)): void {
    const ref = pod ? controllerOf(pod.meta) : undefined;
    const now = pod ? (ref ? ref.uid : '') : undefined;
    const old = oldSet?.owner;
    if (verifyTallies && oldSet !== undefined && (oldSet !== (old === '' ? this.orphans.get(nsOf(key)) : this.byOwner.get(old!)) || !oldSet.has(key))) {
      throw new Error(`replicaset: the index's set for pod ${key} is not its owner's (${old})`);
    }
    if (old === now) {
      // the same owner: keep the latest record (a pod created again under its name is a new record)
      if (pod && now === '') oldSet!.set(key, pod);
      else if (pod && now !== undefined) {
        const set = oldSet!;
        const held = set.get(key)!;
        if (set.tally) set.tally.replace(key, held, pod);
        // most updates change the record in place: it is the one held already
        if (held !== pod) set.set(key, pod);
      }
      return;
    }
    const map = now === '' ? this.orphans : this.byOwner;
    const k = now === '' ? nsOf(key) : now;
    let set = now !== undefined && pod ? map.get(k!) : undefined;
    // running counts only for controllers' pods, never for orphans
    const was = old ? oldSet!.tally : undefined;
    if (was) was.remove(key, oldSet!.get(key)!);
    if (now && pod) set?.tally?.add(key, pod);
    if (oldSet !== undefined) {
      oldSet.delete(key);
      this.ownerOfPod.delete(key);
    }
    if (now !== undefined && pod) {
      if (!set) {
        map.set(k!, (set = new PodSet(now)));
        if (now !== '') set.entry = this.byUid.get(now);
      }
      set.set(key, pod);
      this.ownerOfPod.set(key, set);
    }
  }

  /** `entry.live`: `entries` holds it under its key (newEntry sets it there, dropEntry takes it out) */
  private send(entry: Entry, event: ReplicaSetMachineEvent): MachineTransition | null {
    this.wakeCache = null;
    const t = entry.actor.send(event);
    if (this.isLive(entry)) this.noteTimers(entry);
    return t;
  }

  /** `send` when the transition is not kept (none is made) */
  private update(entry: Entry, event: ReplicaSetMachineEvent): void {
    this.wakeCache = null;
    entry.actor.advance(event);
    if (this.isLive(entry)) this.noteTimers(entry);
  }

  /** `entry.live`, checked against `entries` and `timed` with tally verification on */
  private isLive(entry: Entry): boolean {
    if (verifyTallies && (entry.live !== (this.entries.get(entry.key) === entry) || entry.timed !== this.timed.has(entry))) {
      throw new Error(`replicaset ${entry.key}: live ${entry.live}, timed ${entry.timed} disagree with the maps`);
    }
    return entry.live;
  }

  private ctx(entry: Entry): ReplicaSetMachineContext {
    return entry.actor.snapshot().context;
  }

  private expectationsPending(entry: Entry): boolean {
    return (entry.actor.snapshot().value as { expectations: string }).expectations === 'pending';
  }

  /** workqueue.Add: nothing to do when the key already waits to be processed by then */
  private enqueue(entry: Entry, at: Micros): void {
    const snap = entry.actor.snapshot();
    const c = snap.context;
    if ((snap.value as { queue: string }).queue === 'queued' && c.dueAt !== null && c.dueAt <= at) return;
    this.update(entry, { type: 'ENQUEUE', at });
  }

  // ---------------------------------------------------------------- informer handlers

  onReplicaSetEvent(host: ControllerHost, type: WatchType, rs: ReplicaSetRecord): void {
    const key = `${rs.meta.namespace}/${rs.meta.name}`;
    let entry = this.entries.get(key);
    if (type === 'deleted') {
      // deleteRS: DeleteExpectations; the queued sync finds it gone
      if (entry) {
        this.update(entry, { type: 'DELETE_EXPECTATIONS' });
        this.dropEntry(entry);
      }
      if (this.checks.delete(key)) {
        this.checksChanged++;
        this.savedChecks = undefined;
      }
      return;
    }
    if (entry && entry.uid !== rs.meta.uid) {
      // a different object under the same name: the old one's memory goes with it
      this.dropEntry(entry);
      entry = undefined;
    }
    if (!entry) entry = this.newEntry(key, rs);
    this.check(rs, entry);
    this.enqueue(entry, host.now);
  }

  onPodEvent(host: ControllerHost, type: WatchType, pod: PodRecord, before?: PodBefore): void {
    const key = `${pod.meta.namespace}/${pod.meta.name}`;
    const oldSet = this.ownerOfPod.get(key);
    const oldOwner = oldSet?.owner;
    if (type === 'deleted') {
      this.index(key, undefined, oldSet);
      if (this.podProblems.delete(key)) this.savedPodProblems = undefined;
      this.kept.delete(key);
      this.observeDeletion(host, pod, key, 'deleted');
      return;
    }
    this.index(key, pod, oldSet);
    this.checkPod(host, pod);
    const ref = controllerOf(pod.meta);
    if (pod.meta.deletionTimestamp !== undefined) {
      // a pod being deleted counts as deleted (updatePod -> deletePod)
      if (type === 'added' || before?.deletionTimestamp === undefined) this.observeDeletion(host, pod, key, 'deleted');
      return;
    }
    if (type === 'added') {
      if (ref) {
        const entry = this.resolveControllerRef(host, pod.meta.namespace, ref);
        if (!entry) return;
        // addPod: CreationObserved, then enqueue
        this.observe(entry, { type: 'CREATION_OBSERVED', count: 1 });
        this.enqueue(entry, host.now);
        return;
      }
      this.enqueueMatching(host, pod);
      return;
    }
    // updated
    if (oldOwner && (!ref || ref.uid !== oldOwner)) {
      const oldEntry = this.entryByUid(oldOwner);
      if (oldEntry) this.enqueue(oldEntry, host.now);
    }
    if (ref) {
      // the pod's set is still oldSet when its owner is the same (index keeps it there)
      const entry = this.resolveControllerRef(host, pod.meta.namespace, ref, oldSet);
      if (!entry) return;
      // host.cluster.replicaSets.get(entry.key), read by resolveControllerRef just now (nothing below changes the map)
      const rs = this.resolvedRs;
      this.enqueue(entry, host.now);
      const wasActive = before ? before.phase !== 'Succeeded' && before.phase !== 'Failed' : true;
      if (wasActive && !isPodActive(pod) && !entry.removed.some((r) => r.key === key)) entry.removed.push({ key, fact: 'phase' });
      // minReadySeconds first: most ReplicaSets have none, and then the conditions need not be read
      if (rs && rs.minReadySeconds > 0 && !(before ? before.conditions.some((c) => c.type === 'Ready' && c.status === 'True') : false) && isPodReady(pod)) {
        // "Add a second to avoid milliseconds skew in AddAfter"
        this.update(entry, { type: 'ENQUEUE_AFTER', at: host.now + rs.minReadySeconds * MICROS_PER_SECOND + MICROS_PER_SECOND });
      }
      return;
    }
    const labelsChanged = before ? JSON.stringify(before.labels) !== JSON.stringify(pod.meta.labels) : true;
    if (labelsChanged || oldOwner) this.enqueueMatching(host, pod);
  }

  /** deletePod: DeletionObserved for the pod's controller, and remember the pod as one to replace. */
  private observeDeletion(host: ControllerHost, pod: PodRecord, key: string, fact: string): void {
    const ref = controllerOf(pod.meta);
    if (!ref) return;
    const entry = this.resolveControllerRef(host, pod.meta.namespace, ref);
    if (!entry) return;
    this.observe(entry, { type: 'DELETION_OBSERVED', key });
    if (!this.deletingNow.has(key) && !entry.removed.some((r) => r.key === key)) entry.removed.push({ key, fact });
    this.enqueue(entry, host.now);
  }

  private observe(entry: Entry, event: ReplicaSetMachineEvent): void {
    if (!this.expectationsPending(entry)) return; // no record, or fulfilled: lowering changes nothing that is read
    const t = this.send(entry, event);
    if (t) entry.lastTransition = t;
  }

  /**
   * resolveControllerRef: a ReplicaSet of that name in the namespace, with that uid.
   * Found by uid first, without making the `ns/name` key: every entry in `byUid` is the one
   * `entries` holds under its key (both are set together in newEntry and dropped together in
   * dropEntry, and an entry is made only where its key holds none), so one found there with the
   * namespace and name asked is the one the key would find. Any other case looks up the key as before;
   * with tally verification on, both ways are taken and must agree.
   */
  private resolveControllerRef(host: ControllerHost, ns: string, ref: OwnerReference, pods?: PodSet): Entry | undefined {
    this.resolvedRs = undefined;
    if (ref.kind !== 'ReplicaSet') return undefined;
    // `pods`: the pod's set in the index; when it is this uid's, its entry is byUid's (see PodSet)
    let byUid: Entry | undefined;
    if (pods !== undefined && pods.owner === ref.uid) {
      byUid = pods.entry;
      if (verifyTallies && byUid !== this.byUid.get(ref.uid)) throw new Error(`replicaset: the pod set of ${ref.uid} has another entry than byUid`);
    } else byUid = this.byUid.get(ref.uid);
    let entry: Entry | undefined;
    if (byUid !== undefined && byUid.name === ref.name && byUid.ns === ns) {
      entry = byUid;
      if (verifyTallies && this.entries.get(`${ns}/${ref.name}`) !== byUid) {
        throw new Error(`replicaset: ${ns}/${ref.name} (${ref.uid}) found by uid is not the entry under its key`);
      }
    } else {
      entry = this.entries.get(`${ns}/${ref.name}`);
      if (!entry || entry.uid !== ref.uid) return undefined;
    }
    const rs = host.cluster.replicaSets.get(entry.key);
    if (rs === undefined) return undefined;
    this.resolvedRs = rs;
    return entry;
  }

  /** how many times `byOwner` was made anew (see `podsOf`) */
  private indexesMade = 0;

  /**
   * `byOwner.get(entry.uid)`, kept on the entry: a set of `byOwner` is never replaced or dropped
   * but with the whole map (rebuildIndexes, restore: `indexesMade` counts them), so one found
   * while the map is the same is still the one it holds. Checked with tally verification on.
   */
  private podsOf(entry: Entry): PodSet | undefined {
    let set = entry.podsMade === this.indexesMade ? entry.pods : undefined;
    if (set === undefined) {
      set = this.byOwner.get(entry.uid);
      if (set !== undefined) {
        entry.pods = set;
        entry.podsMade = this.indexesMade;
      }
    } else if (verifyTallies && set !== this.byOwner.get(entry.uid)) {
      throw new Error(`replicaset ${entry.key}: the pod set kept is not the index's`);
    }
    return set;
  }

  /** the ReplicaSet of the entry the last resolveControllerRef found (undefined when it found none) */
  private resolvedRs: ReplicaSetRecord | undefined;

  private entryByUid(uid: string): Entry | undefined {
    return this.byUid.get(uid);
  }

  /** getPodReplicaSets: the ReplicaSets of the namespace whose selector matches an orphan. */
  private enqueueMatching(host: ControllerHost, pod: PodRecord): void {
    for (const entry of [...(this.byNamespace.get(pod.meta.namespace) ?? [])].sort(byEntryKey)) {
      const rs = host.cluster.replicaSets.get(entry.key);
      if (!rs) continue;
      if (this.check(rs, entry).selector.matches(pod.meta.labels)) this.enqueue(entry, host.now);
    }
  }

  /**
   * `entry`: the ReplicaSet's entry, when the caller has it. The check `checks` holds under the
   * entry's key is kept on the entry while `checks` is unchanged (`checksChanged` counts its
   * changes); one kept for this very record was stored under this record's key, which is the
   * entry's (a record's name and namespace are not changed in place), so it is what the look-up
   * finds. Checked against the look-up with tally verification on.
   */
  private check(rs: ReplicaSetRecord, entry?: Entry): ReplicaSetCheck {
    if (entry !== undefined && entry.checkSeen === this.checksChanged) {
      const c = entry.checked;
      if (isCurrent(c, rs)) {
        if (verifyTallies && this.checks.get(`${rs.meta.namespace}/${rs.meta.name}`) !== c) throw new Error(`replicaset ${entry.key}: the check kept is not the one held`);
        return c.check;
      }
    }
    const key = `${rs.meta.namespace}/${rs.meta.name}`;
    const c = this.checks.get(key);
    // recomputed when the record, its selector, template or spec object changed (apply, patch, scale)
    if (isCurrent(c, rs)) {
      if (entry !== undefined && entry.key === key) {
        entry.checked = c;
        entry.checkSeen = this.checksChanged;
      }
      return c.check;
    }
    const check = checkReplicaSet(rs);
    this.checks.set(key, { rs, selector: rs.selector, template: rs.template, spec: rs.raw.spec, replicas: rs.replicas, check });
    this.checksChanged++;
    this.savedChecks = undefined;
    return check;
  }

  /** changes of `checks` so far (see `check`) */
  private checksChanged = 0;

  private checkPod(host: ControllerHost, pod: PodRecord): void {
    if (this.checkedOwners.has(pod.meta.ownerReferences)) return;
    this.checkedOwners.add(pod.meta.ownerReferences);
    if (pod.meta.ownerReferences.length === 0) {
      if (this.podProblems.size && this.podProblems.delete(podKey(pod))) this.savedPodProblems = undefined;
      return;
    }
    const problems = checkPodOwners(pod, (ns, name, uid) => host.cluster.replicaSets.get(`${ns}/${name}`)?.meta.uid === uid);
    const key = `${pod.meta.namespace}/${pod.meta.name}`;
    if (problems.length) this.podProblems.set(key, problems);
    else if (!this.podProblems.delete(key)) return;
    this.savedPodProblems = undefined;
  }

  // ---------------------------------------------------------------- clock

  nextWake(): Micros | undefined {
    if (this.wakeCache !== null) return this.wakeCache;
    let min: Micros | undefined;
    for (const e of this.timed) {
      const c = this.ctx(e);
      if (c.dueAt !== null && (min === undefined || c.dueAt < min)) min = c.dueAt;
      if (c.resyncAt !== null && (min === undefined || c.resyncAt < min)) min = c.resyncAt;
      if (c.expectedAt !== null && this.expectationsPending(e)) {
        const t = c.expectedAt + EXPECTATIONS_TIMEOUT + 1;
        if (min === undefined || t < min) min = t;
      }
    }
    this.wakeCache = min;
    return min;
  }

  wake(host: ControllerHost): void {
    const now = host.now;
    // timers first: delayed adds and expectations that expire now
    const fired: Entry[] = [];
    for (const e of this.timed) {
      const c = this.ctx(e);
      if ((c.resyncAt !== null && c.resyncAt <= now) || (c.expectedAt !== null && now - c.expectedAt > EXPECTATIONS_TIMEOUT && this.expectationsPending(e))) fired.push(e);
    }
    for (const e of fired.sort(byEntryKey)) {
      const c = this.ctx(e);
      if (c.resyncAt !== null && c.resyncAt <= now) {
        this.update(e, { type: 'RESYNC_DUE' });
        this.update(e, { type: 'ENQUEUE', at: now });
      }
      if (c.expectedAt !== null && this.expectationsPending(e) && now - c.expectedAt > EXPECTATIONS_TIMEOUT) {
        // the simulation syncs at expiry so that the effect shows (upstream: at the next event for it)
        this.update(e, { type: 'ENQUEUE', at: now });
      }
    }
    const due: Entry[] = [];
    for (const e of this.timed) {
      const at = this.ctx(e).dueAt;
      if (at !== null && at <= now) due.push(e);
    }
    due.sort((a, b) => this.ctx(a).dueAt! - this.ctx(b).dueAt! || byEntryKey(a, b));
    for (const entry of due) {
      // a live entry is the one `entries` holds under its key (see `send`)
      if (!entry.live && !this.entries.has(entry.key)) continue;
      const c = this.ctx(entry);
      if (c.dueAt === null || c.dueAt > now) continue;
      this.update(entry, { type: 'DEQUEUE' });
      const err = this.syncReplicaSet(host, entry);
      if (!entry.live && !this.entries.has(entry.key)) continue;
      if (err === undefined) this.update(entry, { type: 'SYNCED' });
      else {
        const t = this.send(entry, { type: 'SYNC_FAILED', now });
        if (t) entry.lastTransition = t;
      }
    }
  }

  // ---------------------------------------------------------------- syncReplicaSet

  /** Returns the error message when the sync failed (the key is then rate-limited). */
  private syncReplicaSet(host: ControllerHost, entry: Entry): string | undefined {
    const rs = host.cluster.replicaSets.get(entry.key);
    if (!rs || rs.meta.uid !== entry.uid) {
      this.update(entry, { type: 'DELETE_EXPECTATIONS' });
      return undefined;
    }
    const check = this.check(rs, entry);
    if (!check.manageable) return undefined;
    const ref = (entry.ref ??= replicaSetRef(rs.meta.namespace, rs.meta.name));

    // SatisfiedExpectations (an expired record counts as satisfied)
    const expiredAt = this.expireIfDue(host, entry);
    const needsSync = !this.expectationsPending(entry);
    if (!needsSync) this.reportPending(host, entry, ref);
    else entry.lastPending = undefined;

    const claimed = this.claimPods(host, rs, check, ref, entry);
    if (claimed.error !== undefined) return claimed.error;
    let filteredPods = claimed.pods;

    let manageErr: string | undefined;
    // what was counted while claiming still holds unless manageReplicas created or deleted pods
    let { terminating, counted } = claimed;
    if (needsSync && rs.meta.deletionTimestamp === undefined) {
      const diff = claimed.count - specReplicas(rs);
      if (diff !== 0) terminating = undefined;
      if (diff > 0 || (diff < 0 && filteredPods)) {
        counted = undefined;
        // the claimed pods before manageReplicas changes any: the ones to rank, and the list calculateStatus counts
        filteredPods ??= this.claimedList(rs.meta.uid, claimed.tally!);
        manageErr = this.manageReplicas(host, entry, rs, claimed.count, filteredPods, ref, expiredAt);
      } else if (diff < 0) {
        // Creating pods: calculateStatus counts the claimed pods as they are after manageReplicas. Those
        // are the counts made while claiming unless one of them changed (its event reaches the tally at
        // once); the tally lists them just before the first does.
        const tally = claimed.tally!;
        const listed = verifyTallies ? this.claimedList(rs.meta.uid, tally) : undefined;
        const joined = tally.watch(() => {
          filteredPods = this.claimedList(rs.meta.uid, tally, joined);
          counted = undefined;
        });
        try {
          manageErr = this.manageReplicas(host, entry, rs, claimed.count, undefined, ref, expiredAt);
        } finally {
          tally.close();
        }
        if (listed) this.verifyCounted(host, rs, listed, filteredPods, counted);
      } else {
        manageErr = this.manageReplicas(host, entry, rs, claimed.count, filteredPods, ref, expiredAt);
      }
    }

    const statusErr = this.updateStatus(host, entry, rs, claimed.count, filteredPods, manageErr, ref, this.terminatingPods(host, rs, check, terminating), counted);
    if (statusErr !== undefined) return statusErr;
    // "Resync the ReplicaSet after MinReadySeconds as a last line of defense to guard against clock-skew."
    // Upstream's sync runs a little after the pod turned ready, so this lands just after the pod
    // becomes available (IsPodAvailable compares strictly); the simulation's sync takes no time,
    // so it adds 1 µs to keep that order.
    const replicas = specReplicas(rs);
    if (manageErr === undefined && rs.minReadySeconds > 0 && rs.status.readyReplicas === replicas && rs.status.availableReplicas !== replicas) {
      this.update(entry, { type: 'ENQUEUE_AFTER', at: host.now + rs.minReadySeconds * MICROS_PER_SECOND + 1 });
    }
    return manageErr;
  }

  /**
   * The pods of one index set, as the cluster has them. Looking each one up
   * in the cluster's map was most of a sync's time at 150,000 pods, so the
   * index keeps the record each pod's last event carried. Those are the
   * cluster's records when every change has been announced, which the
   * simulation's host does at once; a creation or deletion not announced
   * (yet), as a lost or late watch event, leaves the index with another
   * number of pods than the cluster, and the pods are then read from the
   * cluster by key as before.
   */
  private podsIn(host: ControllerHost, index: Map<string, PodRecord> | undefined): PodRecord[] {
    if (!index) return [];
    const all = host.cluster.pods;
    const out: PodRecord[] = [];
    // An array, not the map's iterator: a for-of over an iterator handed back from here
    // allocates a result object per pod (half the allocation of a sync).
    if (this.ownerOfPod.size === all.size) {
      out.length = index.size;
      let i = 0;
      for (const p of index.values()) out[i++] = p;
      return out;
    }
    for (const k of index.keys()) {
      const p = all.get(k);
      if (p) out.push(p);
    }
    return out;
  }

  private expireIfDue(host: ControllerHost, entry: Entry): Micros | undefined {
    if (!this.expectationsPending(entry)) return undefined;
    const c = this.ctx(entry);
    if (c.expectedAt === null) return undefined;
    const t = this.send(entry, { type: 'EXPIRE', now: host.now });
    if (!t) return undefined;
    entry.lastTransition = t;
    return c.expectedAt;
  }

  private reportPending(host: ControllerHost, entry: Entry, ref: ObjectRef): void {
    const c = this.ctx(entry);
    const sig = `${c.add}|${c.del}|${c.expectedAt}`;
    if (entry.lastPending === sig) return;
    entry.lastPending = sig;
    const expiresAt = c.expectedAt === null ? undefined : c.expectedAt + EXPECTATIONS_TIMEOUT;
    const seq = host.decide({
      controller: 'replicaset', action: 'ExpectationsPending', object: ref,
      summary: this.text(`Waiting for ${Math.max(0, c.add)} pod creation(s) and ${Math.max(0, c.del)} deletion(s) to be observed before managing replicas`),
      because: [
        {
          rule: 'SatisfiedExpectations is false: the informer has not yet seen every creation/deletion this controller made, and the expectations are not older than 5m0s',
          values: {
            outstandingAdds: c.add, outstandingDeletes: c.del, expectedDeletions: c.delKeys.slice(0, MAX_LISTED),
            expectationsSetAt: c.expectedAt === null ? null : formatTime(c.expectedAt),
            expireAt: expiresAt === undefined ? null : formatTime(expiresAt), timeout: formatDuration(EXPECTATIONS_TIMEOUT),
          },
        },
      ],
      causes: entry.lastManageSeq ? [entry.lastManageSeq] : [],
      machine: null,
      source: 'replicaset: syncReplicaSet -> expectations.SatisfiedExpectations (pkg/controller/controller_utils.go)',
    });
    void seq;
  }

  // ---------------------------------------------------------------- claimPods

  /**
   * ClaimPods (controller_ref_manager.go ClaimObject for each pod): ours and
   * matching -> claimed; ours and no longer matching -> released (unless the
   * ReplicaSet is being deleted); an orphan that matches and is not being
   * deleted -> adopted (unless the ReplicaSet is being deleted); owned by
   * someone else -> ignored. Adoption and release are PATCHes of the pod.
   * `entry`: the ReplicaSet's (its uid is rs's).
   */
  private claimPods(host: ControllerHost, rs: ReplicaSetRecord, check: ReplicaSetCheck, ref: ObjectRef, entry: Entry): Claimed {
    const deleting = rs.meta.deletionTimestamp !== undefined;
    const uid = rs.meta.uid;
    // Without a PATCH to make, what is claimed is what the running counts hold (tally.ts)
    const tally = this.tallyFor(host, rs, check, entry);
    if (tally && (deleting || tally.unmatched === 0) && !this.orphansToWalk(rs, check, deleting)) {
      const fromTally = this.fromTally(host, rs, tally);
      if (verifyTallies) this.verifyTally(host, rs, check, fromTally);
      return fromTally;
    }
    const walked = this.walkClaims(host, rs, check);
    if (!walked.patches) return { count: walked.mine.length, pods: walked.mine, terminating: walked.terminating, counted: walked.counted };
    const pods = [...this.podsIn(host, this.byOwner.get(uid)), ...this.podsIn(host, this.orphans.get(rs.meta.namespace))].filter(isPodActive);
    pods.sort(byPodName);
    const claimed: PodRecord[] = [];
    const adopted: string[] = [];
    const released: string[] = [];
    let error: string | undefined;
    for (const pod of pods) {
      const owner = controllerOf(pod.meta);
      const matches = check.selector.matches(pod.meta.labels);
      if (owner) {
        if (owner.uid !== rs.meta.uid) continue;
        if (matches) { claimed.push(pod); continue; }
        if (deleting) continue;
        if (!host.apiCall('replicaset', 'patch', 'pods', podRef(pod.meta.namespace, pod.meta.name))) {
          error ??= `patch pods ${pod.meta.namespace}/${pod.meta.name} (release) failed`;
          continue;
        }
        pod.meta.ownerReferences = pod.meta.ownerReferences.filter((r) => r.uid !== rs.meta.uid);
        this.setRawOwners(pod);
        released.push(pod.meta.name);
        host.updatePod(pod);
        continue;
      }
      if (deleting || !matches || pod.meta.deletionTimestamp !== undefined) continue;
      if (!host.apiCall('replicaset', 'patch', 'pods', podRef(pod.meta.namespace, pod.meta.name))) {
        error ??= `patch pods ${pod.meta.namespace}/${pod.meta.name} (adopt) failed`;
        continue;
      }
      const cref = controllerRefTo(rs) as unknown as OwnerReference;
      pod.meta.ownerReferences = [...pod.meta.ownerReferences, cref];
      this.setRawOwners(pod);
      adopted.push(pod.meta.name);
      claimed.push(pod);
      host.updatePod(pod);
    }
    const selectorText = formatSelector(rs.selector);
    if (adopted.length) {
      host.decide({
        controller: 'replicaset', action: 'PodsAdopted', object: ref,
        summary: `Adopted ${adopted.length} orphan pod(s) matching ${selectorText}`,
        because: [{ rule: 'an orphan pod (no controller ownerReference) that matches the selector and is not being deleted is adopted', values: { selector: selectorText, pods: adopted.slice(0, MAX_LISTED) } }],
        source: 'replicaset: claimPods -> PodControllerRefManager.ClaimPods/AdoptPod (pkg/controller/controller_ref_manager.go)',
        details: { pods: adopted },
      });
    }
    if (released.length) {
      host.decide({
        controller: 'replicaset', action: 'PodsReleased', object: ref,
        summary: `Released ${released.length} pod(s) that no longer match ${selectorText}`,
        because: [{ rule: 'a pod this ReplicaSet controls whose labels no longer match the selector is released (its ownerReference removed)', values: { selector: selectorText, pods: released.slice(0, MAX_LISTED) } }],
        source: 'replicaset: claimPods -> PodControllerRefManager.ClaimPods/ReleasePod (pkg/controller/controller_ref_manager.go)',
        details: { pods: released },
      });
    }
    return error === undefined ? { count: claimed.length, pods: claimed } : { count: claimed.length, pods: claimed, error };
  }

  /**
   * The candidates: the active pods of the namespace that could be ours (owned by us, or orphans).
   * Their order matters only to the PATCHes (adoption, release: which call fails first, the order
   * of the lists); what is claimed without one is a set. So the candidates are listed and sorted
   * by name only when some pod is to be adopted or released (`patches`).
   * The same walk counts terminatingPods' pods (the pods it reads are the ones walked here) and
   * calculateStatus's counts of the claimed pods.
   */
  private walkClaims(host: ControllerHost, rs: ReplicaSetRecord, check: ReplicaSetCheck): { mine: PodRecord[]; patches: boolean; terminating: number; counted: StatusCounter } {
    const deleting = rs.meta.deletionTimestamp !== undefined;
    const uid = rs.meta.uid;
    const selector = check.selector;
    const mine: PodRecord[] = [];
    let patches = false;
    let terminating = 0;
    const counted = new StatusCounter(rs, host.now);
    // terminating pods are counted among the owned ones only (FilterClaimedPods)
    const visit = (pod: PodRecord, owned: boolean): void => {
      if (!isPodActive(pod)) {
        if (owned && isTerminating(pod) && selector.matches(pod.meta.labels)) terminating++;
        return;
      }
      const owner = controllerOf(pod.meta);
      if (!owner) patches ||= !deleting && selector.matches(pod.meta.labels);
      else if (owner.uid !== uid) return;
      else if (selector.matches(pod.meta.labels)) {
        mine.push(pod);
        counted.add(pod);
      } else patches ||= !deleting;
    };
    for (const pod of this.podsIn(host, this.byOwner.get(uid))) visit(pod, true);
    for (const pod of this.podsIn(host, this.orphans.get(rs.meta.namespace))) visit(pod, false);
    return { mine, patches, terminating, counted };
  }

  /**
   * The ReplicaSet's running counts, made from its pods in the index when
   * there are none yet or its selector or template changed; none when the
   * index may not have every pod's latest record (see `podsIn`) or the host
   * says pod events may lag (the counts hold only what the events told).
   */
  private tallyFor(host: ControllerHost, rs: ReplicaSetRecord, check: ReplicaSetCheck, entry?: Entry): PodTally | undefined {
    if (this.ownerOfPod.size !== host.cluster.pods.size || this.options.readsEveryPod?.()) return undefined;
    const uid = rs.meta.uid;
    const index = entry !== undefined ? this.podsOf(entry) : this.byOwner.get(uid);
    let tally = index?.tally;
    if (tally && tally.check === check) return tally;
    // none for a ReplicaSet without pods (a third are old revisions scaled to 0): the walk reads nothing
    if (!index || index.size === 0) {
      if (tally) index!.tally = undefined;
      return undefined;
    }
    // a tally made again (new selector or template) writes every pod's class over the old one's
    tally = new PodTally(check, new StatusCounter(rs, host.now), this.podClasses);
    // not a for-of over entries: an array per pod (every pod of the cluster goes through here once)
    const made = tally;
    index.forEach((pod, key) => made.add(key, pod));
    index.tally = tally;
    return tally;
  }

  private dropTally(uid: string): void {
    const index = this.byOwner.get(uid);
    const tally = index?.tally;
    if (!tally) return;
    index!.tally = undefined;
    tally.forget(index!.values());
  }

  /**
   * Whether an orphan of the namespace makes the claim need the full walk:
   * one to adopt, or one whose controller is this ReplicaSet (the index then
   * lags the pod, and the walk decides as it always did).
   */
  private orphansToWalk(rs: ReplicaSetRecord, check: ReplicaSetCheck, deleting: boolean): boolean {
    const orphans = this.orphans.get(rs.meta.namespace);
    if (!orphans || orphans.size === 0) return false;
    for (const pod of orphans.values()) {
      if (!isPodActive(pod)) continue;
      const owner = controllerOf(pod.meta);
      if (owner ? owner.uid === rs.meta.uid : !deleting && check.selector.matches(pod.meta.labels)) return true;
    }
    return false;
  }

  private fromTally(host: ControllerHost, rs: ReplicaSetRecord, tally: PodTally): Claimed {
    const counted = new StatusCounter(rs, host.now);
    let pods: PodRecord[] | undefined;
    if (rs.minReadySeconds === 0) {
      // IsPodAvailable: with minReadySeconds 0 every ready pod is available
      counted.fullyLabeled = tally.labelled;
      counted.ready = counted.available = tally.ready;
    } else {
      // availability depends on now: the claimed pods are counted
      pods = this.claimedList(rs.meta.uid, tally);
      for (const p of pods) counted.add(p);
    }
    return { count: tally.claimed, pods, terminating: tally.terminating, counted, tally };
  }

  /** the claimed pods (but `skip`), in the index's order (the order the walk lists them in) */
  private claimedList(uid: string, tally: PodTally, skip?: Set<string>): PodRecord[] {
    const out: PodRecord[] = [];
    const index = this.byOwner.get(uid);
    if (index) for (const [key, pod] of index) if (tally.isClaimed(pod) && !skip?.has(key)) out.push(pod);
    return out;
  }

  /** after creations: the counts kept (or the list made) are what counting the claim-time list gives now */
  private verifyCounted(host: ControllerHost, rs: ReplicaSetRecord, listed: PodRecord[], list: PodRecord[] | undefined, counted: StatusCounter | undefined): void {
    const recount = new StatusCounter(rs, host.now);
    for (const p of listed) recount.add(p);
    const want = [listed.map(podKey), recount.fullyLabeled, recount.ready, recount.available];
    let have: unknown[];
    if (counted) have = [listed.map(podKey), counted.fullyLabeled, counted.ready, counted.available];
    else {
      const c = new StatusCounter(rs, host.now);
      for (const p of list!) c.add(p);
      have = [list!.map(podKey), c.fullyLabeled, c.ready, c.available];
    }
    if (JSON.stringify(want) !== JSON.stringify(have)) {
      throw new Error(`replicaset ${rs.meta.namespace}/${rs.meta.name} at ${formatTime(host.now)}: after creating pods ${JSON.stringify(have)}, counting the claimed pods ${JSON.stringify(want)}`);
    }
  }

  private verifyTally(host: ControllerHost, rs: ReplicaSetRecord, check: ReplicaSetCheck, got: Claimed): void {
    const w = this.walkClaims(host, rs, check);
    const want = { patches: w.patches, pods: w.mine.map(podKey), terminating: w.terminating, full: w.counted.fullyLabeled, ready: w.counted.ready, available: w.counted.available };
    const list = got.pods ?? this.claimedList(rs.meta.uid, got.tally!);
    const have = { patches: false, pods: list.map(podKey), terminating: got.terminating, full: got.counted!.fullyLabeled, ready: got.counted!.ready, available: got.counted!.available };
    if (list.length !== got.count || JSON.stringify(want) !== JSON.stringify(have)) {
      throw new Error(`replicaset ${rs.meta.namespace}/${rs.meta.name} at ${formatTime(host.now)}: running counts ${JSON.stringify(have)} (${got.count} claimed), every pod read ${JSON.stringify(want)}`);
    }
  }

  private setRawOwners(pod: PodRecord): void {
    const md = pod.raw.metadata && typeof pod.raw.metadata === 'object' ? (pod.raw.metadata as Record<string, unknown>) : {};
    pod.raw = { ...pod.raw, metadata: { ...md, ownerReferences: pod.meta.ownerReferences.map((r) => ({ ...r })) } };
  }

  // ---------------------------------------------------------------- manageReplicas

  /** `filteredPods`: the `active` claimed pods, listed whenever their number is not spec.replicas */
  private manageReplicas(
    host: ControllerHost, entry: Entry, rs: ReplicaSetRecord, active: number, filteredPods: PodRecord[] | undefined, ref: ObjectRef, expiredAt: Micros | undefined,
  ): string | undefined {
    const replicas = specReplicas(rs);
    const diff = active - replicas;
    const burst = host.config.burstReplicas;
    const base: Check[] = [];
    if (expiredAt !== undefined) {
      base.push({ rule: 'expectations set more than 5m0s ago count as satisfied (ExpectationsTimeout)', values: { setAt: formatTime(expiredAt), timeout: formatDuration(EXPECTATIONS_TIMEOUT) } });
    }
    if (diff < 0) return this.createPods(host, entry, rs, active, replicas, Math.min(-diff, burst), ref, base);
    entry.removed = [];
    if (diff > 0) return this.deletePods(host, entry, rs, filteredPods!, replicas, Math.min(diff, burst), ref, base);
    return undefined;
  }

  private scaleCause(host: ControllerHost, entry: Entry, ref: ObjectRef): number[] {
    const out: number[] = [];
    for (const fact of ['scaled', 'applied', 'created']) {
      const seq = host.recall(ref, fact);
      if (seq !== undefined && seq > entry.lastManageSeq) out.push(seq);
    }
    return out;
  }

  private createPods(
    host: ControllerHost, entry: Entry, rs: ReplicaSetRecord, active: number, replicas: number, count: number, ref: ObjectRef, base: Check[],
  ): string | undefined {
    const ns = rs.meta.namespace;
    // ExpectCreations before any call
    const expectT = this.send(entry, { type: 'EXPECT', add: count, delKeys: [], now: host.now });
    const created: PodRecord[] = [];
    let batches: number[] = [];
    let failed = 0;
    let failedBatch: number | undefined;
    let error: string | undefined;
    // slowStartBatch(count, SlowStartInitialBatchSize, createPod)
    let remaining = count;
    for (let batch = Math.min(remaining, SLOW_START_INITIAL_BATCH_SIZE); batch > 0; batch = Math.min(2 * batch, remaining)) {
      batches.push(batch);
      let batchFailures = 0;
      for (let i = 0; i < batch; i++) {
        const { name, uid } = this.nextName(host, entry, rs);
        if (!host.apiCall('replicaset', 'create', 'pods', podRef(ns, name))) {
          batchFailures++;
          error ??= `create pods ${ns}/${name} failed (injected fault)`;
          continue;
        }
        // nextName made the entry's naming for this ReplicaSet's name
        const pod = podFromTemplate(rs, name, uid, host.now, entry.naming!.prefix);
        created.push(pod);
        host.createPod(pod);
      }
      failed += batchFailures;
      if (batchFailures > 0) { failedBatch = batches.length; break; }
      remaining -= batch;
    }
    // "Any skipped pods that we never attempted to start shouldn't be expected."
    const skipped = count - created.length;
    if (skipped > 0) this.observe(entry, { type: 'CREATION_OBSERVED', count: skipped });

    const replacedPods = entry.removed.splice(0, Math.min(created.length, entry.removed.length));
    const causes = [
      ...replacedPods.map((r) => host.recall(podRef(nsOf(r.key), r.key.slice(r.key.indexOf('/') + 1)), r.fact)).filter((s): s is number => s !== undefined),
      ...this.scaleCause(host, entry, ref),
    ];
    if (created.length === 0) return error;
    const because: Check[] = [
      ...base,
      { rule: 'fewer active pods than spec.replicas: create the difference (manageReplicas)', values: { activePods: active, replicas, diff: replicas - active } },
    ];
    if (count < replicas - active) because.push({ rule: 'at most burstReplicas pods are created in one sync', values: { burstReplicas: host.config.burstReplicas, creating: count } });
    because.push({
      rule: SLOW_START_RULE,
      values: { batches: (batches = exact(batches)), created: created.length, ...(failedBatch !== undefined ? { failedBatch, failed, skipped: skipped - failed } : {}) },
    });
    if (replacedPods.length) because.push({ rule: 'pods of this ReplicaSet went away since the last sync', values: { pods: replacedPods.map((r) => r.key).slice(0, MAX_LISTED) } });
    const names = created.map((p) => p.meta.name);
    const seq = host.decide({
      controller: 'replicaset', action: 'PodsCreated', object: ref,
      summary: this.text(`Created ${created.length} pod(s) (need ${replicas}, had ${active}; slow-start batches ${batches.join(', ')}${failedBatch !== undefined ? `; batch ${failedBatch} failed, ${skipped} not created` : ''})`),
      because: exact(because), causes, machine: expectT, source: `${SOURCE} manageReplicas -> slowStartBatch`,
      details: { pods: names, batches, ...(failedBatch !== undefined ? { failed, skipped } : {}) },
    });
    if (expectT) entry.lastTransition = { ...expectT, seq };
    entry.lastManageSeq = seq;
    for (const p of created) host.remember(podRef(ns, p.meta.name), 'created', seq);
    return error;
  }

  /** A fresh name for the next pod (generateName + 5 seeded characters; a taken name draws again). */
  private nextName(host: ControllerHost, entry: Entry, rs: ReplicaSetRecord): { name: string; uid: string } {
    // made once per entry: its uid is the ReplicaSet's (syncReplicaSet checks), and its name is checked here
    let naming = entry.naming;
    if (naming === undefined || naming.name !== rs.meta.name) {
      naming = entry.naming = { name: rs.meta.name, seed: `${this.options.seed ?? ''}${rs.meta.uid}`, prefix: podNamePrefix(rs.meta.name) };
    }
    const { seed, prefix } = naming;
    for (;;) {
      const n = entry.counter++;
      const name = generateName(prefix, seed, n);
      // a name in use, or used earlier in the run (after a restart the counter starts again), draws again
      const taken = host.cluster.pods.has(`${rs.meta.namespace}/${name}`) || host.recall(podRef(rs.meta.namespace, name), 'created') !== undefined;
      if (!taken) return { name, uid: generateUid(seed, n) };
    }
  }

  private rankingSettings(host: ControllerHost): RankingSettings {
    const gates = host.config.featureGates;
    return {
      rankDoubledUp: host.behaviour.version.minor >= RANKS_DOUBLED_UP_SINCE_MINOR,
      podDeletionCost: gates.PodDeletionCost ?? host.behaviour.podDeletionCostDefault,
      logarithmicScaleDown: gates.LogarithmicScaleDown ?? host.behaviour.logarithmicScaleDownDefault,
      now: host.now,
    };
  }

  /** getIndirectlyRelatedPods: pods of every ReplicaSet with the same controller (none without one). */
  private relatedPods(host: ControllerHost, rs: ReplicaSetRecord): PodRecord[] {
    const owner = controllerOf(rs.meta);
    if (!owner) return [];
    const seen = new Set<string>();
    const out: PodRecord[] = [];
    for (const other of host.cluster.replicaSets.values()) {
      const o = controllerOf(other.meta);
      if (!o || o.uid !== owner.uid || other.meta.namespace !== rs.meta.namespace) continue;
      const sel = this.check(other).selector;
      for (const pod of host.cluster.pods.values()) {
        if (pod.meta.namespace !== rs.meta.namespace || seen.has(pod.meta.uid) || !sel.matches(pod.meta.labels)) continue;
        seen.add(pod.meta.uid);
        out.push(pod);
      }
    }
    return out;
  }

  private deletePods(
    host: ControllerHost, entry: Entry, rs: ReplicaSetRecord, filteredPods: PodRecord[], replicas: number, count: number, ref: ObjectRef, base: Check[],
  ): string | undefined {
    const ns = rs.meta.namespace;
    // claimPods keeps the pods in no particular order; the ranking is given them by name, as it always was
    filteredPods = [...filteredPods].sort(byPodName);
    const settings = this.rankingSettings(host);
    const related = settings.rankDoubledUp && count < filteredPods.length ? this.relatedPods(host, rs) : [];
    const choice = getPodsToDelete(filteredPods, related, count, settings);
    const keys = choice.deleted.map((d) => `${ns}/${d.name}`);
    // ExpectDeletions(podKeys) before any call
    const expectT = this.send(entry, { type: 'EXPECT', add: 0, delKeys: keys, now: host.now });
    const deleted: string[] = [];
    let error: string | undefined;
    for (const d of choice.deleted) {
      const key = `${ns}/${d.name}`;
      if (!host.apiCall('replicaset', 'delete', 'pods', podRef(ns, d.name))) {
        // "Decrement the expected number of deletes because the informer won't observe this deletion"
        this.observe(entry, { type: 'DELETION_OBSERVED', key });
        error ??= `delete pods ${key} failed (injected fault)`;
        continue;
      }
      this.deletingNow.add(key);
      try {
        host.deletePod(d.pod);
      } finally {
        this.deletingNow.delete(key);
      }
      deleted.push(d.name);
    }
    const because: Check[] = [
      ...base,
      { rule: 'more active pods than spec.replicas: delete the difference (manageReplicas)', values: { activePods: filteredPods.length, replicas, diff: filteredPods.length - replicas } },
    ];
    if (count < filteredPods.length - replicas) because.push({ rule: 'at most burstReplicas pods are deleted in one sync', values: { burstReplicas: host.config.burstReplicas, deleting: count } });
    const order = settings.rankDoubledUp ? 'controller.ActivePodsWithRanks' : 'controller.ActivePods';
    if (!choice.sorted) {
      because.push({ rule: 'every active pod is deleted, so they are not ranked (getPodsToDelete)', values: { pods: choice.deleted.map((d) => d.name).slice(0, MAX_LISTED) } });
    } else {
      for (const d of choice.deleted) {
        const why = choice.whyDeleted.get(d.name)!;
        because.push({ rule: `${d.name} before ${why.versus} (the first pod kept): ${why.text}`, values: { pod: d.name, kept: why.versus, ranking: why.rule, ...why.values } });
      }
    }
    const causes = this.scaleCause(host, entry, ref);
    if (deleted.length === 0) return error;
    const seq = host.decide({
      controller: 'replicaset', action: 'PodsDeleted', object: ref,
      summary: `Deleted ${deleted.length} pod(s) (need ${replicas}, had ${filteredPods.length}; ranked by ${order})`,
      because: exact(because), causes, machine: expectT,
      source: `${SOURCE} manageReplicas -> getPodsToDelete (${order}, pkg/controller/controller_utils.go)`,
      details: { pods: exact(deleted), kept: choice.kept.map((k) => k.name).slice(0, MAX_LISTED), rules: rulesText(settings) },
    });
    if (expectT) entry.lastTransition = { ...expectT, seq };
    entry.lastManageSeq = seq;
    for (const name of deleted) {
      host.remember(podRef(ns, name), 'deleted', seq);
      this.kept.delete(`${ns}/${name}`);
    }
    if (choice.sorted) {
      const shared: KeptBySync = { rs: ref, seq, why: choice.whyKept };
      for (const k of choice.kept) this.kept.set(`${ns}/${k.name}`, shared);
    }
    return error;
  }

  // ---------------------------------------------------------------- status

  /**
   * DeploymentReplicaSetTerminatingReplicas: FilterTerminatingPods (deletionTimestamp set, not
   * terminal) then FilterClaimedPods (controlled by this ReplicaSet and matching its selector);
   * undefined when the gate is off.
   */
  private terminatingPods(host: ControllerHost, rs: ReplicaSetRecord, check: ReplicaSetCheck, counted: number | undefined): number | undefined {
    const gate = host.config.featureGates.DeploymentReplicaSetTerminatingReplicas;
    if (!gate) return undefined;
    if (counted !== undefined) return counted;
    const tally = this.tallyFor(host, rs, check);
    if (tally && !verifyTallies) return tally.terminating;
    let n = 0;
    for (const p of this.podsIn(host, this.byOwner.get(rs.meta.uid))) {
      if (isTerminating(p) && check.selector.matches(p.meta.labels)) n++;
    }
    if (tally && tally.terminating !== n) {
      throw new Error(`replicaset ${rs.meta.namespace}/${rs.meta.name} at ${formatTime(host.now)}: running count of terminating pods ${tally.terminating}, every pod read ${n}`);
    }
    return n;
  }

  /** `filteredPods`: the `active` claimed pods, listed whenever they are not `counted` */
  private updateStatus(
    host: ControllerHost, entry: Entry, rs: ReplicaSetRecord, active: number, filteredPods: PodRecord[] | undefined, manageErr: string | undefined, ref: ObjectRef,
    terminating: number | undefined, counted?: StatusCounter,
  ): string | undefined {
    const next = counted
      ? statusFromCounts(rs, active, manageErr, host.now, terminating, counted)
      : calculateStatus(rs, filteredPods!, manageErr, host.now, terminating);
    if (!statusNeedsUpdate(rs, next)) return undefined;
    next.observedGeneration = rs.meta.generation ?? 0;
    // statusUpdateRetries = 1: two attempts
    let ok = false;
    for (let attempt = 0; attempt <= 1 && !ok; attempt++) ok = host.apiCall('replicaset', 'update', 'replicasets', ref);
    if (!ok) return `update replicasets ${entry.key} status failed (injected fault)`;
    const changes = statusChanges(rs.status, next);
    rs.status = next;
    host.updateReplicaSetStatus?.(rs);
    const because: Check[] = [
      { rule: 'status counts the active pods this ReplicaSet owns (calculateStatus)', values: { replicas: next.replicas, fullyLabeledReplicas: next.fullyLabeledReplicas, readyReplicas: next.readyReplicas, availableReplicas: next.availableReplicas, minReadySeconds: rs.minReadySeconds, ...(next.terminatingReplicas !== undefined ? { terminatingReplicas: next.terminatingReplicas } : {}) } },
    ];
    if (Object.keys(changes).length) because.push({ rule: 'changed fields', values: changes });
    const failure = next.conditions.find((c) => c.type === 'ReplicaFailure');
    if (failure) because.push({ rule: 'manageReplicas failed: ReplicaFailure condition set', values: { reason: failure.reason ?? '', message: failure.message ?? '' } });
    const seq = host.decide({
      controller: 'replicaset', action: 'ReplicaSetStatusUpdated', object: ref,
      summary: this.text(`Status: ${next.replicas} replicas, ${next.readyReplicas} ready, ${next.availableReplicas} available${failure ? ` (ReplicaFailure: ${failure.reason})` : ''}`),
      because: exact(because), causes: entry.lastManageSeq ? [entry.lastManageSeq] : [], machine: null,
      source: 'replicaset: syncReplicaSet -> calculateStatus / updateReplicaSetStatus (pkg/controller/replicaset/replica_set_utils.go)',
      // a status is never changed once written (the next write replaces it): without conditions to
      // show with text times, the trace keeps the written status itself
      details: { status: next.conditions.length === 0 ? next : { ...next, conditions: next.conditions.map((c) => ({ ...c, lastTransitionTime: formatTime(c.lastTransitionTime) })) } },
    });
    host.remember(ref, 'status', seq);
    return undefined;
  }

  /**
   * One string for each distinct summary text: status and creation summaries repeat ("Status: 3 replicas,
   * 3 ready, 3 available" for many ReplicaSets, many times), and a template literal is kept as a tree of
   * string pieces (~200 bytes for a status summary; the trace keeps ~17,000 at 5,000 nodes).
   * Bounded, so that a long run of distinct texts cannot grow the map without end.
   */
  private text(s: string): string {
    const known = this.texts.get(s);
    if (known !== undefined) return known;
    if (this.texts.size < MAX_TEXTS) this.texts.set(s, s);
    return s;
  }

  // ---------------------------------------------------------------- views

  /**
   * One view per ReplicaSet, sorted by key. The webview asks for them after every step (14,120 at
   * 5,000 nodes): the sorted order and each unchanged entry's view (its id string included) are
   * given again instead of built again.
   */
  machines(): MachineView[] {
    const definition = (machineDefinition ??= replicaSetMachine.toJSON());
    const sorted = (this.sortedEntries ??= [...this.entries.values()].sort(byEntryKey));
    const out: MachineView[] = new Array(sorted.length);
    for (let i = 0; i < sorted.length; i++) {
      const e = sorted[i];
      out[i] = e.view = machineView(e.view, e.actor.id, e.actor.state(), definition, e.lastTransition);
    }
    if (verifyTallies) {
      const fresh = [...this.entries.values()].sort(byEntryKey);
      if (fresh.length !== out.length) throw new Error(`replicaset: ${out.length} machine views kept for ${fresh.length} ReplicaSets`);
      fresh.forEach((e, i) => {
        const v = out[i];
        if (v.id !== `replicaset/${e.key}` || v.state !== e.actor.state() || v.lastTransition !== e.lastTransition || v.definition !== definition) throw new Error(`replicaset: the machine view kept at ${i} is not ${e.key}'s as built anew`);
      });
    }
    return out;
  }

  /** Everything found wrong with the ReplicaSets and their pods' ownerReferences. */
  problems(): Problem[] {
    const out: Problem[] = [];
    for (const key of [...this.checks.keys()].sort()) out.push(...this.checks.get(key)!.check.problems);
    for (const key of [...this.podProblems.keys()].sort()) out.push(...this.podProblems.get(key)!);
    return out;
  }

  whyNot(host: ControllerHost, object: ObjectRef): Explanation['whyNot'] {
    const out: Explanation['whyNot'] = [];
    const [kind, ns, name] = object.split('/');
    if (kind === 'Pod' && ns && name) {
      const stored = this.kept.get(`${ns}/${name}`);
      const k = stored && keptOutcome(stored, `${ns}/${name}`);
      if (k && host.cluster.pods.has(`${ns}/${name}`)) {
        out.push({
          what: `deleted by the scale-down of ${k.rs} (decision ${k.seq})`,
          check: { rule: `kept: ${k.outcome.versus} (the last pod deleted) ranked before it: ${k.outcome.text}`, values: { ranking: k.outcome.rule, deletedInstead: k.outcome.versus, ...k.outcome.values } },
        });
      }
      for (const p of this.podProblems.get(`${ns}/${name}`) ?? []) out.push({ what: 'adopted or counted by a ReplicaSet', check: { rule: p.message, values: { code: p.code } } });
      return out;
    }
    if (kind === 'ReplicaSet' && ns && name) {
      const rs = host.cluster.replicaSets.get(`${ns}/${name}`);
      if (!rs) return out;
      const check = this.check(rs);
      for (const p of check.problems) {
        if (p.severity === 'error') out.push({ what: 'pods created or deleted for this ReplicaSet', check: { rule: p.message, values: { code: p.code } } });
      }
      const entry = this.entries.get(`${ns}/${name}`);
      if (!entry) return out;
      const c = this.ctx(entry);
      if (this.expectationsPending(entry) && c.expectedAt !== null) {
        out.push({
          what: 'manageReplicas (creating or deleting pods)',
          check: { rule: 'expectations are not satisfied: creations/deletions this controller made are not yet observed', values: { outstandingAdds: c.add, outstandingDeletes: c.del } },
          wouldFireAt: formatTime(c.expectedAt + EXPECTATIONS_TIMEOUT + 1),
        });
      }
      if (entry.actor.state().includes('queue.backoff') && c.dueAt !== null) {
        out.push({
          what: 'the next sync',
          check: { rule: 'the last sync failed: the key is requeued with the workqueue backoff (5ms doubling per consecutive failure)', values: { failures: c.failures } },
          wouldFireAt: formatTime(c.dueAt),
        });
      }
      if (c.resyncAt !== null) {
        out.push({
          what: 'availableReplicas counted',
          check: { rule: 'pods count as available minReadySeconds after they became ready; the ReplicaSet is synced again then', values: { minReadySeconds: rs.minReadySeconds } },
          wouldFireAt: formatTime(c.resyncAt),
        });
      }
    }
    return out;
  }

  // ---------------------------------------------------------------- checkpoints

  save(): Saved {
    // checks and problem lists are replaced, never changed: a checkpoint shares them
    return {
      entries: [...this.entries.values()].map(savedEntry),
      kept: [...this.kept].flatMap(([k, v]): [string, KeptRecord][] => {
        const r = keptOutcome(v, k);
        return r ? [[k, { ...r, outcome: { ...r.outcome } }]] : [];
      }),
      checks: (this.savedChecks ??= [...this.checks].map(([k, c]) => [k, c.check])),
      podProblems: (this.savedPodProblems ??= [...this.podProblems]),
      checked: this.checkedOwners,
    };
  }

  restore(saved: unknown, host: ControllerHost): void {
    const s = saved as Saved;
    // the indexes are made again below: the tallies go with them, not one by one with their entries
    this.byOwner = new Map();
    this.indexesMade++;
    this.podClasses.clear();
    for (const e of [...this.entries.values()]) this.dropEntry(e);
    this.entries.clear();
    this.timed.clear();
    this.byUid.clear();
    this.byNamespace.clear();
    this.checks.clear();
    this.checksChanged++;
    this.savedChecks = undefined;
    this.podProblems.clear();
    this.rebuildIndexes(host);
    for (const se of s.entries) {
      const rs = host.cluster.replicaSets.get(se.key);
      if (!rs) continue;
      const st = se.snapshot as PlainState;
      this.newEntry(se.key, rs, { ...se, snapshot: table().state(st.value as never, copyContext(st.context)) });
    }
    this.kept = new Map(s.kept.map(([k, v]) => [k, { ...v, outcome: { ...v.outcome } }]));
    // The checks and the pods' problems as the live run had them then. Checking every pod again would
    // also report owners deleted after a pod was checked, which the live run does not check again (and
    // cost every pod a look-up); a checkpoint copied as JSON has lost the set, and every pod is checked.
    if (s.checks) {
      const none = { rs: undefined, selector: undefined, template: undefined, spec: undefined, replicas: undefined };
      this.checks = new Map(s.checks.map(([k, check]) => [k, { ...none, check }]));
      this.checksChanged++;
      this.savedChecks = s.checks;
    }
    if (s.checked instanceof WeakSet && s.podProblems) {
      this.checkedOwners = s.checked;
      this.podProblems = new Map(s.podProblems);
      this.savedPodProblems = s.podProblems;
    } else {
      this.checkedOwners = new WeakSet();
      this.savedPodProblems = undefined;
      for (const pod of host.cluster.pods.values()) this.checkPod(host, pod);
    }
    this.wakeCache = null;
  }
}

interface PlainState {
  value: unknown;
  context: ReplicaSetMachineContext;
}

function copyContext(c: ReplicaSetMachineContext): ReplicaSetMachineContext {
  return { ...c, delKeys: [...c.delKeys] };
}

/**
 * An entry as a checkpoint keeps it. Nothing here is changed in place: the
 * machine's state is immutable plain data (pureMachine.ts: a transition makes
 * a new one, its context and delKeys included), `lastTransition` and the
 * `removed` items are replaced, never edited, and checkpoints never mutate
 * what they hold (restore copies the context and the list). So the checkpoint
 * shares them with the entry instead of copying, and an entry whose every
 * part is the same as at the last checkpoint (most ReplicaSets between two
 * checkpoints) shares that checkpoint's entry; comparing by identity is exact.
 */
function savedEntry(e: Entry): SavedEntry {
  const snapshot = e.actor.snapshot();
  const last = e.lastSaved;
  if (
    last && last.snapshot === snapshot && last.counter === e.counter && last.lastManageSeq === e.lastManageSeq &&
    last.lastPending === e.lastPending && last.lastTransition === e.lastTransition &&
    last.removed.length === e.removed.length && last.removed.every((r, i) => r === e.removed[i])
  ) return last;
  const saved: SavedEntry = {
    key: e.key, uid: e.uid, snapshot, counter: e.counter, removed: e.removed.slice(), lastManageSeq: e.lastManageSeq,
    ...(e.lastPending !== undefined ? { lastPending: e.lastPending } : {}),
    ...(e.lastTransition ? { lastTransition: e.lastTransition } : {}),
  };
  e.lastSaved = saved;
  return saved;
}

function rulesText(s: RankingSettings): string[] {
  const out = ['unassigned < assigned', 'Pending < Unknown < Running', 'not ready < ready'];
  if (s.podDeletionCost) out.push('lower pod-deletion-cost first');
  if (s.rankDoubledUp) out.push('doubled up on a node first');
  out.push(s.logarithmicScaleDown ? 'ready for less time first (log2 buckets, then UID)' : 'ready for less time first');
  out.push('more restarts first');
  out.push(s.logarithmicScaleDown ? 'newer first (log2 buckets, then UID)' : 'newer first');
  return out;
}

/** a list the trace keeps, at its length (a push onto an array reserves room for 16 more) */
const exact = <T>(list: T[]): T[] => list.slice();
const byKey = (a: [string, unknown], b: [string, unknown]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);

const byPodName = (a: PodRecord, b: PodRecord) => (a.meta.name < b.meta.name ? -1 : a.meta.name > b.meta.name ? 1 : 0);
const byEntryKey = (a: Entry, b: Entry) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
