/**
 * The node lifecycle controller's per-node bookkeeping for its fast paths,
 * kept in one object per node: the settled cache, the armed grace deadline,
 * whether a Lease renewal is news for the next pass, and what the pass's hot
 * loops read of the node (the Lease the event brought, its health and track).
 *
 * Why one object: at 5,000 nodes every kubelet renews its Lease every 10 s,
 * 1.8 million renewals an hour, and each is handled twice (when announced,
 * and at the next monitor pass). With a map per field that was about nine
 * string-keyed look-ups per renewal, each one a cache miss on a large heap;
 * with a slot it is one. The news list is an array rather than a Set, because
 * a Set emptied every pass is regrown (and rehashed) every pass (issue 5).
 */
import type { Micros } from '../../model/time';
import type { LeaseRecord } from '../../model/types';
import { keysSharedWith } from '../../model/sharedKeys';
import { BatchMemo } from '../../simulation/batchMemo';
import type { TimedValue } from './rateLimitedQueue';
import type { Cohort } from './graceCohorts';

/**
 * Unknown nodes found settled with nothing new since: 'tainted' (evaluating
 * them does nothing), 'waiting' (it requeues them) or, on the pod-eviction
 * path, 'queued' (in the zone queue's set: evaluating them does nothing);
 * Ready nodes for which a Lease renewal is all the news there can be: 'quiet'.
 */
export type Settled = 'tainted' | 'waiting' | 'queued' | 'quiet';

/** Slot.settled as a checkpoint keeps it (its index here; 0: undefined), and TAINTS_MATCH added for Slot.taintsMatch. */
const SETTLED_CODES: readonly (Settled | undefined)[] = [undefined, 'tainted', 'waiting', 'queued', 'quiet'];
const TAINTS_MATCH = 8;

/**
 * What a checkpoint keeps of the slots: the caches that are true of the controller's memory and the
 * records at that instant (settled, taintsMatch), so that a restore, which puts both back as they
 * were then, need not forget them. Forgotten, the pass after every restore checked each of the 5,000
 * nodes again (bench/README.md, warmrestore). The names are shared with the previous checkpoint's.
 */
export interface SavedSlots {
  names: readonly string[];
  codes: Uint8Array;
}

/** A record named after its node: a node's Lease, or the Node. */
type Named = { readonly meta: { readonly name: string } };

/** Slot.armed when no entry is armed: later than any deadline. */
export const NOT_ARMED = Number.POSITIVE_INFINITY;

export interface Slot {
  readonly name: string;
  /**
   * The controller's health entry and track of the node, kept here so that the
   * pass's hot loops (grace deadlines, Lease news) need no look-up by name;
   * undefined: not known here, look it up. The controller writes them through
   * whenever it sets or deletes the entry (a restore makes new slots).
   */
  health: unknown;
  track: unknown;
  /**
   * The node's health machine (NodeMachines), kept the same way: the grace deadlines' loop asks
   * whether the node is Ready for each of the hundreds of thousands of entries it pops an hour.
   * Cleared when the machine is made anew or dropped (NodeSlots.forgetMachine) and on a restore.
   */
  machine: unknown;
  /**
   * The node's item in its zone queue (RateLimitedTimedQueue.requeueItem) and that queue: a node
   * settled 'waiting' is requeued every pass through it (requeueKept) instead of by its name.
   */
  queued: TimedValue | undefined;
  queuedIn: unknown;
  settled: Settled | undefined;
  /**
   * The time of the node's entry in the grace-deadline heap; NOT_ARMED when
   * none. A number, never undefined: re-arming (hundreds of thousands of
   * times an hour) then writes the field in place instead of allocating
   * (bench/README.md, "not armed").
   */
  armed: Micros;
  /** the cohort of the Lease renewal that last moved the node's probe (graceCohorts.ts), while it is queued */
  cohort: Cohort | undefined;
  /** a Lease renewal came since the last pass */
  news: boolean;
  /**
   * The Lease record the last Lease event brought (undefined after a delete):
   * the pass reads it instead of looking the Lease up. Every change of the
   * cluster's Leases is announced (or followed by a restore, which makes new
   * slots), so it is the record the look-up would find.
   */
  lease: LeaseRecord | undefined;
  /**
   * The stamp of the monitor pass that put the node in its list of full
   * evaluations (NodeLifecycleController.monitorPass): "is it in the list" is
   * then a field read instead of a look-up by name (1.5 million Lease news an
   * hour at 5,000 nodes ask). A small integer, never undefined (see armed).
   */
  mark: number;
  /** The stamp of the monitor pass whose start refreshed the node's track (a dirty node): see evaluateNode. */
  refreshed: number;
  /** a kubelet's plain post (heartbeat times only) came since the last pass: see NodeSlots.noteBeat */
  beat: boolean;
  /**
   * The node's taints matched its conditions and unschedulable at a heartbeat, and no other event of
   * the node came since (NodeLifecycleController.heartbeatOf): a plain post changes none of those.
   */
  taintsMatch: boolean;
}

export class NodeSlots {
  private slots = new Map<string, Slot>();
  /**
   * Slots whose `news` was set, in the order it was set. A slot whose news
   * was dropped stays in the list with `news` false (and may be in it twice
   * if news came again): readers skip those, and `takeNews` hands each slot
   * with news over once.
   */
  private newsList: Slot[] = [];
  private newsCount = 0;
  /**
   * The list the last takeNews handed out: the next take fills it again. Two
   * lists kept and refilled instead of a new one per pass, which grew to 5,000
   * slots by doubling every pass (tens of MB an hour of garbage at 5,000 nodes).
   */
  private spare: Slot[] = [];

  /** every slot, in the order they were made */
  all(): IterableIterator<Slot> {
    return this.slots.values();
  }

  get(name: string): Slot | undefined {
    return this.slots.get(name);
  }

  /** The node's slot, made when missing. */
  of(name: string): Slot {
    let s = this.slots.get(name);
    if (!s) {
      s = {
        name,
        health: undefined,
        track: undefined,
        machine: undefined,
        queued: undefined,
        queuedIn: undefined,
        settled: undefined,
        armed: NOT_ARMED,
        cohort: undefined,
        news: false,
        lease: undefined,
        mark: 0,
        refreshed: 0,
        beat: false,
        taintsMatch: false,
      };
      this.slots.set(name, s);
    }
    return s;
  }

  /** the node's machine was made anew or dropped (registerNode, removeNode): the slot's copy goes */
  forgetMachine(name: string): void {
    const s = this.slots.get(name);
    if (s) s.machine = undefined;
  }

  settle(name: string, how: Settled): void {
    this.of(name).settled = how;
  }

  unsettle(name: string): void {
    const s = this.slots.get(name);
    if (s) s.settled = undefined;
  }

  /** a node event that may have changed what the node's taints are compared with (see taintsMatch) */
  nodeChanged(name: string): void {
    const s = this.slots.get(name);
    if (s) {
      s.settled = undefined;
      s.taintsMatch = false;
    }
  }

  unsettleAll(): void {
    for (const s of this.slots.values()) s.settled = undefined;
  }

  addNews(name: string): Slot {
    const s = this.of(name);
    this.noteNews(s);
    return s;
  }

  noteNews(s: Slot): void {
    if (!s.news) {
      s.news = true;
      this.newsList[this.newsCount++] = s;
    }
  }

  /**
   * the kubelets' batches (see batchMemo.ts) of Lease renewals and of plain status posts, each with
   * its nodes' slots (one memo for both: a batch is known by its first record, a Lease or a Node)
   */
  private batches = new BatchMemo<Named, Slot>();

  /** The slots of the first `count` records of a kubelets' batch (Leases or Nodes, named after their node), in its order. */
  forBatch(batch: readonly Named[], count: number): readonly Slot[] {
    return this.batches.get(batch, count, (r) => this.of(r.meta.name))?.values ?? [];
  }

  dropNews(name: string): void {
    const s = this.slots.get(name);
    if (s) {
      s.news = false;
      s.lease = undefined;
    }
  }

  /**
   * The slots with news, each once, in the order their news came; their news
   * is cleared, and news that comes while the caller works on them is kept
   * for the next pass.
   */
  takeNews(): Slot[] {
    const list = this.newsList;
    const count = this.newsCount;
    this.newsList = this.spare;
    this.newsCount = 0;
    this.spare = list;
    let n = 0;
    for (let i = 0; i < count; i++) {
      const s = list[i];
      if (!s.news) continue;
      s.news = false;
      list[n++] = s;
    }
    list.length = n;
    return list;
  }

  /** The names with news (for a checkpoint). */
  newsNames(): string[] {
    const out = new Set<string>();
    for (let i = 0; i < this.newsCount; i++) {
      const s = this.newsList[i];
      if (s.news) out.add(s.name);
    }
    return [...out];
  }

  /**
   * Slots with a heartbeat since the last pass (each once; `beat` set). Unlike news, a heartbeat is
   * never dropped: the pass evaluates each of these nodes, and skips those no longer there.
   */
  private beats: Slot[] = [];
  private spareBeats: Slot[] = [];
  noteBeat(s: Slot): void {
    if (!s.beat) {
      s.beat = true;
      this.beats.push(s);
    }
  }

  /** The slots with a heartbeat since the last take, their `beat` cleared (the list is reused by the take after next). */
  takeBeats(): readonly Slot[] {
    const list = this.beats;
    this.beats = this.spareBeats;
    this.beats.length = 0;
    this.spareBeats = list;
    for (let i = 0; i < list.length; i++) list[i].beat = false;
    return list;
  }

  /** The names with a heartbeat since the last pass (for a checkpoint). */
  beatNames(): string[] {
    return this.beats.map((s) => s.name);
  }

  /** The settled caches and taintsMatch of every slot (see SavedSlots); `prevNames`: the last checkpoint's names. */
  save(prevNames: readonly string[]): SavedSlots {
    const names = keysSharedWith(prevNames, this.slots);
    const codes = new Uint8Array(names.length);
    let i = 0;
    for (const s of this.slots.values()) codes[i++] = SETTLED_CODES.indexOf(s.settled) + (s.taintsMatch ? TAINTS_MATCH : 0);
    return { names, codes };
  }

  /**
   * Back to a `save()` (restore): armed entries, news and heartbeats are given again by the caller.
   * `from`: the slots of the controller that ran until now, taken over (their objects, and with them
   * the kubelets' batches remembered, which were made anew at every restore) and emptied; every
   * field of a slot is then as a new slot's but for the saved caches, and `health` when
   * `healthKept` (the health map and its entries taken over: each slot's is still the map's own
   * entry or undefined, see NodeLifecycleState.setHealth). The caller must keep the pass stamps
   * moving forward (Slot.mark, Slot.refreshed).
   */
  restore(saved: SavedSlots, from?: NodeSlots, healthKept = false): void {
    if (from !== undefined && from !== this) {
      this.slots = from.slots;
      this.batches = from.batches;
      from.slots = new Map();
      from.batches = new BatchMemo();
      for (const s of this.slots.values()) {
        if (!healthKept) s.health = undefined;
        s.track = undefined;
        s.machine = undefined;
        s.queued = undefined;
        s.queuedIn = undefined;
        s.settled = undefined;
        s.armed = NOT_ARMED;
        s.cohort = undefined;
        s.news = false;
        s.lease = undefined;
        s.beat = false;
        s.taintsMatch = false;
      }
    } else this.reset();
    this.newsList = [];
    this.newsCount = 0;
    this.spare = [];
    this.beats = [];
    this.spareBeats = [];
    const { names, codes } = saved;
    for (let i = 0; i < names.length; i++) {
      const c = codes[i];
      if (c === 0) continue;
      const s = this.of(names[i]);
      s.settled = SETTLED_CODES[c & (TAINTS_MATCH - 1)];
      s.taintsMatch = (c & TAINTS_MATCH) !== 0;
    }
  }

  /** Forgets everything (restore): armed entries, news and heartbeats are given again by the caller. */
  reset(): void {
    this.slots = new Map();
    this.newsList = [];
    this.newsCount = 0;
    this.spare = [];
    this.beats = [];
    this.spareBeats = [];
    // remembered batches point at the old slots
    this.batches.clear();
  }
}
