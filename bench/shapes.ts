/**
 * How many hidden classes (V8 maps) the engine's records of each kind have, at the start of a
 * simulation and after running it: one per kind is what model/records.ts aims at (bench/README.md,
 * "deopts: one construction path per record"). Needs V8's natives syntax:
 *
 *   node --allow-natives-syntax --import tsx bench/shapes.ts SCENARIO.yaml [MINUTES=60] [--keys]
 *
 * Prints per kind "N maps over M  n1,n2,..." (how many records have each map); --keys adds the keys
 * of one record of each map. A small outage (a few hundred nodes) answers in seconds.
 */
import { loadScenario } from '../src/engine/snapshot/scenario';
import { createSimulation } from '../src/engine/simulation/simulation';
import { nodeFs } from '../src/platform/nodeFs';
import type { ClusterState } from '../src/engine/model/cluster';
import type { LeaseRecord, NodeRecord, PodRecord, ReplicaSetRecord } from '../src/engine/model/types';

const sameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: unknown, b: unknown) => boolean;
const showKeys = process.argv.includes('--keys');
const args = process.argv.slice(2).filter((a) => !a.startsWith('--'));

function maps(label: string, objs: Iterable<unknown>): void {
  const reps: { o: object; n: number }[] = [];
  let total = 0;
  for (const o of objs) {
    if (o === null || typeof o !== 'object') continue;
    total++;
    const r = reps.find((x) => sameMap(x.o, o));
    if (r) r.n++;
    else if (reps.length < 40) reps.push({ o, n: 1 });
  }
  const each = showKeys ? reps.map((r) => `${r.n}:{${Object.keys(r.o).join(',')}}`).join('  ') : reps.map((r) => r.n).join(',');
  console.log(`${label}: ${reps.length} maps over ${total}  ${each}`);
}

function* flat<T, U>(xs: Iterable<T>, f: (x: T) => Iterable<U> | undefined): Iterable<U> {
  for (const x of xs) {
    const ys = f(x);
    if (ys) yield* ys;
  }
}

/** What is probed of each kind: the records, then the objects and (`[]`) the lists' items they hold. */
const PARTS: Record<string, Record<string, (r: never) => unknown>> = {
  pod: {
    meta: (p: PodRecord) => p.meta,
    conditions: (p: PodRecord) => p.conditions,
    'conditions[]': (p: PodRecord) => p.conditions,
    'tolerations[]': (p: PodRecord) => p.tolerations,
    'ownerReferences[]': (p: PodRecord) => p.meta.ownerReferences,
  },
  node: {
    meta: (n: NodeRecord) => n.meta,
    conditions: (n: NodeRecord) => n.conditions,
    'conditions[]': (n: NodeRecord) => n.conditions,
    taints: (n: NodeRecord) => n.taints,
    'taints[]': (n: NodeRecord) => n.taints,
  },
  rs: { meta: (r: ReplicaSetRecord) => r.meta, status: (r: ReplicaSetRecord) => r.status },
  lease: { meta: (l: LeaseRecord) => l.meta },
  kubelet: { desired: (k: { desired: unknown }) => k.desired },
};

function report(c: ClusterState, kubelets: unknown[], when: string): void {
  console.log(`--- ${when}`);
  const records: Record<string, unknown[]> = {
    pod: [...c.pods.values()],
    node: [...c.nodes.values()],
    rs: [...c.replicaSets.values()],
    lease: [...c.leases.values()],
    kubelet: kubelets,
  };
  for (const [kind, parts] of Object.entries(PARTS)) {
    const all = records[kind];
    maps(kind, all);
    for (const [part, of] of Object.entries(parts)) {
      const values = all.map((r) => of(r as never));
      maps(`${kind}.${part}`, part.endsWith('[]') ? flat(values, (v) => v as Iterable<unknown>) : values);
    }
  }
}

const minutes = Number(args[1] ?? 60);
const sim = createSimulation(loadScenario(args[0], nodeFs(), { maxFileBytes: Number.MAX_SAFE_INTEGER }));
// the kubelets' states are private to the simulation; this tool reads them all the same
const kubelets = (): unknown[] => [...((sim as unknown as { kubelets?: { states?: Map<string, unknown> } }).kubelets?.states?.values() ?? [])];
report(sim.cluster!, kubelets(), 'start');
sim.runUntil(sim.startTime + 60_000_000 * minutes);
report(sim.cluster!, kubelets(), `after ${minutes} min`);
