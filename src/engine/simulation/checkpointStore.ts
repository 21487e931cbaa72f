/**
 * The checkpoints of a simulation (simulation.ts: "Checkpoints"): saved after the instant of every
 * K-th monitor pass, thinned to MAX_CHECKPOINTS, and restored by putting back in the live maps
 * only what changed since the checkpoint.
 */
import type { RestoreFrom, SimController } from '../controllers/controller';
import type { ClusterState } from '../model/cluster';
import type { Micros } from '../model/time';
import type { DaemonSetRecord, KObject, LeaseRecord, NodeRecord, PodRecord, ReplicaSetRecord } from '../model/types';
import type { Kubelets } from '../kubelet/kubelets';
import { keysSharedWith } from '../model/sharedKeys';
import { type Changes, entriesOf, keysOf, type MapDelta, mergeDelta, type PodDelta, PodChanges, takeDelta } from './checkpointDeltas';
import type { SimHost } from './simHost';
import { factsAt, factsFrom } from './facts';
import { checkIndex, checkPodOrder, podsByNodeAt, sameFacts } from './restoreChecks';
import { inOrder, PodMap } from '../model/podOrder';
import { indexAt, rewind, someInserted } from './rewind';
import { ReadyLog } from './dirtyPods';
import { VIEWS_READ, VIEWS_RESTORED } from './partsUnderWay';
import {
  type CheckpointChecks,
  cloneDaemonSet,
  cloneLease,
  cloneNode,
  podFrom,
  writePodInto,
  copyMap,
  frozenReplicaSet,
  replicaSetFrom,
  ReplicaSetStatusWrite,
  sameButStatus,
  heartbeatsSince,
  leaseFrom,
  LeaseRenewal,
  nodeFrom,
  NodeHeartbeats,
  sameFields,
} from './checkpoint';

export { PodChanges, podsIn, type PodDelta } from './checkpointDeltas';

/** Checkpoints kept; beyond this every other one is merged into its successor. */
export const MAX_CHECKPOINTS = 48;

/**
 * A checkpoint. Pods, Nodes, ReplicaSets and Leases are kept as deltas: the
 * records changed since the previous checkpoint (null for a deletion). The
 * key order of the maps and the pod sets of the nodes whose set changed are
 * kept too, so that restoring gives maps that iterate exactly as in a fresh run. Restoring checkpoint k puts
 * back, in the live maps, the records changed since it, from the deltas of
 * checkpoints 0..k or the snapshot. DaemonSets (few) are copied whole. Facts
 * (causes memory) are a delta too.
 */

/** Where the simulation's loop stood (SimulationImpl's own fields), kept with each checkpoint. */
export interface LoopPosition {
  eventIndex: number;
  nextMonitorAt: Micros | undefined;
  leaderAt: Micros | undefined;
  /** the length of the simulation's own problems */
  problems: number;
  lastPassTime: Micros | undefined;
  processedUpTo: Micros;
}

export interface Checkpoint {
  pass: number | null;
  now: Micros;
  /** a node whose heartbeat times alone changed is kept as those times (NodeHeartbeats) */
  nodes: MapDelta<NodeRecord | NodeHeartbeats>;
  pods: PodDelta;
  /** a ReplicaSet whose status alone was written is kept as that status (ReplicaSetStatusWrite) */
  replicaSets: MapDelta<ReplicaSetRecord | ReplicaSetStatusWrite>;
  /** a Lease whose renewTime alone changed is kept as that time (LeaseRenewal) */
  leases: MapDelta<LeaseRecord | LeaseRenewal>;
  daemonSets: Map<string, DaemonSetRecord>;
  ignored: KObject[];
  /** podsByNode's changes since the previous checkpoint (see SimHost.indexLog) */
  indexLog: (string | undefined)[];
  /**
   * podsByNode's sets changed since the previous checkpoint (every set in the first), each as its
   * pod keys in order (null: the node has no set), and the map's key order (see SimHost.indexNodes)
   */
  byNode: MapDelta<readonly string[]>;
  /** the facts remembered since the previous checkpoint, in order, in triples: object, fact, seq (SimHost.factLog) */
  factsDelta: (string | number)[];
  kubelets: unknown;
  controllers: { name: string; saved: unknown }[];
  controllerStartTime: Micros;
  faults: [string, { remaining: number; seq: number }][];
  traceLength: number;
  loop: LoopPosition;
}

export class CheckpointStore {
  /** oldest first; the first is the start */
  list: Checkpoint[] = [];
  /**
   * Per node, the latest full copy a checkpoint made (at first the snapshot's record): what the
   * next checkpoint keeps only heartbeat times against when nothing else changed. It is only a
   * candidate, compared field by field; after a restore or a deletion it may be a copy no
   * checkpoint holds any more, which is as good (never edited either).
   */
  private nodeCopies: Map<string, NodeRecord>;
  /** The same for Leases, against which a checkpoint keeps only a renewTime. */
  private leaseCopies: Map<string, LeaseRecord>;
  /**
   * The same for ReplicaSets, against which a checkpoint keeps only the status (statusCopy); exact but
   * for the ReplicaSets a restore put back since (`untrusted`: compared once, then trusted or copied).
   * A hand-off sets the entry of each ReplicaSet it puts in (replicaSetPut).
   */
  private replicaSetCopies: Map<string, ReplicaSetRecord>;
  /**
   * The ReplicaSets a restore put back whose replicaSetCopies entry may be a copy made after its
   * checkpoint: the set the restore collected anyway, kept, not an entry set per ReplicaSet (14,120 of
   * them after a jump back over the outage at 5,000 nodes, 13 ms of it).
   */
  private untrusted = new Set<string>();
  /**
   * While a restore stands at VIEWS_RESTORED (its last controllers not begun): those controllers, each with what it is to be
   * restored from. `dropOwed` hands them to the next restore (`dropped`), which restores them from the controllers that ran
   * before both, with both restores' records (chainFrom): a step back at once after one paid the last one's rest first.
   */
  private owed?: Map<string, RestoreFrom | undefined>;
  private dropped?: Map<string, RestoreFrom | undefined>;
  /** the checkpoint of the restore whose rest is `owed` */
  private owedFrom?: Checkpoint;

  /** `snapshot`: the records as loaded, never edited, which the first checkpoint's deltas are against */
  constructor(
    private readonly snapshot: ClusterState,
    private readonly checks: CheckpointChecks = {},
  ) {
    this.nodeCopies = new Map(snapshot.nodes);
    this.leaseCopies = new Map(snapshot.leases);
    this.replicaSetCopies = new Map(snapshot.replicaSets);
  }

  private replicaSetCopy(key: string, r: ReplicaSetRecord): ReplicaSetRecord {
    const copy = frozenReplicaSet(r, this.snapshot.replicaSets.get(key));
    this.replicaSetCopies.set(key, copy);
    if (this.untrusted.size > 0) this.untrusted.delete(key);
    return copy;
  }

  /**
   * The checkpoint's entry for a ReplicaSet whose status alone was written since the last checkpoint
   * (in host.statusReplicaSets, not in dirtyReplicaSets): that status against its replicaSetCopies
   * entry, without comparing the records. Exact because the live record equals that entry but for
   * its status after each checkpoint (a changed one is copied, an unchanged one is as it was), after
   * a hand-off (replicaSetPut) and, once compared, after a restore (`untrusted`), and between checkpoints a ReplicaSet changes otherwise
   * only through announceReplicaSet (dirtyReplicaSets). With `checks.replicaSetStatus` the records are
   * compared as well and a difference throws.
   */
  private statusCopy(key: string, r: ReplicaSetRecord): ReplicaSetRecord | ReplicaSetStatusWrite {
    const base = this.replicaSetCopies.get(key);
    if (base === undefined) return this.replicaSetCopy(key, r);
    if (this.untrusted.size > 0 && this.untrusted.delete(key) && !sameButStatus(r, base)) return this.replicaSetCopy(key, r);
    if (this.checks.replicaSetStatus && !sameButStatus(r, base))
      throw new Error(`checkpoint: ReplicaSet ${key} changed beyond its status without being announced`);
    return new ReplicaSetStatusWrite(base, r.status);
  }

  /** A live ReplicaSet from a checkpoint's, which a hand-off puts in under `key`; its copy to keep statuses against is then what it was made from. */
  replicaSetPut(key: string, v: ReplicaSetRecord | ReplicaSetStatusWrite): ReplicaSetRecord {
    this.replicaSetCopies.set(key, v instanceof ReplicaSetStatusWrite ? v.of : v);
    return replicaSetFrom(v);
  }

  private nodeCopy(name: string, n: NodeRecord): NodeRecord | NodeHeartbeats {
    const base = this.nodeCopies.get(name);
    if (base !== undefined) {
      const times = heartbeatsSince(n, base);
      if (times !== undefined) return new NodeHeartbeats(base, times);
    }
    const copy = cloneNode(n);
    this.nodeCopies.set(name, copy);
    return copy;
  }

  /**
   * A node put back by a restore, from the entry of the checkpoint it is restored to (or the snapshot's record), and
   * that entry's record as its nodeCopies entry: the live node then equals it but for heartbeat times, as after a
   * checkpoint, so the next checkpoint holds it only if it changes again. Marked dirty instead, every node put back was
   * in the next checkpoint's delta, and a restore to before that checkpoint put it back again: the 1,667 nodes of the
   * outage's zone on the Step Back from pass 0 after a jump back (bench/README.md "pending2", "firststep"). A hand-off
   * puts its nodes in so too (handOff.ts), and leaves nothing dirty to stand in the way of the next one.
   */
  nodePutBack(name: string, v: NodeRecord | NodeHeartbeats): NodeRecord {
    this.nodeCopies.set(name, v instanceof NodeHeartbeats ? v.of : v);
    return nodeFrom(v);
  }

  /**
   * The checkpoint's entry for a node whose heartbeat times alone were written since the last
   * checkpoint (in host.heartbeatNodes, not in dirtyNodes): its times against its nodeCopies
   * entry, without comparing the records. Exact because, for every node, the live record equals
   * its nodeCopies entry but for heartbeat times after each checkpoint (nodeCopy compares or makes
   * that copy; a node no checkpoint saw is the snapshot's copy) and after a restore (every node
   * put back gets the record it is made from as its copy: nodePutBack), and between checkpoints a node
   * changes only through announceNode (dirtyNodes) or a kubelet's heartbeat writes, which set
   * lastHeartbeatTime, a field every condition has. 5,000 nodes at 5,000 nodes, every checkpoint:
   * comparing them field by field was most of a checkpoint's node part. With
   * `checks.heartbeats` the comparison is made as well and a difference throws.
   */
  private heartbeatCopy(name: string, n: NodeRecord): NodeRecord | NodeHeartbeats {
    const base = this.nodeCopies.get(name);
    const conds = n.conditions;
    if (base === undefined || base.conditions.length !== conds.length) return this.nodeCopy(name, n);
    const times = new Array<number>(conds.length);
    for (let i = 0; i < conds.length; i++) times[i] = conds[i].lastHeartbeatTime;
    if (this.checks.heartbeats) {
      const slow = heartbeatsSince(n, base);
      if (slow === undefined || slow.join() !== times.join())
        throw new Error(`checkpoint: Node/${name} changed beyond its heartbeat times without being announced`);
    }
    return new NodeHeartbeats(base, times);
  }

  private leaseCopy(name: string, l: LeaseRecord): LeaseRecord | LeaseRenewal {
    const base = this.leaseCopies.get(name);
    if (base !== undefined && sameFields(l, base, 'renewTime')) return new LeaseRenewal(base, l.renewTime);
    const copy = cloneLease(l);
    this.leaseCopies.set(name, copy);
    return copy;
  }

  /** Saves a checkpoint of the host, the kubelets and the loop now (none when the last one is of this very state). */
  save(host: SimHost, kubelets: Kubelets, loop: LoopPosition): void {
    const c = host.cluster;
    const last = this.list[this.list.length - 1];
    if (last && last.traceLength === host.trace.length && last.pass === host.pass && last.now === host.now) return;
    const podOrder = last !== undefined && host.podKeyLog.length === 0 ? last.pods.order : [...c.pods.keys()];
    const pods: PodDelta = new PodChanges(host.dirtyPods.take(), host.podKeyLog, podOrder, host.readyLog);
    host.podKeyLog = [];
    host.readyLog = new ReadyLog();
    const indexLog = host.indexLog;
    host.indexLog = [];
    const index = c.podsByNode;
    const byNode: MapDelta<readonly string[]> = { delta: new Map(), order: keysSharedWith(last?.byNode.order ?? [], index) };
    for (const name of last === undefined ? index.keys() : host.indexNodes) {
      const set = index.get(name);
      byNode.delta.set(name, set === undefined ? null : [...set]);
    }
    host.indexNodes.clear();
    // the key order: the last checkpoint's array when the keys are the same (most checkpoints)
    const nodes: Changes<NodeRecord | NodeHeartbeats> = takeDelta(c.nodes, host.dirtyNodes, (n, name) => this.nodeCopy(name, n), last?.nodes.order, false);
    for (const name of host.heartbeatNodes) {
      if (host.dirtyNodes.has(name)) continue;
      const n = c.nodes.get(name);
      nodes.add(name, n === undefined ? null : this.heartbeatCopy(name, n));
    }
    host.dirtyNodes.clear();
    host.heartbeatNodes.clear();
    const replicaSets = takeDelta<ReplicaSetRecord, ReplicaSetRecord | ReplicaSetStatusWrite>(
      c.replicaSets,
      host.dirtyReplicaSets,
      (r, key) => this.replicaSetCopy(key, r),
      last?.replicaSets.order,
      false,
    );
    for (const key of host.statusReplicaSets) {
      if (host.dirtyReplicaSets.has(key)) continue;
      const r = c.replicaSets.get(key);
      replicaSets.add(key, r === undefined ? null : this.statusCopy(key, r));
    }
    host.dirtyReplicaSets.clear();
    host.statusReplicaSets.clear();
    const leases = takeDelta(c.leases, host.dirtyLeases, (l, name) => this.leaseCopy(name, l), last?.leases.order);
    const factsDelta = host.factLog;
    host.factLog = [];
    this.list.push({
      pass: host.pass,
      now: host.now,
      nodes,
      pods,
      replicaSets,
      leases,
      daemonSets: copyMap(c.daemonSets, cloneDaemonSet),
      ignored: [...c.ignored],
      indexLog,
      byNode,
      factsDelta,
      kubelets: kubelets.save(),
      controllers: host.controllers.map((x) => ({ name: x.name, saved: x.save() })),
      controllerStartTime: host.controllerStartTime,
      faults: [...host.faults].map(([k, f]) => [k, { ...f }]),
      traceLength: host.trace.length,
      loop,
    });
    if (this.list.length > MAX_CHECKPOINTS) this.thin();
  }

  /** Keeps a checkpoint of the live state made elsewhere (handOff.ts: another simulation's, copied), as `save` keeps its own. */
  adopt(cp: Checkpoint): void {
    this.list.push(cp);
    if (this.list.length > MAX_CHECKPOINTS) this.thin();
  }

  /** Drops every other checkpoint (never the first or the last), merging its deltas into the next one. */
  private thin(): void {
    const n = this.list.length;
    for (const cp of this.list.filter((_, i) => i % 2 === 1 && i < n - 1)) this.merge(cp);
  }

  /** Drops one checkpoint (never the first or the last), merging its deltas into the next one. */
  merge(cp: Checkpoint): void {
    const i = this.list.indexOf(cp);
    if (i <= 0 || i === this.list.length - 1) return;
    const next = this.list[i + 1];
    next.pods.delta = mergeDelta(cp.pods.delta, next.pods.delta);
    next.pods.keyLog = [...cp.pods.keyLog, ...next.pods.keyLog];
    next.pods.other = cp.pods.other.concat(next.pods.other);
    next.pods.readyLog = cp.pods.readyLog.then(next.pods.readyLog);
    next.indexLog = [...cp.indexLog, ...next.indexLog];
    next.byNode.delta = mergeDelta(cp.byNode.delta, next.byNode.delta);
    next.nodes.delta = mergeDelta(cp.nodes.delta, next.nodes.delta);
    next.replicaSets.delta = mergeDelta(cp.replicaSets.delta, next.replicaSets.delta);
    next.leases.delta = mergeDelta(cp.leases.delta, next.leases.delta);
    next.factsDelta = [...cp.factsDelta, ...next.factsDelta];
    this.list.splice(i, 1);
  }

  /**
   * Puts the host and the kubelets back as they were at `cp`, with new controllers (`controllers`:
   * built as the plan says, restored from the checkpoint if it had them), and returns where the loop stood.
   */
  restore(cp: Checkpoint, host: SimHost, kubelets: Kubelets, controllers: () => SimController[]): LoopPosition {
    const pieces = this.restoreInPieces(cp, host, kubelets, controllers);
    for (;;) {
      const r = pieces.next();
      if (r.done) return r.value;
    }
  }

  /**
   * `restore`, a yield between its parts (the records, the kubelets, the index, each controller): the run-ahead's
   * restore after a step back held the extension host 139-306 ms in one block. Between two parts the host is half
   * restored: nothing may read it or call the store until the last part is done (SimulationImpl finishes it first), but
   * the views once it yields VIEWS_RESTORED (the records, the index and the controllers they read are then restored).
   */
  *restoreInPieces(
    cp: Checkpoint,
    host: SimHost,
    kubelets: Kubelets,
    controllers: () => SimController[],
  ): Generator<typeof VIEWS_RESTORED | void, LoopPosition, void> {
    const chained = this.dropped;
    this.dropped = undefined;
    const k = this.list.indexOf(cp);
    // the checkpoints after this one are dropped: running forward again makes them anew
    const chain = this.list.slice(0, k + 1);
    const dropped = this.list.slice(k + 1);
    this.list = chain;
    const upTo = chain.map((c) => c.factsDelta);
    const facts = factsAt(host.facts, [host.factLog, ...dropped.map((c) => c.factsDelta)], upTo);
    if (this.checks.facts && !sameFacts(facts, factsFrom(upTo))) throw new Error('checkpoint: the facts put back differ from the ones replayed from every log');
    // Only the records changed since the checkpoint (the dropped checkpoints' deltas and what is dirty
    // now) are put back; the others are the live records, unchanged since then. Rebuilding every record
    // from the snapshot and the deltas copied all 150,000 pods at 5,000 nodes on each step back.
    // Of the pods, those changed by MarkPodsNotReady's Ready writes alone are not put back from records
    // but have those writes undone (ReadyLog), below.
    const snap = this.snapshot;
    const live = host.cluster;
    // No pod created or deleted since the checkpoint (nor bound or moved): the live map's key order
    // (the index) is the one at the checkpoint, and is kept instead of rebuilt from the snapshot
    // through every log (O(150,000) at 5,000 nodes, most of a single step back in a quiet stretch).
    const keysMoved = host.podKeyLog.length > 0 || dropped.some((c) => c.pods.keyLog.length > 0);
    // the pods created since the checkpoint that it held too (deleted and created again since)
    const podsMovedInOrder = new Set<string>();
    if (keysMoved)
      for (const log of [host.podKeyLog, ...dropped.map((c) => c.pods.keyLog)])
        for (let i = 0; i < log.length; i += 2) if (log[i + 1] === true) podsMovedInOrder.add(log[i] as string);
    // the pods indexed elsewhere since the checkpoint, and the nodes whose sets changed
    const podsMoved = new Set<string>();
    for (const log of [host.indexLog, ...dropped.map((c) => c.indexLog)]) for (let i = 0; i < log.length; i += 2) podsMoved.add(log[i]!);
    const setsBack = new Set<string>(host.indexNodes);
    for (const c of dropped) for (const name of c.byNode.delta.keys()) setsBack.add(name);
    const liveIndex = host.currentIndex;
    // the nodes changed since the checkpoint: put back, each with its nodeCopies entry the record it is made from (see heartbeatCopy)
    const nodesBack = new Set<string>(host.dirtyNodes);
    for (const name of host.heartbeatNodes) nodesBack.add(name);
    for (const c of dropped) for (const name of keysOf(c.nodes)) nodesBack.add(name);
    // what the views compare again (SimHost.takePodChanges, takeRecordChanges): the records put back
    const putBack = { pods: new Set<string>(), nodes: nodesBack, replicaSets: new Set<string>() };
    // what the controllers running until now last heard of, for the records put back (RestoreFrom)
    const podsReplaced = new Map<string, PodRecord | undefined>();
    const nodesReplaced = new Map<string, NodeRecord | undefined>();
    const cluster: ClusterState = {
      nodes: rewind(
        live.nodes,
        snap.nodes,
        chain,
        dropped,
        (c) => entriesOf(c.nodes),
        nodesBack,
        (v, name) => this.nodePutBack(name, v),
        cp.nodes.order,
        nodesReplaced,
        undefined,
        (c) => keysOf(c.nodes),
      ),
      pods: rewind(
        live.pods,
        snap.pods,
        chain,
        dropped,
        (c) => entriesOf(c.pods),
        host.dirtyPods.otherKeys(),
        (v, key) => {
          host.podPutBack(key, v);
          return podFrom(v, key, snap.pods);
        },
        undefined,
        podsReplaced,
        putBack.pods,
        (c) => c.pods.other,
        (live, v, key) => {
          if (!writePodInto(live, v, key, snap.pods)) return false;
          host.podPutBack(key, v);
          return true;
        },
      ),
      replicaSets: rewind(
        live.replicaSets,
        snap.replicaSets,
        chain,
        dropped,
        (c) => entriesOf(c.replicaSets),
        [...host.dirtyReplicaSets, ...host.statusReplicaSets],
        replicaSetFrom,
        cp.replicaSets.order,
        undefined,
        putBack.replicaSets,
        (c) => keysOf(c.replicaSets),
      ),
      daemonSets: copyMap(cp.daemonSets, cloneDaemonSet),
      leases: rewind(
        live.leases,
        snap.leases,
        chain,
        dropped,
        (c) => entriesOf(c.leases),
        host.dirtyLeases,
        leaseFrom,
        cp.leases.order,
        undefined,
        undefined,
        (c) => keysOf(c.leases),
      ),
      podsByNode: new Map(),
      ignored: [...cp.ignored],
    };
    yield;
    // The pods changed since the checkpoint by Ready writes alone: those writes undone, newest first
    // (the rewind above put back every pod changed otherwise, from the checkpoint's records); podsBack
    // lists both for the views.
    const podsBack = [...putBack.pods];
    host.readyLog.undo(putBack.pods, podsBack);
    for (let i = dropped.length - 1; i >= 0; i--) dropped[i].pods.readyLog.undo(putBack.pods, podsBack);
    // The pods put back from records may hold other Ready conditions than the ones the kept logs
    // wrote (a copy, a new list): a restore to before this checkpoint puts them back from records too
    // (the first checkpoint has none before it), those the logs up to it wrote only: a restore to before it undoes no
    // other pod's Ready writes in place. All of them were 50,000 pods after a jump back over the outage to pass 1 at
    // 5,000 nodes, put back again by the Step Back onto pass 0 and by the Reset after it (about 200 ms each).
    if (k > 0 && putBack.pods.size > 0) {
      const wrote = new Set<string>();
      for (const c of chain.slice(1)) c.pods.readyLog.wroteOf(putBack.pods, wrote);
      const again = wrote.size === 0 ? [] : podsBack.slice(0, putBack.pods.size).filter((key) => wrote.has(key));
      if (again.length > 0) cp.pods.other = cp.pods.other.concat(again);
    }
    host.cluster = cluster;
    kubelets.restore(cp.kubelets, cluster);
    yield;
    host.now = cp.now;
    host.pass = cp.pass;
    host.controllerStartTime = cp.controllerStartTime;
    host.truncate(cp.traceLength);
    host.facts = facts;
    host.dirtyPods.clear();
    host.dirtyNodes.clear();
    host.heartbeatNodes.clear();
    host.dirtyReplicaSets.clear();
    host.statusReplicaSets.clear();
    if (this.untrusted.size === 0) this.untrusted = putBack.replicaSets;
    else for (const key of putBack.replicaSets) this.untrusted.add(key);
    host.dirtyLeases.clear();
    host.factLog = [];
    host.podKeyLog = [];
    host.readyLog = new ReadyLog();
    host.faults = new Map(cp.faults.map(([key, f]) => [key, { ...f }]));
    host.indexLog = [];
    host.indexNodes.clear();
    for (const key of podsMovedInOrder) if (!cluster.pods.has(key)) podsMovedInOrder.delete(key);
    // The live map's order is the checkpoint's but for the pods created since (the rewind took them
    // out), unless one it held was created again since or the rewind put one back: then (only) the
    // map owes that order (podOrder.ts: made good when first iterated; a plain map is put in it now).
    if (keysMoved && (podsMovedInOrder.size > 0 || someInserted(podsReplaced, cluster.pods))) {
      if (cluster.pods instanceof PodMap) {
        cluster.pods.owe(cp.pods.order);
        if (this.checks.podOrder) checkPodOrder(cluster.pods, cp.pods.order);
      } else cluster.pods = inOrder(cluster.pods, cp.pods.order);
    }
    host.reindex(podsMoved.size === 0 && setsBack.size === 0 ? liveIndex : indexAt(liveIndex, cluster.pods, chain, setsBack, podsMoved, cp.byNode.order), {
      ...putBack,
      // after the records put back, the pods whose Ready writes alone were undone (ReadyLog.undo)
      podsReady: podsBack.slice(putBack.pods.size),
    });
    if (this.checks.index) checkIndex(host.currentIndex, podsByNodeAt(snap.pods, chain));
    yield;
    const running = host.controllers;
    host.controllers = controllers().filter((c) => cp.controllers.some((x) => x.name === c.name));
    const fromOf = new Map<string, RestoreFrom | undefined>();
    for (const c of host.controllers) {
      const previous = running.find((x) => x.name === c.name);
      fromOf.set(
        c.name,
        chained?.has(c.name)
          ? chainFrom(chained.get(c.name), podsReplaced, nodesReplaced, podsMovedInOrder)
          : previous && { previous, pods: podsReplaced, nodes: nodesReplaced, podsMovedInOrder },
      );
    }
    // once the last controller the views read is restored (the plan puts them first), a click may be answered
    const read = host.controllers.filter((c) => VIEWS_READ.has(c.name));
    if (read.length === 0) yield* this.viewsRestored(fromOf, cp);
    for (const c of host.controllers) {
      const from = fromOf.get(c.name);
      const saved = cp.controllers.find((x) => x.name === c.name)!.saved;
      if (c.restoreInPieces) yield* c.restoreInPieces(saved, host, from);
      else c.restore(saved, host, from);
      if (c === read[read.length - 1]) yield* this.viewsRestored(fromOf, cp);
      else yield;
    }
    return cp.loop;
  }

  private *viewsRestored(fromOf: Map<string, RestoreFrom | undefined>, cp: Checkpoint): Generator<typeof VIEWS_RESTORED, void, void> {
    this.owed = new Map([...fromOf].filter(([name]) => !VIEWS_READ.has(name)));
    this.owedFrom = cp;
    yield VIEWS_RESTORED;
    this.owed = this.owedFrom = undefined;
  }

  /** While a restore stands at VIEWS_RESTORED: what the controller `name`, owed, is to be restored from (SimController whyNotAfterRestore). */
  owedOf(name: string): { saved: unknown; from: RestoreFrom | undefined } | undefined {
    if (this.owed === undefined || !this.owed.has(name)) return undefined;
    return { saved: this.owedFrom!.controllers.find((x) => x.name === name)!.saved, from: this.owed.get(name) };
  }

  /**
   * Drops the rest of the restore under way for another restore, which takes its controllers not restored (`dropped`);
   * false, dropping nothing, unless it stands at VIEWS_RESTORED with that rest not begun (`owed`).
   */
  dropOwed(): boolean {
    if (this.owed === undefined) return false;
    this.dropped = this.owed;
    this.owed = this.owedFrom = undefined;
    return true;
  }

  /** The controllers `dropOwed` dropped, for a hand-off that takes the rest instead of a restore (handOff.ts); none after. */
  takeDropped(): Map<string, RestoreFrom | undefined> | undefined {
    const d = this.dropped;
    this.dropped = undefined;
    return d;
  }
}

/**
 * What a controller is restored from when the restore (or hand-off) before left it owed: the controller that ran before both, which last
 * heard of the records the earlier restore replaced (its record first) and of the ones only this one replaced.
 */
export function chainFrom(
  before: RestoreFrom | undefined,
  pods: ReadonlyMap<string, PodRecord | undefined>,
  nodes: ReadonlyMap<string, NodeRecord | undefined>,
  moved: ReadonlySet<string>,
): RestoreFrom | undefined {
  if (before === undefined) return undefined;
  const join = <V>(later: ReadonlyMap<string, V>, first: ReadonlyMap<string, V>) => {
    const out = new Map(later);
    for (const [key, v] of first) out.set(key, v);
    return out;
  };
  return {
    previous: before.previous,
    pods: join(pods, before.pods),
    nodes: join(nodes, before.nodes),
    podsMovedInOrder: new Set([...before.podsMovedInOrder, ...moved]),
  };
}
