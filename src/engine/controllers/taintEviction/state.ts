/**
 * What the taint eviction controller remembers, in one object that the files named after
 * upstream's functions (tainteviction/taint_eviction.go, nodelifecycle/scheduler/taint_manager.go)
 * take as their first argument: the informers' queues, `taintedNodes`, the TimedWorkerQueue (a
 * work item per pod, its state its pod eviction machine's, and the timers), and the pods whose
 * delete attempts all failed. Its methods are the helpers all of them use.
 */
import type { Micros } from '../../model/time';
import type { Taint } from '../../model/types';
import type { MachineTransition } from '../../trace/decision';
import type { ControllerHost } from '../controllerHost';
import { taintManagerBehaviour, type TaintManagerBehaviour } from './behaviour';
import { podEvictionTransition, podMachineId, type PodEvictionEventType, type PodEvictionState } from './machine';
import { TimerQueue } from './timerQueue';
import type { GaveUp, PodItem, TimerKind, Work } from './work';

export interface TaintEvictionOptions {
  /**
   * Throw when a pod eviction machine refuses an event the controller sends (the simulation's
   * checking mode, the fuzzer and the test rigs): without it the refused event is not acted on.
   */
  strictMachines?: boolean;
}

export class TaintEvictionState {
  constructor(readonly options: TaintEvictionOptions) {}

  runs = false;
  memory: 'reconstructed' | 'fresh' = 'fresh';
  private tm: TaintManagerBehaviour | undefined;
  /** `source` texts of decisions (`<upstream file>: <function>`), one string each per behaviour (see useBehaviour) */
  private sources = new Map<string, string>();
  /** node name -> its NoExecute taints, as last handled (upstream `taintedNodes`) */
  taintedNodes = new Map<string, Taint[]>();
  /** queued node updates, deduplicated as a workqueue does; `initial` = from the informers' initial list */
  nodeQueue = new Map<string, { name: string; initial: boolean }>();
  podQueue = new Map<string, PodItem>();
  queuedSince: Micros | undefined;
  /** pod key -> its work item (upstream TimedWorkerQueue.workers) */
  work = new Map<string, Work>();
  timers = new TimerQueue<TimerKind>();
  /** pods whose delete attempts all failed, for "why not" */
  gaveUp = new Map<string, GaveUp>();

  /** the version's taint manager behaviour; set by start/restore, before any work can exist */
  get b(): TaintManagerBehaviour {
    if (!this.tm) throw new Error('taint eviction controller used before start()');
    return this.tm;
  }

  /** the behaviour, also for a controller that never started (whyNot may be asked of one) */
  behaviourOr(host: ControllerHost): TaintManagerBehaviour {
    return this.tm ?? taintManagerBehaviour(host);
  }

  useBehaviour(host: ControllerHost): void {
    this.tm = taintManagerBehaviour(host);
    this.sources.clear();
  }

  source(fn: string): string {
    let s = this.sources.get(fn);
    if (s === undefined) this.sources.set(fn, (s = `${this.b.file}: ${fn}`));
    return s;
  }

  queueNode(host: ControllerHost, name: string, initial: boolean): void {
    const prev = this.nodeQueue.get(name);
    this.nodeQueue.set(name, { name, initial: initial || (prev?.initial ?? false) });
    this.queuedSince ??= host.now;
  }

  /**
   * The work item's machine takes `event`, and the state it answers is the work item's. Null, and
   * nothing written, when the machine does not accept the event in the work item's state; with
   * strictMachines a refusal throws (the controller sent what its machine does not allow).
   */
  send(w: Work, event: PodEvictionEventType): MachineTransition | null {
    const t = podEvictionTransition(w.state, event, podMachineId(w.namespace, w.name));
    if (t) w.state = t.to as PodEvictionState;
    else if (this.options.strictMachines) throw new Error(`taint eviction: the pod eviction machine of ${w.key} in ${w.state} refuses ${event}`);
    return t;
  }

  setTimer(w: Work, at: Micros, kind: TimerKind): void {
    if (w.timer) this.timers.cancel(w.timer);
    w.timer = this.timers.add(at, w.key, kind);
    w.timerKind = kind;
  }
}

/** Decision numbers in order, each once. */
export function uniq(xs: number[]): number[] {
  if (xs.length < 2) return xs.slice();
  return [...new Set(xs)].sort((a, b) => a - b);
}
