/**
 * `generate`: a deterministic (seeded) cluster as kubectl would export it.
 * To standard output: the cluster, or with `--outage ZONE:AT[:RECOVER]` a
 * scenario holding the cluster inline as `objects:`. With `--out DIR`: the
 * cluster in DIR/cluster.json (or .yaml), written as it is generated (a
 * 5,000-node cluster is larger than one string), and with `--outage`
 * DIR/scenario.yaml pointing at it.
 */
import { GenerateOptionsError, generateCluster, generateClusterStream, listChunks, renderObject, type GenerateOptions } from '../../engine/generate';
import type { ParsedArgs } from '../args';
import { UsageError } from '../args';
import type { CliIo } from '../io';

export function generate(args: ParsedArgs, io: CliIo): number {
  if (args.files.length) throw new UsageError('generate takes no FILE: it writes to standard output, or to --out DIR');
  const format = args.format === 'yaml' ? 'yaml' : 'json';
  const options: GenerateOptions = {
    nodes: args.nodes,
    podsPerNode: args.podsPerNode,
    zones: args.zones,
    seed: args.seed,
    kubernetesVersion: args.version,
    detail: args.detail,
    format,
  };
  if (args.outage !== undefined) {
    const [zone, at, recoverAt, ...rest] = args.outage.split(':');
    if (!zone || !at || rest.length) throw new UsageError(`--outage is ZONE:AT[:RECOVER], e.g. us-east-1b:60s:30m, not "${args.outage}"`);
    options.timeline = { zoneOutage: { zone: /^\d+$/.test(zone) ? Number(zone) : zone, at, ...(recoverAt ? { recoverAt } : {}) } };
  }
  try {
    if (args.out !== undefined) return generateToFolder(args.out, options, format, io);
    const g = generateCluster(options);
    if (options.timeline) {
      const scenario = { ...(g.scenario ?? {}) } as Record<string, unknown>;
      delete scenario.snapshot;
      scenario.objects = g.objects;
      io.out(renderObject(scenario, format));
      return 0;
    }
    for (const chunk of listChunks(g.objects, format)) io.out(chunk);
    return 0;
  } catch (e) {
    if (e instanceof GenerateOptionsError) throw new UsageError(e.message);
    throw e;
  }
}

function generateToFolder(dir: string, options: GenerateOptions, format: 'json' | 'yaml', io: CliIo): number {
  if (!io.writeFile) throw new UsageError('--out is not available here');
  const clusterFile = `cluster.${format}`;
  // One line per object in JSON: kubectl's 4-space indent makes a large export half again as big.
  const indent = format === 'json' ? 0 : undefined;
  const stream = generateClusterStream({ ...options, snapshotPath: `./${clusterFile}` });
  io.writeFile(`${dir}/${clusterFile}`, listChunks(stream.items, format, indent));
  const c = stream.counts;
  io.out(`wrote ${dir}/${clusterFile}: ${c.nodes} nodes, ${c.pods} pods, ${c.replicaSets} ReplicaSets, ${c.daemonSets} DaemonSets, ${c.leases} Leases\n`);
  if (stream.scenario) {
    io.writeFile(`${dir}/scenario.yaml`, [renderObject(stream.scenario, 'yaml')]);
    io.out(`wrote ${dir}/scenario.yaml\n`);
  }
  return 0;
}
