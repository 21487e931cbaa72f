/**
 * What the outage hour allocates, and what of it the hour keeps, in the engine as the command line
 * ships it (bundled, with its V8 options): V8's sampling heap profiler around `runUntil(start + 1 h)`,
 * the bytes summed by allocating function and its source file, each with the callers that allocated
 * most through it.
 *
 *   node --import tsx bench/hourHeap.ts --inputs DIR [--kept] [--checkout DIR] [--top 30] [--interval-bytes 16384] [--no-lock]
 *
 * Without --kept: everything allocated in the hour, the collected objects too (what sets how often the
 * young generation is collected). With --kept: what is still alive after the hour and two full
 * collections (what the scavenges copied and promoted: the hour's collector time follows this, not
 * the other; bench/README.md "engine18"). The sources through tsx are no guide to either: tsx's
 * transform changed what V8 made of kubelets.ts `materialise` so that it allocated 169 MB an hour
 * there against 8.5 MB in the bundle. Counts are samples (one per interval's bytes on average), so
 * two runs differ by a few per cent; the profile and the bundle stay in the printed directory.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { timedRunner } from './benchLock';
import { arg, bundleModules, hourTool, runMain } from './cli';

const CHILD = (checkout: string) => `
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { loadScenario } from ${JSON.stringify(join(checkout, 'src/engine/snapshot/scenario'))};
import { createSimulation } from ${JSON.stringify(join(checkout, 'src/engine/simulation/simulation'))};
import { nodeFs } from ${JSON.stringify(join(checkout, 'src/platform/nodeFs'))};

const a = JSON.parse(process.argv[2]);
const s = new Session();
s.connect();
const post = (m: string, p: object = {}) => new Promise<any>((res, rej) => s.post(m, p, (e, r) => (e ? rej(e) : res(r))));
(async () => {
  const sim = createSimulation(loadScenario(a.scenario, nodeFs(), { maxFileBytes: Number.MAX_SAFE_INTEGER }));
  const gc = (globalThis as any).gc;
  gc();
  const before = process.memoryUsage().heapUsed;
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', {
    samplingInterval: a.interval,
    includeObjectsCollectedByMajorGC: !a.kept,
    includeObjectsCollectedByMinorGC: !a.kept,
  });
  sim.runUntil(sim.startTime + 3600e6);
  if (a.kept) { gc(); gc(); }
  const { profile } = await post('HeapProfiler.stopSampling');
  gc();
  writeFileSync(a.out, JSON.stringify(profile));
  console.log(JSON.stringify({ decisions: sim.trace.length, grownMiB: (process.memoryUsage().heapUsed - before) / 2 ** 20 }));
})();
`;

export interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

export interface Allocator {
  /** function and source file */
  name: string;
  bytes: number;
  /** the caller (function and file) -> bytes allocated by this function when called from it */
  callers: Map<string, number>;
}

/**
 * The profile's bytes by allocating function, largest first. `fileAt` maps a line of the bundle to
 * its source file (bundleModules); V8's own functions (a Map's growth, an array's) have no file and
 * are named `(native)`, so their callers say whose they are.
 */
export function allocators(head: HeapNode, bundleUrl: string, fileAt: readonly string[]): Allocator[] {
  const name = (n: HeapNode) => {
    const f = n.callFrame;
    const file = f.url.endsWith(bundleUrl) ? fileAt[f.lineNumber + 1] || '?' : f.url || '(native)';
    return `${f.functionName || '(anonymous)'}  ${file}`;
  };
  const by = new Map<string, Allocator>();
  const walk = (n: HeapNode, caller: string) => {
    const own = name(n);
    if (n.selfSize > 0) {
      let a = by.get(own);
      if (!a) by.set(own, (a = { name: own, bytes: 0, callers: new Map() }));
      a.bytes += n.selfSize;
      a.callers.set(caller, (a.callers.get(caller) ?? 0) + n.selfSize);
    }
    for (const c of n.children) walk(c, own);
  };
  walk(head, '(root)');
  return [...by.values()].sort((x, y) => y.bytes - x.bytes);
}

async function main(): Promise<number> {
  const tool = await hourTool(
    'hour-heap',
    'node --import tsx bench/hourHeap.ts --inputs DIR [--kept] [--checkout DIR] [--top N] [--interval-bytes N] [--no-lock]',
    CHILD,
  );
  if (!tool) return 2;
  const { checkout, scenario, dir, entry, node } = tool;
  const top = Number(arg('--top', '30'));
  const kept = process.argv.includes('--kept');
  const out = join(dir, 'hour.heapprofile');
  const r = timedRunner(!process.argv.includes('--no-lock')).run([
    ...node,
    entry,
    JSON.stringify({ scenario, kept, out, interval: Number(arg('--interval-bytes', '16384')) }),
  ]);
  if (r.status !== 0) throw new Error(r.stderr);
  const res = JSON.parse(r.stdout.trim().split('\n').pop()!) as { decisions: number; grownMiB: number };
  const profile = JSON.parse(readFileSync(out, 'utf8')) as { head: HeapNode };
  const list = allocators(profile.head, 'hour-heap.js', bundleModules(readFileSync(entry, 'utf8')));
  const total = list.reduce((s, a) => s + a.bytes, 0);
  const mb = (b: number) => (b / 1e6).toFixed(1).padStart(7);
  const lines = [
    `${checkout}: ${kept ? 'kept after the hour' : 'allocated in the hour'} ${mb(total).trim()} MB sampled, ${res.decisions} decisions, ` +
      `heap grown ${res.grownMiB.toFixed(1)} MiB (load average ${loadavg()[0].toFixed(1)}); profile and bundle in ${dir}`,
  ];
  for (const a of list.slice(0, top)) {
    const callers = [...a.callers].sort((x, y) => y[1] - x[1]).slice(0, 2);
    lines.push(`${mb(a.bytes)}  ${a.name}    (from ${callers.map(([c, b]) => `${c.split('  ')[0]} ${mb(b).trim()}`).join(', ')})`);
  }
  writeFileSync(join(dir, 'summary.txt'), lines.join('\n') + '\n');
  process.stdout.write(lines.join('\n') + '\n');
  return 0;
}

if (require.main === module) runMain(main);
