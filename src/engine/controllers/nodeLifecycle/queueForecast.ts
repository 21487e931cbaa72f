/**
 * When a zone's RateLimitedTimedQueue releases each node it holds, if nothing else changes: Try run
 * forward on a copy of the queue, on the 100 ms grid of doNoExecuteTaintingPass / doEvictionPass,
 * with the monitor passes in between (a pass comes before the grid's Try at the same instant, as in
 * the controller's wake). From 1.19 markNodeForTainting Removes then Adds every untainted node on each
 * pass, so each pass gives the whole queue the same ProcessAt and the nodes leave in name order
 * (spec 1.3); before that, and on the pod-eviction path, Add keeps a queued node where it is.
 *
 * The why-not reads a queued node's time from the forecast. A node still to be queued (at a monitor
 * pass `addAt`) slots into it: the token instants stay those of the forecast while the queue is not
 * empty, so only its place among them is to find.
 *
 * A zone whose state changes on the way (its nodes going Unknown push it from Normal to
 * PartialDisruption) has its limiter swapped at the monitor pass that sees it (handleDisruption's
 * setLimiterInZone): `swaps` gives those passes and rates, and the forecast's copy swaps as the queue
 * does (SwapLimiter: a new bucket, drained when the old one had no token then).
 */
import type { Duration, Micros } from '../../model/time';
import { cloneLimiter, nextAllowedOnGrid, RateLimitedTimedQueue, type LimiterState } from './rateLimitedQueue';

export interface QueueForecastOptions {
  /** the first grid instant whose Try has not run yet */
  from: Micros;
  origin: Micros;
  step: Duration;
  /** the next monitor pass, and their period */
  nextMonitor: Micros;
  period: Duration;
  /** markNodeForTainting's Remove then Add on every pass (taint-based evictions from 1.19) */
  requeues: boolean;
}

export interface QueueForecast {
  readonly options: QueueForecastOptions;
  /** the values in the order they leave, each with the grid instant of its token */
  readonly releases: readonly { value: string; at: Micros }[];
  /** value -> its index in `releases` */
  readonly order: ReadonlyMap<string, number>;
  /** every queued value leaves (false: the limiter never gives a token, or a retry outlasts the bound) */
  readonly complete: boolean;
  /** the bucket after the last release */
  readonly limiter: LimiterState;
  /** ProcessAt of each value queued now (a node still to be queued comes after those before its own) */
  readonly processAt: ReadonlyMap<string, Micros>;
}

/** setLimiterInZone at a monitor pass: the zone's new rate (SwapLimiter keeps the bucket when it is the same). */
export interface RateSwap {
  at: Micros;
  qps: number;
}

/** What a question adds to a zone's forecast: nodes still to be queued, the rate's changes, values taken out first. */
export interface QueueForecastAsk {
  arrivals?: readonly { value: string; at: Micros }[];
  swaps?: readonly RateSwap[];
  without?: ReadonlySet<string>;
}

const RELEASED = { ok: true } as const;

/**
 * `arrivals`: nodes the monitor passes will Add at their instants (1.12's pod-eviction path: a node not
 * Ready waiting out podEvictionTimeout; the taint path: a node going Unknown), so that they take their
 * place in the queue as evictPods or markNodeForTainting gives it them. An arrival's instant is a monitor
 * pass, so with `requeues` that pass's requeue gives it the same ProcessAt as the others (name order).
 */
export function forecastQueue(
  q: RateLimitedTimedQueue,
  o: QueueForecastOptions,
  arrivals: readonly { value: string; at: Micros }[] = [],
  swaps: readonly RateSwap[] = [],
  without?: ReadonlySet<string>,
): QueueForecast {
  const copy = RateLimitedTimedQueue.restore(q.save());
  // `without`: values taken out first, as if Removed now (a node whose Ready comes back before its token)
  for (const v of without ?? []) copy.remove(v);
  const processAt = new Map(copy.queued().map((i) => [i.value, i.processAt] as const));
  const releases: { value: string; at: Micros }[] = [];
  const coming = [...arrivals].sort((a, b) => a.at - b.at);
  let next = 0;
  let from = o.from;
  let monitor = o.nextMonitor;
  // after a requeue every value has the same ProcessAt (name order), and the next one keeps that order:
  // only a requeue after an Add (or the first) changes it, so the others are skipped
  let mixed = true;
  // a token taken for a head whose ProcessAt is still ahead releases nothing: bound those too
  let swap = 0;
  for (let tries = 0, bound = 2 * (q.length + coming.length) + swaps.length + 16; (copy.length || next < coming.length) && tries < bound; tries++) {
    let g = copy.nextTry(from, o.origin, o.step);
    for (;;) {
      // the pass that adds them (and then swaps the limiter) comes before the grid's Try at its instant; a Try on an empty queue takes no token
      const at = Math.min(next < coming.length ? coming[next].at : Infinity, swap < swaps.length ? swaps[swap].at : Infinity);
      if (at === Infinity || (g !== undefined && at > g)) break;
      for (; next < coming.length && coming[next].at === at; next++)
        if (copy.add(coming[next].value, '', at)) {
          processAt.set(coming[next].value, at);
          mixed = true;
        }
      for (; swap < swaps.length && swaps[swap].at === at; swap++) copy.swapLimiter(swaps[swap].qps, at);
      from = Math.max(from, at);
      g = copy.nextTry(from, o.origin, o.step);
    }
    if (g === undefined) break;
    const at = g;
    if (o.requeues && monitor <= at) {
      // every pass up to g requeues all of them to its instant: the last one is what stays
      const m = monitor + Math.floor((at - monitor) / o.period) * o.period;
      if (mixed) for (const i of [...copy.queued()]) copy.requeue(i.value, i.uid, m);
      mixed = false;
      monitor = m + o.period;
    }
    copy.try(at, (item) => {
      releases.push({ value: item.value, at });
      return RELEASED;
    });
    from = at + o.step;
  }
  return {
    options: o,
    releases,
    order: new Map(releases.map((r, i) => [r.value, i] as const)),
    complete: copy.length === 0 && next === coming.length,
    limiter: cloneLimiter(copy.limiter),
    processAt,
  };
}

/**
 * When `value` leaves the queue, and how many leave before it: a queued value by the forecast; one
 * to be queued at the monitor pass `addAt`, by its place among the values still queued then.
 * Undefined when the forecast cannot tell (incomplete, or a value queued with a ProcessAt it cannot
 * order against).
 */
export function releaseOf(f: QueueForecast, value: string, addAt?: Micros): { at: Micros; ahead: number } | undefined {
  const o = f.options;
  const known = f.order.get(value);
  if (known !== undefined) return { at: f.releases[known].at, ahead: known };
  if (addAt === undefined || !f.complete) return undefined;
  // the first release the add comes before (a pass runs before the grid's Try at its instant)
  let j = f.releases.findIndex((r) => r.at >= addAt);
  if (j < 0) j = f.releases.length;
  let k: number;
  if (o.requeues) {
    // from addAt on every queued node has ProcessAt addAt: name order
    k = j;
    for (let i = j; i < f.releases.length; i++) if (f.releases[i].value < value) k++;
  } else {
    // it keeps ProcessAt addAt; a value still waiting then with a later ProcessAt is out of this reckoning
    for (let i = j; i < f.releases.length; i++) if ((f.processAt.get(f.releases[i].value) ?? 0) >= addAt) return undefined;
    k = f.releases.length;
  }
  if (k < f.releases.length) return { at: f.releases[k].at, ahead: k };
  // after the last: the next token once the queue holds it
  const last = f.releases.length ? f.releases[f.releases.length - 1].at + o.step : o.from;
  const at = nextAllowedOnGrid(cloneLimiter(f.limiter), Math.max(last, addAt, o.from), o.origin, o.step);
  return at === undefined ? undefined : { at, ahead: k };
}
