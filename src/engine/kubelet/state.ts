/**
 * What the simulation keeps per kubelet (Kubelets' states), in columns by kubelet slot.
 *
 * Why columns: at 5,000 nodes `materialise` visits every kubelet every 10 s (1.5 million visits an
 * hour, nearly all a Lease renewal), and each visit read and wrote one state object of its own,
 * spread over the heap with the rest of the cluster. A slot's numbers now sit in a few typed arrays
 * the loop walks in order; the objects a visit touches are only the Lease record it renews (and the
 * Node at a plain post). A checkpoint copies the arrays (kubelet/checkpoint.ts).
 *
 * The slots keep the order in which kubelets were added (as the map of states did: the order of the
 * announced batches follows it); removing one moves the later ones down.
 */
import type { Micros } from '../model/time';
import type { LeaseRecord } from '../model/types';
import type { PostedCondition } from './nodestatus';

/** KubeletColumns.due when not known */
export const UNKNOWN = Number.NEGATIVE_INFINITY;
/** a time that never comes (no post or renewal due) */
export const NEVER = Number.POSITIVE_INFINITY;

/** KubeletColumns.flags */
export const STATUS = 1;
export const LEASE = 2;
export const POSTED = 4;

/** KubeletColumns.repostAt when no repost is pending */
export const NO_REPOST = Number.NaN;

const FIRST_CAPACITY = 16;

export class KubeletColumns {
  /** the kubelets' nodes by slot */
  names: string[] = [];
  /** the slot of each node's kubelet */
  index = new Map<string, number>();
  size = 0;
  /** STATUS: posting status; LEASE: renewing the Lease (meaningful when leases are on); POSTED: it has posted during the simulation */
  flags = new Uint8Array(FIRST_CAPACITY);
  /** plain posts fall on anchor + k·P (k ≥ 1) */
  anchor = new Float64Array(FIRST_CAPACITY);
  /** the last post written into the node record (the anchor until the first post) */
  lastPost = new Float64Array(FIRST_CAPACITY);
  leaseAnchor = new Float64Array(FIRST_CAPACITY);
  lastRenew = new Float64Array(FIRST_CAPACITY);
  /** a pending repost (the API's conditions differ from `desired`); NO_REPOST when none */
  repostAt = new Float64Array(FIRST_CAPACITY);
  /**
   * Before this time `materialise` has nothing to write for this kubelet: its next plain post's
   * and next renewal's grid times, as the last `materialise` that looked at it found them (NEVER:
   * neither). UNKNOWN when unknown: every change of the kubelet's timing (flags, anchors,
   * lastPost, lastRenew) outside `materialise` resets it (post, renew, stop; new and restored
   * slots start without it). A `materialise` then passes over a kubelet with nothing due with one
   * comparison instead of two divisions.
   */
  due = new Float64Array(FIRST_CAPACITY);
  /**
   * The next plain post's and the next renewal's grid times as the same `materialise` found them
   * (NEVER: none); read only while `due` is known (nothing moved the kubelet's timing since).
   */
  nextPost = new Float64Array(FIRST_CAPACITY);
  nextRenew = new Float64Array(FIRST_CAPACITY);
  /** what each posts (a list replaced, never edited in place: checkpoints share it) */
  desired: PostedCondition[][] = [];
  /**
   * The node's Lease record as last renewed: a cache, so that a renewal does not look the Lease up
   * in a map of 5,000. Valid because Lease records are replaced only by the world's apply and
   * delete, which call `forgetLease`, and by a checkpoint restore, which clears it.
   */
  leaseRecord: (LeaseRecord | undefined)[] = [];

  /** A kubelet's slot: the existing one for `name` (its values replaced), else a new one after the others. */
  put(
    name: string,
    flags: number,
    desired: PostedCondition[],
    anchor: Micros,
    lastPost: Micros,
    leaseAnchor: Micros,
    lastRenew: Micros,
    repostAt: Micros,
  ): number {
    let i = this.index.get(name);
    if (i === undefined) {
      i = this.size++;
      if (i === this.flags.length) this.grow(2 * i);
      this.names[i] = name;
      this.index.set(name, i);
    }
    this.flags[i] = flags;
    this.desired[i] = desired;
    this.anchor[i] = anchor;
    this.lastPost[i] = lastPost;
    this.leaseAnchor[i] = leaseAnchor;
    this.lastRenew[i] = lastRenew;
    this.repostAt[i] = repostAt;
    this.due[i] = UNKNOWN;
    this.nextPost[i] = NEVER;
    this.nextRenew[i] = NEVER;
    this.leaseRecord[i] = undefined;
    return i;
  }

  /** Drops `name`'s slot; the later slots move down one (their order kept). */
  remove(name: string): void {
    const at = this.index.get(name);
    if (at === undefined) return;
    this.index.delete(name);
    const n = this.size;
    for (const col of this.numberColumns()) col.copyWithin(at, at + 1, n);
    this.flags.copyWithin(at, at + 1, n);
    this.names.splice(at, 1);
    this.desired.splice(at, 1);
    this.leaseRecord.splice(at, 1);
    this.size = n - 1;
    for (let i = at; i < this.size; i++) this.index.set(this.names[i], i);
  }

  /** Empties the columns and makes room for `n` slots (a restore writes them all). */
  clear(n: number): void {
    if (this.flags.length < n) this.grow(n);
    this.names = [];
    this.index = new Map();
    this.desired = [];
    this.leaseRecord = [];
    this.size = 0;
  }

  numberColumns(): Float64Array[] {
    return [this.anchor, this.lastPost, this.leaseAnchor, this.lastRenew, this.repostAt, this.due, this.nextPost, this.nextRenew];
  }

  private grow(capacity: number): void {
    const c = Math.max(FIRST_CAPACITY, capacity);
    const more = (a: Float64Array) => {
      const b = new Float64Array(c);
      b.set(a.subarray(0, this.size));
      return b;
    };
    const flags = new Uint8Array(c);
    flags.set(this.flags.subarray(0, this.size));
    this.flags = flags;
    this.anchor = more(this.anchor);
    this.lastPost = more(this.lastPost);
    this.leaseAnchor = more(this.leaseAnchor);
    this.lastRenew = more(this.lastRenew);
    this.repostAt = more(this.repostAt);
    this.due = more(this.due);
    this.nextPost = more(this.nextPost);
    this.nextRenew = more(this.nextRenew);
  }
}

/**
 * One kubelet as tests and the engine's API see it (Kubelets.get): a view of its slot, read and
 * written through to the columns by the node's name (valid while the node's kubelet exists).
 */
export class KubeletState {
  constructor(
    private readonly cols: KubeletColumns,
    readonly node: string,
  ) {}
  private get i(): number {
    const i = this.cols.index.get(this.node);
    if (i === undefined) throw new Error(`kubelet ${this.node}: no longer there`);
    return i;
  }
  get status(): boolean {
    return (this.cols.flags[this.i] & STATUS) !== 0;
  }
  get lease(): boolean {
    return (this.cols.flags[this.i] & LEASE) !== 0;
  }
  get posted(): boolean {
    return (this.cols.flags[this.i] & POSTED) !== 0;
  }
  get desired(): PostedCondition[] {
    return this.cols.desired[this.i];
  }
  get anchor(): Micros {
    return this.cols.anchor[this.i];
  }
  get lastPost(): Micros {
    return this.cols.lastPost[this.i];
  }
  get leaseAnchor(): Micros {
    return this.cols.leaseAnchor[this.i];
  }
  get lastRenew(): Micros {
    return this.cols.lastRenew[this.i];
  }
  get repostAt(): Micros | undefined {
    const t = this.cols.repostAt[this.i];
    return Number.isNaN(t) ? undefined : t;
  }
  get due(): Micros {
    return this.cols.due[this.i];
  }
  set due(t: Micros) {
    this.cols.due[this.i] = t;
  }
  get nextPost(): Micros {
    return this.cols.nextPost[this.i];
  }
  set nextPost(t: Micros) {
    this.cols.nextPost[this.i] = t;
  }
  get nextRenew(): Micros {
    return this.cols.nextRenew[this.i];
  }
  set nextRenew(t: Micros) {
    this.cols.nextRenew[this.i] = t;
  }
  get leaseRecord(): LeaseRecord | undefined {
    return this.cols.leaseRecord[this.i];
  }
  /** the slot's values as plain data (tests compare them) */
  toJSON(): { [K in Exclude<keyof KubeletState, 'toJSON' | 'leaseRecord'>]: KubeletState[K] } {
    return {
      node: this.node,
      status: this.status,
      lease: this.lease,
      posted: this.posted,
      desired: this.desired,
      anchor: this.anchor,
      lastPost: this.lastPost,
      leaseAnchor: this.leaseAnchor,
      lastRenew: this.lastRenew,
      repostAt: this.repostAt,
      due: this.due,
      nextPost: this.nextPost,
      nextRenew: this.nextRenew,
    };
  }
}
