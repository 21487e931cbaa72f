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

export class NodeHealthData {
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
    return this.probeAt;
  }

  set probe(t: Micros) {
    this.probeAt = t;
  }

  /** a Lease is saved */
  get hasLease(): boolean {
    return this.leaseSaved;
  }

  /** the saved Lease's renewTime (undefined: none saved, or it had none) */
  get renewTime(): Micros | undefined {
    return this.renewAt;
  }

  /** the Lease `observed` counts as renewed: "always update the probe time if the node lease is renewed" */
  leaseIsNews(observed: { readonly renewTime?: Micros } | undefined): boolean {
    return observed !== undefined && (!this.leaseSaved || microBefore(this.renewAt, observed.renewTime));
  }

  /** the saved Lease is now one with this renewTime */
  saveLease(renewTime: Micros | undefined): void {
    this.leaseSaved = true;
    this.renewAt = renewTime;
  }

  /** no Lease saved (an entry made anew from a heartbeat) */
  forgetLease(): void {
    this.leaseSaved = false;
    this.renewAt = undefined;
  }

  copy(): NodeHealthData {
    return new NodeHealthData(this.probe, this.readyTransition, this.savedReady, this.hasLease, this.renewTime);
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
