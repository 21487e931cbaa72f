/**
 * What the simplified binder reads of resources: a pod's requests and a
 * node's allocatable, as kube-scheduler computes them.
 *
 * - Requests mirror `resource.PodRequests` (k8s.io/component-helpers/resource,
 *   used by NodeResourcesFit's `computePodResourceRequest`): the containers'
 *   requests summed; each init container needs its own request plus the
 *   restartable (sidecar) init containers started before it, and the pod needs
 *   the larger of that and the running sum; `spec.overhead` is added.
 * - The scoring request is the same with kube-scheduler's defaults for a
 *   container that requests no cpu or memory (`NonMissingContainerRequests`:
 *   100m cpu, 200 MiB memory; pkg/scheduler/util `DefaultMilliCPURequest`,
 *   `DefaultMemoryRequest`), so pods without requests still spread.
 * - Allocatable is `status.allocatable` (cpu in millicores, memory in bytes,
 *   pods). A key missing from a reported allocatable counts as 0, as in the
 *   scheduler's NodeInfo. A node that reports no allocatable at all (a
 *   hand-written snapshot) is taken to allow the kubelet's default maxPods
 *   (110) and its cpu and memory are not checked; decisions say so.
 *
 * Quantities are converted once per distinct text (a cluster has few).
 */
import type { KObject, NodeRecord, PodRecord } from '../../model/types';
import { milliValue, parseQuantity, wholeValue } from '../../model/quantity';

/** Shared between the pods of one containers list (podRequests): read, never written. */
export interface Requests {
  readonly milliCpu: number;
  readonly memory: number;
  /** with the scheduler's defaults for containers that request none (scoring only) */
  readonly nonZeroMilliCpu: number;
  readonly nonZeroMemory: number;
}

export interface Allocatable {
  /** undefined: the node reports no allocatable (not checked, not scored) */
  milliCpu: number | undefined;
  memory: number | undefined;
  pods: number;
  /** status.allocatable was present */
  reported: boolean;
}

export const DEFAULT_MILLI_CPU_REQUEST = 100;
export const DEFAULT_MEMORY_REQUEST = 200 * 1024 * 1024;
/** the kubelet's default --max-pods, assumed for a node that reports no allocatable */
export const DEFAULT_MAX_PODS = 110;

const milliMemo = new Map<string, number>();
const wholeMemo = new Map<string, number>();

/** resource.Quantity.MilliValue of a field (0 when missing or not a quantity, which the API server would have refused). */
export function milliOf(v: unknown): number {
  if (typeof v !== 'string' && typeof v !== 'number') return 0;
  const text = String(v);
  let out = milliMemo.get(text);
  if (out === undefined) {
    const q = parseQuantity(v);
    out = q.ok ? Number(milliValue(q.quantity)) : 0;
    milliMemo.set(text, out);
  }
  return out;
}

/** resource.Quantity.Value of a field (rounded up; 0 when missing or not a quantity). */
export function wholeOf(v: unknown): number {
  if (typeof v !== 'string' && typeof v !== 'number') return 0;
  const text = String(v);
  let out = wholeMemo.get(text);
  if (out === undefined) {
    const q = parseQuantity(v);
    out = q.ok ? Number(wholeValue(q.quantity)) : 0;
    wholeMemo.set(text, out);
  }
  return out;
}

const obj = (v: unknown): KObject | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as KObject) : undefined);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

interface Four {
  c: number;
  m: number;
  nc: number;
  nm: number;
}

function containerRequests(container: unknown): Four {
  const req = obj(obj(obj(container)?.resources)?.requests);
  const hasCpu = req !== undefined && req.cpu !== undefined && req.cpu !== null;
  const hasMem = req !== undefined && req.memory !== undefined && req.memory !== null;
  const c = hasCpu ? milliOf(req!.cpu) : 0;
  const m = hasMem ? wholeOf(req!.memory) : 0;
  return { c, m, nc: hasCpu ? c : DEFAULT_MILLI_CPU_REQUEST, nm: hasMem ? m : DEFAULT_MEMORY_REQUEST };
}

/**
 * The requests of each containers list, by the list: the pods of one ReplicaSet share theirs
 * (the loader shares equal subtrees, and pods made from a template share its list), 10,608 lists
 * for 150,000 pods in the 5,000-node bench. The node index's first build reads every pod's: made
 * anew, that was an object and two quantity look-ups per container for each of 150,000 pods.
 * Containers lists are never edited in place (a pod's spec is replaced with its record, and
 * in-place resize is not modelled).
 */
const byContainers = new WeakMap<unknown[], Requests>();
const NO_REQUESTS: Requests = { milliCpu: 0, memory: 0, nonZeroMilliCpu: 0, nonZeroMemory: 0 };

/** The pod's requests (an object shared with the other pods of the same containers list: see byContainers). */
export function podRequests(pod: PodRecord): Requests {
  return specRequests(pod.raw.spec);
}

/** podRequests of a pod's `raw.spec` (as PodBefore keeps it). */
export function specRequests(raw: unknown): Requests {
  const spec = obj(raw);
  if (!spec) return NO_REQUESTS;
  if (spec.initContainers !== undefined || spec.overhead !== undefined) return computeRequests(spec);
  const containers = spec.containers;
  if (!Array.isArray(containers)) return NO_REQUESTS;
  let r = byContainers.get(containers);
  if (r === undefined) {
    r = containersRequests(containers);
    byContainers.set(containers, r);
  }
  return r;
}

/** The common shape (containers only): a few property reads a container. */
function containersRequests(containers: unknown[]): Requests {
  let c = 0,
    m = 0,
    nc = 0,
    nm = 0;
  for (let i = 0; i < containers.length; i++) {
    const req = (containers[i] as { resources?: { requests?: { cpu?: unknown; memory?: unknown } } } | null)?.resources?.requests;
    const cpu = req && typeof req === 'object' ? req.cpu : undefined;
    const mem = req && typeof req === 'object' ? req.memory : undefined;
    if (cpu !== undefined && cpu !== null) {
      const v = milliOf(cpu);
      c += v;
      nc += v;
    } else nc += DEFAULT_MILLI_CPU_REQUEST;
    if (mem !== undefined && mem !== null) {
      const v = wholeOf(mem);
      m += v;
      nm += v;
    } else nm += DEFAULT_MEMORY_REQUEST;
  }
  return { milliCpu: c, memory: m, nonZeroMilliCpu: nc, nonZeroMemory: nm };
}

function computeRequests(spec: KObject): Requests {
  const sum: Four = { c: 0, m: 0, nc: 0, nm: 0 };
  for (const c of list(spec.containers)) add(sum, containerRequests(c));
  // init containers run one at a time before the others; sidecars (restartPolicy Always) keep running
  const sidecars: Four = { c: 0, m: 0, nc: 0, nm: 0 };
  const initMax: Four = { c: 0, m: 0, nc: 0, nm: 0 };
  for (const ic of list(spec.initContainers)) {
    const r = containerRequests(ic);
    if (obj(ic)?.restartPolicy === 'Always') {
      add(sum, r);
      add(sidecars, r);
      max(initMax, sidecars);
    } else {
      max(initMax, { c: r.c + sidecars.c, m: r.m + sidecars.m, nc: r.nc + sidecars.nc, nm: r.nm + sidecars.nm });
    }
  }
  max(sum, initMax);
  const overhead = obj(spec.overhead);
  if (overhead) {
    const c = milliOf(overhead.cpu),
      m = wholeOf(overhead.memory);
    add(sum, { c, m, nc: c, nm: m });
  }
  return { milliCpu: sum.c, memory: sum.m, nonZeroMilliCpu: sum.nc, nonZeroMemory: sum.nm };
}

function add(to: Four, x: Four): void {
  to.c += x.c;
  to.m += x.m;
  to.nc += x.nc;
  to.nm += x.nm;
}

function max(to: Four, x: Four): void {
  to.c = Math.max(to.c, x.c);
  to.m = Math.max(to.m, x.m);
  to.nc = Math.max(to.nc, x.nc);
  to.nm = Math.max(to.nm, x.nm);
}

const allocatableMemo = new WeakMap<KObject, Allocatable>();

/** The node's allocatable (cached per exported object: a node's status is replaced with its record). */
export function nodeAllocatable(node: NodeRecord): Allocatable {
  let out = allocatableMemo.get(node.raw);
  if (!out) {
    const a = obj(obj(node.raw.status)?.allocatable);
    out = a
      ? { milliCpu: milliOf(a.cpu), memory: wholeOf(a.memory), pods: wholeOf(a.pods), reported: true }
      : { milliCpu: undefined, memory: undefined, pods: DEFAULT_MAX_PODS, reported: false };
    allocatableMemo.set(node.raw, out);
  }
  return out;
}
