/**
 * The node lifecycle controller's state machines (xstate v5). They hold the
 * states a user asks "why?" about and record every transition the
 * controller takes; the controller reads them back (whyNot, zones(), the
 * machine view) instead of keeping a second copy.
 *
 * - node health (one actor per known node, id `node/NAME`), two parallel regions:
 *   - `ready`: the Ready condition as the controller last saw it after its own
 *     update (`currentReadyCondition`): NotObserved (no Ready condition), True,
 *     False, Unknown;
 *   - `eviction`: idle, queuedForTainting, tainted (a not-ready / unreachable
 *     NoExecute taint is on the node), queuedForEviction, evicted (the pod
 *     eviction path of 1.12 … 1.26 without taint-based evictions).
 * - zone (one per zone, id `zone/KEY`): Initial, Normal, PartialDisruption,
 *   FullDisruption, decided by ComputeZoneState's guards.
 * - monitor (id `monitor`): the monitor loop (waiting / passing) and the
 *   cluster-wide "all zones fully disrupted" mode.
 *
 * Performance (design/performance-notes.md): events are sent only when they
 * can change a state; heartbeats never reach the machines.
 */
import { setup } from 'xstate';
import type { GuardRules } from '../../machines/guardChecks';

// ---------------------------------------------------------------- node health

export type ReadyStatus = 'True' | 'False' | 'Unknown';

export type NodeHealthEvent =
  | NodeAddedEvent
  | NodeDeletedEvent
  | { type: 'READY_OBSERVED'; status: ReadyStatus }
  | { type: 'READY_MISSING' }
  | { type: 'STATUS_UNKNOWN_SET' }
  | MarkNodeForTaintingEvent
  | { type: 'TAINT_PASS'; reconstructed?: boolean; fromZoneLeft?: boolean }
  | { type: 'TAINT_SWAPPED' }
  | MarkNodeAsReachableEvent
  | { type: 'DEQUEUED'; queuedElsewhere?: boolean }
  | { type: 'QUEUED_FOR_EVICTION'; heldByZoneLeft?: boolean }
  | { type: 'EVICTION_PASS'; fromZoneLeft?: boolean }
  | { type: 'EVICTION_CANCELLED' }
  | { type: 'REGISTERED_AGAIN' };

/**
 * monitorNodeHealth's registration of a node classifyNodes found: asked with what classifyNodes reads,
 * whether knownNodeSet holds the node's name (only a node it does not hold is "added").
 */
export type NodeAddedEvent = { type: 'NODE_ADDED'; inKnownNodeSet: boolean };

/** monitorNodeHealth's removal of a node classifyNodes found deleted: whether the node list still holds it. */
export type NodeDeletedEvent = { type: 'NODE_DELETED'; inNodeList: boolean };

/**
 * markNodeForTainting, asked with what upstream's code reads before it writes (the zone is the
 * node's current one, GetZoneKey): whether this zone's queue has the node waiting (`queuedHere`) or
 * its set holds it (`inZoneSet`: Add refuses a value its set holds, rate_limited_queue.go), whether the
 * node carries the NoExecute taint its Ready calls for (`ownTaint`), and whether the version removes an
 * untainted node first (`removesUntainted`, 1.19+: "if !TaintExists(...) { Remove(node.Name) }").
 */
export type MarkNodeForTaintingEvent = {
  type: 'MARK_NODE_FOR_TAINTING';
  queuedHere: boolean;
  inZoneSet: boolean;
  ownTaint: boolean;
  removesUntainted: boolean;
  heldByZoneLeft?: boolean;
};

/**
 * markNodeAsReachable, asked with what it removes: how many of the unreachable / not-ready NoExecute
 * taints the node carries (RemoveTaintOffNode of each), and whether the current zone's queue has the
 * node waiting (its Remove).
 */
export type MarkNodeAsReachableEvent = { type: 'MARK_NODE_AS_REACHABLE'; noExecuteTaints: number; queuedHere: boolean };

const bits = (n: number, width: number): string => n.toString(2).padStart(width, '0');
const MARK_KEYS = Array.from({ length: 8 }, (_, i) => `MARK_NODE_FOR_TAINTING:${bits(i, 3)}`);
const REACHABLE_KEYS = Array.from({ length: 4 }, (_, i) => `MARK_NODE_AS_REACHABLE:${bits(i, 2)}`);

/** The event fields the node health machine's guards read: with the type, they determine its answer (machines/table.ts). */
export function nodeHealthEventKey(e: NodeHealthEvent): string {
  if (e.type === 'READY_OBSERVED') return `${e.type}:${e.status}`;
  if (e.type === 'NODE_ADDED') return e.inKnownNodeSet ? 'NODE_ADDED:known' : 'NODE_ADDED';
  if (e.type === 'NODE_DELETED') return e.inNodeList ? 'NODE_DELETED:listed' : 'NODE_DELETED';
  if (e.type === 'TAINT_PASS' && e.reconstructed) return e.fromZoneLeft ? 'TAINT_PASS:reconstructed:fromZoneLeft' : 'TAINT_PASS:reconstructed';
  // a node that changed zone (zoneQueues.ts): the fields the zone-move guards read
  // asked for every node a monitor pass evaluates in full: keys made once, by the guards' inputs
  if (e.type === 'MARK_NODE_FOR_TAINTING') return MARK_KEYS[+e.queuedHere * 4 + +keptInZoneSet(e) * 2 + +(e.heldByZoneLeft === true)]!;
  if (e.type === 'MARK_NODE_AS_REACHABLE') return REACHABLE_KEYS[+(e.noExecuteTaints > 0) * 2 + +e.queuedHere]!;
  if (e.type === 'QUEUED_FOR_EVICTION' && e.heldByZoneLeft) return `${e.type}:heldByZoneLeft`;
  if ((e.type === 'TAINT_PASS' || e.type === 'EVICTION_PASS') && e.fromZoneLeft) return `${e.type}:fromZoneLeft`;
  if (e.type === 'DEQUEUED' && e.queuedElsewhere) return 'DEQUEUED:queuedElsewhere';
  return e.type;
}

/** Add refuses the node: this zone's set holds it and no Remove came first (the node carries its taint, or the version does not remove). */
const keptInZoneSet = (e: MarkNodeForTaintingEvent): boolean => e.inZoneSet && !(e.removesUntainted && !e.ownTaint);

const observed = (status: ReadyStatus) => ({
  guard: `readyIs${status}` as const,
  target: status,
  description:
    status === 'True'
      ? 'The kubelet posted Ready=True (a heartbeat the controller saw in its monitor pass).'
      : status === 'False'
        ? 'The kubelet posted Ready=False.'
        : 'The node carries Ready=Unknown (written by an earlier controller or a user).',
});
const statusUnknownSet = {
  target: 'Unknown',
  description:
    'No heartbeat (Ready lastHeartbeatTime or Lease renewTime) for longer than the grace period: the controller set Ready and the other conditions to Unknown (tryUpdateNodeHealth).',
} as const;
const readyMissing = {
  target: 'NotObserved',
  description: 'The node has no Ready condition any more (removed by someone) and its startup grace period has not run out: currentReadyCondition is nil.',
} as const;
const markedReachable = {
  target: 'idle',
  description: 'Ready is True again (or all zones are fully disrupted): markNodeAsReachable removed the NoExecute taints and the queue entry.',
} as const;
const alreadyWaiting = {
  guard: 'queuedHere',
  description:
    "Nothing to do: the node waits in this zone's queue already (1.19+, without its taint, Remove then Add puts it back at the end of the queue, no news).",
} as const;
const addRefused = {
  guard: 'keptInZoneSet',
  description:
    "Nothing to do: this zone's queue set holds the node (released and kept there) and nothing removed it first, so Add refuses it (before 1.19 a node whose taint someone removed is not queued again).",
} as const;
const nothingToRemove = {
  description:
    "Nothing to do: the node carries neither NoExecute taint and does not wait in this zone's queue (Remove still drops a released entry from its set).",
} as const;
const taintSwapped = {
  target: 'tainted',
  description:
    'Ready is False with the unreachable NoExecute taint on the node, or Unknown with the not-ready one: processTaintBaseEviction swapped it at once, without the queue.',
} as const;
const taintPass = {
  target: 'tainted',
  description: "doNoExecuteTaintingPass released the node (the zone's token bucket had a token) and added the not-ready/unreachable NoExecute taint.",
} as const;
const zoneLeftTaintPass =
  "The queue of a zone the node has left released it (markNodeAsReachable had removed it only from its current zone's queue): doNoExecuteTaintingPass added the NoExecute taint.";
const zoneLeftEvictionPass =
  "The pod eviction queue of a zone the node has left released it (cancelPodEviction had removed it only from its current zone's queue): doEvictionPass deleted its pods.";
const evictionCancelled = {
  target: 'idle',
  description: 'Ready is True again (or all zones are fully disrupted): cancelPodEviction removed the node from the eviction queue.',
} as const;

/** The node health machine's guards in words, with the event fields each reads (a decision's `because` lists them). */
export const nodeHealthGuardRules: GuardRules = {
  notInKnownNodeSet: { rule: 'classifyNodes: the node is not in knownNodeSet (a new node)', reads: ['inKnownNodeSet'] },
  notInNodeList: { rule: 'classifyNodes: the node is in knownNodeSet but no longer in the node list (a deleted node)', reads: ['inNodeList'] },
  readyIsTrue: { rule: "the node's Ready condition, as the controller saw it, is True", reads: ['status'] },
  readyIsFalse: { rule: "the node's Ready condition, as the controller saw it, is False", reads: ['status'] },
  readyIsUnknown: { rule: "the node's Ready condition, as the controller saw it, is Unknown", reads: ['status'] },
  reconstructed: {
    rule: 'controllerMemory reconstructed: the NoExecute taint matching Ready was already on the node in the snapshot',
    reads: ['reconstructed'],
  },
  // Upstream keeps one rate-limited queue per zone and reaches it by the node's current zone key
  // (markNodeForTainting, evictPods, markNodeAsReachable, cancelPodEviction: zone...[GetZoneKey(node)]);
  // a node that changes zone stays in the queue of the zone it left, which goes on releasing it.
  heldByZoneLeft: {
    rule: "the queue of a zone the node has left still holds it (queued, or released and kept in its set): upstream's Add looks only at the new zone's queue",
    reads: ['heldByZoneLeft'],
  },
  fromZoneLeft: {
    rule: "released by the queue of a zone the node has left: markNodeAsReachable / cancelPodEviction had removed it only from its current zone's queue",
    reads: ['fromZoneLeft'],
  },
  queuedElsewhere: {
    rule: "another zone's queue still holds the node queued: it waits there to be tainted",
    reads: ['queuedElsewhere'],
  },
  queuedHere: { rule: "the node waits in its current zone's queue (queued, not yet released)", reads: ['queuedHere'] },
  keptInZoneSet: {
    rule: "markNodeForTainting's Add refuses the node: its zone queue's set holds it, and it was not removed first (it carries its NoExecute taint, or the version removes none)",
    reads: ['inZoneSet', 'ownTaint', 'removesUntainted'],
  },
  hasNoExecuteTaints: {
    rule: 'markNodeAsReachable: the node carries the unreachable or the not-ready NoExecute taint, which it removes',
    reads: ['noExecuteTaints'],
  },
};

/**
 * Transitions sit in the sub-states that upstream takes them from: an event
 * another sub-state does not accept is refused (the controller then writes
 * nothing, and throws when built with strictMachines).
 */
export const nodeHealthMachine = setup({
  types: { events: {} as NodeHealthEvent },
  guards: {
    notInKnownNodeSet: ({ event }) => event.type === 'NODE_ADDED' && !event.inKnownNodeSet,
    notInNodeList: ({ event }) => event.type === 'NODE_DELETED' && !event.inNodeList,
    readyIsTrue: ({ event }) => event.type === 'READY_OBSERVED' && event.status === 'True',
    readyIsFalse: ({ event }) => event.type === 'READY_OBSERVED' && event.status === 'False',
    readyIsUnknown: ({ event }) => event.type === 'READY_OBSERVED' && event.status === 'Unknown',
    reconstructed: ({ event }) => event.type === 'TAINT_PASS' && event.reconstructed === true,
    heldByZoneLeft: ({ event }) => (event.type === 'MARK_NODE_FOR_TAINTING' || event.type === 'QUEUED_FOR_EVICTION') && event.heldByZoneLeft === true,
    fromZoneLeft: ({ event }) => (event.type === 'TAINT_PASS' || event.type === 'EVICTION_PASS') && event.fromZoneLeft === true,
    queuedElsewhere: ({ event }) => event.type === 'DEQUEUED' && event.queuedElsewhere === true,
    queuedHere: ({ event }) => (event.type === 'MARK_NODE_FOR_TAINTING' || event.type === 'MARK_NODE_AS_REACHABLE') && event.queuedHere,
    keptInZoneSet: ({ event }) => event.type === 'MARK_NODE_FOR_TAINTING' && keptInZoneSet(event),
    hasNoExecuteTaints: ({ event }) => event.type === 'MARK_NODE_AS_REACHABLE' && event.noExecuteTaints > 0,
  },
}).createMachine({
  id: 'nodeHealth',
  type: 'parallel',
  on: {
    NODE_ADDED: {
      guard: 'notInKnownNodeSet',
      target: ['.ready.NotObserved', '.eviction.idle'],
      description:
        'monitorNodeHealth: "Controller observed a new Node": added to knownNodeSet, its zone given a queue (addPodEvictorForNewZone) and a RegisteredNode event recorded; nothing observed of it yet.',
    },
    NODE_DELETED: {
      guard: 'notInNodeList',
      target: ['.ready.NotObserved', '.eviction.idle'],
      description:
        'monitorNodeHealth: "Controller observed a Node deletion": removed from knownNodeSet and a RemovingNode event recorded; the controller forgets what it saw of the node (its machine is dropped).',
    },
  },
  states: {
    ready: {
      initial: 'NotObserved',
      states: {
        NotObserved: { on: { READY_OBSERVED: [observed('True'), observed('False'), observed('Unknown')], STATUS_UNKNOWN_SET: statusUnknownSet } },
        True: { on: { READY_OBSERVED: [observed('False'), observed('Unknown')], STATUS_UNKNOWN_SET: statusUnknownSet, READY_MISSING: readyMissing } },
        False: { on: { READY_OBSERVED: [observed('True'), observed('Unknown')], STATUS_UNKNOWN_SET: statusUnknownSet, READY_MISSING: readyMissing } },
        Unknown: {
          on: {
            READY_OBSERVED: [observed('True'), observed('False')],
            // only when the Ready condition was missing: tryUpdateNodeHealth writes when the condition differs
            STATUS_UNKNOWN_SET: {
              ...statusUnknownSet,
              description: 'The Ready condition was missing (removed by someone) past the grace period: written anew as Unknown (NodeStatusNeverUpdated).',
            },
            READY_MISSING: readyMissing,
          },
        },
      },
    },
    eviction: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            MARK_NODE_FOR_TAINTING: [
              {
                guard: 'queuedHere',
                target: 'queuedForTainting',
                description:
                  'The node came back to a zone whose queue kept it waiting (a zone queue keeps a node that leaves the zone): it waits there to be tainted.',
              },
              addRefused,
              {
                target: 'queuedForTainting',
                description:
                  "Ready is False/Unknown and the zone's queue does not hold the node: markNodeForTainting added it to the zone's rate-limited queue.",
              },
            ],
            TAINT_SWAPPED: {
              ...taintSwapped,
              description: `${taintSwapped.description} The taint was put there by someone else (a user, or an earlier leader).`,
            },
            TAINT_PASS: [
              {
                guard: 'reconstructed',
                target: 'tainted',
                description:
                  'controllerMemory reconstructed: the node already carries the NoExecute taint matching its Ready status, as if the tainting pass had added it.',
              },
              { guard: 'fromZoneLeft', target: 'tainted', description: zoneLeftTaintPass },
            ],
            EVICTION_PASS: { guard: 'fromZoneLeft', target: 'evicted', description: zoneLeftEvictionPass },
            MARK_NODE_AS_REACHABLE: [
              {
                guard: 'hasNoExecuteTaints',
                ...markedReachable,
                description: 'markNodeAsReachable removed a NoExecute taint someone else put there (a user, or an earlier leader).',
              },
              {
                guard: 'queuedHere',
                ...markedReachable,
                description: 'markNodeAsReachable removed the node from a zone queue that kept it waiting (the node came back to that zone).',
              },
              nothingToRemove,
            ],
            QUEUED_FOR_EVICTION: {
              target: 'queuedForEviction',
              description: "Ready has been False/Unknown for longer than podEvictionTimeout: evictPods added the node to the zone's pod eviction queue.",
            },
            EVICTION_CANCELLED: {
              ...evictionCancelled,
              description:
                'cancelPodEviction removed an entry the machine had already left behind: the node came back to a zone whose queue still held it (a zone queue keeps a node that leaves the zone).',
            },
          },
        },
        queuedForTainting: {
          on: {
            TAINT_PASS: taintPass,
            TAINT_SWAPPED: taintSwapped,
            MARK_NODE_AS_REACHABLE: markedReachable,
            DEQUEUED: [
              {
                guard: 'queuedElsewhere',
                target: 'queuedForTainting',
                description:
                  "The tainting pass of one zone's queue found the node Ready again and dropped that entry; the queue of another zone still holds it.",
              },
              { target: 'idle', description: 'The tainting pass found the node Ready again and dropped its queue entry.' },
            ],
            MARK_NODE_FOR_TAINTING: [
              alreadyWaiting,
              addRefused,
              {
                guard: 'heldByZoneLeft',
                target: 'queuedForTainting',
                description:
                  "The node changed zone while queued: markNodeForTainting added it to its new zone's queue too, and the queue of the zone it left still holds it (upstream's queues are per zone); the first to release it taints it.",
              },
            ],
          },
        },
        tainted: {
          on: {
            TAINT_PASS: {
              ...taintPass,
              description:
                "doNoExecuteTaintingPass released the node again (it was queued again after someone removed its taint): the taint's timeAdded is refreshed.",
            },
            TAINT_SWAPPED: taintSwapped,
            MARK_NODE_AS_REACHABLE: markedReachable,
            MARK_NODE_FOR_TAINTING: [
              alreadyWaiting,
              {
                ...addRefused,
                description:
                  "Nothing to do: the node keeps its NoExecute taint and this zone's queue set holds it (released and kept there), so Add refuses it; before 1.19 so too when someone removed the taint.",
              },
              {
                target: 'queuedForTainting',
                description:
                  'The node lost its NoExecute taint (someone removed it; 1.19+ removes and adds it), or carries it into a zone whose queue does not hold it, and is not Ready: markNodeForTainting queued it again.',
              },
            ],
          },
        },
        queuedForEviction: {
          on: {
            EVICTION_PASS: {
              target: 'evicted',
              description: "doEvictionPass released the node (the zone's token bucket had a token) and deleted its pods (DaemonSet pods excepted).",
            },
            EVICTION_CANCELLED: evictionCancelled,
            QUEUED_FOR_EVICTION: {
              guard: 'heldByZoneLeft',
              target: 'queuedForEviction',
              description:
                "The node changed zone while queued: evictPods added it to its new zone's pod eviction queue too, and the queue of the zone it left still holds it (upstream's queues are per zone); each deletes its pods when it releases it.",
            },
          },
        },
        evicted: {
          on: {
            EVICTION_PASS: {
              target: 'evicted',
              description: "nodeEvictionMap (1.17+): the node's pods were evicted already; evictPods deletes pods that arrive later at once.",
            },
            EVICTION_CANCELLED: evictionCancelled,
            QUEUED_FOR_EVICTION: {
              guard: 'heldByZoneLeft',
              target: 'queuedForEviction',
              description:
                "The node changed zone after its pods were evicted: the set of the zone it left holds it, its new zone's queue does not, so evictPods added it there (before nodeEvictionMap, 1.12 ... 1.17); released, its pods are deleted again.",
            },
            REGISTERED_AGAIN: {
              target: 'queuedForEviction',
              description:
                "nodeEvictionMap (1.17+): the node was deleted and added again before the next monitor pass; registerNode marks it unmarked (evictPods then toBeEvicted) while it stays in the zone queue's set: pods that arrive later are no longer deleted at once.",
            },
          },
        },
      },
    },
  },
});

// ----------------------------------------------------------------------- zone

export type ZoneEvent = { type: 'ZONE_HEALTH'; ready: number; notReady: number; unhealthyZoneThreshold: number } | { type: 'ALL_ZONES_FULLY_DISRUPTED' };

/** ComputeZoneState's comparisons, with Go's float32 arithmetic. */
export function isFullDisruption(ready: number, notReady: number): boolean {
  return ready === 0 && notReady > 0;
}
export function isPartialDisruption(ready: number, notReady: number, threshold: number): boolean {
  return notReady > 2 && Math.fround(Math.fround(notReady) / Math.fround(notReady + ready)) >= Math.fround(threshold);
}

/** The zone machine's guards in words, with the event fields each reads. */
export const zoneGuardRules: GuardRules = {
  noReadyNodes: { rule: 'ComputeZoneState: no node of the zone is Ready and at least one is not (FullDisruption)', reads: ['ready', 'notReady'] },
  unhealthyRatioAtLeastThreshold: {
    rule: 'ComputeZoneState: more than 2 nodes are not Ready and notReady/all >= unhealthyZoneThreshold (PartialDisruption)',
    reads: ['ready', 'notReady', 'unhealthyZoneThreshold'],
  },
};

export const zoneMachine = setup({
  types: { events: {} as ZoneEvent },
  guards: {
    noReadyNodes: ({ event }) => event.type === 'ZONE_HEALTH' && isFullDisruption(event.ready, event.notReady),
    unhealthyRatioAtLeastThreshold: ({ event }) =>
      event.type === 'ZONE_HEALTH' && isPartialDisruption(event.ready, event.notReady, event.unhealthyZoneThreshold),
  },
}).createMachine({
  id: 'zone',
  initial: 'Initial',
  states: { Initial: {}, Normal: {}, PartialDisruption: {}, FullDisruption: {} },
  on: {
    ZONE_HEALTH: [
      { guard: 'noReadyNodes', target: '.FullDisruption', description: 'ComputeZoneState: no node of the zone is Ready (and at least one is not).' },
      {
        guard: 'unhealthyRatioAtLeastThreshold',
        target: '.PartialDisruption',
        description: 'ComputeZoneState: more than 2 nodes are not Ready and notReady/all >= unhealthyZoneThreshold.',
      },
      { target: '.Normal', description: 'ComputeZoneState: otherwise the zone is Normal.' },
    ],
    ALL_ZONES_FULLY_DISRUPTED: {
      target: '.FullDisruption',
      description: 'handleDisruption: every zone is fully disrupted, so the controller assumes a master-side problem and stops all evictions.',
    },
  },
});

// -------------------------------------------------------------------- monitor

export type MonitorEvent = { type: 'PASS_START' } | { type: 'PASS_END' } | { type: 'ENTER_MASTER_DISRUPTION' } | { type: 'EXIT_MASTER_DISRUPTION' };

export const monitorMachine = setup({
  types: { events: {} as MonitorEvent },
}).createMachine({
  id: 'monitor',
  type: 'parallel',
  states: {
    loop: {
      initial: 'waiting',
      states: {
        waiting: { on: { PASS_START: { target: 'passing', description: 'nodeMonitorPeriod elapsed: monitorNodeHealth runs over every node.' } } },
        passing: { on: { PASS_END: { target: 'waiting' } } },
      },
    },
    disruption: {
      initial: 'Normal',
      states: {
        Normal: {
          on: {
            ENTER_MASTER_DISRUPTION: {
              target: 'AllZonesFullyDisrupted',
              description: "handleDisruption: all zones are fully disrupted; taints are removed, evictions cancelled and every zone's rate set to 0.",
            },
          },
        },
        AllZonesFullyDisrupted: {
          on: {
            EXIT_MASTER_DISRUPTION: {
              target: 'Normal',
              description: "handleDisruption: some node is Ready again; every node's probe timestamp is reset to now and the zones' rates restored.",
            },
          },
        },
      },
    },
  },
});
