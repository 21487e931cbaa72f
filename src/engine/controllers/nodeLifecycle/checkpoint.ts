/**
 * The node lifecycle controller's checkpoints: save and restore its memory
 * (state.ts). Health and tracks are saved in columns; what the controller
 * never edits in place is shared with the checkpoint instead of copied.
 */
import { createTracedActor } from '../../machines/traced';
import { columnsSharedWith, keysSharedWith, type MapColumns, mapOfColumns, sameKeysInOrder } from '../../model/sharedKeys';
import type { Micros } from '../../model/time';
import type { NodeCondition } from '../../model/types';
import type { MachineTransition } from '../../trace/decision';
import type { ControllerHost } from '../controllerHost';
import { DeadlineHeap } from './deadlines';
import { GraceCohorts } from './graceCohorts';
import { NodeHealthData } from './nodeHealthData';
import { zoneMachine } from './machines';
import { type QueueState, RateLimitedTimedQueue } from './rateLimitedQueue';
import type { SavedSlots } from './slots';
import { type Health, NodeLifecycleState, type Track, monitorMachineTable } from './state';
import type { StateValue } from 'xstate';

/**
 * Every node's health and track in a checkpoint, in columns: at 5,000 nodes a
 * checkpoint held a few objects per node, and every Ready node's probe moves
 * between checkpoints, so none could be shared. The names are shared with the
 * previous checkpoint when they are the same.
 */
export interface SavedHealth {
  names: readonly string[];
  /** per node: probe, readyTransition, the saved Lease's renewTime (NaN: none) */
  times: Float64Array;
  /** per node: 1 when a Lease is saved */
  lease: Uint8Array;
  /** replaced, never edited in place (tryUpdateNodeHealth writes a new entry with a copy): shared */
  savedReady: (NodeCondition | null)[];
}

export interface SavedTracks {
  names: readonly string[];
  uid: string[];
  zone: string[];
  excluded: (string | undefined)[];
  evaluated: boolean[];
  /** replaced, never edited in place (recount): shared */
  counted: ({ zone: string; notReady: boolean } | undefined)[];
}

export interface SavedNodeLifecycle {
  started: boolean;
  assumptionSeq: number | undefined;
  memory: 'reconstructed' | 'fresh';
  reconstructPending: boolean;
  origin: Micros;
  nextMonitorAt: Micros;
  lastMonitorAt: Micros | null;
  lastGridPass: Micros | null;
  lastNow: Micros;
  pendingAt: Micros | null;
  pendingNodes: string[];
  pendingPods: string[];
  retryPods: string[];
  /** node name -> uid (columns shared with the previous checkpoint while the same, as below) */
  known: MapColumns<string>;
  health: SavedHealth;
  tracks: SavedTracks;
  retry: string[];
  dirty: string[];
  leaseRenewed: string[];
  watch: string[];
  /** each Ready node's grace deadline, in columns (an object a node per checkpoint was 5,000 objects) */
  deadlines: SavedDeadlines;
  queues: [string, QueueState][];
  zones: [string, unknown][];
  zoneCounts: [string, { total: number; notReady: number }][];
  nodeActors: MapColumns<StateValue>;
  monitor: unknown;
  transitions: MapColumns<MachineTransition & { seq?: number }>;
  /** the slots' settled caches (slots.ts), and the three flags of classifyNodes' shortcut, as they were: see restore */
  slots: SavedSlots;
  sortedNames: string[] | null;
  membershipChanged: boolean;
  zonesMayBeMissing: boolean;
}

export function saveNodeLifecycle(nlc: NodeLifecycleState): SavedNodeLifecycle {
  return {
    started: nlc.started,
    assumptionSeq: nlc.assumptionSeq,
    memory: nlc.memory,
    reconstructPending: nlc.reconstructPending,
    origin: nlc.origin,
    nextMonitorAt: nlc.nextMonitorAt,
    lastMonitorAt: nlc.lastMonitorAt,
    lastGridPass: nlc.lastGridPass,
    lastNow: nlc.lastNow,
    pendingAt: nlc.pendingAt,
    pendingNodes: [...nlc.pendingNodes],
    pendingPods: [...nlc.pendingPods],
    retryPods: [...nlc.retryPods],
    known: (nlc.savedColumns.known = columnsSharedWith(nlc.savedColumns.known, nlc.known, same)),
    health: saveHealth(nlc),
    tracks: saveTracks(nlc),
    retry: [...nlc.retry],
    // a heartbeat is saved as dirty: restored, the node is refreshed and evaluated, as a beat is
    dirty: [...nlc.dirty, ...nlc.slots.beatNames().filter((n) => !nlc.dirty.has(n))],
    leaseRenewed: nlc.slots.newsNames(),
    watch: [...nlc.watch.keys()],
    // only the live entries: the heap keeps stale ones until their time comes
    // the deadline each Ready node with an entry stands for (the armed entry may be earlier: see arm)
    deadlines: liveDeadlines(nlc),
    queues: [...nlc.queues].map(([k, q]) => [k, q.save()]),
    zones: [...nlc.zoneActors].map(([k, a]) => [k, a.actor.getPersistedSnapshot()]),
    zoneCounts: [...nlc.zoneCounts].map(([k, c]) => [k, { ...c }]),
    nodeActors: (nlc.savedColumns.nodeActors = nlc.nodes.save(nlc.savedColumns.nodeActors)),
    monitor: nlc.monitor ? nlc.monitor.save() : undefined,
    // transitions are replaced, never edited: shared with the checkpoint
    transitions: (nlc.savedColumns.transitions = columnsSharedWith(nlc.savedColumns.transitions, nlc.transitions, same)),
    slots: saveSlots(nlc),
    // replaced, never edited in place: shared
    sortedNames: nlc.sortedNames,
    membershipChanged: nlc.membershipChanged,
    zonesMayBeMissing: nlc.zonesMayBeMissing,
  };
}

const same = <V>(v: V): V => v;

function saveSlots(nlc: NodeLifecycleState): SavedSlots {
  const saved = nlc.slots.save(nlc.savedNames.slots);
  nlc.savedNames.slots = saved.names;
  return saved;
}

export function saveHealth(nlc: NodeLifecycleState): SavedHealth {
  const n = nlc.health.size;
  const names = (nlc.savedNames.health = keysSharedWith(nlc.savedNames.health, nlc.health));
  const times = new Float64Array(n * 3);
  const lease = new Uint8Array(n);
  const savedReady: (NodeCondition | null)[] = new Array(n);
  let i = 0;
  for (const h of nlc.health.values()) {
    times[i * 3] = h.probe;
    times[i * 3 + 1] = h.readyTransition;
    times[i * 3 + 2] = h.renewTime ?? Number.NaN;
    lease[i] = h.hasLease ? 1 : 0;
    savedReady[i] = h.savedReady;
    i++;
  }
  return { names, times, lease, savedReady };
}

export function saveTracks(nlc: NodeLifecycleState): SavedTracks {
  const n = nlc.tracks.size;
  const names = (nlc.savedNames.tracks = keysSharedWith(nlc.savedNames.tracks, nlc.tracks));
  const out: SavedTracks = { names, uid: new Array(n), zone: new Array(n), excluded: new Array(n), evaluated: new Array(n), counted: new Array(n) };
  let i = 0;
  for (const t of nlc.tracks.values()) {
    out.uid[i] = t.uid;
    out.zone[i] = t.zone;
    out.excluded[i] = t.excluded;
    out.evaluated[i] = t.evaluated;
    out.counted[i] = t.counted;
    i++;
  }
  return out;
}

export interface SavedDeadlines {
  names: string[];
  times: Float64Array;
}

export function liveDeadlines(nlc: NodeLifecycleState): SavedDeadlines {
  const names: string[] = [];
  const times: Micros[] = [];
  // each node once, in the order of the entries: its slot marked with a stamp of its own (Slot.mark;
  // a pass's stamp is always newer), its health and track read through the slot (the maps' own)
  const stamp = ++nlc.passStamp;
  const items = nlc.deadlines.items();
  nlc.cohorts.forEach(nlc.slots.all(), (slot) => items.push(slot));
  for (let i = 0; i < items.length; i++) {
    const slot = items[i];
    if (slot.mark === stamp) continue;
    slot.mark = stamp;
    const h = nlc.slotHealth(slot);
    const t = nlc.slotTrack(slot);
    if (h && t && nlc.isReady(slot.name, t)) {
      names.push(slot.name);
      times.push(h.probe + nlc.grace);
    }
  }
  return { names: names.slice(), times: Float64Array.from(times) };
}

/** `previous`: the state of the controller that ran until now (dropped after the restore), whose node machines and health entries are taken over */
export function restoreNodeLifecycle(nlc: NodeLifecycleState, saved: unknown, host: ControllerHost, previous?: NodeLifecycleState): void {
  // Copied: only what the live controller edits in place (health, tracks, zone counts, the zone
  // machines' snapshots; queues copy themselves). The rest is replaced, never edited, and is shared
  // with the checkpoint: a structuredClone of all of it (5,000 nodes) was most of a restore.
  const s = saved as SavedNodeLifecycle;
  nlc.applySettings(host);
  nlc.started = s.started;
  nlc.assumptionSeq = s.assumptionSeq;
  nlc.memory = s.memory;
  nlc.reconstructPending = s.reconstructPending;
  nlc.origin = s.origin;
  nlc.nextMonitorAt = s.nextMonitorAt;
  nlc.lastMonitorAt = s.lastMonitorAt;
  nlc.lastGridPass = s.lastGridPass;
  nlc.lastNow = s.lastNow;
  nlc.pendingAt = s.pendingAt;
  nlc.pendingNodes = new Set(s.pendingNodes);
  nlc.pendingPods = new Set(s.pendingPods);
  nlc.retryPods = new Set(s.retryPods);
  nlc.known = mapOfColumns(s.known);
  const liveHealth = previous?.health;
  nlc.health = restoreHealth(s.health, previous);
  nlc.tracks = restoreTracks(s.tracks);
  nlc.retry = new Set(s.retry);
  nlc.dirty = new Set(s.dirty);
  // The settled caches and the classifyNodes flags as saved: each was true of the memory and the records
  // at the checkpoint, and a restore puts both back as they were (a forgotten cache cost the pass after
  // every restore a check of each node). The previous controller's slots are taken over, with the stamps
  // they carry: this controller's pass stamps go on from there.
  if (previous) nlc.passStamp = Math.max(nlc.passStamp, previous.passStamp);
  nlc.slots.restore(s.slots, previous?.slots, liveHealth !== undefined && nlc.health === liveHealth);
  // each answer is a function of its key alone (the zone's state and the event's counts): still true
  if (previous) nlc.zoneAnswers.takeOver(previous.zoneAnswers);
  nlc.watch = new Map();
  for (const name of s.watch) nlc.watch.set(name, nlc.slots.of(name));
  const { names, times } = s.deadlines;
  nlc.deadlines = new DeadlineHeap();
  nlc.cohorts = new GraceCohorts();
  for (let i = 0; i < names.length; i++) nlc.deadlines.push(times[i], nlc.slots.of(names[i]));
  for (const name of s.leaseRenewed) nlc.slots.addNews(name);
  for (let i = 0; i < names.length; i++) {
    const slot = nlc.slots.of(names[i]);
    if (times[i] < slot.armed) slot.armed = times[i];
  }
  nlc.sortedNames = s.sortedNames;
  nlc.membershipChanged = s.membershipChanged;
  nlc.zonesMayBeMissing = s.zonesMayBeMissing;
  nlc.tally = new Map();
  for (const t of nlc.tracks.values()) {
    if (!t.counted) continue;
    const c = nlc.tally.get(t.counted.zone) ?? { total: 0, notReady: 0 };
    c.total++;
    if (t.counted.notReady) c.notReady++;
    nlc.tally.set(t.counted.zone, c);
  }
  nlc.queues = new Map(s.queues.map(([k, q]) => [k, RateLimitedTimedQueue.restore(q)]));
  for (const a of nlc.zoneActors.values()) a.stop();
  nlc.zoneActors = new Map(
    s.zones.map(([k, snap]) => [k, createTracedActor(zoneMachine, `zone/${k}`, { snapshot: structuredClone(snap), traceGuards: true })]),
  );
  nlc.zoneCounts = new Map(s.zoneCounts.map(([k, c]) => [k, { ...c }]));
  nlc.nodes.restore(s.nodeActors, previous?.nodes);
  nlc.monitor = monitorMachineTable().instance('monitor', structuredClone(s.monitor) as StateValue | undefined);
  nlc.transitions = mapOfColumns(s.transitions);
}

/**
 * The health entries as saved. The previous controller's map and entries are taken over and written
 * in place while it holds the saved nodes in the saved order (each entry and its Lease are that
 * controller's own: edited in place, never shared); else made anew.
 */
function restoreHealth(s: SavedHealth, previous?: NodeLifecycleState): Map<string, Health> {
  const live = previous?.health;
  if (previous !== undefined) previous.health = new Map();
  if (live !== undefined && sameKeysInOrder(live, s.names.length, (i) => s.names[i])) {
    let i = 0;
    for (const h of live.values()) {
      const renew = s.times[i * 3 + 2];
      h.probe = s.times[i * 3];
      h.readyTransition = s.times[i * 3 + 1];
      h.savedReady = s.savedReady[i];
      if (!s.lease[i]) h.forgetLease();
      else h.saveLease(Number.isNaN(renew) ? undefined : renew);
      i++;
    }
    return live;
  }
  const out = new Map<string, Health>();
  for (let i = 0; i < s.names.length; i++) {
    const renew = s.times[i * 3 + 2];
    out.set(s.names[i], new NodeHealthData(s.times[i * 3], s.times[i * 3 + 1], s.savedReady[i], s.lease[i] === 1, Number.isNaN(renew) ? undefined : renew));
  }
  return out;
}

function restoreTracks(s: SavedTracks): Map<string, Track> {
  const out = new Map<string, Track>();
  for (let i = 0; i < s.names.length; i++) {
    out.set(s.names[i], { uid: s.uid[i], zone: s.zone[i], evaluated: s.evaluated[i], excluded: s.excluded[i], counted: s.counted[i] });
  }
  return out;
}
