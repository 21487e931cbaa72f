/**
 * The echo of the controller's own status write. updateReplicaSetStatus writes the status, the
 * informer brings the update back, and updateRS enqueues the key (replica_set.go: "Enqueueing every
 * time does result in some spurious syncs (like when Status.Replica is updated and the watch
 * notification from it retriggers this function)"). The key, added while its sync runs, is dirty:
 * when the sync is done it is queued again, due at once, and synced in the instant's next round.
 *
 * That sync reads what the one before it read, at the same now. When nothing else added the key
 * in between, nothing it reads has changed: a change to the ReplicaSet, to one of its pods, to an
 * orphan of its namespace that it could adopt, or to its expectations comes as an informer event
 * whose handler adds the key, and what depends on the time (expiry, availability) is read at the
 * same instant. So it decides nothing, and leaves the machine as it found it (idle, the failures
 * forgotten). At 5,000 nodes those are 27,291 of the outage hour's 58,384 syncs, 14,120 of them at
 * the start instant, each with three transitions (the add, DEQUEUE, SYNCED) and a claim.
 *
 * So the echo is noted, not added (`heard`, during the sync that wrote), and once that sync is done
 * and nothing else added the key meanwhile, owed (`owed`, with the instant). An owed echo stands for
 * the key queued at that instant: the controller is due then (nextWake), and its next wake, the
 * instant's next round, settles it. If something added the key since, the key is queued at that
 * instant as the echo would have left it, and its sync is the one the echo would have had. If not,
 * the echo's sync would decide nothing, and it is dropped, unless the counts a sync reads may lag
 * the pods (a host whose events come late or never, readsEveryPod): then the key is added as the
 * echo would have added it. With `checkEchoes` (or verifyTallies) the dropped echo's sync is run
 * there and then, and must decide nothing and leave the entry as it was. An echo still owed when
 * the instant's rounds are over (MAX_ROUNDS ran out) is added then (instantDone), as the echo left
 * it queued. A sync that failed takes its echo's add at once (SYNC_FAILED reads whether the key was
 * added meanwhile).
 */
import type { ControllerHost } from '../controllerHost';
import type { Micros } from '../../model/time';
import type { Entry } from './entry';
import type { ReplicaSetCore } from './core';

/** updateRS for the announcement of the controller's own write during its sync: noted, not added (see the file comment) */
export function isOwnEcho(rsc: ReplicaSetCore, entry: Entry | undefined): boolean {
  if (entry === undefined || entry !== rsc.echoes.writing) return false;
  rsc.echoes.heard = entry;
  return true;
}

/**
 * After the sync of `entry` (syncKeys), before the machine is told how it went: whether it heard
 * its echo. A failed sync takes the echo's add now; a sync done with the key not added meanwhile
 * owes it (`owe`, once SYNCED is sent).
 */
export function takeEcho(rsc: ReplicaSetCore, entry: Entry, failed: boolean, now: Micros): boolean {
  const echoes = rsc.echoes;
  if (echoes.heard !== entry) return false;
  echoes.heard = undefined;
  if (failed) {
    rsc.update(entry, { type: 'ENQUEUE', at: now });
    return false;
  }
  return true;
}

/** once SYNCED: the key added during the sync (dirty) is queued again, and the echo adds nothing; else it is owed */
export function owe(rsc: ReplicaSetCore, entry: Entry, now: Micros): void {
  if (queueOf(entry) !== 'idle') return;
  const echoes = rsc.echoes;
  if (echoes.owed.length !== 0 && echoes.at !== now) throw new Error(`replicaset ${entry.key}: an echo owed at ${now} beside echoes owed at ${echoes.at}`);
  echoes.at = now;
  echoes.owed.push(entry);
}

/** the earliest instant an owed echo stands for, if any (nextWake) */
export function echoDue(rsc: ReplicaSetCore): Micros | undefined {
  return rsc.echoes.owed.length === 0 ? undefined : rsc.echoes.at;
}

/**
 * At a wake (the instant's next round), after the timers: each owed echo's key queued since stays
 * queued (its sync is the echo's); any other is dropped (`checkSync`: its sync run there and then,
 * checkEchoes), or added as the echo would have been.
 */
export function settleEchoes(rsc: ReplicaSetCore, host: ControllerHost, checkSync: (entry: Entry) => void): void {
  const echoes = rsc.echoes;
  const owed = echoes.owed;
  if (owed.length === 0) return;
  echoes.owed = [];
  const at = echoes.at;
  // every change a sync reads is announced at once, and the counts hold it (core.ts tallyFor)
  const announced = host.now === at && rsc.ownerOfPod.size === host.cluster.pods.size && rsc.options.readsEveryPod?.() !== true;
  for (const entry of owed) {
    if (!rsc.isLive(entry)) continue;
    const queue = queueOf(entry);
    if (queue === 'queued') continue;
    if (queue !== 'idle') throw new Error(`replicaset ${entry.key}: an owed echo found the key ${queue}`);
    if (!announced) rsc.update(entry, { type: 'ENQUEUE', at });
    else if (rsc.options.checkEchoes === true || rsc.verify) checkSync(entry);
  }
}

/** The instant's rounds are over: an echo still owed leaves its key queued at its instant, as the echo did. */
export function echoesAtInstantEnd(rsc: ReplicaSetCore): void {
  const echoes = rsc.echoes;
  const owed = echoes.owed;
  if (owed.length === 0) return;
  echoes.owed = [];
  for (const entry of owed) if (rsc.isLive(entry) && queueOf(entry) === 'idle') rsc.update(entry, { type: 'ENQUEUE', at: echoes.at });
}

function queueOf(entry: Entry): string {
  return (entry.actor.snapshot().value as { queue: string }).queue;
}
