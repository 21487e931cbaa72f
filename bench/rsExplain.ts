/**
 * What selecting a ReplicaSet costs the panel: `explain()` (the host's part of the click) on the
 * 5,000-node panel outage stepped to a pass where a zone is Unknown. In order: the first selection, a
 * pod on a failing node (it pays the zone queue's forecast and the first compile); then up to 8
 * ReplicaSets with pods on failing nodes (median / max) and 4 healthy ones (median). The answers are
 * printed as one hash beside the times, so that two checkouts can be seen to answer alike.
 *
 *   flock /tmp/cs-bench.lock node --import tsx bench/rsExplain.ts [SCENARIO] [--pass 21] [--root DIR] [--no-pod]
 *
 * `--root DIR`: another checkout's engine (the A side of an A/B pair; run A B B A by hand, under the
 * lock, with the load average each run prints). `--no-pod` leaves out the pod's selection, so that the
 * first ReplicaSet asked pays what the pod paid.
 */
import { createHash } from 'node:crypto';
import { loadavg } from 'node:os';
import { harnessArgs } from './sessionHarness';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const { flag, file, root } = harnessArgs(args);
  const pass = Number(flag('--pass') ?? 21);
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
  const onFailing = [...podOf.keys()].sort().slice(0, 8);
  const healthy = [...c.replicaSets.values()]
    .map((r) => `ReplicaSet/${r.meta.namespace}/${r.meta.name}`)
    .filter((r) => !podOf.has(r))
    .slice(0, 4);
  const hash = createHash('sha256');
  const ask = (ref: string): number => {
    const t0 = performance.now();
    const e = sim.explain(ref);
    const ms = performance.now() - t0;
    hash.update(JSON.stringify(e.whyNot));
    return ms;
  };
  const line = [`load ${loadavg()[0].toFixed(2)}`, `goToPass(${pass}) ${stepMs.toFixed(0)} ms`, `failing nodes ${failing.size}`];
  if (!args.includes('--no-pod')) line.push(`first selection, a pod on a failing node ${ask([...podOf.values()].sort()[0]).toFixed(1)} ms`);
  for (const [label, refs] of [
    ['on failing nodes', onFailing],
    ['healthy', healthy],
  ] as const) {
    const ms = refs.map(ask).sort((a, b) => a - b);
    line.push(`${label} median ${ms[ms.length >> 1].toFixed(1)} / max ${ms[ms.length - 1].toFixed(1)} ms (n=${ms.length})`);
  }
  line.push(`answers ${hash.digest('hex').slice(0, 12)}`);
  console.log(line.join('; '));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
