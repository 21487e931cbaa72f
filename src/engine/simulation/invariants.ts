/**
 * The checking mode's invariants (issue 17): cheap assertions over the decision trace as it
 * grows, that the fuzzer turns on for every run (`createSimulation(s, { checkInvariants: true })`).
 *
 * - every taint and eviction has a recorded cause, and causes point back in the trace;
 * - a zone's rate-limited taints and evictions (the ones its queue released) are never
 *   closer together than its token bucket (burst 1, `rate` per second) allows, unless the
 *   zone's limiter was swapped in between (a new bucket starts full, as SwapLimiter's does;
 *   so the first release is free even at rate 0, and the second never comes);
 * - a pod a controller deleted never comes back (no controller binds, starts or creates it
 *   again), unless the world applies it anew;
 * - decisions are numbered in order and never go back in time;
 * - no ReplicaSet sync creates or deletes more than burstReplicas pods.
 *
 * A violation is a message naming the decision; the checker never throws.
 */
import type { Decision } from '../trace/decision';
import type { DecisionList } from '../trace/decisionLog';

const CAUSED_ACTIONS = new Set(['TaintAdded', 'PodEvicted', 'NodeQueuedForEviction', 'NodeQueuedForTainting', 'PodEvictionScheduled']);
/** the bucket may hand out a token a little early through float rounding of the 100 ms passes */
const TOLERANCE_SECONDS = 0.001;

interface Bucket {
  at: number;
  rate: number;
  key: string;
}

export class InvariantChecker {
  private seen = 0;
  private lastTime = '';
  private readonly buckets = new Map<string, Bucket>();
  private readonly deleted = new Map<string, number>();
  private readonly found: string[] = [];

  constructor(private readonly burstReplicas: number) {}

  get violations(): readonly string[] {
    return this.found;
  }

  /** Checks the decisions added since the last call; a trace that shrank (a step back) is checked again from its start. */
  observe(trace: DecisionList): void {
    if (trace.length < this.seen) this.restart();
    for (; this.seen < trace.length; this.seen++) this.check(trace.at(this.seen)!, this.seen);
  }

  private restart(): void {
    this.seen = 0;
    this.lastTime = '';
    this.buckets.clear();
    this.deleted.clear();
    // violations already found stay found
  }

  private fail(d: Decision, message: string): void {
    if (this.found.length < 100) this.found.push(`seq ${d.seq} ${d.action} ${d.object} at ${d.time}: ${message}`);
  }

  private check(d: Decision, index: number): void {
    if (d.seq !== index + 1) this.fail(d, `seq ${d.seq} at trace position ${index + 1}`);
    // RFC3339 with milliseconds and four-digit years sorts as text
    if (d.time < this.lastTime) this.fail(d, `goes back in time from ${this.lastTime}`);
    this.lastTime = d.time;
    if (CAUSED_ACTIONS.has(d.action) && d.controller !== 'world' && d.causes.length === 0) this.fail(d, 'no recorded cause');
    for (const c of d.causes) if (!(c >= 0 && c < d.seq)) this.fail(d, `cause ${c} is not an earlier decision`);
    this.checkRate(d);
    this.checkResurrection(d);
    if ((d.action === 'PodsCreated' || d.action === 'PodsDeleted') && Array.isArray(d.details?.pods) && d.details.pods.length > this.burstReplicas) {
      this.fail(d, `${d.details.pods.length} pods in one sync, more than burstReplicas (${this.burstReplicas})`);
    }
  }

  private checkRate(d: Decision): void {
    if (d.action === 'ControllerManagerRestarted') {
      // a new leader builds new queues, and new buckets start full
      this.buckets.clear();
      return;
    }
    if (d.action === 'EvictionRateChanged') {
      // SwapLimiter: a new bucket; the next release may come at once
      for (const [key, b] of this.buckets) if (b.key === d.object) this.buckets.delete(key);
      return;
    }
    if (d.controller !== 'node-lifecycle' || (d.action !== 'TaintAdded' && d.action !== 'PodEvicted')) return;
    const released = d.because.find((c) => c.values && typeof c.values.zone === 'string' && typeof c.values.rate === 'number');
    if (!released) return;
    const zone = released.values!.zone as string;
    const rate = released.values!.rate as number;
    const at = Date.parse(d.time) / 1000;
    const queue = d.action === 'TaintAdded' ? 'taint' : 'evict';
    const key = `${queue}|${zone}`;
    // all pods of one node released at one instant took one token
    const node = d.action === 'PodEvicted' ? String(released.values!.node ?? '') : d.object;
    const token = `${node}@${d.time}`;
    const prev = this.buckets.get(key);
    if (prev && (prev as Bucket & { token?: string }).token === token) return;
    // a new bucket starts full (burst 1): the first release is free at any rate, even 0, as
    // NewTokenBucketRateLimiter(0, 1) lets one through; after it, one per 1/rate seconds
    if (prev && !(at - prev.at >= 1 / Math.max(rate, prev.rate) - TOLERANCE_SECONDS)) {
      this.fail(d, `${zone} released two nodes ${(at - prev.at).toFixed(3)}s apart, faster than its rate ${rate}/s allows`);
    }
    this.buckets.set(key, Object.assign({ at, rate, key: zone }, { token }));
  }

  private checkResurrection(d: Decision): void {
    const pods = podsOf(d);
    if (d.controller === 'world') {
      // the world may apply a pod of the same name again: a new pod
      if (d.action === 'ObjectApplied') for (const p of pods) this.deleted.delete(p);
      if (d.action === 'ObjectDeleted') for (const p of pods) this.deleted.set(p, d.seq);
      return;
    }
    if (d.action === 'PodEvicted' || d.action === 'PodsDeleted') {
      for (const p of pods) this.deleted.set(p, d.seq);
      return;
    }
    if (d.action === 'PodBound' || d.action === 'PodStarted' || d.action === 'PodsCreated' || d.action === 'PodsAdopted') {
      for (const p of pods) {
        const when = this.deleted.get(p);
        if (when !== undefined) this.fail(d, `${p} was deleted by decision ${when} and came back`);
      }
    }
  }
}

/** The pods a decision is about: its object, or `details.pods` of a sync (names in the ReplicaSet's namespace). */
function podsOf(d: Decision): string[] {
  const obj = String(d.object);
  if (obj.startsWith('Pod/')) return [obj.slice(4)];
  const list = d.details?.pods;
  if (obj.startsWith('ReplicaSet/') && Array.isArray(list)) {
    const ns = obj.split('/')[1];
    return list.map((p) => (String(p).includes('/') ? String(p) : `${ns}/${String(p)}`));
  }
  return [];
}
