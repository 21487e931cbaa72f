/**
 * Running counts of the pods one ReplicaSet controls, as claimPods and
 * calculateStatus count them, kept up to date pod event by pod event.
 *
 * Why: a zone outage at 5,000 nodes syncs the big ReplicaSets (up to 300
 * pods) after nearly every pass, and each sync read every pod of the
 * ReplicaSet again (selector, labels, Ready condition) although one or two
 * of them had changed (a million pod reads an hour at 1,000 nodes, for
 * 30,000 pod events). With the counts, a sync costs the pods that changed.
 *
 * What they rely on: every change to a pod that the counts read (phase,
 * deletionTimestamp, labels, conditions, ownerReferences) is announced to the
 * controller before its next sync. The simulation's host announces each
 * change at once; a host whose pod events may come late or never says so
 * (ReplicaSetControllerOptions.readsEveryPod) and its syncs read every pod.
 * Each pod's class is kept as it was counted, so taking it out again is
 * exact even though the record was changed in place before the event came.
 *
 * The tally counts exactly the pods of its ReplicaSet in the controller's
 * owner index: the controller adds and removes them where it indexes them
 * (`add` for a pod it indexes under the ReplicaSet, `remove` for one the
 * index held under it). So a pod needs no entry of its own when its class is
 * the usual one (claimed, fully labelled, ready): only the others are kept
 * (the pods an outage left not ready: a third of 150,000 at 5,000 nodes),
 * all in one map of the controller's, keyed by the pod's record as the index
 * holds it (a record is in one owner's index at a time, and `add` writes its
 * entry whatever was there; keyed by record, the map keeps no key strings of
 * its own: the keys the events bring are new strings each time).
 *
 * The selector and template the classes were made with are the check's
 * (validate.ts): the controller makes a new tally when the check changes.
 *
 * What a pod's labels give its class (matching the selector, every template
 * label) is kept for the last labels object read (`seenLabels`): the pods of
 * a ReplicaSet mostly share one (the loader shares equal neighbours, created
 * pods share their template's), and matching the selector was most of an
 * event's cost. That relies on a labels object never being edited in place
 * (records' labels are replaced, never edited: podTemplate.ts, the host's
 * `before` shares them too); with verification on (`freezeLabels`), every
 * labels object read here is frozen, so an edit in place throws in the
 * tests instead of going unseen.
 */
import type { PodRecord } from '../../model/types';
import type { ReplicaSetCheck } from './validate';
import type { StatusCounter } from './status';
import { isPodActive, isPodReady, isTerminating } from './podUtil';

const ACTIVE = 1;
const MATCHES = 2;
const LABELLED = 4;
const READY = 8;
const TERMINATING = 16;
/** active and matching the selector: claimed (filteredPods) */
const CLAIMED = ACTIVE | MATCHES;
/** the class of most pods: not kept (see above) */
const USUAL = CLAIMED | LABELLED | READY;

export class PodTally {
  /** `classes`: pod record -> its class when it was last counted, for the pods whose class is not USUAL (shared by all tallies) */
  /** active pods matching the selector (claimed without a PATCH) */
  claimed = 0;
  /** claimed pods with every template label (fullyLabeledReplicas) */
  labelled = 0;
  /** claimed pods whose Ready condition is True */
  ready = 0;
  /** active pods that no longer match the selector (claimPods would release them) */
  unmatched = 0;
  /** pods being deleted, not terminal, matching the selector (terminatingReplicas) */
  terminating = 0;

  /** see `watch` */
  private window: { onChange: () => void; joined: Set<string> } | undefined;
  /** the last labels object classified, and what it gave (MATCHES, LABELLED bits); see the file comment */
  private seenLabels: Record<string, string> | undefined;
  private seenBits = 0;

  /**
   * `labels`: the template's labels, read through a counter made for this ReplicaSet;
   * `freezeLabels`: freeze every labels object read (the controller's `verifyTallies`; see the file comment)
   */
  constructor(
    readonly check: ReplicaSetCheck,
    private readonly labels: StatusCounter,
    private readonly classes: Map<PodRecord, number>,
    private readonly freezeLabels = false,
  ) {}

  add(key: string, pod: PodRecord): void {
    const c = this.classify(pod);
    if (c !== USUAL) this.classes.set(pod, c);
    else if (this.classes.size !== 0) this.classes.delete(pod);
    this.count(c, 1);
    if (this.window && (c & CLAIMED) === CLAIMED) this.window.joined.add(key);
  }

  /**
   * `remove(key, old)` then `add(key, pod)`: `old`, the record the owner index holds for the pod
   * under this ReplicaSet, `pod` its new record there (often the same object, changed in place).
   */
  replace(key: string, old: PodRecord, pod: PodRecord): void {
    const was = this.classOf(old);
    const c = this.classify(pod);
    if (this.window && (was & CLAIMED) === CLAIMED && !this.window.joined.has(key)) {
      const { onChange } = this.window;
      this.window = undefined;
      onChange();
    }
    if (old !== pod) {
      if (was !== USUAL) this.classes.delete(old);
      if (c !== USUAL) this.classes.set(pod, c);
      else if (this.classes.size !== 0) this.classes.delete(pod);
    } else if (c !== was) {
      if (c !== USUAL) this.classes.set(pod, c);
      else this.classes.delete(pod);
    }
    if (c !== was) {
      this.count(was, -1);
      this.count(c, 1);
    }
    if (this.window && (c & CLAIMED) === CLAIMED) this.window.joined.add(key);
  }

  /** `key`, `pod`: a pod counted here, as the owner index holds it under this ReplicaSet */
  remove(key: string, pod: PodRecord): void {
    const c = this.classOf(pod);
    if (this.window && (c & CLAIMED) === CLAIMED && !this.window.joined.has(key)) {
      const { onChange } = this.window;
      this.window = undefined;
      onChange();
    }
    if (c !== USUAL) this.classes.delete(pod);
    this.count(c, -1);
  }

  /**
   * Calls `onChange` once, just before the first pod claimed now changes or
   * goes away, while the classes still say which pods were claimed now; pods
   * claimed after this call (created, adopted: `joined`) are not among them.
   * `close` stops watching.
   */
  watch(onChange: () => void): Set<string> {
    const joined = new Set<string>();
    this.window = { onChange, joined };
    return joined;
  }

  close(): void {
    this.window = undefined;
  }

  /** `pod`: a pod counted here, as the owner index holds it */
  isClaimed(pod: PodRecord): boolean {
    return (this.classOf(pod) & CLAIMED) === CLAIMED;
  }

  /** forgets the classes of these pods (the tally is dropped; the pods may stay) */
  forget(pods: Iterable<PodRecord>): void {
    if (this.classes.size !== 0) for (const p of pods) this.classes.delete(p);
  }

  private classOf(pod: PodRecord): number {
    return this.classes.get(pod) ?? USUAL;
  }

  private classify(pod: PodRecord): number {
    if (!isPodActive(pod)) return isTerminating(pod) && (this.labelBits(pod) & MATCHES) !== 0 ? TERMINATING : 0;
    const bits = this.labelBits(pod);
    if ((bits & MATCHES) === 0) return ACTIVE;
    return isPodReady(pod) ? ACTIVE | bits | READY : ACTIVE | bits;
  }

  /** MATCHES (the selector matches the pod's labels) and LABELLED (every template label) */
  private labelBits(pod: PodRecord): number {
    const labels = pod.meta.labels;
    if (labels === this.seenLabels) return this.seenBits;
    const bits = this.check.selector.matches(labels) ? (this.labels.labelled(pod) ? MATCHES | LABELLED : MATCHES) : 0;
    if (this.freezeLabels) Object.freeze(labels);
    this.seenLabels = labels;
    this.seenBits = bits;
    return bits;
  }

  private count(c: number, d: number): void {
    if ((c & CLAIMED) === CLAIMED) {
      this.claimed += d;
      if (c & LABELLED) this.labelled += d;
      if (c & READY) this.ready += d;
    } else if (c & ACTIVE) this.unmatched += d;
    else if (c & TERMINATING) this.terminating += d;
  }
}
