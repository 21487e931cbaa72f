/**
 * The hand-off: a simulation takes the next pass of another simulation of the same scenario from that
 * one's checkpoints instead of stepping it (the panel's run-ahead, bench/README.md "handoff" and
 * "handoff2"). The two run the same snapshot deterministically, so where both kept a checkpoint of the
 * same position (pass, time, trace length) their states are the same record for record; the other's
 * next checkpoint holds every record changed since (its delta), the pass's part of the trace and facts,
 * and the kubelets' and controllers' saved memory after it. Writing that delta into the live maps
 * (about 61,000 records when a zone's 1,667 nodes go Unknown at 5,000 nodes) replaces the pass that
 * changed them (over a second of CPU there).
 *
 * This is a move forward, not a restore (CheckpointStore.restore only goes back through its own list):
 * the records go in as a restore puts them back (copies, or written into the live pod), the
 * controllers are restored from the other's saved memory, taking over what the running ones derived
 * from the cluster (RestoreFrom), and the simulation keeps a checkpoint of its own there: the other's
 * delta against the same position, with none of the other's Ready log (which holds the other's live
 * Ready conditions), so that a step back before it puts its pods back from records. Nothing of the
 * other simulation is written, and what is taken from it is its checkpoints' records and logs, which
 * nobody edits, and its trace's decisions, which are never changed once made.
 */
import type { RestoreFrom, SimController } from '../controllers/controller';
import type { Kubelets } from '../kubelet/kubelets';
import type { NodeRecord, PodCondition, PodRecord } from '../model/types';
import { inOrder, settleOrder } from '../model/podOrder';
import type { Problem } from '../problems';
import type { Decision } from '../trace/decision';
import { cloneDaemonSet, copyMap, type KeptPod, leaseFrom, podFrom, PodReady, readyWrittenInto, writePodInto } from './checkpoint';
import { chainFrom, PodChanges, podsIn, type Checkpoint, type CheckpointStore, type LoopPosition, type PodDelta } from './checkpointStore';
import { ownDelta } from './checkpointDeltas';
import { ReadyLog } from './dirtyPods';
import { setFact } from './facts';
import { indexPodFrom } from './podIndex';
import type { SimHost } from './simHost';

/** Pods written between two looks at the slice's clock (2,048: about 5 ms at 5,000 nodes, load 3), and ReplicaSets. */
export const HAND_OFF_CHUNK = 2048;
/** Nodes, copied whole (5,000 were a 33 ms piece at load 3). */
const NODE_CHUNK = 1024;

/** A checkpoint's changed pods, in the order first changed (never edited: shared by both simulations' checkpoints). */
type PodList = { keys: readonly string[]; values: readonly (KeptPod | null)[] };

/** The pods of a checkpoint as lists, without making the map its delta is read as (50,000 inserts after a heavy pass). */
function changesOf(pods: PodDelta): PodList {
  return pods instanceof PodChanges ? pods.changes : { keys: [...pods.delta.keys()], values: [...pods.delta.values()] };
}

/** What is taken from the simulation that stepped the pass (never written): another simulation's, or what this one ran before a restore (redo.ts). */
export interface HandOffSource {
  store: { readonly list: readonly Checkpoint[] };
  /** the trace up to where it ran (only its length and the decisions after the target's are read) */
  trace: { readonly length: number; slice(start: number, end: number): Decision[] };
  problems: readonly Problem[];
}

/** The simulation that takes the pass: its checkpoints, host and kubelets, and its controllers made anew. */
export interface HandOffTarget {
  store: CheckpointStore;
  host: SimHost;
  kubelets: Kubelets;
  controllers: () => SimController[];
}

/** Whether nothing changed since the last checkpoint of the host (its logs and dirty sets empty). */
function settledAt(host: SimHost, cp: Checkpoint | undefined): cp is Checkpoint {
  return (
    cp !== undefined &&
    cp.pass === host.pass &&
    cp.now === host.now &&
    cp.traceLength === host.trace.length &&
    host.dirtyPods.count === 0 &&
    host.dirtyNodes.size === 0 &&
    host.heartbeatNodes.size === 0 &&
    host.dirtyReplicaSets.size === 0 &&
    host.statusReplicaSets.size === 0 &&
    host.dirtyLeases.size === 0 &&
    host.podKeyLog.length === 0 &&
    host.indexLog.length === 0 &&
    host.factLog.length === 0 &&
    host.readyLog.length === 0
  );
}

/** Whether two checkpoints of the same scenario were taken at the same position (pass, time and trace length). */
export function samePosition(a: Checkpoint, b: Checkpoint): boolean {
  return a.pass === b.pass && a.now === b.now && a.traceLength === b.traceLength;
}

/**
 * The checkpoint of `from` after the one of the target's position, when the target stands settled on its
 * last checkpoint and `from` kept one of that position with one after it; else undefined (nothing to take).
 */
export function handOffFrom(from: HandOffSource, to: HandOffTarget): Checkpoint | undefined {
  const own = to.store.list[to.store.list.length - 1];
  if (!settledAt(to.host, own)) return undefined;
  const list = from.store.list;
  for (let i = 0; i + 1 < list.length; i++) {
    const c = list[i];
    if (samePosition(c, own)) {
      const next = list[i + 1];
      return from.trace.length >= next.traceLength && from.problems.length >= next.loop.problems ? next : undefined;
    }
  }
  return undefined;
}

/**
 * The checkpoint a hand-off from `from` would take (handOffFrom's), of pass `upTo` at most; from the target's own past run
 * (`own`) only pass 0 or a heavy pass (`heavy`, its pods: a hand-off restores the controllers anew, dearer than a quiet
 * pass's step); `fits` is asked of it and the decisions it would add.
 */
export function handOffNext(
  from: HandOffSource,
  to: HandOffTarget,
  upTo: number,
  heavy?: (pods: number) => boolean,
  fits?: (next: Checkpoint, made: Decision[]) => boolean,
): Checkpoint | undefined {
  const next = handOffFrom(from, to);
  if (next === undefined || next.pass === null || next.pass > upTo) return undefined;
  if (heavy && next.pass !== 0 && !heavy(podsIn(next.pods))) return undefined;
  if (fits && !fits(next, from.trace.slice(to.host.trace.length, next.traceLength))) return undefined;
  return next;
}

/**
 * The hand-off of `next` (handOffFrom's) into `to`, a chunk of records at a time: `run(more)` works while
 * `more()` says so and returns true while work is left. Everything read from `from` is taken at once
 * (its trace and problems may change after: its user steps on or back); the target is not to be used
 * before the hand-off is done (SimulationImpl finishes it before anything else).
 */
export class HandOff {
  private readonly steps: Generator<void, void, void>;
  /** once done: where the loop stands, and the problems the pass added to the simulation's own */
  done?: { loop: LoopPosition; problems: Problem[] };
  /** pods whose Ready fields were written into the condition `next`'s Ready log holds (`liveLog`), not found in the pod map (tests) */
  fromLog = 0;
  /** whether the own checkpoint kept took `next`'s Ready log's lists of keys, statuses, times and slots as they are (tests) */
  logShared = false;
  /**
   * The controllers a restore left owed, dropped for this hand-off (CheckpointStore.dropOwed: a Step that redoes at once
   * after a Step Back), each with what it was to be restored from: restored here from the ones that ran before both.
   */
  private readonly chained?: ReadonlyMap<string, RestoreFrom | undefined>;

  /**
   * `own`: `from` is what the target itself ran before a restore (redo.ts): its checkpoint keeps the pass's Ready writes as
   * a log (ownCopy). `liveLog`: `next`'s Ready log was undone by that restore, and nothing moved since: the conditions it
   * holds are the live pods' own but for these pods' (ReadyLog.undoneExcept), and a pod the pass changed by Ready writes
   * alone has its fields written into its own there, without a look-up in the pod map and a walk of its conditions (at
   * 5,000 nodes the Unknown pass's 50,000 pods: most of the redo's time in those pods).
   */
  constructor(
    from: HandOffSource,
    next: Checkpoint,
    to: HandOffTarget,
    private readonly own = false,
    private readonly liveLog?: ReadonlySet<string>,
  ) {
    const taken = {
      next,
      pods: changesOf(next.pods),
      decisions: from.trace.slice(to.host.trace.length, next.traceLength),
      problems: from.problems.slice(to.store.list[to.store.list.length - 1].loop.problems, next.loop.problems),
    };
    this.chained = to.store.takeDropped();
    this.steps = this.work(taken, to);
  }

  run(more: () => boolean): boolean {
    while (!this.steps.next().done) if (!more()) return true;
    return false;
  }

  private *work(t: { next: Checkpoint; pods: PodList; decisions: Decision[]; problems: Problem[] }, to: HandOffTarget): Generator<void, void, void> {
    const { next } = t;
    const host = to.host;
    const cluster = host.cluster;
    const running = host.controllers;
    // what the running controllers last heard of, for the records replaced (RestoreFrom), and what the views compare again
    const podsReplaced = new Map<string, PodRecord | undefined>();
    const nodesReplaced = new Map<string, NodeRecord | undefined>();
    // Pods: written into the live record where it can be (the controllers' indexes hold it), else a copy.
    // A key added or removed in the pass is set or deleted in the pass's own order (its key log), after.
    const keyLog = next.pods.keyLog;
    const moved = new Set<string>();
    for (let i = 0; i < keyLog.length; i += 2) moved.add(keyLog[i] as string);
    const copies = new Map<string, PodRecord | null>();
    const { keys, values } = t.pods;
    // A pod the pass changed by Ready writes alone (a PodReady not in `other`) is, but for those, as the target holds it:
    // its Ready fields are all there is to write (MarkPodsNotReady's 50,000 pods at 5,000 nodes: the whole record
    // written into each was about half of the hand-off's time)
    const other = new Set(next.pods.other);
    // each such pod's live Ready condition, by its place in the delta: what the redo's Ready log holds (ownCopy)
    const readyAt: (PodCondition | undefined)[] = this.own ? new Array(keys.length) : [];
    // and the pods it changed otherwise than by Ready writes (kept whole), in the delta's order
    const whole: string[] = [];
    // what the views compare again: the pods written otherwise, and apart those whose Ready fields alone were (PodReports)
    const changed: string[] = [];
    const readyOnly: string[] = [];
    let n = 0;
    // the log and the delta list the pass's Ready-written pods in the same order (each first changed by its write): a
    // walk along the log finds most of them (readyLogOf's way); one not found is looked up in the pod map
    const readyLog = next.pods.readyLog;
    const notLive = this.liveLog;
    // the log's entries so written (ownCopy's log takes their conditions as they are)
    const logAt: boolean[] = notLive ? new Array<boolean>(readyLog.keys.length) : [];
    let at = 0;
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i],
        v = values[i];
      let readyAlone: PodCondition | undefined;
      let was: PodRecord | undefined;
      let viaLog = false;
      if (notLive && v instanceof PodReady && !other.has(key) && !moved.has(key) && !notLive.has(key)) {
        for (let k = at, end = Math.min(readyLog.keys.length, at + READY_WALK); k < end; k++)
          if (readyLog.keys[k] === key) {
            readyAlone = readyLog.conditions[k];
            readyAlone.status = v.status;
            readyAlone.lastTransitionTime = v.lastTransitionTime;
            readyLog.slots[k].rebase(v);
            logAt[k] = viaLog = true;
            this.fromLog++;
            at = k + 1;
            break;
          }
      }
      if (readyAlone === undefined) {
        was = cluster.pods.get(key);
        readyAlone = v instanceof PodReady && was !== undefined && !other.has(key) && !moved.has(key) ? readyWrittenInto(was, v) : undefined;
      }
      if (readyAlone && this.own) readyAt[i] = readyAlone;
      if (this.own && !(v instanceof PodReady)) whole.push(key);
      (readyAlone ? readyOnly : changed).push(key);
      if (!(readyAlone || (v && was !== undefined && !moved.has(key) && writePodInto(was, v, key, host.pristinePods)))) {
        podsReplaced.set(key, was);
        copies.set(key, v ? podFrom(v, key, host.pristinePods) : null);
      }
      // (one written through the log was rebased there, by its slot)
      if (v && !viaLog) host.podPutBack(key, v);
      if (++n % HAND_OFF_CHUNK === 0) yield;
    }
    const podsMovedInOrder = new Set<string>();
    if (keyLog.length > 0) {
      settleOrder(cluster.pods);
      for (let i = 0; i < keyLog.length; i += 2) {
        const key = keyLog[i] as string;
        if (keyLog[i + 1] === true) cluster.pods.set(key, copies.get(key) as PodRecord);
        else cluster.pods.delete(key);
      }
      for (const key of moved) if (copies.get(key)) podsMovedInOrder.add(key);
    }
    for (const [key, v] of copies) {
      if (v) cluster.pods.set(key, v);
      else cluster.pods.delete(key);
    }
    yield;
    // Nodes, ReplicaSets, Leases: copies (a restore's), in the checkpoint's key order when keys came or went
    for (const [name, v] of next.nodes.delta) {
      nodesReplaced.set(name, cluster.nodes.get(name));
      if (v) cluster.nodes.set(name, to.store.nodePutBack(name, v));
      else cluster.nodes.delete(name);
      if (++n % NODE_CHUNK === 0) yield;
    }
    if (cluster.nodes.size !== next.nodes.order.length || [...nodesReplaced.values()].some((was) => was === undefined))
      cluster.nodes = inOrder(cluster.nodes, next.nodes.order);
    yield;
    let keysChanged = false;
    for (const [key, v] of next.replicaSets.delta) {
      keysChanged ||= !v || !cluster.replicaSets.has(key);
      if (v) cluster.replicaSets.set(key, to.store.replicaSetPut(key, v));
      else cluster.replicaSets.delete(key);
      if (++n % HAND_OFF_CHUNK === 0) yield;
    }
    if (keysChanged) cluster.replicaSets = inOrder(cluster.replicaSets, next.replicaSets.order);
    keysChanged = false;
    for (const [name, v] of next.leases.delta) {
      keysChanged ||= !v || !cluster.leases.has(name);
      if (v) cluster.leases.set(name, leaseFrom(v));
      else cluster.leases.delete(name);
    }
    if (keysChanged) cluster.leases = inOrder(cluster.leases, next.leases.order);
    cluster.daemonSets = copyMap(next.daemonSets, cloneDaemonSet);
    cluster.ignored = [...next.ignored];
    yield;
    // the pod index, as the pass moved it (the same changes in the same order: its sets iterate as there)
    const index = host.currentIndex;
    const log = next.indexLog;
    for (let i = 0; i < log.length; i += 2) {
      const key = log[i]!;
      indexPodFrom(index.byNode, index.podNode, key, index.podNode.get(key), log[i + 1]);
    }
    // the causes memory and the trace
    const facts = next.factsDelta;
    for (let i = 0; i < facts.length; i += 3) setFact(host.facts, facts[i] as string, facts[i + 1] as string, facts[i + 2] as number);
    for (const d of t.decisions) host.trace.push(d);
    yield;
    host.now = next.now;
    host.pass = next.pass;
    host.controllerStartTime = next.controllerStartTime;
    host.faults = new Map(next.faults.map(([key, f]) => [key, { ...f }]));
    // nothing is dirty against the checkpoint kept below (the nodes written are their store copies' but for heartbeat times: nodePutBack)
    host.dirtyPods.clear();
    host.heartbeatNodes.clear();
    host.dirtyReplicaSets.clear();
    host.statusReplicaSets.clear();
    host.dirtyLeases.clear();
    host.dirtyNodes.clear();
    host.podKeyLog = [];
    host.indexLog = [];
    host.indexNodes.clear();
    host.factLog = [];
    host.readyLog = new ReadyLog();
    host.reindex(index, { pods: changed, podsReady: readyOnly, nodes: new Set(nodesReplaced.keys()), replicaSets: new Set(next.replicaSets.delta.keys()) });
    yield;
    to.kubelets.restore(next.kubelets, cluster);
    yield;
    host.controllers = to.controllers().filter((c) => next.controllers.some((x) => x.name === c.name));
    for (const c of host.controllers) {
      const previous = running.find((x) => x.name === c.name);
      const from: RestoreFrom | undefined = this.chained?.has(c.name)
        ? chainFrom(this.chained.get(c.name), podsReplaced, nodesReplaced, podsMovedInOrder)
        : previous && { previous, pods: podsReplaced, nodes: nodesReplaced, podsMovedInOrder };
      const saved = next.controllers.find((x) => x.name === c.name)!.saved;
      if (c.restoreInPieces) yield* c.restoreInPieces(saved, host, from);
      else c.restore(saved, host, from);
      yield;
    }
    const kept = ownCopy(next, t.pods, this.own ? { pods: cluster.pods, readyAt, logAt, whole } : undefined);
    this.logShared = this.own && kept.pods.readyLog.keys === readyLog.keys;
    to.store.adopt(kept);
    this.done = { loop: { ...next.loop }, problems: t.problems };
  }
}

/**
 * The target's own checkpoint of the pass: the other's records, logs and saved memory (never edited:
 * thinning and restores replace a checkpoint's fields, never the maps and arrays in them), in objects
 * of its own, and no Ready log: a step back before it puts every pod of its delta back from records.
 * Taken from its own past run (`live`, its pods after the hand-off), the pass's Ready writes are kept as
 * a log of the live pods' own Ready conditions (each pod's, written into by the hand-off, not the kept
 * record's: checkpoint.ts writePodInto), so that a step back before it undoes them in place as after
 * the step: put back from records, the Unknown pass's 50,000 pods made a Reset from pass 20 at 5,000
 * nodes two to three times dearer.
 */
function ownCopy(next: Checkpoint, pods: PodList, live?: LiveReady): Checkpoint {
  const ready = live ? readyLogOf(next.pods.readyLog, pods, live) : undefined;
  return {
    ...next,
    nodes: ownDelta(next.nodes),
    pods: new PodChanges(
      { keys: pods.keys, values: pods.values, other: ready ? ready.other : [...pods.keys] },
      next.pods.keyLog,
      next.pods.order,
      ready ? ready.log : new ReadyLog(),
    ),
    replicaSets: ownDelta(next.replicaSets),
    leases: ownDelta(next.leases),
    byNode: { ...next.byNode },
    controllers: [...next.controllers],
    faults: next.faults.map(([k, f]) => [k, { ...f }]),
    loop: { ...next.loop },
  };
}

/**
 * A checkpoint's Ready log with each write's condition the live pod's own Ready condition now, and the pods a step back
 * before it puts back from records (`other`): those the pass changed otherwise than by Ready writes (kept whole, not as a
 * PodReady), and any whose live pod has no Ready condition to undo. Not the checkpoint's own `other`: a restore over it
 * adds the pods it put back from records (their Ready conditions new objects, not the ones its log holds), 50,000 after
 * a jump back over the outage, which every later Reset then put back from records again (200 ms at 5,000 nodes).
 */
function readyLogOf(from: ReadyLog, pods: PodList, live: LiveReady): { log: ReadyLog; other: string[] } {
  const { keys } = pods;
  const conditions: (PodCondition | undefined)[] = from.conditions.slice();
  let none = 0;
  // the log and the delta list MarkPodsNotReady's pods in the same order (each first changed by its write): a walk
  // along the delta finds most of them where the hand-off wrote them, a look-up in the pod map the rest (50,000
  // look-ups were 50 ms of the redo of the Unknown pass at 5,000 nodes)
  let at = 0;
  for (let i = 0; i < from.keys.length; i++) {
    // written through this log by the hand-off: its condition is the live one
    if (live.logAt[i]) continue;
    const key = from.keys[i];
    let ready: PodCondition | undefined;
    for (let k = at; k < Math.min(keys.length, at + READY_WALK); k++)
      if (keys[k] === key) {
        ready = live.readyAt[k];
        at = k + 1;
        break;
      }
    ready ??= live.pods.get(key)?.conditions.find((c) => c.type === 'Ready');
    conditions[i] = ready;
    if (!ready) none++;
  }
  // every write kept: the same lists but for the conditions (the Unknown pass's 50,000 writes at 5,000 nodes, pushed one
  // by one into new lists, were a third of the redo's own copy)
  if (none === 0) return { log: from.withConditions(conditions as PodCondition[]), other: live.whole };
  const log = new ReadyLog();
  const other = live.whole.slice();
  for (let i = 0; i < from.keys.length; i++) {
    const ready = conditions[i];
    if (ready) log.push(from.keys[i], ready, from.statuses[i], from.times[i], from.slots[i]);
    else other.push(from.keys[i]);
  }
  return { log, other };
}

/** How far along the delta readyLogOf looks for a log's key before it looks the pod up. */
const READY_WALK = 8;

/** The target's live pods after the hand-off, and the Ready condition it wrote into each pod of the delta it wrote by its Ready fields alone (by index). */
interface LiveReady {
  pods: ReadonlyMap<string, PodRecord>;
  readyAt: readonly (PodCondition | undefined)[];
  /** the entries of the checkpoint's own Ready log the hand-off wrote through (HandOff's `liveLog`), by index */
  logAt: readonly boolean[];
  /** the delta's pods not changed by Ready writes alone (no PodReady), in its order */
  whole: string[];
}
