/**
 * The outage hour's CPU profile cut pass by pass: the main thread's hour run one monitor period at a
 * time (as bench/mainThread.ts `hour` runs it), bundled as the command line ships the engine, under V8's
 * CPU profiler, with the clock read between passes; the samples are then split by pass, and the top
 * self and inclusive times printed for the first pass (the start instant), the dearest pass (the
 * Unknown pass in the bench's outage) and the rest of the hour, each function with its source file.
 *
 *   node --import tsx bench/hourProfile.ts --inputs DIR [--checkout DIR] [--top 25] [--interval-us 250] [--no-lock]
 *
 * Times are samples × the interval (on the CPU, unlike the gaps between samples under load), so their
 * sum runs below the main thread's time by the samples V8 missed. The .cpuprofile and the bundle stay in the printed directory (VS Code or Chrome DevTools open it;
 * the bundle's `// src/...` comments name each function's file). The profiler's own cost lengthens
 * the hour by about a tenth: the split is what counts, not the total.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { timedRunner } from './benchLock';
import { arg, bundleModules, hourTool, runMain } from './cli';

const CHILD = (checkout: string) => `
import { readFileSync } from 'node:fs';
import { loadScenario } from ${JSON.stringify(join(checkout, 'src/engine/snapshot/scenario'))};
import { createSimulation } from ${JSON.stringify(join(checkout, 'src/engine/simulation/simulation'))};
import { nodeFs } from ${JSON.stringify(join(checkout, 'src/platform/nodeFs'))};

const a = JSON.parse(process.argv[2]);
const mainMs = () => Number(readFileSync('/proc/self/task/' + process.pid + '/schedstat', 'utf8').split(' ')[0]) / 1e6;
const sim = createSimulation(loadScenario(a.scenario, nodeFs(), { maxFileBytes: Number.MAX_SAFE_INTEGER }));
globalThis.gc?.();
// the profile's clock is the monotonic one hrtime reads, in µs
const us = () => Number(process.hrtime.bigint() / 1000n);
const marks = [us()], passes = [];
const m0 = mainMs();
for (let k = 1; k <= 720; k++) {
  const m = mainMs();
  sim.runUntil(sim.startTime + k * 5_000_000);
  passes.push(mainMs() - m);
  marks.push(us());
}
console.log(JSON.stringify({ mainMs: mainMs() - m0, marks, passes, decisions: sim.trace.length }));
`;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}
interface Part {
  name: string;
  has: (pass: number) => boolean;
  total: number;
  self: Map<string, number>;
  inclusive: Map<string, number>;
}

function split(profile: Profile, marks: readonly number[], parts: Part[], fileAt: readonly string[], interval: number): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const name = (n: ProfileNode) => {
    const file = n.callFrame.url.endsWith('.js') && n.callFrame.url.includes('hour-profile') ? fileAt[n.callFrame.lineNumber + 1] : n.callFrame.url;
    return `${n.callFrame.functionName || '(anonymous)'}  ${file || '(native)'}`;
  };
  let at = profile.startTime;
  let k = 0;
  profile.samples.forEach((id, i) => {
    at += profile.timeDeltas[i] ?? 0;
    while (k < marks.length && at >= marks[k]) k++;
    // samples before the first mark or after the last are the load and the exit
    if (k === 0 || k >= marks.length) return;
    // a sample counts as one interval: the gap to the next one also holds the time the thread waited
    // for a core, which on a loaded machine lands on whichever sample comes after the wait
    const dt = interval;
    for (const p of parts) {
      if (!p.has(k)) continue;
      p.total += dt;
      const own = name(byId.get(id)!);
      p.self.set(own, (p.self.get(own) ?? 0) + dt);
      const seen = new Set<string>();
      for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
        const key = name(byId.get(n)!);
        if (seen.has(key)) continue;
        seen.add(key);
        p.inclusive.set(key, (p.inclusive.get(key) ?? 0) + dt);
      }
    }
  });
}

async function main(): Promise<number> {
  const tool = await hourTool(
    'hour-profile',
    'node --import tsx bench/hourProfile.ts --inputs DIR [--checkout DIR] [--top N] [--interval-us N] [--no-lock]',
    CHILD,
  );
  if (!tool) return 2;
  const { checkout, scenario, dir, entry, node } = tool;
  const top = Number(arg('--top', '25'));
  const interval = Number(arg('--interval-us', '250'));
  const runner = timedRunner(!process.argv.includes('--no-lock'));
  const r = runner.run([...node, '--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-interval=${interval}`, entry, JSON.stringify({ scenario })]);
  if (r.status !== 0) throw new Error(r.stderr);
  const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as { mainMs: number; marks: number[]; passes: number[]; decisions: number };
  const dearest = out.passes.indexOf(Math.max(...out.passes)) + 1;
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!;
  const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as Profile;
  const part = (name: string, has: (p: number) => boolean): Part => ({ name, has, total: 0, self: new Map(), inclusive: new Map() });
  const parts = [
    part('pass 1', (p) => p === 1),
    part(`pass ${dearest} (the dearest)`, (p) => p === dearest),
    part('the other passes', (p) => p !== 1 && p !== dearest),
  ];
  split(profile, out.marks, parts, bundleModules(readFileSync(entry, 'utf8')), interval);
  const f = (us: number) => (us / 1000).toFixed(1).padStart(8);
  process.stdout.write(
    `${checkout}: main thread ${out.mainMs.toFixed(0)} ms with the profiler on, ${out.decisions} decisions; pass 1 ${out.passes[0].toFixed(0)} ms, ` +
      `pass ${dearest} ${out.passes[dearest - 1].toFixed(0)} ms (load average ${loadavg()[0].toFixed(1)}); profile and bundle in ${dir}\n`,
  );
  for (const p of parts) {
    process.stdout.write(`\n== ${p.name}: ${(p.total / 1000).toFixed(0)} ms sampled (samples × interval)\n-- self\n`);
    for (const [k, t] of [...p.self].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${f(t)}  ${k}\n`);
    process.stdout.write('-- inclusive\n');
    for (const [k, t] of [...p.inclusive].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${f(t)}  ${k}\n`);
  }
  return 0;
}

runMain(main);
