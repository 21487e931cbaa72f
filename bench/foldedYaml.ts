/**
 * A full-detail cluster as multi-document YAML whose long strings are folded as kubectl's YAML folds
 * them (go-yaml breaks a string at 80 columns: test/helpers/goYamlFold.ts), with long condition
 * messages as real clusters print them; and how many of its documents a checkout's fast YAML reader
 * (src/engine/snapshot/kubectlYaml.ts) reads, the rest going to the yaml package.
 *
 *   node --import tsx bench/foldedYaml.ts --out FILE [--nodes 500] [--count CHECKOUT ...]
 *
 * The file is for `bench/ab.ts --task yamlLoad --yaml FILE`.
 */
import { createWriteStream, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { stringify } from 'yaml';
import { generateClusterStream } from '../src/engine/generate';
import { goYamlFoldLine } from '../test/helpers/goYamlFold';
import { arg, runMain } from './cli';

/** Messages of the length real conditions carry (kubelet, scheduler, container statuses). */
const MESSAGES = [
  'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
  'Kubelet stopped posting node status. The node was low on resource: memory. Threshold quantity: 100Mi, available: 92504Ki.',
  'containers with unready status: [app sidecar] and the readiness probe failed: Get "http://10.0.0.1:8080/healthz": context deadline exceeded',
  'PLEG is not healthy: pleg was last seen active 3m0.5s ago; threshold is 3m0s, and the container runtime is down',
  '0/5000 nodes are available: 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }, 4999 Insufficient cpu. preemption: 0/5000 nodes are available',
  'kubelet has sufficient memory available and the node has been running without any pressure for a long time now',
];

type J = Record<string, unknown>;

async function main(): Promise<number> {
  const out = arg('--out');
  const counts = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--count' ? [resolve(a)] : []));
  if (out) {
    const nodes = Number(arg('--nodes') ?? 500);
    const file = createWriteStream(out);
    let k = 0;
    let folded = 0;
    let docs = 0;
    for (const o of generateClusterStream({ nodes, podsPerNode: 30, zones: 3, seed: 1, detail: 'full', format: 'yaml' }).items) {
      for (const c of ((o as { status?: { conditions?: J[] } }).status?.conditions ?? []) as J[]) c.message = MESSAGES[k++ % MESSAGES.length];
      const text = stringify(o, { lineWidth: 0, minContentWidth: 0 });
      const lines = text.replace(/\n$/, '').split('\n');
      const written = lines.map(goYamlFoldLine);
      docs++;
      if (written.some((l, i) => l !== lines[i])) folded++;
      if (!file.write(`---\n${written.join('\n')}\n`)) await new Promise<void>((r) => file.once('drain', () => r()));
    }
    await new Promise<void>((r) => file.end(() => r()));
    process.stdout.write(`${out}: ${docs} documents, ${folded} with lines folded as go-yaml folds them\n`);
  }
  const path = out ?? arg('--file');
  if (!path) {
    process.stderr.write('usage: node --import tsx bench/foldedYaml.ts --out FILE [--nodes N] [--count CHECKOUT ...] | --file FILE --count CHECKOUT ...\n');
    return 2;
  }
  const text = readFileSync(path, 'utf8');
  const docs = text.split(/^(?=---\n)/m);
  process.stdout.write(`${path}: ${text.length} characters, ${docs.length} documents\n`);
  for (const checkout of counts) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- another checkout's reader, chosen at run time
    const { readKubectlYaml } = require(`${checkout}/src/engine/snapshot/kubectlYaml`) as { readKubectlYaml: (t: string) => unknown };
    const fast = docs.filter((d) => readKubectlYaml(d)).length;
    process.stdout.write(`${checkout}: ${fast} read fast, ${docs.length - fast} by the yaml package\n`);
  }
  return 0;
}

runMain(main);
