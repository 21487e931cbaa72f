/**
 * The ReplicaSet controller of kube-controller-manager
 * (pkg/controller/replicaset/replica_set.go), driven by the simulation's
 * informer events and virtual clock. Each ReplicaSet's in-memory state
 * (expectations, workqueue) is its xstate machine (machine.ts); pods are plain
 * records, indexed here by controller uid so that a sync does not scan every
 * pod of the cluster.
 *
 * Informer handlers (addPod/updatePod/deletePod, addRS/updateRS/deleteRS) note
 * what to do; `wake` runs syncReplicaSet for every key due:
 *   expectations satisfied? -> claim pods (adopt orphans, release non-matching)
 *   -> manageReplicas (slow-start creations / ranked deletions)
 *   -> calculateStatus / updateReplicaSetStatus -> requeue (minReadySeconds, backoff)
 */
import type { ControllerHost } from '../controllerHost';
import { drain, type PodBefore, type PodsReadyBatch, type RestoreFrom, type SimController, type WatchType } from '../controller';
import type { Explanation, MachineView } from '../../simulation/api';
import type { Problem } from '../../problems';
import type { ObjectRef, PodRecord, ReplicaSetRecord } from '../../model/types';
import type { Micros } from '../../model/time';
import { replicaSetMachine } from './machine';
import { machineView } from '../../machines/view';
import { byEntryKey, byKey, StatusEchoes } from './entry';
import { ReplicaSetCore } from './core';
import { handlePodEvent, handlePodsReadyChanged, handleReplicaSetEvent } from './informerHandlers';
import { nextWake, processDueKeys } from './processNextWorkItem';
import { replicaSetMayAnswer, replicaSetWhyNot } from './whyNot';
import type { WhyNotWorld } from '../../trace/whyNot';
import { restoreController, saveController, type Saved } from './checkpoint';
import { echoesAtInstantEnd } from './statusEcho';

export { SLOW_START_INITIAL_BATCH_SIZE, RANKS_DOUBLED_UP_SINCE_MINOR } from './manageReplicas';
export type { ReplicaSetControllerOptions } from './core';

/** the machine's definition for the UI, computed once */
let machineDefinition: unknown;

export class ReplicaSetController extends ReplicaSetCore implements SimController {
  readonly name = 'replicaset' as const;

  // ---------------------------------------------------------------- lifecycle

  start(host: ControllerHost, memory?: 'reconstructed' | 'fresh'): void {
    drain(this.startInPieces(host, memory, Infinity));
  }

  /** `start`, yielding after every `perPiece` pods or ReplicaSets: 150,000 pods indexed and checked, 14,120 ReplicaSets at 5,000 nodes */
  *startInPieces(host: ControllerHost, _memory: 'reconstructed' | 'fresh' | undefined, perPiece: number): Generator<void, void, void> {
    yield* this.rebuildIndexesInPieces(host, perPiece);
    let n = 0;
    for (const [key, rs] of [...host.cluster.replicaSets].sort(byKey)) {
      const entry = this.newEntry(key, rs);
      this.check(rs, entry);
      this.enqueue(entry, host.now);
      if (++n % perPiece === 0) yield;
    }
    for (const pod of host.cluster.pods.values()) {
      this.checkPod(host, pod);
      if (++n % perPiece === 0) yield;
    }
  }

  // ---------------------------------------------------------------- informer handlers

  onReplicaSetEvent(host: ControllerHost, type: WatchType, rs: ReplicaSetRecord, key?: string): void {
    handleReplicaSetEvent(this, host, type, rs, key);
  }

  onPodEvent(host: ControllerHost, type: WatchType, pod: PodRecord, before?: PodBefore, key?: string): void {
    handlePodEvent(this, host, type, pod, before, key);
  }

  onPodsReadyChanged(host: ControllerHost, batch: PodsReadyBatch): void {
    handlePodsReadyChanged(this, host, batch);
  }

  // ---------------------------------------------------------------- clock

  nextWake(): Micros | undefined {
    return nextWake(this);
  }

  wake(host: ControllerHost, shouldYield?: () => boolean): boolean {
    return processDueKeys(this, host, shouldYield);
  }

  instantDone(): void {
    echoesAtInstantEnd(this);
  }

  // ---------------------------------------------------------------- views

  /**
   * One view per ReplicaSet, sorted by key. The webview asks for them after every step (14,120 at
   * 5,000 nodes): the sorted order and each unchanged entry's view (its id string included) are
   * given again instead of built again.
   */
  machines(): MachineView[] {
    const definition = (machineDefinition ??= replicaSetMachine.toJSON());
    const sorted = (this.sortedEntries ??= [...this.entries.values()].sort(byEntryKey));
    const out: MachineView[] = new Array(sorted.length);
    for (let i = 0; i < sorted.length; i++) {
      const e = sorted[i];
      out[i] = e.view = machineView(e.view, e.actor.id, e.actor.state(), definition, e.lastTransition);
    }
    if (this.verify) {
      const fresh = [...this.entries.values()].sort(byEntryKey);
      if (fresh.length !== out.length) throw new Error(`replicaset: ${out.length} machine views kept for ${fresh.length} ReplicaSets`);
      fresh.forEach((e, i) => {
        const v = out[i];
        if (v.id !== `replicaset/${e.key}` || v.state !== e.actor.state() || v.lastTransition !== e.lastTransition || v.definition !== definition)
          throw new Error(`replicaset: the machine view kept at ${i} is not ${e.key}'s as built anew`);
      });
    }
    return out;
  }

  machine(id: string): MachineView | undefined {
    const e = id.startsWith('replicaset/') ? this.entries.get(id.slice(11)) : undefined;
    if (e === undefined || e.actor.id !== id) return undefined;
    return (e.view = machineView(e.view, e.actor.id, e.actor.state(), (machineDefinition ??= replicaSetMachine.toJSON()), e.lastTransition));
  }

  /** Everything found wrong with the ReplicaSets and their pods' ownerReferences. */
  problems(): Problem[] {
    const out: Problem[] = [];
    for (const key of [...this.checks.keys()].sort()) out.push(...this.checks.get(key)!.check.problems);
    for (const key of [...this.podProblems.keys()].sort()) out.push(...this.podProblems.get(key)!);
    return out;
  }

  whyNot(host: ControllerHost, object: ObjectRef, world?: WhyNotWorld): Explanation['whyNot'] {
    return replicaSetWhyNot(this, host, object, world);
  }
  whyNotAbout(object: ObjectRef): boolean {
    return object.startsWith('Pod/') || object.startsWith('ReplicaSet/');
  }
  machineAbout(id: string): boolean {
    return id.startsWith('replicaset/');
  }
  whyNotAfterRestore(object: ObjectRef, host: ControllerHost, saved: unknown, from?: RestoreFrom, world?: WhyNotWorld): boolean {
    return replicaSetMayAnswer(object, host, saved as Saved, from, world);
  }

  // ---------------------------------------------------------------- checkpoints

  save(): Saved {
    return saveController(this);
  }

  restore(saved: unknown, host: ControllerHost, from?: RestoreFrom): void {
    drain(this.restoreInPieces(saved, host, from));
  }

  *restoreInPieces(saved: unknown, host: ControllerHost, from?: RestoreFrom): Generator<void, void, void> {
    this.unsynced = null;
    this.echoes = new StatusEchoes();
    yield* restoreController(this, saved, host, from);
  }
}
