/**
 * One xstate machine per ReplicaSet: the controller's in-memory state for it,
 * and the only place that state lives. Two parallel regions:
 *
 * - `expectations` (pkg/controller/controller_utils.go ControllerExpectations,
 *   UIDTrackingControllerExpectations): `satisfied` when there is no record
 *   or it is fulfilled (adds <= 0 and deletes <= 0), `pending` while creations
 *   or deletions the controller made have not been observed through the
 *   informer. A pending record older than ExpectationsTimeout (5 minutes,
 *   compared strictly: `clock.Since(timestamp) > ExpectationsTimeout`) counts
 *   as satisfied. SATISFIED_EXPECTATIONS is syncReplicaSet asking SatisfiedExpectations: when
 *   neither holds, a self transition answers that the sync does not manage
 *   replicas (the ExpectationsPending decision records it).
 * - `queue` (client-go workqueue with DefaultControllerRateLimiter, as the
 *   ReplicaSet controller uses it): `idle`, `queued` (the key waits to be
 *   processed at `dueAt`), `syncing` (syncReplicaSet runs; an add meanwhile
 *   marks the key dirty and it is queued again when done), `backoff` (the sync
 *   returned an error: AddRateLimited, 5 ms doubling per failure, capped at
 *   1000 s; a plain add meanwhile makes it due at once, as workqueue.Add does).
 *   A delayed add (AddAfter, for minReadySeconds) is kept as `resyncAt`; the
 *   delaying queue keeps only the earliest per key.
 */
import { assign, setup } from 'xstate';
import type { Micros, Duration } from '../../model/time';
import { MICROS_PER_MS, MICROS_PER_SECOND, formatTime, minutes } from '../../model/time';
import type { GuardRules } from '../../machines/guardChecks';

/** controller_utils.go ExpectationsTimeout */
export const EXPECTATIONS_TIMEOUT: Duration = minutes(5);
/** workqueue.DefaultControllerRateLimiter: ItemExponentialFailureRateLimiter(5ms, 1000s) */
export const BACKOFF_BASE: Duration = 5 * MICROS_PER_MS;
export const BACKOFF_MAX: Duration = 1000 * MICROS_PER_SECOND;

export interface ReplicaSetMachineContext {
  /** outstanding creations (may go below 0, as upstream's atomic counters) */
  add: number;
  /** outstanding deletions */
  del: number;
  /** pod keys (ns/name) whose deletion is expected (UIDTrackingControllerExpectations) */
  delKeys: string[];
  /** when the expectations were set (SetExpectations' timestamp), null when none */
  expectedAt: Micros | null;
  /** when the queued key is processed, null when not queued */
  dueAt: Micros | null;
  /** the earliest delayed add (AddAfter), null when none */
  resyncAt: Micros | null;
  /** the rate limiter's failure count for the key (reset by Forget) */
  failures: number;
  /** added again while syncing */
  dirty: boolean;
}

export type ReplicaSetMachineEvent =
  | { type: 'ENQUEUE'; at: Micros }
  | { type: 'ENQUEUE_AFTER'; at: Micros }
  | { type: 'RESYNC_DUE' }
  | { type: 'DEQUEUE' }
  | { type: 'SYNCED' }
  | { type: 'SYNC_FAILED'; now: Micros }
  | { type: 'EXPECT'; add: number; delKeys: string[]; now: Micros }
  | { type: 'CREATION_OBSERVED'; count: number }
  | { type: 'DELETION_OBSERVED'; key: string }
  | { type: 'SATISFIED_EXPECTATIONS'; now: Micros }
  | { type: 'DELETE_EXPECTATIONS' };

export const initialContext = (): ReplicaSetMachineContext => ({
  add: 0,
  del: 0,
  delKeys: [],
  expectedAt: null,
  dueAt: null,
  resyncAt: null,
  failures: 0,
  dirty: false,
});

/**
 * A copy of a context: its fields, in initialContext's order (the transition table's copy, see
 * machines/contextTable.ts). Every field of the context is listed: the transition table test steps a table
 * using it against a live actor.
 */
export const copyMachineContext = (c: ReplicaSetMachineContext): ReplicaSetMachineContext => ({
  add: c.add,
  del: c.del,
  delKeys: c.delKeys,
  expectedAt: c.expectedAt,
  dueAt: c.dueAt,
  resyncAt: c.resyncAt,
  failures: c.failures,
  dirty: c.dirty,
});

/** The rate limiter's delay for the n-th consecutive failure (n from 0): 5ms * 2^n, at most 1000 s. */
export function backoffDelay(failures: number): Duration {
  if (failures > 40) return BACKOFF_MAX;
  return Math.min(BACKOFF_BASE * 2 ** failures, BACKOFF_MAX);
}

/**
 * The machine's actions, each an `assign` of one of these: kept as a record so that the transition
 * table (machines/contextTable.ts) replays the very functions xstate runs.
 */
export const assignments = {
  /** SetExpectations: a new record replaces the old one */
  setExpectations: ({ event }: Args): Partial<ReplicaSetMachineContext> => {
    if (event.type !== 'EXPECT') return {};
    return { add: event.add, del: event.delKeys.length, delKeys: [...event.delKeys], expectedAt: event.now };
  },
  /** LowerExpectations(add) */
  lowerCreations: ({ context, event }: Args): Partial<ReplicaSetMachineContext> =>
    event.type === 'CREATION_OBSERVED' ? { add: context.add - event.count } : {},
  /** LowerExpectations(del) and forget the key */
  lowerDeletion: ({ context, event }: Args): Partial<ReplicaSetMachineContext> =>
    event.type === 'DELETION_OBSERVED' ? { del: context.del - 1, delKeys: context.delKeys.filter((k) => k !== event.key) } : {},
  /** DeleteExpectations (or an expired record that no longer holds anything back) */
  clearExpectations: (): Partial<ReplicaSetMachineContext> => ({ add: 0, del: 0, delKeys: [], expectedAt: null }),
  /** workqueue.Add: due at the given time, or earlier if already due earlier */
  enqueue: ({ context, event }: Args): Partial<ReplicaSetMachineContext> =>
    event.type === 'ENQUEUE' ? { dueAt: context.dueAt === null ? event.at : Math.min(context.dueAt, event.at) } : {},
  /** workqueue.Add while the key is in backoff: due now */
  enqueueNow: ({ event }: Args): Partial<ReplicaSetMachineContext> => (event.type === 'ENQUEUE' ? { dueAt: event.at } : {}),
  /** workqueue.AddAfter: the delaying queue keeps the earliest time per key */
  enqueueAfter: ({ context, event }: Args): Partial<ReplicaSetMachineContext> =>
    event.type === 'ENQUEUE_AFTER' ? { resyncAt: context.resyncAt === null ? event.at : Math.min(context.resyncAt, event.at) } : {},
  clearResync: (): Partial<ReplicaSetMachineContext> => ({ resyncAt: null }),
  takeFromQueue: (): Partial<ReplicaSetMachineContext> => ({ dueAt: null, dirty: false }),
  markDirty: (): Partial<ReplicaSetMachineContext> => ({ dirty: true }),
  /** workqueue.Forget: the rate limiter forgets the failures */
  forget: (): Partial<ReplicaSetMachineContext> => ({ failures: 0 }),
  /** Done re-adds the dirty key now; AddRateLimited still puts it in the delaying queue (earliest kept) */
  countFailure: ({ context, event }: Args): Partial<ReplicaSetMachineContext> => {
    if (event.type !== 'SYNC_FAILED') return {};
    const at = event.now + backoffDelay(context.failures);
    return { failures: context.failures + 1, dirty: false, resyncAt: context.resyncAt === null ? at : Math.min(context.resyncAt, at) };
  },
  /** AddRateLimited: due after 5ms * 2^failures */
  rateLimit: ({ context, event }: Args): Partial<ReplicaSetMachineContext> =>
    event.type === 'SYNC_FAILED' ? { dueAt: event.now + backoffDelay(context.failures), failures: context.failures + 1, dirty: false } : {},
};
type Args = { context: ReplicaSetMachineContext; event: ReplicaSetMachineEvent };

const time = (v: unknown): unknown => (typeof v === 'number' ? formatTime(v) : v);
const count = (v: unknown): unknown => (Array.isArray(v) ? v.length : v);

/** The ReplicaSet machine's guards in words, with the event and context fields each reads (a decision's `because` lists them). */
export const replicaSetGuardRules: GuardRules = {
  expectsSomething: {
    rule: 'ExpectCreations(n > 0) or ExpectDeletions(keys) leaves something for the informer to observe (delKeys: how many)',
    reads: ['add', 'delKeys'],
    show: { delKeys: count },
  },
  lastCreationObserved: {
    rule: 'CreationObserved brings the record to fulfilled (adds <= 0 and deletes <= 0)',
    reads: ['count'],
    context: ['add', 'del'],
  },
  deletionWasExpected: { rule: 'DeletionObserved counts only a pod whose deletion was expected', reads: ['key'], context: ['del'] },
  lastDeletionObserved: {
    rule: 'DeletionObserved of the last expected deletion brings the record to fulfilled',
    reads: ['key'],
    context: ['add', 'del'],
  },
  expectationsFulfilled: {
    rule: 'Fulfilled: no creation or deletion left to observe (adds <= 0 and deletes <= 0)',
    reads: [],
    context: ['add', 'del'],
  },
  expectationsExpired: {
    rule: 'isExpired: the expectations were set more than 5m0s ago (clock.Since(timestamp) > ExpectationsTimeout)',
    reads: ['now'],
    context: ['expectedAt'],
    show: { now: time, expectedAt: time },
  },
  addedWhileSyncing: { rule: 'the key was added again while syncReplicaSet ran (workqueue dirty)', reads: [], context: ['dirty'] },
};

export const replicaSetMachine = setup({
  types: {
    context: {} as ReplicaSetMachineContext,
    events: {} as ReplicaSetMachineEvent,
  },
  guards: {
    /** ExpectCreations(n>0) or ExpectDeletions(keys non-empty) leaves something to observe */
    expectsSomething: ({ event }) => event.type === 'EXPECT' && (event.add > 0 || event.delKeys.length > 0),
    /** CreationObserved brings the record to fulfilled (adds <= 0 and deletes <= 0) */
    lastCreationObserved: ({ context, event }) => event.type === 'CREATION_OBSERVED' && context.add - event.count <= 0 && context.del <= 0,
    /** DeletionObserved only counts for a pod whose deletion was expected */
    deletionWasExpected: ({ context, event }) => event.type === 'DELETION_OBSERVED' && context.delKeys.includes(event.key),
    lastDeletionObserved: ({ context, event }) =>
      event.type === 'DELETION_OBSERVED' && context.delKeys.includes(event.key) && context.del - 1 <= 0 && context.add <= 0,
    /** ControlleeExpectations.Fulfilled: add <= 0 && del <= 0 */
    expectationsFulfilled: ({ context, event }) => event.type === 'SATISFIED_EXPECTATIONS' && context.add <= 0 && context.del <= 0,
    /** isExpired: clock.Since(timestamp) > ExpectationsTimeout */
    expectationsExpired: ({ context, event }) =>
      event.type === 'SATISFIED_EXPECTATIONS' && context.expectedAt !== null && event.now - context.expectedAt > EXPECTATIONS_TIMEOUT,
    addedWhileSyncing: ({ context }) => context.dirty,
  },
  actions: {
    setExpectations: assign(assignments.setExpectations),
    lowerCreations: assign(assignments.lowerCreations),
    lowerDeletion: assign(assignments.lowerDeletion),
    clearExpectations: assign(assignments.clearExpectations),
    enqueue: assign(assignments.enqueue),
    enqueueNow: assign(assignments.enqueueNow),
    enqueueAfter: assign(assignments.enqueueAfter),
    clearResync: assign(assignments.clearResync),
    takeFromQueue: assign(assignments.takeFromQueue),
    markDirty: assign(assignments.markDirty),
    forget: assign(assignments.forget),
    countFailure: assign(assignments.countFailure),
    rateLimit: assign(assignments.rateLimit),
  },
}).createMachine({
  id: 'replicaset',
  type: 'parallel',
  context: initialContext,
  states: {
    expectations: {
      initial: 'satisfied',
      states: {
        satisfied: {
          description: 'SatisfiedExpectations: no record, or every expected creation and deletion was observed',
          on: {
            EXPECT: [
              {
                guard: 'expectsSomething',
                target: 'pending',
                actions: 'setExpectations',
                description: 'ExpectCreations / ExpectDeletions before the API calls',
              },
              { actions: 'setExpectations' },
            ],
          },
        },
        pending: {
          description: 'syncReplicaSet skips manageReplicas until the informer has seen what the controller did, or 5 minutes pass',
          on: {
            EXPECT: [
              { guard: 'expectsSomething', target: 'pending', actions: 'setExpectations' },
              { target: 'satisfied', actions: 'setExpectations' },
            ],
            CREATION_OBSERVED: [
              { guard: 'lastCreationObserved', target: 'satisfied', actions: 'lowerCreations', description: 'the last expected pod creation was observed' },
              { actions: 'lowerCreations' },
            ],
            DELETION_OBSERVED: [
              { guard: 'lastDeletionObserved', target: 'satisfied', actions: 'lowerDeletion', description: 'the last expected pod deletion was observed' },
              { guard: 'deletionWasExpected', actions: 'lowerDeletion' },
            ],
            // SatisfiedExpectations, as syncReplicaSet asks it: Fulfilled(), else isExpired(), else
            // "Controller expectations not met" and the sync does not manage replicas. `pending` is never
            // fulfilled (the observations leave it when they fulfil it), but the answer lists the check upstream makes.
            SATISFIED_EXPECTATIONS: [
              { guard: 'expectationsFulfilled', target: 'satisfied', description: 'Fulfilled: every expected creation and deletion was observed' },
              {
                guard: 'expectationsExpired',
                target: 'satisfied',
                actions: 'clearExpectations',
                description: 'expectations older than 5m0s count as satisfied',
              },
              { description: 'Controller expectations not met: the sync does not manage replicas' },
            ],
            DELETE_EXPECTATIONS: { target: 'satisfied', actions: 'clearExpectations' },
          },
        },
      },
    },
    queue: {
      initial: 'idle',
      on: {
        ENQUEUE_AFTER: { actions: 'enqueueAfter' },
        RESYNC_DUE: { actions: 'clearResync' },
      },
      states: {
        idle: {
          on: {
            ENQUEUE: { target: 'queued', actions: 'enqueue' },
          },
        },
        queued: {
          on: {
            ENQUEUE: { actions: 'enqueue' },
            DEQUEUE: { target: 'syncing', actions: 'takeFromQueue' },
          },
        },
        syncing: {
          description: 'syncReplicaSet runs; the key is not processed twice at once',
          on: {
            ENQUEUE: { actions: ['markDirty', 'enqueue'] },
            SYNCED: [
              { guard: 'addedWhileSyncing', target: 'queued', actions: 'forget' },
              { target: 'idle', actions: 'forget' },
            ],
            SYNC_FAILED: [
              // workqueue.Done re-adds a key that was added while it was processed at once;
              // the failure still counts, and the rate-limited add waits in the delaying queue.
              { guard: 'addedWhileSyncing', target: 'queued', actions: 'countFailure' },
              { target: 'backoff', actions: 'rateLimit', description: 'AddRateLimited: retried after 5ms doubling per consecutive failure' },
            ],
          },
        },
        backoff: {
          on: {
            ENQUEUE: { target: 'queued', actions: 'enqueueNow' },
            DEQUEUE: { target: 'syncing', actions: 'takeFromQueue' },
          },
        },
      },
    },
  },
});

/**
 * When a key in backoff is synced again: its rate-limited add, or an add still waiting in the
 * delaying queue from before (a failed sync whose key was re-added at once keeps its earlier
 * AddRateLimited as `resyncAt`: the queue keeps the earliest).
 */
export function syncedAgainAt(dueAt: Micros, resyncAt: Micros | null): Micros {
  return resyncAt !== null && resyncAt < dueAt ? resyncAt : dueAt;
}
