/**
 * A simulation made a slice at a time, so that making run-ahead's second simulation in the extension
 * host's idle time never holds it for long (src/extension/runAhead.ts). At 5,000 nodes and 150,000
 * pods, most of createSimulation is the copy of the snapshot's records (cloneCluster) and the pod
 * index (SimHost.reindex), and the controllers' start (the ReplicaSet controller indexes and checks every
 * pod): here the copy and the index are made a few hundred records at a time, then handed to the
 * constructor, which does what createSimulation does up to the controllers' start; the start is then
 * made in pieces too (SimulationImpl.startInPieces). The result is the same simulation
 * (test/engine/simulation/makeInSlices.test.ts).
 */
import type { Scenario } from '../snapshot/types';
import type { ClusterState } from '../model/cluster';
import { PodMap } from '../model/podOrder';
import type { PodRecord } from '../model/types';
import type { Simulation, SimulationOptions } from './api';
import { cloneDaemonSet, cloneLease, cloneNode, clonePod, cloneReplicaSet } from './checkpoint';
import { SimulationImpl } from './simulation';

/** How many records one piece copies (or indexes, or a controller's start takes): a few milliseconds on a loaded 2-core machine. */
const RECORDS_PER_PIECE = 500;

/** What the constructor would otherwise make itself: the records' copy and its pod index, in the order reindex makes it. */
type MadeCluster = NonNullable<ConstructorParameters<typeof SimulationImpl>[2]>;

/**
 * createSimulation(scenario, options), made by the returned function a slice at a time: each call
 * works while `more()` says so (at least one piece) and returns the simulation once it is made.
 * `like`: a simulation of the same scenario made with the same options (the run-ahead's shown one), in any
 * position: its controllers' memory at its start (its first checkpoint's, which nothing edits) is restored
 * instead of the controllers' start, which reads every pod and ReplicaSet again (bench/README.md "fork").
 */
export function simulationInSlices(
  scenario: Scenario,
  options: SimulationOptions = {},
  recordsPerPiece = RECORDS_PER_PIECE,
  like?: Simulation,
): (more: () => boolean) => SimulationImpl | undefined {
  const pieces = inPieces(scenario, options, recordsPerPiece, like instanceof SimulationImpl ? like : undefined);
  return (more) => {
    for (;;) {
      const r = pieces.next();
      if (r.done) return r.value;
      if (!more()) return undefined;
    }
  };
}

function* inPieces(scenario: Scenario, options: SimulationOptions, recordsPerPiece: number, like: SimulationImpl | undefined): Generator<void, SimulationImpl> {
  const sim = new SimulationImpl(scenario, options, yield* copyInPieces(scenario.snapshot.cluster, recordsPerPiece));
  yield;
  // the controllers' start (the ReplicaSet controller's index of every pod, ...), or their memory at the start of `like`, and the first checkpoint
  yield* sim.startInPieces(recordsPerPiece, like);
  return sim;
}

/** cloneCluster and reindex's pod index, yielding after every `perPiece` records. */
function* copyInPieces(c: ClusterState, perPiece: number): Generator<void, MadeCluster> {
  let n = 0;
  function* copy<T, M extends Map<string, T>>(out: M, m: Map<string, T>, f: (v: T) => T): Generator<void, M> {
    for (const [k, v] of m) {
      out.set(k, f(v));
      if (++n % perPiece === 0) yield;
    }
    return out;
  }
  const nodes = yield* copy(new Map(), c.nodes, cloneNode);
  const pods = yield* copy(new PodMap<PodRecord>(), c.pods, clonePod);
  const replicaSets = yield* copy(new Map(), c.replicaSets, cloneReplicaSet);
  const daemonSets = yield* copy(new Map(), c.daemonSets, cloneDaemonSet);
  const leases = yield* copy(new Map(), c.leases, cloneLease);
  // the index, as SimHost.reindex makes it from the copy (cloneCluster's copy of the snapshot's index is replaced there)
  const byNode = new Map<string, Set<string>>();
  const podNode = new Map<string, string>();
  for (const [key, pod] of pods) {
    if (pod.nodeName) {
      podNode.set(key, pod.nodeName);
      let s = byNode.get(pod.nodeName);
      if (!s) byNode.set(pod.nodeName, (s = new Set()));
      s.add(key);
    }
    if (++n % perPiece === 0) yield;
  }
  return { cluster: { nodes, pods, replicaSets, daemonSets, leases, podsByNode: byNode, ignored: [...c.ignored] }, index: { byNode, podNode } };
}
