/**
 * nodeHealthData (pkg/controller/nodelifecycle/node_lifecycle_controller.go): what the controller
 * remembers of a node between passes — probeTimestamp, readyTransitionTimestamp, the saved status's
 * Ready condition and the saved Lease.
 *
 * The probe and the saved Lease are read and written only through this class, so that where they
 * are kept can change without their ~30 readers and writers (the fast paths, tryUpdateNodeHealth,
 * the checkpoints) knowing. The why-nots and the views read a plain copy (`view`).
 */
import type { Micros } from '../../model/time';
import type { NodeCondition } from '../../model/types';

/** MicroTime.Before with nil pointers: false unless both are set. */
export function microBefore(a: Micros | undefined, b: Micros | undefined): boolean {
  return a !== undefined && b !== undefined && a < b;
}

/** nodeHealthData as the why-nots and the views read it: a plain record, made when asked. */
export interface HealthView {
  probe: Micros;
  readyTransition: Micros;
  savedReady: NodeCondition | null;
  lease: { renewTime?: Micros } | null;
}

/**
 * The probe and the saved Lease of the entries the slots hold, by slot (slots.ts Slot.index): a pass
 * where every kubelet renews writes three numbers per node here (leaseOnly) instead of reading and
 * writing 5,000 entries. An entry is attached to its slot's row while it is that slot's `health`
 * (NodeLifecycleState.setHealth, slotHealth), and holds its own values otherwise.
 */
export class HealthColumns {
  probe = new Float64Array(64);
  /** the saved Lease's renewTime; NaN: it had none */
  renew = new Float64Array(64);
  /** 1: a Lease is saved */
  saved = new Uint8Array(64);

  /** room for row `at` */
  ensure(at: number): void {
    if (at < this.probe.length) return;
    let n = this.probe.length;
    while (n <= at) n *= 2;
    const grow = <A extends Float64Array | Uint8Array>(a: A, make: (n: number) => A): A => {
      const b = make(n);
      b.set(a);
      return b;
    };
    this.probe = grow(this.probe, (k) => new Float64Array(k));
    this.renew = grow(this.renew, (k) => new Float64Array(k));
    this.saved = grow(this.saved, (k) => new Uint8Array(k));
  }
}

export class NodeHealthData {
  /** the columns this entry's probe and Lease are kept in (row `at`), while attached; else its own fields */
  private cols: HealthColumns | undefined = undefined;
  private at = -1;

  /** probeTimestamp */
  private probeAt: Micros;
  /** readyTransitionTimestamp */
  readyTransition: Micros;
  /** the Ready condition of the saved status; null when the saved status has none */
  savedReady: NodeCondition | null;
  /** a Lease is saved (upstream's `lease` is not nil) */
  private leaseSaved: boolean;
  /** its renewTime (undefined: the Lease had none) */
  private renewAt: Micros | undefined;

  constructor(probe: Micros, readyTransition: Micros, savedReady: NodeCondition | null, leaseSaved: boolean, renewTime: Micros | undefined) {
    this.probeAt = probe;
    this.readyTransition = readyTransition;
    this.savedReady = savedReady;
    this.leaseSaved = leaseSaved;
    this.renewAt = leaseSaved ? renewTime : undefined;
  }

  get probe(): Micros {
    const c = this.cols;
    return c === undefined ? this.probeAt : c.probe[this.at];
  }

  set probe(t: Micros) {
    const c = this.cols;
    if (c === undefined) this.probeAt = t;
    else c.probe[this.at] = t;
  }

  /** a Lease is saved */
  get hasLease(): boolean {
    const c = this.cols;
    return c === undefined ? this.leaseSaved : c.saved[this.at] === 1;
  }

  /** the saved Lease's renewTime (undefined: none saved, or it had none) */
  get renewTime(): Micros | undefined {
    const c = this.cols;
    if (c === undefined) return this.renewAt;
    const r = c.renew[this.at];
    return Number.isNaN(r) ? undefined : r;
  }

  /** the Lease `observed` counts as renewed: "always update the probe time if the node lease is renewed" */
  leaseIsNews(observed: { readonly renewTime?: Micros } | undefined): boolean {
    return observed !== undefined && (!this.hasLease || microBefore(this.renewTime, observed.renewTime));
  }

  /** the saved Lease is now one with this renewTime */
  saveLease(renewTime: Micros | undefined): void {
    const c = this.cols;
    if (c === undefined) {
      this.leaseSaved = true;
      this.renewAt = renewTime;
    } else {
      c.saved[this.at] = 1;
      c.renew[this.at] = renewTime ?? Number.NaN;
    }
  }

  /** no Lease saved (an entry made anew from a heartbeat) */
  forgetLease(): void {
    const c = this.cols;
    if (c === undefined) {
      this.leaseSaved = false;
      this.renewAt = undefined;
    } else {
      c.saved[this.at] = 0;
      c.renew[this.at] = Number.NaN;
    }
  }

  /** The entry's probe and Lease move into row `at` of `cols` (it is that row's slot's entry now). */
  attach(cols: HealthColumns, at: number): void {
    if (this.cols === cols && this.at === at) return;
    const probe = this.probe;
    const saved = this.hasLease;
    const renew = this.renewTime;
    cols.ensure(at);
    this.cols = cols;
    this.at = at;
    this.probe = probe;
    if (saved) this.saveLease(renew);
    else this.forgetLease();
  }

  /** The entry keeps its probe and Lease itself again (its slot holds another entry, or none). */
  detach(): void {
    const c = this.cols;
    if (c === undefined) return;
    const probe = this.probe;
    const saved = this.hasLease;
    const renew = this.renewTime;
    this.cols = undefined;
    this.at = -1;
    this.probeAt = probe;
    this.leaseSaved = saved;
    this.renewAt = saved ? renew : undefined;
  }

  /** the row this entry is attached to in `cols`, or -1 (checks) */
  rowIn(cols: HealthColumns): number {
    return this.cols === cols ? this.at : -1;
  }

  copy(): NodeHealthData {
    return new NodeHealthData(this.probe, this.readyTransition, this.savedReady, this.hasLease, this.renewTime);
  }

  /** as the view: JSON of the controller's memory (tests, dumps) shows the values, wherever they are kept */
  toJSON(): HealthView {
    return this.view();
  }

  view(): HealthView {
    return {
      probe: this.probe,
      readyTransition: this.readyTransition,
      savedReady: this.savedReady,
      lease: this.hasLease ? { renewTime: this.renewTime } : null,
    };
  }
}
