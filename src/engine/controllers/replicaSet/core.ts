/**
 * The ReplicaSet controller's memory and the operations every part of it uses: the
 * ReplicaSets' entries and their machines (one transition table for all, entry.ts), the pod
 * index by controller uid (so that a sync does not scan every pod of the cluster) with its
 * running counts (tally.ts), and the checks of ReplicaSets and pods' ownerReferences.
 * The parts of the controller are functions named after upstream's (replica_set.go), in files
 * of those names, that take this memory as upstream's methods take their receiver `rsc`.
 */
import type { ControllerHost } from '../controllerHost';
import { drain } from '../controller';
import type { Check, MachineTransition } from '../../trace/decision';
import type { Problem } from '../../problems';
import type { OwnerReference, PodRecord, ReplicaSetRecord } from '../../model/types';
import type { Micros } from '../../model/time';
import { replicaSetGuardRules, type ReplicaSetMachineContext, type ReplicaSetMachineEvent } from './machine';
import type { GuardResult } from '../../machines/guardTrace';
import { attachGuards, guardChecks } from '../../machines/guardChecks';
import type { PlainState as MachineState } from '../../machines/contextTable';
import { controllerOf, indexOwnerOf, podKey } from './podUtil';
import { StatusCounter } from './status';
import { PodTally } from './tally';
import { checkPodOwners, checkReplicaSet, type ReplicaSetCheck } from './validate';
import { isCurrent, machineTable, nsOf, PodSet, StatusEchoes, type CachedCheck, type Entry, type KeptBySync, type KeptRecord, type SavedEntry } from './entry';

/** distinct summary texts shared (see ReplicaSetCore.text) */
const MAX_TEXTS = 10_000;

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
  /**
   * For tests: every sync that uses the running counts also reads every pod as before and throws
   * when the two differ, the kept look-ups are checked against the maps, labels objects read are
   * frozen (an edit in place throws), and machines() builds its views anew beside the ones it keeps.
   */
  verifyTallies?: boolean;
  /**
   * A send the ReplicaSet machine refuses throws (the simulation's checking mode, the fuzzer, the
   * rigs; verifyTallies implies it), but for the events sent to ask it (`ASKS`): a controller that
   * sends an event its machine does not take has lost track of its own state.
   */
  strictMachines?: boolean;
  /**
   * For tests (SimulationOptions.checks.restoreIndexRebuild): every index a restore takes over
   * (restoreIndexes.ts) is compared with the one `rebuildIndexes` makes, order included; a difference throws.
   */
  checkRestoredIndexes?: boolean;
  /**
   * For tests (SimulationOptions.checks.replicaSetEntries, and with verifyTallies): each checkpoint
   * that saves only the entries marked changed (markChanged) also compares every other entry with
   * what it shares from the previous checkpoint; an entry written without being marked throws.
   */
  checkSavedEntries?: boolean;
  /** For tests (SimulationOptions.checks.replicaSetEchoes, and with verifyTallies): an echo dropped unsynced is synced after all and must decide nothing (statusEcho.ts) */
  checkEchoes?: boolean;
}

/** events sent to ask the machine, whose refusal is its answer (a guard said no), not a lost track */
const ASKS: ReadonlySet<string> = new Set(['SATISFIED_EXPECTATIONS', 'DELETE_EXPECTATIONS']);

export class ReplicaSetCore {
  entries = new Map<string, Entry>();
  /** the entries sorted by key, for machines(); null when an entry came or went since */
  sortedEntries: Entry[] | null = null;
  /**
   * The entries the last checkpoint kept, in the order of `entries` (each at its `savedAt`); null
   * when an entry came or went since (addEntry, dropEntry) or none was saved: the next checkpoint
   * then reads every entry (checkpoint.ts saveEntries).
   */
  savedEntries: SavedEntry[] | null = null;
  /** the entries written since the last checkpoint (markChanged), which the next one saves again; the others it shares */
  changedEntries: Entry[] = [];
  /** pod key -> the set of `byOwner` or `orphans` that holds it (its `owner`: the uid of the pod's controller, '' for an orphan) */
  ownerOfPod = new Map<string, PodSet>();
  /** controller uid -> pod key -> the record the pod's last event carried (see `podsIn`), and the running counts */
  byOwner = new Map<string, PodSet>();
  /** namespace -> pod key -> record, for pods without a controller */
  orphans = new Map<string, PodSet>();
  /** ReplicaSet checks, by key; recomputed when the record object changes */
  checks = new Map<string, CachedCheck>();
  podProblems = new Map<string, Problem[]>();
  /**
   * The ownerReferences arrays checked (checkPod checks a pod again only when its record gets
   * another array). Keyed by the array rather than the record: a step back puts back copies of
   * records, and the copies share their arrays. Checkpoints hold this set itself, not a copy: every
   * array of a pod in a checkpoint had been checked when it was saved (start and every pod event
   * check), and arrays checked later belong to records made later, which a restored state does not
   * hold; so after a restore the set answers for every pod as it did in the live run at that time.
   * That needs every record made after the checkpoint to carry an array made after it: the
   * controller's own (podTemplate, claimPods) are; a scenario event's list is the same object in
   * every run, so the world gives an event's pod an array of its own (apply.ts ownOwnerReferences).
   * A hand-off (handOff.ts) gives the set to a second simulation, which is right for the same reason.
   */
  checkedOwners = new WeakSet<OwnerReference[]>();
  /** what the last checkpoint kept of `checks` and `podProblems`, while they are unchanged */
  savedChecks: [string, CachedCheck][] | undefined;
  savedPodProblems: [string, Problem[]][] | undefined;
  /** pods that survived a scale-down: which rule kept them */
  kept = new Map<string, KeptRecord | KeptBySync>();
  /** keys this controller is deleting right now (not "removed" pods to replace) */
  deletingNow = new Set<string>();
  wakeCache: Micros | undefined | null = null;
  /** the keys a wake took and had not synced when it yielded (processDueKeys): the next wake syncs them first */
  unsynced: Entry[] | null = null;
  /** the echoes of the controller's own status writes (statusEcho.ts) */
  echoes = new StatusEchoes();
  /** entries with something scheduled (a due key, a delayed add, pending expectations) */
  timed = new Set<Entry>();
  /** entries by controller uid and by namespace */
  byUid = new Map<string, Entry>();
  byNamespace = new Map<string, Set<Entry>>();
  /** the tallies' classes of the pods whose class is not the usual one (tally.ts) */
  podClasses = new Map<PodRecord, number>();
  /** see `text` */
  texts = new Map<string, string>();
  /** the test switch `verifyTallies` (see ReplicaSetControllerOptions) */
  readonly verify: boolean;
  /** see ReplicaSetControllerOptions.strictMachines */
  readonly strict: boolean;
  constructor(readonly options: ReplicaSetControllerOptions = {}) {
    this.verify = options.verifyTallies === true;
    this.strict = this.verify || options.strictMachines === true;
  }

  newEntry(key: string, rs: ReplicaSetRecord, saved?: SavedEntry): Entry {
    const actor = machineTable().instance(`replicaset/${key}`, saved ? (saved.snapshot as MachineState<ReplicaSetMachineContext>) : undefined);
    const slash = key.indexOf('/');
    // every field written here, in one order (measured faster at 5,000 nodes than entries built in several ways)
    const entry: Entry = {
      key,
      ns: key.slice(0, slash),
      name: key.slice(slash + 1),
      uid: rs.meta.uid,
      naming: undefined,
      ref: undefined,
      statusId: undefined,
      actor,
      counter: saved?.counter ?? 0,
      removed: saved ? [...saved.removed] : [],
      lastManageSeq: saved?.lastManageSeq ?? 0,
      lastPending: saved?.lastPending,
      lastTransition: saved?.lastTransition ? saved.lastTransition : undefined,
      lastSaved: undefined,
      savedAt: -1,
      changed: false,
      live: true,
      timed: false,
      checked: undefined,
      checkSeen: -1,
      pods: undefined,
      podsMade: -1,
      view: undefined,
    };
    return this.addEntry(entry);
  }

  /** Puts `entry` (made by newEntry, or taken over on a restore: checkpoint.ts takenOver) under its key, uid and namespace. */
  addEntry(entry: Entry): Entry {
    const key = entry.key;
    this.entries.set(key, entry);
    this.sortedEntries = null;
    this.savedEntries = null;
    this.byUid.set(entry.uid, entry);
    this.pointPods(entry);
    let ns = this.byNamespace.get(nsOf(key));
    if (!ns) this.byNamespace.set(nsOf(key), (ns = new Set()));
    ns.add(entry);
    this.noteTimers(entry);
    this.wakeCache = null;
    return entry;
  }

  /**
   * Points the entry's pod set (`byOwner`'s) at the entry, and keeps it on the entry for podsOf, which would
   * look it up again (the start and a restore put every entry in after the index: 14,120 look-ups by uid in
   * the first sync at 5,000 nodes, each a cache miss).
   */
  pointPods(entry: Entry): void {
    const pods = this.byOwner.get(entry.uid);
    if (pods === undefined) return;
    pods.entry = entry;
    entry.pods = pods;
    entry.podsMade = this.indexesMade;
  }

  dropEntry(entry: Entry): void {
    this.entries.delete(entry.key);
    this.sortedEntries = null;
    this.savedEntries = null;
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
  noteTimers(entry: Entry): void {
    const c = this.ctx(entry);
    if (c.dueAt !== null || c.resyncAt !== null || (c.expectedAt !== null && this.expectationsPending(entry))) {
      if (!entry.timed) {
        entry.timed = true;
        this.timed.add(entry);
      }
    } else this.untime(entry);
  }

  untime(entry: Entry): void {
    if (!entry.timed) return;
    entry.timed = false;
    this.timed.delete(entry);
  }

  /** `index` for every pod into empty maps (a restore does this for every pod: kept to the inserts) */
  rebuildIndexes(host: ControllerHost): void {
    drain(this.rebuildIndexesInPieces(host, Infinity));
  }

  /** rebuildIndexes, yielding after every `perPiece` pods (the controller's start in pieces) */
  *rebuildIndexesInPieces(host: ControllerHost, perPiece: number): Generator<void, void, void> {
    this.indexesMade++;
    this.podClasses.clear();
    const ownerOfPod = (this.ownerOfPod = new Map());
    const byOwner = (this.byOwner = new Map());
    const orphans = (this.orphans = new Map());
    let n = 0;
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
      if (++n % perPiece === 0) yield;
    }
  }

  /**
   * `oldSet`: the set that holds the pod (`ownerOfPod`), when the caller has just read it.
   * The set a pod's key points to is the one of its owner (`byOwner`, or `orphans` for its
   * namespace): sets are made when missing and never dropped but all at once (rebuildIndexes).
   */
  index(key: string, pod: PodRecord | undefined, oldSet = this.ownerOfPod.get(key)): void {
    const now = indexOwnerOf(pod);
    const old = oldSet?.owner;
    if (this.verify && oldSet !== undefined && (oldSet !== (old === '' ? this.orphans.get(nsOf(key)) : this.byOwner.get(old!)) || !oldSet.has(key))) {
      throw new Error(`replicaset: the index's set for pod ${key} is not its owner's (${old})`);
    }
    if (old === now) {
      // the same owner: keep the latest record (a pod created again under its name is a new record)
      if (pod && now === '') oldSet!.set(key, pod);
      else if (pod && now !== undefined) {
        const set = oldSet!;
        const held = set.get(key)!;
        this.tallyOf(set)?.replace(key, held, pod);
        // most updates change the record in place: it is the one held already
        if (held !== pod) set.set(key, pod);
      }
      return;
    }
    const map = now === '' ? this.orphans : this.byOwner;
    const k = now === '' ? nsOf(key) : now;
    let set = now !== undefined && pod ? map.get(k!) : undefined;
    // running counts only for controllers' pods, never for orphans
    const was = old ? this.tallyOf(oldSet!) : undefined;
    if (was) was.remove(key, oldSet!.get(key)!);
    if (now && pod && set !== undefined) this.tallyOf(set)?.add(key, pod);
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

  /**
   * `entry.live`: `entries` holds it under its key (newEntry sets it there, dropEntry takes it out).
   * `traced`: the transition carries the checks of the guards the machine evaluated
   * (machines/guardChecks.ts), for the decision that records it; an object given receives them
   * whether or not the machine took one (not asked for the informer's many observations).
   */
  send(entry: Entry, event: ReplicaSetMachineEvent, traced?: boolean | { checks: readonly Check[] }): MachineTransition | null {
    this.wakeCache = null;
    this.markChanged(entry);
    let t: MachineTransition | null;
    if (traced) {
      const trace: GuardResult[] = [];
      const context = entry.actor.snapshot().context;
      t = entry.actor.send(event, trace);
      const checks = guardChecks(trace, event, replicaSetGuardRules, context);
      if (typeof traced === 'object') traced.checks = checks;
      if (t) attachGuards(t, checks);
    } else t = entry.actor.send(event);
    if (!t) this.refused(entry, event);
    if (this.isLive(entry)) this.noteTimers(entry);
    return t;
  }

  private refused(entry: Entry, event: ReplicaSetMachineEvent): void {
    if (this.strict && !ASKS.has(event.type)) throw new Error(`replicaset ${entry.key}: the machine refused ${event.type} in ${entry.actor.state()}`);
  }

  /** `send` when the transition is not kept (none is made) */
  update(entry: Entry, event: ReplicaSetMachineEvent): void {
    this.wakeCache = null;
    this.markChanged(entry);
    // the workqueue's events are sent where the machine is known to take them (DeleteExpectations
    // may find no record)
    if (!entry.actor.advance(event)) this.refused(entry, event);
    if (this.isLive(entry)) this.noteTimers(entry);
  }

  /**
   * To be called wherever a part of the entry a checkpoint keeps is written (its machine, counter,
   * removed pods, lastManageSeq, lastPending, lastTransition: savedEntry): the next checkpoint saves
   * only these again. A write left unmarked keeps the previous checkpoint's entry; with
   * `checkSavedEntries` the next save compares every entry and throws.
   */
  markChanged(entry: Entry): void {
    if (entry.changed) return;
    entry.changed = true;
    this.changedEntries.push(entry);
  }

  /** `entry.live`, checked against `entries` and `timed` with tally verification on */
  isLive(entry: Entry): boolean {
    if (this.verify && (entry.live !== (this.entries.get(entry.key) === entry) || entry.timed !== this.timed.has(entry))) {
      throw new Error(`replicaset ${entry.key}: live ${entry.live}, timed ${entry.timed} disagree with the maps`);
    }
    return entry.live;
  }

  ctx(entry: Entry): ReplicaSetMachineContext {
    return entry.actor.snapshot().context;
  }

  expectationsPending(entry: Entry): boolean {
    return (entry.actor.snapshot().value as { expectations: string }).expectations === 'pending';
  }

  /** workqueue.Add: nothing to do when the key already waits to be processed by then */
  enqueue(entry: Entry, at: Micros): void {
    const snap = entry.actor.snapshot();
    const c = snap.context;
    if ((snap.value as { queue: string }).queue === 'queued' && c.dueAt !== null && c.dueAt <= at) return;
    this.update(entry, { type: 'ENQUEUE', at });
  }

  observe(entry: Entry, event: ReplicaSetMachineEvent): void {
    if (!this.expectationsPending(entry)) return; // no record, or fulfilled: lowering changes nothing that is read
    const t = this.send(entry, event);
    this.markChanged(entry);
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
  resolveControllerRef(host: ControllerHost, ns: string, ref: OwnerReference, pods?: PodSet): Entry | undefined {
    this.resolvedRs = undefined;
    if (ref.kind !== 'ReplicaSet') return undefined;
    // `pods`: the pod's set in the index; when it is this uid's, its entry is byUid's (see PodSet)
    let byUid: Entry | undefined;
    if (pods !== undefined && pods.owner === ref.uid) {
      byUid = pods.entry;
      if (this.verify && byUid !== this.byUid.get(ref.uid)) throw new Error(`replicaset: the pod set of ${ref.uid} has another entry than byUid`);
    } else byUid = this.byUid.get(ref.uid);
    let entry: Entry | undefined;
    if (byUid !== undefined && byUid.name === ref.name && byUid.ns === ns) {
      entry = byUid;
      if (this.verify && this.entries.get(`${ns}/${ref.name}`) !== byUid) {
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
  indexesMade = 0;
  /**
   * `byOwner.get(entry.uid)`, kept on the entry: a set of `byOwner` is never replaced or dropped
   * but with the whole map (rebuildIndexes, restore: `indexesMade` counts them), so one found
   * while the map is the same is still the one it holds. Checked with tally verification on.
   */
  podsOf(entry: Entry): PodSet | undefined {
    let set = entry.podsMade === this.indexesMade ? entry.pods : undefined;
    if (set === undefined) {
      set = this.byOwner.get(entry.uid);
      if (set !== undefined) {
        entry.pods = set;
        entry.podsMade = this.indexesMade;
      }
    } else if (this.verify && set !== this.byOwner.get(entry.uid)) {
      throw new Error(`replicaset ${entry.key}: the pod set kept is not the index's`);
    }
    return set;
  }

  /** the ReplicaSet of the entry the last resolveControllerRef found (undefined when it found none) */
  resolvedRs: ReplicaSetRecord | undefined;
  entryByUid(uid: string): Entry | undefined {
    return this.byUid.get(uid);
  }

  /**
   * `entry`: the ReplicaSet's entry, when the caller has it. The check `checks` holds under the
   * entry's key is kept on the entry while no check of `checks` is replaced or dropped (`checksChanged`
   * counts those: a check added under a new key changes no other key's); one kept for this very record was stored under this record's key, which is the
   * entry's (a record's name and namespace are not changed in place), so it is what the look-up
   * finds. Checked against the look-up with tally verification on.
   */
  check(rs: ReplicaSetRecord, entry?: Entry): ReplicaSetCheck {
    if (entry !== undefined && entry.checkSeen === this.checksChanged) {
      const c = entry.checked;
      if (isCurrent(c, rs)) {
        if (this.verify && this.checks.get(`${rs.meta.namespace}/${rs.meta.name}`) !== c)
          throw new Error(`replicaset ${entry.key}: the check kept is not the one held`);
        return c.check;
      }
    }
    // the entry's key is the record's (syncs and events find the entry by it), and a string the maps have hashed already
    const key = entry !== undefined ? entry.key : `${rs.meta.namespace}/${rs.meta.name}`;
    if (this.verify && key !== `${rs.meta.namespace}/${rs.meta.name}`)
      throw new Error(`replicaset ${key}: checked for the record of ${rs.meta.namespace}/${rs.meta.name}`);
    const held = this.checks.get(key);
    // recomputed when the selector, template, spec object or replicas changed (apply, patch, scale: entry.ts isCurrent)
    let c: CachedCheck;
    if (isCurrent(held, rs)) c = held;
    else {
      c = { selector: rs.selector, template: rs.template, spec: rs.raw.spec, replicas: rs.replicas, check: checkReplicaSet(rs) };
      this.checks.set(key, c);
      // a check under a key that had none leaves every check an entry keeps as it is (one kept is its own key's, and a
      // key loses its check only by a change counted here or in a delete): the start's 14,120 keep theirs for the first sync
      if (held !== undefined) this.checksChanged++;
      this.savedChecks = undefined;
    }
    if (entry !== undefined) {
      entry.checked = c;
      entry.checkSeen = this.checksChanged;
    }
    return c.check;
  }

  /** checks of `checks` replaced or dropped so far, and the map replaced (see `check`) */
  checksChanged = 0;
  checkPod(host: ControllerHost, pod: PodRecord): void {
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
  podsIn(host: ControllerHost, index: Map<string, PodRecord> | undefined): PodRecord[] {
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

  /**
   * The ReplicaSet's running counts, made from its pods in the index when
   * there are none yet or its selector or template changed; none when the
   * index may not have every pod's latest record (see `podsIn`) or the host
   * says pod events may lag (the counts hold only what the events told).
   */
  tallyFor(host: ControllerHost, rs: ReplicaSetRecord, check: ReplicaSetCheck, entry?: Entry): PodTally | undefined {
    if (this.ownerOfPod.size !== host.cluster.pods.size || this.options.readsEveryPod?.()) return undefined;
    const uid = rs.meta.uid;
    const index = entry !== undefined ? this.podsOf(entry) : this.byOwner.get(uid);
    let tally = index !== undefined ? this.tallyOf(index) : undefined;
    if (tally && tally.check === check) return tally;
    // none for a ReplicaSet without pods (a third are old revisions scaled to 0): the walk reads nothing
    if (!index || index.size === 0) {
      if (tally) index!.tally = undefined;
      return undefined;
    }
    // a tally made again (new selector or template) writes every pod's class over the old one's
    tally = new PodTally(check, new StatusCounter(rs, host.now), this.podClasses, this.verify);
    // not a for-of over entries: an array per pod (every pod of the cluster goes through here once)
    const made = tally;
    index.forEach((pod, key) => made.add(key, pod));
    index.tally = tally;
    index.tallyMade = this.talliesMade;
    return tally;
  }

  /**
   * How many times every tally was made void at once (a restore: checkpoint.ts, restoreIndexes.ts). A restore clears
   * `podClasses` and undoes Ready writes in place, so no tally made before it counts right; marking each of the
   * 14,120 sets at 5,000 nodes was a pass over every one of them, this is one increment.
   */
  talliesMade = 0;

  /** The set's running counts, unless made before the last restore (then dropped here). */
  tallyOf(set: PodSet): PodTally | undefined {
    const tally = set.tally;
    if (tally === undefined || set.tallyMade === this.talliesMade) return tally;
    set.tally = undefined;
    return undefined;
  }

  dropTally(uid: string): void {
    const index = this.byOwner.get(uid);
    const tally = index !== undefined ? this.tallyOf(index) : undefined;
    if (!tally) return;
    index!.tally = undefined;
    tally.forget(index!.values());
  }

  /** the claimed pods (but `skip`), in the index's order (the order the walk lists them in) */
  claimedList(uid: string, tally: PodTally, skip?: Set<string>): PodRecord[] {
    const out: PodRecord[] = [];
    const index = this.byOwner.get(uid);
    if (index) for (const [key, pod] of index) if (tally.isClaimed(pod) && !skip?.has(key)) out.push(pod);
    return out;
  }

  /**
   * One string for each distinct summary text: status and creation summaries repeat ("Status: 3 replicas,
   * 3 ready, 3 available" for many ReplicaSets, many times), and a template literal is kept as a tree of
   * string pieces (~200 bytes for a status summary; the trace keeps ~17,000 at 5,000 nodes).
   * Bounded, so that a long run of distinct texts cannot grow the map without end.
   */
  text(s: string): string {
    const known = this.texts.get(s);
    if (known !== undefined) return known;
    if (this.texts.size < MAX_TEXTS) this.texts.set(s, s);
    return s;
  }
}
