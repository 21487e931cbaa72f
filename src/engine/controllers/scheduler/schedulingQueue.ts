/**
 * When the simplified binder tries a waiting pod again: kube-scheduler's
 * scheduling queue (`PriorityQueue`), reduced to the times it decides, per
 * version.
 *
 * - A new pod is tried at once (activeQ).
 * - A pod that fits nowhere is parked (unschedulableQ / unschedulablePods)
 *   with its attempt count and the time of its last attempt.
 * - A cluster event that may make it fit moves it (`MoveAllToActiveQueue`,
 *   later `MoveAllToActiveOrBackoffQueue`): to be tried at once, or, from
 *   v1.14, when its backoff ends (backoffQ: 1 s doubling per attempt, at most
 *   10 s, counted from the last attempt). From v1.33 the scheduler pops a pod
 *   from backoffQ when activeQ is empty (SchedulerPopFromBackoffQ), so a moved
 *   pod is tried at once again.
 * - From v1.14 a pod parked longer than a limit is moved anyway by
 *   `flushUnschedulablePodsLeftover`, which runs every 30 s from the
 *   scheduler's start: 60 s (`unschedulableQTimeInterval`) until v1.23, 5 min
 *   (`podMaxInUnschedulablePodsDuration`, #108761) from v1.24.
 * - From v1.21 a node add or update moves only the pods that would pass the
 *   filters on that node (`preCheckForNode`, #100049); queueing hints later
 *   ask the same question plugin by plugin.
 *
 * Not modelled: 1.14–1.18's PodBackoffMap forgetting a pod's backoff after
 * it stayed idle (the attempt count here only grows), the move-request cycle
 * (a move during a pod's own attempt; attempts here take no time), and the
 * backoffQ's 1 s ordering windows of v1.33.
 */
import type { Micros } from '../../model/time';
import { seconds } from '../../model/time';

export interface QueueRules {
  /** backoff after the first attempt, doubled per attempt up to `maxBackoff`; 0: none (the pod moves straight to activeQ) */
  initialBackoff: Micros;
  maxBackoff: Micros;
  /** a parked pod is moved by the leftover flush after this long (null: never, it waits for an event) */
  maxInUnschedulable: Micros | null;
  /** the period of flushUnschedulablePodsLeftover */
  flushEvery: Micros;
  /** a pod moved while backing off is popped at once when nothing else waits (SchedulerPopFromBackoffQ) */
  popFromBackoffQ: boolean;
  /** a node add or update moves only the pods that would fit that node (preCheckForNode) */
  preCheckNode: boolean;
  /** where upstream says so */
  source: string;
}

const KK = 'kubernetes/kubernetes';

interface Since {
  from: number;
  value: Partial<QueueRules>;
}

/** Rows apply cumulatively: a version takes every row with `from` <= its minor. */
const RULES: readonly Since[] = [
  {
    from: 12,
    value: {
      initialBackoff: 0,
      maxBackoff: 0,
      maxInUnschedulable: null,
      flushEvery: seconds(30),
      popFromBackoffQ: false,
      preCheckNode: false,
      // PodPriority is beta and on from 1.11, so MakeDefaultErrorFunc skips the PodBackoff wait
      source: `${KK}@v1.12 pkg/scheduler/core/scheduling_queue.go (PriorityQueue: AddUnschedulableIfNotPresent, MoveAllToActiveQueue; no backoff while pod priority is on: factory.go MakeDefaultErrorFunc)`,
    },
  },
  {
    from: 14,
    value: {
      initialBackoff: seconds(1),
      maxBackoff: seconds(10),
      maxInUnschedulable: seconds(60),
      source: `${KK}@v1.14 pkg/scheduler/internal/queue/scheduling_queue.go (podBackoffQ, flushBackoffQCompleted, flushUnschedulableQLeftover every 30 s, unschedulableQTimeInterval = 60 s)`,
    },
  },
  { from: 21, value: { preCheckNode: true, source: `${KK}@v1.21 pkg/scheduler/eventhandlers.go (updateNodeInCache: preCheckForNode, #100049)` } },
  {
    from: 24,
    value: {
      maxInUnschedulable: seconds(300),
      source: `${KK}@v1.24 pkg/scheduler/internal/queue/scheduling_queue.go (DefaultPodMaxInUnschedulablePodsDuration = 5 min, #108761)`,
    },
  },
  {
    from: 33,
    value: {
      popFromBackoffQ: true,
      source: `${KK}@v1.33 pkg/scheduler/backend/queue/active_queue.go (pop from backoffQ when activeQ is empty, SchedulerPopFromBackoffQ beta on, KEP-5142)`,
    },
  },
];

const cache = new Map<number, QueueRules>();

export function queueRulesFor(minor: number): QueueRules {
  let r = cache.get(minor);
  if (!r) {
    const out = {} as QueueRules;
    const sources: string[] = [];
    for (const row of RULES)
      if (minor >= row.from) {
        Object.assign(out, row.value);
        if (row.value.source) sources.push(row.value.source);
      }
    out.source = sources.join('; ');
    r = out;
    cache.set(minor, r);
  }
  return r;
}

/** The backoff after `attempts` attempts (calculateBackoffDuration: initial, doubled per further attempt, capped). */
export function backoffOf(rules: QueueRules, attempts: number): Micros {
  if (attempts <= 0 || rules.initialBackoff <= 0) return 0;
  let d = rules.initialBackoff;
  for (let i = 1; i < attempts; i++) {
    if (d > rules.maxBackoff - d) return rules.maxBackoff;
    d += d;
  }
  return Math.min(d, rules.maxBackoff);
}

/** A pod the binder has not bound yet. */
export interface Waiting {
  /** scheduling attempts so far */
  attempts: number;
  /** when it was last tried (its queue timestamp) */
  last: Micros;
  /** when it is tried next; null: parked until an event or the leftover flush */
  due: Micros | null;
}

/** When a pod moved now is tried: at once, or when its backoff ends. */
export function dueAfterMove(rules: QueueRules, w: Waiting, now: Micros): Micros {
  if (rules.popFromBackoffQ) return now;
  return Math.max(now, w.last + backoffOf(rules, w.attempts));
}

/**
 * The first run of the leftover flush (every `flushEvery` from `origin`) at which a pod parked since
 * `last` has waited longer than the limit (`Since(timestamp) > max`, strictly); null when there is none.
 */
export function leftoverAt(rules: QueueRules, origin: Micros, last: Micros): Micros | null {
  if (rules.maxInUnschedulable === null) return null;
  const after = last + rules.maxInUnschedulable;
  const k = Math.floor((after - origin) / rules.flushEvery) + 1;
  return origin + Math.max(0, k) * rules.flushEvery;
}

/** When the pod is tried next if nothing happens: its due time, else the leftover flush. */
export function nextTry(rules: QueueRules, origin: Micros, w: Waiting): Micros | null {
  if (w.due !== null) return w.due;
  const at = leftoverAt(rules, origin, w.last);
  return at === null ? null : dueAfterMove(rules, w, at);
}
