/**
 * `generate`: a deterministic (seeded) cluster as kubectl would export it,
 * streamed to stdout. With `--outage ZONE:AT[:RECOVER]` the output is a
 * scenario instead, holding the cluster inline as `objects:` and a timeline
 * in which that zone's kubelets stop at AT (and start again at RECOVER).
 */
import { GenerateOptionsError, generateCluster, listChunks, renderObject, type GenerateOptions } from '../../engine/generate';
import type { ParsedArgs } from '../args';
import { UsageError } from '../args';
import type { CliIo } from '../io';

export function generate(args: ParsedArgs, io: CliIo): number {
  if (args.files.length) throw new UsageError('generate takes no FILE: it writes to standard output');
  if (args.format === 'text') args = { ...args, format: 'json' };
  const options: GenerateOptions = {
    nodes: args.nodes, podsPerNode: args.podsPerNode, zones: args.zones, seed: args.seed,
    kubernetesVersion: args.version, detail: args.detail, format: args.format === 'yaml' ? 'yaml' : 'json',
  };
  if (args.outage !== undefined) {
    const [zone, at, recoverAt, ...rest] = args.outage.split(':');
    if (!zone || !at || rest.length) throw new UsageError(`--outage is ZONE:AT[:RECOVER], e.g. us-east-1b:60s:30m, not "${args.outage}"`);
    options.timeline = { zoneOutage: { zone: /^\d+$/.test(zone) ? Number(zone) : zone, at, ...(recoverAt ? { recoverAt } : {}) } };
  }
  try {
    if (options.timeline) {
      const g = generateCluster(options);
      const scenario = { ...(g.scenario ?? {}) } as Record<string, unknown>;
      delete scenario.snapshot;
      scenario.objects = g.objects;
      io.out(renderObject(scenario, options.format ?? 'json'));
      return 0;
    }
    const g = generateCluster(options);
    for (const chunk of listChunks(g.objects, options.format ?? 'json')) io.out(chunk);
    return 0;
  } catch (e) {
    if (e instanceof GenerateOptionsError) throw new UsageError(e.message);
    throw e;
  }
}
