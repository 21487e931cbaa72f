/**
 * The checks of the binder's PodBound and of the simplified kubelet's PodStarted, made when first
 * read (trace/explainLater.ts). The outage hour at 5,000 nodes records one of each for every pod it
 * replaces (3,802), each a few objects and number-to-text conversions, and hardly any is read.
 *
 * What the checks are made from is copied when the pod is bound: the node's usage moves with every
 * pod bound or removed after it, and its allocatable with the node's next update.
 */
import type { Check } from '../../trace/decision';
import { formatDuration, type Micros } from '../../model/time';
import type { NodeEntry, Placement } from './nodeIndex';
import type { Requests } from './resources';
import { SIMPLIFICATION } from './fit';
import { binderGuardChecks } from './whyNot';

const LEAST_ALLOCATED =
  'simplified binder: the feasible node with the highest least-allocated score (NodeResourcesFit LeastAllocated: the free share of cpu and memory after the pod, from requests with 100m/200Mi for containers without), ties by name in natural order';
const NOT_REPORTED =
  'simplified binder: the node reports no allocatable, so the kubelet default of 110 pods is assumed and cpu and memory are neither checked nor scored (score 0), ties by name in natural order';
const NO_REASONS: Placement['reasons'] = new Map();

/** PodBound's checks: the placement, and the guards it passed (binderGuardChecks), as the binder saw them when it bound the pod. */
export class BoundWhy {
  private readonly node: string;
  private readonly score: number;
  private readonly feasible: number;
  private readonly pods: number;
  private readonly allocPods: number;
  /** the node's cpu and memory requests with the pod's, and its allocatable (undefined: not reported) */
  private readonly cpu: number;
  private readonly allocCpu: number | undefined;
  private readonly memory: number;
  private readonly allocMemory: number | undefined;
  private readonly reported: boolean;

  /** `reasons`: the placement's reasons as the decision's details have them (never edited) */
  constructor(
    req: Requests,
    e: NodeEntry,
    placed: Placement,
    private readonly total: number,
    private readonly reasons: Record<string, number>,
  ) {
    const a = e.alloc,
      u = e.used;
    this.node = e.name;
    this.score = placed.score;
    this.feasible = placed.feasible;
    this.pods = u.pods + 1;
    this.allocPods = a.pods;
    this.cpu = u.milliCpu + req.milliCpu;
    this.allocCpu = a.milliCpu;
    this.memory = u.memory + req.memory;
    this.allocMemory = a.memory;
    this.reported = a.reported;
  }

  explain(): Check[] {
    const room: Record<string, unknown> = { node: this.node, score: this.score, pods: `${this.pods}/${this.allocPods}` };
    if (this.allocCpu !== undefined) room.cpuRequests = `${this.cpu}m/${this.allocCpu}m`;
    if (this.allocMemory !== undefined) room.memoryRequests = `${this.memory}/${this.allocMemory}`;
    // the deciding check first: the text trace shows one line a decision with its first check
    const out: Check[] = [{ rule: this.reported ? LEAST_ALLOCATED : NOT_REPORTED, values: { ...room, feasible: this.feasible } }];
    const filtered = this.total - this.feasible;
    if (filtered > 0) out.push({ rule: `${filtered} of ${this.total} nodes filtered out`, values: { ...this.reasons } });
    out.push({ rule: SIMPLIFICATION, values: { nodes: this.total } });
    // a bound pod's guards read the best node's name, the score and the number feasible, not the reasons
    const placed = { best: { name: this.node }, score: this.score, feasible: this.feasible, reasons: NO_REASONS };
    return [...out, ...binderGuardChecks(placed, this.total)];
  }
}

const STARTED =
  'a pod bound by the simplified binder becomes Running and Ready podStartupDelay after binding, once its node is Ready (a simplification of the kubelet)';

/** PodStarted's check: the node the pod started on and the delay it waited. */
export class StartedWhy {
  constructor(
    private readonly node: string,
    private readonly delay: Micros,
  ) {}

  explain(): Check[] {
    return [{ rule: STARTED, values: { node: this.node, podStartupDelay: formatDuration(this.delay), nodeReady: 'True' } }];
  }
}
