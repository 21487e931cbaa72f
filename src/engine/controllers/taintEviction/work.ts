/**
 * What the taint eviction controller keeps: a work item per pod with eviction work (upstream's
 * TimedWorkerQueue entry, its state the pod eviction machine's), the queued informer updates,
 * and all of it as a checkpoint holds it.
 */
import type { Micros, Duration } from '../../model/time';
import type { Taint } from '../../model/types';
import type { Check, MachineTransition } from '../../trace/decision';
import type { Timer } from './timerQueue';
import type { PodEvictionState } from './machine';

export type TimerKind = 'fire' | 'retry' | 'giveUp';

export interface Work {
  key: string;
  namespace: string;
  name: string;
  nodeName: string;
  /** the pod eviction machine's state; only `send` writes it (the map holds work in `scheduled` or `deleting`) */
  state: PodEvictionState;
  createdAt: Micros;
  fireAt: Micros;
  min?: Duration;
  scheduledSeq?: number;
  /** decisions the eventual PodEvicted cites (taints, the schedule) */
  causes: number[];
  /** the checks that led to the schedule or the deletion */
  because: Check[];
  /** the transition that started the delete (EVICT_NOW / DEADLINE) */
  startTransition?: MachineTransition;
  /** failed delete attempts so far */
  attempts: number;
  /** why it is deleted, for the summary */
  reason?: string;
  timer?: Timer<TimerKind>;
  timerKind?: TimerKind;
  lastTransition?: MachineTransition & { seq?: number };
}

/** What every pod of one node update shares. */
export interface Shared {
  taintTexts: string[];
  trigger: Check;
  causes: Map<string, number[]>;
}

export interface PodItem {
  namespace: string;
  name: string;
  nodeName: string;
  /**
   * What the informer saw change (PodUpdated queues on exactly these): the pod appeared bound,
   * was bound (its nodeName changed, from `fromNode`), or its tolerations changed; absent for a deletion.
   */
  change?: 'added' | 'bound' | 'tolerations';
  fromNode?: string;
}

export interface GaveUp {
  at: Micros;
  nodeName: string;
}

/** What `save()` returns: plain data, no references into the live controller. */
export interface Saved {
  runs: boolean;
  memory: 'reconstructed' | 'fresh';
  taintedNodes: [string, Taint[]][];
  nodeQueue: { name: string; initial: boolean }[];
  podQueue: PodItem[];
  queuedSince?: Micros;
  work: (Omit<Work, 'timer'> & { timerAt?: Micros })[];
  gaveUp: [string, GaveUp][];
}
