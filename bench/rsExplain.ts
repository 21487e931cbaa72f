/**
 * What selecting a ReplicaSet costs the panel: `explain()` (the host's part of the click) on the
 * 5,000-node panel outage stepped to a pass where a zone is Unknown. In order: the first selection, a
 * pod on a failing node (it pays the zone queue's forecast and the first compile); then up to 8
 * ReplicaSets with pods on failing nodes (median / max) and 4 healthy ones (median). The answers are
 * printed as one hash beside the times, so that two checkouts can be seen to answer alike.
 *
 *   flock /tmp/cs-bench.lock node --import tsx bench/rsExplain.ts [SCENARIO] [--pass 21] [--n 8] [--root DIR] [--no-pod]
 *
 * `--root DIR`: another checkout's engine (the A side of an A/B pair; run A B B A by hand, under the
 * lock, with the load average each run prints). `--no-pod` leaves out the pod's selection, so that the
 * first ReplicaSet asked pays what the pod paid. `--n N`: N ReplicaSets with pods on failing nodes and
 * N/2 healthy ones. Each figure is wall time, with this process's CPU time beside it (less swayed by
 * the other processes of a loaded machine).
 */
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { harnessArgs } from './sessionHarness';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const { flag, file, root } = harnessArgs(args);
  const pass = Number(flag('--pass') ?? 21);
  const n = Number(flag('--n') ?? 8);
  const { openScenario } = await import(`${root}/src/extension/openScenario`);
  const opened = openScenario(file, '', { allowOutside: true });
  const sim = opened.make(opened.options ?? {});
  const t = performance.now();
  sim.goToPass(pass);
  const stepMs = performance.now() - t;
  const c = sim.host.cluster;
  const failing = new Set<string>();
  for (const n of c.nodes.values()) if (n.conditions.find((x: { type: string }) => x.type === 'Ready')?.status !== 'True') failing.add(n.meta.name);
  // a ReplicaSet with a pod on a failing node, and that pod (the last one in pod order)
  const podOf = new Map<string, string>();
  for (const p of c.pods.values()) {
    const owner = p.meta.ownerReferences.find((r: { controller?: boolean }) => r.controller);
    if (owner && p.nodeName && failing.has(p.nodeName)) podOf.set(`ReplicaSet/${p.meta.namespace}/${owner.name}`, `Pod/${p.meta.namespace}/${p.meta.name}`);
  }
  const onFailing = [...podOf.keys()].sort().slice(0, n);
  const healthy = [...c.replicaSets.values()]
    .map((r) => `ReplicaSet/${r.meta.namespace}/${r.meta.name}`)
    .filter((r) => !podOf.has(r))
    .slice(0, Math.max(1, n >> 1));
  const hash = createHash('sha256');
  const ask = (ref: string): { wall: number; cpu: number } => {
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const e = sim.explain(ref);
    const c1 = process.cpuUsage(c0);
    const wall = performance.now() - t0;
    hash.update(JSON.stringify(e.whyNot));
    return { wall, cpu: (c1.user + c1.system) / 1000 };
  };
  const ms = (x: { wall: number; cpu: number }): string => `${x.wall.toFixed(1)} (cpu ${x.cpu.toFixed(1)})`;
  const line = [`load ${loadavg()[0].toFixed(2)}`, `goToPass(${pass}) ${stepMs.toFixed(0)} ms`, `failing nodes ${failing.size}`];
  if (!args.includes('--no-pod')) line.push(`first selection, a pod on a failing node ${ms(ask([...podOf.values()].sort()[0]))} ms`);
  for (const [label, refs] of [
    ['on failing nodes', onFailing],
    ['healthy', healthy],
  ] as const) {
    const got = refs.map(ask);
    const wall = got.map((g) => g.wall).sort((a, b) => a - b);
    const cpu = got.map((g) => g.cpu).sort((a, b) => a - b);
    const mid = got.length >> 1;
    line.push(
      `${label} median ${wall[mid].toFixed(1)} (cpu ${cpu[mid].toFixed(1)}) / max ${wall[wall.length - 1].toFixed(1)} (cpu ${cpu[cpu.length - 1].toFixed(1)}) ms (n=${got.length})`,
    );
  }
  line.push(`answers ${hash.digest('hex').slice(0, 12)}`);
  console.log(line.join('; '));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
