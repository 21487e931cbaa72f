/**
 * The per-zone RateLimitedTimedQueue of the node lifecycle controller
 * (pkg/controller/nodelifecycle/scheduler/rate_limited_queue.go) and the
 * token bucket behind it (client-go flowcontrol.NewTokenBucketRateLimiter
 * over golang.org/x/time/rate, burst 1), on the simulated clock.
 *
 * Faithful details:
 * - the QPS is a Go float32; the bucket computes in float64 from it;
 * - the bucket starts full and refills continuously; `Allow` succeeds when the
 *   deficit is worth less than one nanosecond (x/time/rate's truncation);
 *   a refused `Allow` changes nothing;
 * - `Try` takes a token *before* looking at the head's ProcessAt, processes
 *   items while tokens last, re-queues failures at now + wait + 1ns (1µs here);
 * - the queue is a set: a value processed successfully stays in the set
 *   (RemoveFromQueue) until `Remove` is called, so it cannot be added again;
 * - `SwapLimiter` keeps the limiter when the QPS is equal (float32), uses a
 *   never-accepting limiter for QPS <= 0 (whose QPS() reports 1, as client-go's
 *   fakeNeverRateLimiter does), and drains the new bucket when the old one had
 *   no token (the "drain rule");
 * - items with equal ProcessAt leave in name order (spec 1.3: Kubernetes'
 *   heap does not define it).
 */
import type { Duration, Micros } from '../../model/time';

export type LimiterState = { kind: 'bucket'; qps: number; tokens: number; last: Micros | null } | { kind: 'never' };

/** flowcontrol.NewTokenBucketRateLimiter(qps, 1): full at creation. */
export function newBucket(qps: number): LimiterState {
  return { kind: 'bucket', qps: Math.fround(qps), tokens: 1, last: null };
}

/** QPS() as client-go reports it (fake never-limiter: 1). */
export function limiterQPS(l: LimiterState): number {
  return l.kind === 'bucket' ? l.qps : 1;
}

/** The rate the limiter actually lets nodes through at (0 for the never-limiter). */
export function effectiveRate(l: LimiterState): number {
  return l.kind === 'bucket' ? l.qps : 0;
}

// time.Duration.Seconds(), from microseconds (exact: every simulated instant is a whole microsecond)
function seconds(elapsedMicros: number): number {
  const ns = elapsedMicros * 1000;
  const sec = Math.trunc(ns / 1e9);
  const nsec = ns - sec * 1e9;
  return sec + nsec / 1e9;
}

function tokensAt(l: Extract<LimiterState, { kind: 'bucket' }>, t: Micros): number {
  if (l.last === null) return 1;
  const last = t < l.last ? t : l.last;
  const tokens = l.tokens + seconds(t - last) * l.qps;
  return tokens > 1 ? 1 : tokens;
}

/** Would Allow() succeed at t? (pure) */
export function wouldAllow(l: LimiterState, t: Micros): boolean {
  if (l.kind === 'never') return false;
  const after = tokensAt(l, t) - 1;
  if (after >= 0) return true;
  // durationFromTokens(-after) truncated to whole nanoseconds must be <= 0
  return Math.trunc((-after / l.qps) * 1e9) <= 0;
}

/** Allow() / TryAccept(): takes a token when there is one. */
export function tryAccept(l: LimiterState, t: Micros): boolean {
  if (l.kind === 'never') return false;
  const tokens = tokensAt(l, t);
  if (!wouldAllow(l, t)) return false;
  l.tokens = tokens - 1;
  l.last = t;
  return true;
}

/**
 * The first instant on the grid origin + k*step, at or after `from`, at which
 * Allow() would succeed; undefined for the never-limiter.
 */
export function nextAllowedOnGrid(l: LimiterState, from: Micros, origin: Micros, step: Duration): Micros | undefined {
  if (l.kind === 'never') return undefined;
  const onGrid = (t: Micros): Micros => origin + Math.ceil((t - origin) / step) * step;
  let g = onGrid(from);
  if (wouldAllow(l, g)) return g;
  // a bucket of rate 0 (NewTokenBucketRateLimiter(0, 1)) never refills: its one token is spent.
  // Searching the grid for a refill would take a million steps at every pass.
  if (!(l.qps > 0)) return undefined;
  const missing = 1 - tokensAt(l, g);
  // seconds needed at this rate, then back one step to absorb float error
  const needed = Math.ceil((missing / l.qps) * 1e6);
  g = Math.max(g, onGrid(g + needed - step));
  for (let i = 0; i < 1_000_000; i++, g += step) if (wouldAllow(l, g)) return g;
  return undefined;
}

export function cloneLimiter(l: LimiterState): LimiterState {
  return { ...l };
}

export interface TimedValue {
  value: string;
  uid: string;
  addedAt: Micros;
  processAt: Micros;
}

/**
 * An item while the queue holds it: `taken` once it left the queue (Remove, a Try that processed it,
 * Clear), so that whoever kept it (requeueKept) knows without a look-up. Saves copy the four fields.
 */
interface Queued extends TimedValue {
  taken: boolean;
}

function queued(value: string, uid: string, addedAt: Micros, processAt: Micros): Queued {
  return { value, uid, addedAt, processAt, taken: false };
}

export type ActionResult = { ok: true } | { ok: false; wait: Duration };

export interface QueueState {
  /** the heap, as a list kept sorted by (processAt, value) */
  items: TimedValue[];
  /** UniqueQueue.set */
  set: string[];
  limiter: LimiterState;
}

export class RateLimitedTimedQueue {
  // The heap as a map plus a lazily sorted view: a monitor pass may re-add
  // thousands of values (Remove then Add) and must stay O(1) per value.
  private readonly byValue = new Map<string, Queued>();
  private sorted: Queued[] | null = [];
  /**
   * The last sorted view, when only requeues (in place) changed the queue since: the same values, maybe
   * in a new order. A zone down at 5,000 nodes has its 1,667 waiting values requeued to the same instant
   * every pass, which mostly leaves them in the order they were in: checking that costs one comparison
   * per value, a sort about eleven. Dropped by every change of which values are queued.
   */
  private requeued: Queued[] | null = null;
  private readonly set = new Set<string>();
  limiter: LimiterState;
  /** counts the changes of the queue and its set (a forecast of it is good while this stays) */
  changes = 0;

  constructor(qps: number) {
    this.limiter = newBucket(qps);
  }

  static restore(s: QueueState): RateLimitedTimedQueue {
    const q = new RateLimitedTimedQueue(1);
    for (const i of s.items) q.byValue.set(i.value, queued(i.value, i.uid, i.addedAt, i.processAt));
    q.sorted = null;
    for (const v of s.set) q.set.add(v);
    q.limiter = cloneLimiter(s.limiter);
    return q;
  }

  save(): QueueState {
    return {
      items: this.queued().map((i) => ({ value: i.value, uid: i.uid, addedAt: i.addedAt, processAt: i.processAt })),
      set: [...this.set].sort(),
      limiter: cloneLimiter(this.limiter),
    };
  }

  get length(): number {
    return this.byValue.size;
  }
  /** in the queue, waiting to be processed */
  isQueued(value: string): boolean {
    return this.byValue.has(value);
  }
  /** in the set (queued, or processed and not yet removed) */
  has(value: string): boolean {
    return this.set.has(value);
  }
  /** the queue in processing order */
  queued(): readonly Queued[] {
    if (!this.sorted) {
      const last = this.requeued;
      this.requeued = null;
      this.sorted = last !== null && inOrder(last) ? last : [...this.byValue.values()].sort(compare);
    }
    return this.sorted;
  }
  item(value: string): TimedValue | undefined {
    return this.byValue.get(value);
  }

  /** Add: false when the value is already in the set. */
  add(value: string, uid: string, now: Micros): boolean {
    if (this.set.has(value)) return false;
    this.put(queued(value, uid, now, now));
    this.set.add(value);
    return true;
  }

  /**
   * Remove then Add of a value waiting in the queue, as markNodeForTainting
   * does for an untainted node on every pass: it waits again from now. Done in
   * place (the order of the map and set is never read: `queued()` sorts, `save()` sorts).
   */
  requeue(value: string, uid: string, now: Micros): boolean {
    return this.requeueItem(value, uid, now) !== undefined;
  }

  /** requeue, answering with the value's item (undefined: not requeued), for requeueKept. */
  requeueItem(value: string, uid: string, now: Micros): TimedValue | undefined {
    const v = this.byValue.get(value);
    if (!v || v.uid !== uid) return undefined;
    this.requeueInPlace(v, now);
    return v;
  }

  /**
   * requeue of an item requeueItem gave: no look-up by value while the item is still queued (a zone
   * down at 5,000 nodes has its 1,667 waiting values requeued every pass). False when it was taken
   * out since (the caller asks requeueItem) or the uid is another.
   */
  requeueKept(item: TimedValue, uid: string, now: Micros): boolean {
    if ((item as Queued).taken || item.uid !== uid) return false;
    this.requeueInPlace(item, now);
    return true;
  }

  private requeueInPlace(v: TimedValue, now: Micros): void {
    v.addedAt = now;
    v.processAt = now;
    this.changes++;
    if (this.sorted) this.requeued = this.sorted;
    this.sorted = null;
  }

  /** Marks a value as processed without queueing it (used to reconstruct a controller that has been running). */
  markProcessed(value: string): void {
    this.changes++;
    this.set.add(value);
  }

  /** Remove: drops the value from the queue and the set; true when it was in the set. */
  remove(value: string): boolean {
    if (!this.set.has(value)) return false;
    this.changes++;
    this.set.delete(value);
    const v = this.byValue.get(value);
    if (v !== undefined) {
      v.taken = true;
      this.byValue.delete(value);
      this.sorted = null;
      this.requeued = null;
    }
    return true;
  }

  clear(): void {
    this.changes++;
    for (const v of this.byValue.values()) v.taken = true;
    this.byValue.clear();
    this.sorted = [];
    this.requeued = null;
    this.set.clear();
  }

  /**
   * Try: processes the queue at `now` while the limiter gives tokens.
   * `fn` returns ok, or a wait after which to retry.
   */
  try(now: Micros, fn: (v: TimedValue) => ActionResult): void {
    let head = this.queued()[0];
    while (head) {
      if (!tryAccept(this.limiter, now)) break;
      if (now < head.processAt) break;
      // the sorted view head came from: every change of the queue replaces or drops it
      const view = this.sorted;
      const r = fn(head);
      const current = this.byValue.get(head.value);
      if (current === head) {
        this.changes++;
        head.taken = true;
        this.byValue.delete(head.value);
        this.requeued = null;
        // Nothing changed the queue while fn ran (the view is still the one head came first in): without its
        // head it is still sorted, so it is kept instead of sorted again (a zone down at 5,000 nodes keeps
        // 1,667 values queued, each Try took two sorts of them).
        if (view !== null && this.sorted === view && view[0] === head) view.shift();
        else this.sorted = null;
        // ProcessAt = now + wait + 1ns: the smallest step on this clock is 1µs
        if (!r.ok) this.put(queued(head.value, head.uid, head.addedAt, now + r.wait + 1));
      }
      head = this.queued()[0];
    }
  }

  /** SwapLimiter; returns true when the limiter was replaced. */
  swapLimiter(newQPS: number, now: Micros): boolean {
    const qps = Math.fround(newQPS);
    if (limiterQPS(this.limiter) === qps) return false;
    let next: LimiterState;
    if (qps <= 0) {
      next = { kind: 'never' };
    } else {
      next = newBucket(qps);
      if (!tryAccept(this.limiter, now)) tryAccept(next, now);
    }
    this.limiter = next;
    return true;
  }

  /**
   * The first instant on the grid (origin + k*step, at or after `from`) at which
   * Try would take a token, if anything is queued. (Try takes the token before
   * it looks at the head's ProcessAt, so that instant is when something changes.)
   */
  nextTry(from: Micros, origin: Micros, step: Duration): Micros | undefined {
    if (this.byValue.size === 0) return undefined;
    return nextAllowedOnGrid(this.limiter, from, origin, step);
  }

  private put(v: Queued): void {
    this.changes++;
    this.byValue.set(v.value, v);
    this.sorted = null;
    this.requeued = null;
  }
}

/** True when the list is in the order compare gives (a total order: the sort would return this very list). */
function inOrder(list: readonly TimedValue[]): boolean {
  for (let i = 1; i < list.length; i++) if (!(compare(list[i - 1], list[i]) < 0)) return false;
  return true;
}

function compare(a: TimedValue, b: TimedValue): number {
  return a.processAt - b.processAt || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0);
}
