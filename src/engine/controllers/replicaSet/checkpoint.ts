/**
 * The ReplicaSet controller's memory in a checkpoint, and back.
 */
import type { ControllerHost } from '../controllerHost';
import type { Problem } from '../../problems';
import type { OwnerReference, ReplicaSetRecord } from '../../model/types';
import type { ReplicaSetMachineContext } from './machine';
import { keptOutcome, machineTable, type CachedCheck, type Entry, type KeptRecord, type SavedEntry } from './entry';
import type { ReplicaSetCore } from './core';
import type { RestoreFrom } from '../controller';
import { takeOverIndexes } from './restoreIndexes';
import { sameKeysInOrder } from '../../model/sharedKeys';

export interface Saved {
  /** shared with the previous checkpoint when no entry changed (saveEntries): never edited */
  entries: SavedEntry[];
  kept: [string, KeptRecord][];
  /** the checks and the pods' problems as they were (restored as they are, not made again: see `restore`) */
  checks?: [string, CachedCheck][];
  podProblems?: [string, Problem[]][];
  /** the controller's `checkedOwners` (the set itself; lost when the checkpoint is copied as JSON) */
  checked?: WeakSet<OwnerReference[]>;
}

export function saveController(rsc: ReplicaSetCore): Saved {
  // checks and problem lists are replaced, never changed: a checkpoint shares them
  return {
    entries: saveEntries(rsc),
    kept: [...rsc.kept].flatMap(([k, v]): [string, KeptRecord][] => {
      const r = keptOutcome(v, k);
      return r ? [[k, { ...r, outcome: { ...r.outcome } }]] : [];
    }),
    checks: (rsc.savedChecks ??= [...rsc.checks]),
    podProblems: (rsc.savedPodProblems ??= [...rsc.podProblems]),
    checked: rsc.checkedOwners,
  };
}

/** The parts between two yields: the indexes, the entries (ENTRY_CHUNK at a time), the checks and the pods' problems. */
export function* restoreController(rsc: ReplicaSetCore, saved: unknown, host: ControllerHost, from?: RestoreFrom): Generator<void, void, void> {
  const s = saved as Saved;
  // the indexes are made again or taken over below: the tallies go with them, not one by one with their entries
  rsc.byOwner = new Map();
  rsc.indexesMade++;
  rsc.savedEntries = null;
  rsc.changedEntries = [];
  rsc.podClasses.clear();
  for (const e of [...rsc.entries.values()]) rsc.dropEntry(e);
  rsc.entries.clear();
  rsc.timed.clear();
  rsc.byUid.clear();
  rsc.byNamespace.clear();
  rsc.checks.clear();
  rsc.checksChanged++;
  rsc.savedChecks = undefined;
  rsc.podProblems.clear();
  // the controller that ran until now has the live cluster's index (the same class: names are unique)
  const previous = from?.previous.name === 'replicaset' ? (from.previous as unknown as ReplicaSetCore) : undefined;
  if (previous !== undefined && from !== undefined) {
    const made = takeOverIndexes(rsc, previous, host, from);
    yield;
    yield* takeOverEntries(rsc, previous, s.entries, host);
    for (const set of made) set.entry = rsc.byUid.get(set.owner);
    if (rsc.options.checkRestoredIndexes) checkPointers(rsc);
  } else {
    // in parts too: the run-ahead's simulation is started so (makeInSlices.ts), and 150,000 pods were a block of 140-200 ms
    yield* rsc.rebuildIndexesInPieces(host, ENTRY_CHUNK);
    let n = 0;
    for (const se of s.entries) {
      const rs = host.cluster.replicaSets.get(se.key);
      if (rs) restoredEntry(rsc, se, rs);
      if (++n % ENTRY_CHUNK === 0) yield;
    }
  }
  yield;
  rsc.kept = new Map(s.kept.map(([k, v]) => [k, { ...v, outcome: { ...v.outcome } }]));
  // The checks and the pods' problems as the live run had them then. Checking every pod again would
  // also report owners deleted after a pod was checked, which the live run does not check again (and
  // cost every pod a look-up); a checkpoint copied as JSON has lost the set, and every pod is checked.
  // Each check is used again while the record under its key has the selector, template, spec and replicas it was
  // made from (entry.ts isCurrent): a record put back is a copy sharing them unless it changed since.
  if (s.checks && previous !== undefined && previous.savedChecks === s.checks) {
    // unchanged since the checkpoint kept them: the live checks
    rsc.checks = previous.checks;
    previous.checks = new Map();
    rsc.checksChanged++;
    rsc.savedChecks = s.checks;
  } else if (s.checks) {
    rsc.checks = previous !== undefined ? takeOverChecks(previous, s.checks) : new Map(s.checks);
    rsc.checksChanged++;
    rsc.savedChecks = s.checks;
  }
  yield;
  if (s.checked instanceof WeakSet && s.podProblems) {
    rsc.checkedOwners = s.checked;
    rsc.podProblems = new Map(s.podProblems);
    rsc.savedPodProblems = s.podProblems;
  } else {
    rsc.checkedOwners = new WeakSet();
    rsc.savedPodProblems = undefined;
    for (const pod of host.cluster.pods.values()) rsc.checkPod(host, pod);
  }
  rsc.wakeCache = null;
}

/** Entries taken over between two yields of a restore in parts (9,371 of 14,120 written into were 18-40 ms at 5,000 nodes). */
const ENTRY_CHUNK = 4096;

/**
 * The checks of a restore, from the controller that ran until then: the checkpoint's (checks are
 * replaced, never edited, so a key whose live check is the one the checkpoint kept keeps it). While
 * the live map holds the checkpoint's keys in its order (no ReplicaSet came or went since), it is
 * taken over and only the keys whose check changed since are written; else a new map in the
 * checkpoint's order. A jump back over the outage at 5,000 nodes kept 14,022 of the 14,120 checks,
 * which a new map made anew.
 */
function takeOverChecks(previous: ReplicaSetCore, saved: readonly [string, CachedCheck][]): Map<string, CachedCheck> {
  const live = previous.checks;
  // the previous controller is dropped after the restore; it must not go on editing this map
  previous.checks = new Map();
  previous.savedChecks = undefined;
  if (!sameKeysInOrder(live, saved.length, (i) => saved[i][0])) return new Map(saved);
  // setting a key the map holds keeps its place, also while it is iterated
  let i = 0;
  for (const [key, c] of live) {
    const kept = saved[i++][1];
    if (c !== kept) live.set(key, kept);
  }
  return live;
}

/**
 * The entry of `se` made anew. The machine's state is immutable plain data (see savedEntry): the
 * entry takes the checkpoint's own, and the checkpoint's entry stays what the next checkpoint keeps
 * while nothing changes (copying every state made all 14,120 entries new to every checkpoint after a
 * step back). A state that is not the table's (no text) is made again from its value.
 */
function restoredEntry(rsc: ReplicaSetCore, se: SavedEntry, rs: ReplicaSetRecord): void {
  const st = se.snapshot as PlainState;
  if (typeof st.text === 'string') rsc.newEntry(se.key, rs, se).lastSaved = se;
  else rsc.newEntry(se.key, rs, { ...se, snapshot: machineTable().state(st.value as never, copyContext(st.context)) });
}

/**
 * The entries of a restore from the controller that ran until then: its maps (by key, uid and
 * namespace) become the restored controller's, each entry unchanged since the checkpoint stays in
 * them (takenOver), one that changed is replaced by the checkpoint's, one made since is dropped. A
 * one-pass step back at 5,000 nodes changes a few of the 14,120 entries; putting all of them into
 * new maps was a third of the controller's restore. The maps' order then differs from the
 * checkpoint's, which nothing decided reads (wakes sort what they take from `timed`, a namespace's
 * entries are sorted when read, machines() sorts).
 */
function* takeOverEntries(rsc: ReplicaSetCore, previous: ReplicaSetCore, saved: readonly SavedEntry[], host: ControllerHost): Generator<void, void, void> {
  rsc.entries = previous.entries;
  rsc.byUid = previous.byUid;
  rsc.byNamespace = previous.byNamespace;
  // an entry unchanged since the checkpoint is timed as it was then (its machine's context says), and stays so
  rsc.timed = previous.timed;
  // the previous controller is dropped after the restore; it must not go on editing these maps
  previous.entries = new Map();
  previous.byUid = new Map();
  previous.byNamespace = new Map();
  previous.timed = new Set();
  let visited = 0;
  for (let i = 0; i < saved.length; i++) {
    if (i % ENTRY_CHUNK === ENTRY_CHUNK - 1) yield;
    const se = saved[i];
    const rs = host.cluster.replicaSets.get(se.key);
    if (!rs) continue;
    visited++;
    const live = rsc.entries.get(se.key);
    if (live !== undefined && live.lastSaved === se && live.uid === rs.meta.uid && unchangedSince(live, se)) {
      // its pod set is the one it points at and that points at it (takeOverIndexes), its place in `timed` kept
      takenOver(live);
      continue;
    }
    if (live !== undefined && live.uid === rs.meta.uid) {
      writtenInto(rsc, live, se);
      continue;
    }
    if (live !== undefined) rsc.dropEntry(live);
    restoredEntry(rsc, se, rs);
  }
  if (rsc.entries.size === visited) return;
  // entries of ReplicaSets the checkpoint did not hold (made since, or gone at the checkpoint)
  const keep = new Set<string>();
  for (const se of saved) if (host.cluster.replicaSets.has(se.key)) keep.add(se.key);
  for (const e of [...rsc.entries.values()]) if (!keep.has(e.key)) rsc.dropEntry(e);
}

/**
 * The live entry of a ReplicaSet changed since the checkpoint (the same uid), made what
 * restoredEntry would make of `se`, in place: it stays under its key, uid and namespace, where
 * dropping it and adding a new one moved it in three maps. A jump back over an outage at 5,000
 * nodes changes 9,371 of the 14,120 entries.
 */
function writtenInto(rsc: ReplicaSetCore, e: Entry, se: SavedEntry): void {
  const st = se.snapshot as PlainState;
  const plain = typeof st.text === 'string';
  e.actor = machineTable().instance(e.actor.id, plain ? (se.snapshot as never) : machineTable().state(st.value as never, copyContext(st.context)));
  e.counter = se.counter;
  e.removed = [...se.removed];
  e.lastManageSeq = se.lastManageSeq;
  e.lastPending = se.lastPending;
  e.lastTransition = se.lastTransition ? se.lastTransition : undefined;
  e.lastSaved = plain ? se : undefined;
  takenOver(e);
  rsc.noteTimers(e);
}

interface PlainState {
  value: unknown;
  text?: string;
  context: ReplicaSetMachineContext;
}

function copyContext(c: ReplicaSetMachineContext): ReplicaSetMachineContext {
  return { ...c, delKeys: [...c.delKeys] };
}

/**
 * An entry as a checkpoint keeps it. Nothing here is changed in place: the
 * machine's state is immutable plain data (machines/contextTable.ts: a transition makes
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
  if (last && unchangedSince(e, last)) return last;
  const saved: SavedEntry = {
    key: e.key,
    uid: e.uid,
    snapshot,
    counter: e.counter,
    removed: e.removed.slice(),
    lastManageSeq: e.lastManageSeq,
    ...(e.lastPending !== undefined ? { lastPending: e.lastPending } : {}),
    ...(e.lastTransition ? { lastTransition: e.lastTransition } : {}),
  };
  e.lastSaved = saved;
  return saved;
}

/**
 * The entries a checkpoint keeps, in the order of `entries`: the previous checkpoint's array with
 * only the entries marked changed since saved again (ReplicaSetCore.markChanged), or that array
 * itself when none was. A few hundred of 14,120 change between two of the outage hour's
 * checkpoints at 5,000 nodes, and reading every entry to find them was most of the controller's
 * save. After an entry came or went, or a restore, every entry is read (and numbered) again.
 */
function saveEntries(rsc: ReplicaSetCore): SavedEntry[] {
  const last = rsc.savedEntries;
  const changed = rsc.changedEntries;
  let out: SavedEntry[];
  if (last !== null) {
    if (changed.length === 0) out = last;
    else {
      const copy = last.slice();
      for (const e of changed) {
        e.changed = false;
        copy[e.savedAt] = savedEntry(e);
      }
      out = copy;
    }
    if (rsc.options.checkSavedEntries || rsc.verify) checkSavedEntries(rsc, out);
  } else {
    const all = new Array<SavedEntry>(rsc.entries.size);
    let i = 0;
    for (const e of rsc.entries.values()) {
      e.changed = false;
      e.savedAt = i;
      all[i++] = savedEntry(e);
    }
    out = all;
  }
  if (changed.length > 0) rsc.changedEntries = [];
  rsc.savedEntries = out;
  return out;
}

/** What a save of every entry would have kept: each entry's own saved entry, unchanged since (savedEntry would return it). */
function checkSavedEntries(rsc: ReplicaSetCore, out: readonly SavedEntry[]): void {
  if (out.length !== rsc.entries.size) throw new Error(`replicaset: ${out.length} entries saved of ${rsc.entries.size}`);
  let i = 0;
  for (const e of rsc.entries.values()) {
    const se = out[i++];
    if (se !== e.lastSaved || se.key !== e.key || !unchangedSince(e, se))
      throw new Error(`replicaset ${e.key}: the entry changed since the last checkpoint without being marked (markChanged)`);
  }
}

/** Whether every part of `e` a checkpoint keeps is the same as in `last` (by identity: see savedEntry). */
function unchangedSince(e: Entry, last: SavedEntry): boolean {
  return (
    last.snapshot === e.actor.snapshot() &&
    last.counter === e.counter &&
    last.lastManageSeq === e.lastManageSeq &&
    last.lastPending === e.lastPending &&
    last.lastTransition === e.lastTransition &&
    last.removed.length === e.removed.length &&
    last.removed.every((r, i) => r === e.removed[i])
  );
}

/**
 * The live controller's entry of a ReplicaSet unchanged since the checkpoint, for the restored
 * controller: what newEntry would make of the checkpoint's entry (the same machine state, counter,
 * removed pods and last transition), keeping its actor and its machine view (given again while
 * the state and transition are the same) instead of 14,120 entries made anew on every restore at
 * 5,000 nodes. What the entry keeps for the controller that held it is cleared as newEntry leaves it, but what the
 * restore takes over with it: its pod set (the same index) and its place in `timed` (the same map; noteTimers after a change).
 */
function takenOver(e: Entry): Entry {
  e.naming = undefined;
  e.ref = undefined;
  e.live = true;
  e.checked = undefined;
  e.checkSeen = -1;
  return e;
}

/**
 * What a restore that took the entries over leaves as newEntry and a rebuilt index would (SimulationChecks.restoreIndexRebuild):
 * each set of a ReplicaSet points at its entry, each entry's kept set is the index's, `timed` holds the entries its machine times.
 */
function checkPointers(rsc: ReplicaSetCore): void {
  for (const set of rsc.byOwner.values())
    if (set.owner !== '' && set.entry !== rsc.byUid.get(set.owner))
      throw new Error(`replicaset: after a restore the pod set of ${set.owner} points at another entry than byUid`);
  const timed = new Set<Entry>();
  for (const e of rsc.entries.values()) {
    if (e.podsMade === rsc.indexesMade && e.pods !== rsc.byOwner.get(e.uid))
      throw new Error(`replicaset ${e.key}: after a restore the pod set kept is not the index's`);
    const was = e.timed;
    rsc.noteTimers(e);
    if (e.timed !== was) throw new Error(`replicaset ${e.key}: after a restore timed is ${was}, its machine says ${e.timed}`);
    if (e.timed) timed.add(e);
  }
  if (timed.size !== rsc.timed.size || [...rsc.timed].some((e) => !timed.has(e)))
    throw new Error('replicaset: after a restore `timed` holds other entries than the machines time');
}
