/**
 * The ReplicaSet controller's workqueue (replica_set.go worker / processNextWorkItem): which
 * keys are due, and each due key's syncReplicaSet, with the machine told how it went.
 */
import type { ControllerHost } from '../controllerHost';
import type { Micros } from '../../model/time';
import { EXPECTATIONS_TIMEOUT } from './machine';
import { byEntryKey, type Entry } from './entry';
import type { ReplicaSetCore } from './core';
import { syncReplicaSet } from './syncReplicaSet';
import { echoDue, owe, settleEchoes, takeEcho } from './statusEcho';

export function nextWake(rsc: ReplicaSetCore): Micros | undefined {
  const timed = timedWake(rsc);
  // an owed echo stands for its key queued at its instant (statusEcho.ts)
  const echo = echoDue(rsc);
  return echo === undefined || (timed !== undefined && timed <= echo) ? timed : echo;
}

function timedWake(rsc: ReplicaSetCore): Micros | undefined {
  if (rsc.wakeCache !== null) return rsc.wakeCache;
  let min: Micros | undefined;
  for (const e of rsc.timed) {
    const c = rsc.ctx(e);
    if (c.dueAt !== null && (min === undefined || c.dueAt < min)) min = c.dueAt;
    if (c.resyncAt !== null && (min === undefined || c.resyncAt < min)) min = c.resyncAt;
    if (c.expectedAt !== null && rsc.expectationsPending(e)) {
      const t = c.expectedAt + EXPECTATIONS_TIMEOUT + 1;
      if (min === undefined || t < min) min = t;
    }
  }
  rsc.wakeCache = min;
  return min;
}

/**
 * Syncs every key due, timers first. `shouldYield` is asked after each sync: when it says true,
 * the keys not synced yet are kept (`unsynced`) and true is returned; the next call syncs them,
 * and only them, as this call would have.
 */
export function processDueKeys(rsc: ReplicaSetCore, host: ControllerHost, shouldYield?: () => boolean): boolean {
  if (rsc.unsynced) {
    const rest = rsc.unsynced;
    rsc.unsynced = null;
    return syncKeys(rsc, host, rest, shouldYield);
  }
  const now = host.now;
  // timers first: delayed adds and expectations that expire now
  const fired: Entry[] = [];
  for (const e of rsc.timed) {
    const c = rsc.ctx(e);
    if ((c.resyncAt !== null && c.resyncAt <= now) || (c.expectedAt !== null && now - c.expectedAt > EXPECTATIONS_TIMEOUT && rsc.expectationsPending(e)))
      fired.push(e);
  }
  for (const e of fired.sort(byEntryKey)) {
    const c = rsc.ctx(e);
    if (c.resyncAt !== null && c.resyncAt <= now) {
      rsc.update(e, { type: 'RESYNC_DUE' });
      rsc.update(e, { type: 'ENQUEUE', at: now });
    }
    if (c.expectedAt !== null && rsc.expectationsPending(e) && now - c.expectedAt > EXPECTATIONS_TIMEOUT) {
      // the simulation syncs at expiry so that the effect shows (upstream: at the next event for it)
      rsc.update(e, { type: 'ENQUEUE', at: now });
    }
  }
  settleEchoes(rsc, host, (entry) => checkEchoSync(rsc, host, entry));
  return syncKeys(rsc, host, dueKeys(rsc, now), shouldYield);
}

/** The entries whose key is due at `now`, in the order the workqueue hands them out: by due time, then by key. */
export function dueKeys(rsc: Pick<ReplicaSetCore, 'timed' | 'ctx'>, now: Micros): Entry[] {
  const due: Entry[] = [];
  if (collectDue(rsc, now, due)) due.sort(byEntryKey);
  else due.sort((a, b) => rsc.ctx(a).dueAt! - rsc.ctx(b).dueAt! || byEntryKey(a, b));
  return due;
}

/**
 * Pushes the entries due at `now` onto `due`; true when all are due at the same instant. Most
 * wakes find every due key due at the same instant (thousands when an outage's pods go not ready
 * at once): then the order is the keys' alone, and the comparator need not read two machines'
 * contexts per comparison (a cache miss each, n log n times). A function of its own because the
 * loop is hot enough to be compiled while it runs: with the sort in the same function, that
 * compiled code met the sort before the sort had ever run, gave up there and went back to the
 * slow path on every later wake (104 times in one trace of the 5,000-node outage hour;
 * bench/README.md, "one construction path per record").
 */
function collectDue(rsc: Pick<ReplicaSetCore, 'timed' | 'ctx'>, now: Micros, due: Entry[]): boolean {
  let first: Micros | undefined;
  let oneInstant = true;
  for (const e of rsc.timed) {
    const at = rsc.ctx(e).dueAt;
    if (at === null || at > now) continue;
    due.push(e);
    if (first === undefined) first = at;
    else if (at !== first) oneInstant = false;
  }
  return oneInstant;
}

function syncKeys(rsc: ReplicaSetCore, host: ControllerHost, due: Entry[], shouldYield?: () => boolean): boolean {
  const now = host.now;
  for (let i = 0; i < due.length; i++) {
    if (i > 0 && shouldYield?.()) {
      rsc.unsynced = due.slice(i);
      return true;
    }
    const entry = due[i];
    // a live entry is the one `entries` holds under its key (see `send`)
    if (!entry.live && !rsc.entries.has(entry.key)) continue;
    const c = rsc.ctx(entry);
    if (c.dueAt === null || c.dueAt > now) continue;
    rsc.update(entry, { type: 'DEQUEUE' });
    const err = syncReplicaSet(rsc, host, entry);
    if (!entry.live && !rsc.entries.has(entry.key)) {
      rsc.echoes.heard = undefined;
      continue;
    }
    const echoed = takeEcho(rsc, entry, err !== undefined, now);
    if (err === undefined) {
      rsc.update(entry, { type: 'SYNCED' });
      if (echoed) owe(rsc, entry, now);
    } else {
      const t = rsc.send(entry, { type: 'SYNC_FAILED', now });
      rsc.markChanged(entry);
      if (t) entry.lastTransition = t;
    }
  }
  return false;
}

/**
 * checkEchoes: the echo's sync, which settleEchoes drops, run as the workqueue would run it (added,
 * taken, synced): it must decide nothing and leave the entry as it was.
 */
export function checkEchoSync(rsc: ReplicaSetCore, host: ControllerHost, entry: Entry): void {
  const was = JSON.stringify(kept(host, entry));
  rsc.update(entry, { type: 'ENQUEUE', at: host.now });
  rsc.update(entry, { type: 'DEQUEUE' });
  const err = syncReplicaSet(rsc, host, entry);
  const heard = rsc.echoes.heard === entry;
  rsc.echoes.heard = undefined;
  if (err === undefined) rsc.update(entry, { type: 'SYNCED' });
  const now = JSON.stringify(kept(host, entry));
  if (err !== undefined || heard || now !== was) {
    throw new Error(
      `replicaset ${entry.key}: the sync of its status write's echo, dropped, ${err ?? (heard ? 'wrote the status' : `changed ${was} to ${now}`)}`,
    );
  }
}

/** what a sync that decides nothing leaves of an entry as it is */
function kept(host: ControllerHost, entry: Entry): unknown[] {
  const snap = entry.actor.snapshot();
  return [host.decisionCount?.(), snap.text, snap.context, entry.counter, entry.removed, entry.lastManageSeq, entry.lastPending ?? null];
}
