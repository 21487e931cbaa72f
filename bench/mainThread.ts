/**
 * The engine's main-thread CPU time, read from /proc/self/task/PID/schedstat (nanoseconds), in one
 * process per side: the figure a busy machine disturbs least (the collector's helper threads, which
 * `process.cpuUsage` counts, run beside it; the wall clock counts the waits for a core). The kernel
 * brings that count up to date at its scheduler's ticks and switches, not at each read: one quiet
 * pass (about a millisecond) reads as 0 or a tick, while a sum over passes is right to a tick.
 *
 *   node --import tsx bench/mainThread.ts hour --inputs DIR [--ref CHECKOUT] [--pairs N] [--top 8] [--no-lock]
 *   node --import tsx bench/mainThread.ts jump --inputs DIR [--ref CHECKOUT] [--pairs N] [--jumps 4] [--no-lock]
 *   node --import tsx bench/mainThread.ts pass --inputs DIR [--pass 21] [--ref CHECKOUT] [--pairs N] [--no-lock]
 *
 * `hour`: the outage scenario run to its hour one monitor period (5 s) at a time with `runUntil`, as the
 * bench's simulate task runs it but cut at each pass, each period's main-thread time kept: the total,
 * the dearest passes, and the hour cut into its parts (the first pass, the dearest one, the outage until
 * the kubelets come back, the rest). `jump`: the bench's way to its 100-pass jump (pass 120, `step(true)`,
 * three steps back, 120 again) then `goToPass(20)`, `--jumps` times in one process (back to 120 between
 * them, untimed), each jump's main-thread time, CPU and wall: what jump2 measured by hand. `pass`: one
 * pass as the panel steps it (`prepare()`, `step(true)` up to it; by default the Unknown pass of the
 * bench's 1.35 outage), and the pass after it as a control: bench/unknownPass.ts by main thread.
 *
 * Each side is bundled against its own checkout's engine (as bench/unknownPass.ts bundles it) and runs
 * with the command line's 64 MiB young generation; with --ref, A (that checkout) and B (this one) run in
 * pairs whose order alternates (bench/benchLock.ts's pairOrder), each child under the bench lock.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pairOrder, timedRunner } from './benchLock';
import { median } from './median';
import { arg, bundleSource, childNodeOptions, runMain } from './cli';

const root = resolve(__dirname, '..');

const CHILD = (checkout: string) => `
import { readFileSync } from 'node:fs';
import { loadScenario } from ${JSON.stringify(join(checkout, 'src/engine/snapshot/scenario'))};
import { createSimulation } from ${JSON.stringify(join(checkout, 'src/engine/simulation/simulation'))};
import { nodeFs } from ${JSON.stringify(join(checkout, 'src/platform/nodeFs'))};

const a = JSON.parse(process.argv[2]);
const mainMs = () => Number(readFileSync('/proc/self/task/' + process.pid + '/schedstat', 'utf8').split(' ')[0]) / 1e6;
const cpuMs = (c0) => { const c = process.cpuUsage(c0); return (c.user + c.system) / 1000; };
const sim = createSimulation(loadScenario(a.scenario, nodeFs(), { maxFileBytes: Number.MAX_SAFE_INTEGER }));
globalThis.gc?.();
if (a.task === 'hour') {
  const passes = [];
  const c0 = process.cpuUsage(), t0 = performance.now(), m0 = mainMs();
  for (let k = 1; k <= 720; k++) {
    const m = mainMs();
    sim.runUntil(sim.startTime + k * 5_000_000);
    passes.push(mainMs() - m);
  }
  console.log(JSON.stringify({ mainMs: mainMs() - m0, cpuMs: cpuMs(c0), wallMs: performance.now() - t0, decisions: sim.trace.length, passes }));
} else if (a.task === 'pass') {
  sim.prepare();
  while ((sim.pass ?? -1) < a.pass - 1) sim.step(true);
  globalThis.gc?.();
  const out = {};
  for (const which of ['pass', 'next']) {
    const before = sim.trace.length, c0 = process.cpuUsage(), t0 = performance.now(), m0 = mainMs();
    sim.step(true);
    out[which] = { pass: sim.pass, mainMs: mainMs() - m0, cpuMs: cpuMs(c0), wallMs: performance.now() - t0, decisions: sim.trace.length - before };
  }
  console.log(JSON.stringify(out));
} else {
  const far = 120, to = 20, jumps = [];
  for (let j = 0; j < a.jumps; j++) {
    sim.goToPass(far);
    sim.step(true);
    for (let i = 1; i <= 3; i++) sim.goToPass(far - i);
    sim.goToPass(far);
    const c0 = process.cpuUsage(), t0 = performance.now(), m0 = mainMs();
    sim.goToPass(to);
    jumps.push({ mainMs: mainMs() - m0, cpuMs: cpuMs(c0), wallMs: performance.now() - t0 });
    if (sim.pass !== to) throw new Error('goToPass(' + to + ') left the simulation at pass ' + sim.pass);
  }
  console.log(JSON.stringify({ jumps, decisions: sim.trace.length }));
}
`;

const bundle = (checkout: string, out: string): Promise<string> => bundleSource(checkout, CHILD(checkout), out);

interface Hour {
  mainMs: number;
  cpuMs: number;
  wallMs: number;
  decisions: number;
  passes: number[];
}
interface OnePass {
  pass: number;
  mainMs: number;
  cpuMs: number;
  wallMs: number;
  decisions: number;
}
interface Passes {
  pass: OnePass;
  next: OnePass;
}
interface Jumps {
  jumps: { mainMs: number; cpuMs: number; wallMs: number }[];
  decisions: number;
}

const sum = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0);
const f0 = (x: number) => x.toFixed(0);

/** The hour's parts: the first pass, the dearest one, the outage until the kubelets' return (pass 361), the rest. */
function hourLine(h: Hour, top: number): { text: string; parts: Record<string, number> } {
  const order = h.passes.map((ms, i) => [ms, i + 1] as const).sort((x, y) => y[0] - x[0]);
  const dearest = order[0][1];
  const outage = sum(h.passes.slice(1, 360)) - (dearest > 1 && dearest <= 360 ? h.passes[dearest - 1] : 0);
  const parts = { first: h.passes[0], dearest: h.passes[dearest - 1], outage, after: sum(h.passes.slice(360)) - (dearest > 360 ? h.passes[dearest - 1] : 0) };
  const topText = order
    .slice(0, top)
    .map(([ms, p]) => `${p}: ${ms.toFixed(1)}`)
    .join(', ');
  const text =
    `main thread ${f0(h.mainMs)} ms (${f0(3600_000 / h.mainMs)}x), CPU ${f0(h.cpuMs)} ms (${f0(3600_000 / h.cpuMs)}x), wall ${f0(h.wallMs)} ms (${f0(3600_000 / h.wallMs)}x), ${h.decisions} decisions; ` +
    `pass 1 ${f0(parts.first)}, the dearest (${dearest}) ${f0(parts.dearest)}, passes 2-360 else ${f0(parts.outage)}, 361-720 ${f0(parts.after)} ms ` +
    `(median pass ${median(h.passes).toFixed(2)} ms); dearest passes (pass: ms): ${topText}`;
  return { text, parts };
}

async function main(): Promise<number> {
  const task = process.argv[2];
  const inputs = arg('--inputs');
  if ((task !== 'hour' && task !== 'jump' && task !== 'pass') || !inputs) {
    process.stderr.write(
      'usage: node --import tsx bench/mainThread.ts hour|jump|pass --inputs DIR [--ref CHECKOUT] [--pairs N] [--top N] [--jumps N] [--pass N] [--no-lock]\n',
    );
    return 2;
  }
  const dir = join(tmpdir(), `controller-stepper-main-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const ref = arg('--ref');
  const sides = [
    ...(ref ? [{ name: 'A', entry: await bundle(resolve(ref), join(dir, 'a.js')) }] : []),
    { name: 'B', entry: await bundle(root, join(dir, 'b.js')) },
  ];
  const args = { task, scenario: join(resolve(inputs), 'outage.yaml'), jumps: Number(arg('--jumps', '4')), pass: Number(arg('--pass', '21')) };
  const runner = timedRunner(!process.argv.includes('--no-lock'));
  process.stdout.write(
    `bench lock: ${runner.locked ? 'taken per child' : runner.heldAlready ? 'held by this run already' : 'not taken'}${sides.length === 2 ? '; pairs alternate A B, B A' : ''}\n`,
  );
  const pairs = Number(arg('--pairs', '1'));
  const ratios: number[] = [];
  for (let i = 0; i < pairs; i++) {
    const got: number[] = [];
    const order = sides.length === 2 ? pairOrder(i) : [0];
    for (const side of order) {
      const s = sides[side];
      const r = runner.run([process.execPath, '--expose-gc', '--max-old-space-size=16384', ...childNodeOptions(), s.entry, JSON.stringify(args)]);
      if (r.status !== 0) throw new Error(r.stderr);
      const out = JSON.parse(r.stdout.trim().split('\n').pop()!) as Hour & Jumps & Passes;
      const load = loadavg()[0].toFixed(1);
      if (task === 'hour') {
        got[side] = out.mainMs;
        process.stdout.write(`${i + 1} ${s.name}: ${hourLine(out, Number(arg('--top', '8'))).text} (load average ${load})\n`);
      } else if (task === 'pass') {
        got[side] = out.pass.mainMs;
        const one = (p: OnePass) => `pass ${p.pass} (${p.decisions} decisions): main thread ${f0(p.mainMs)} ms, CPU ${f0(p.cpuMs)}, wall ${f0(p.wallMs)}`;
        process.stdout.write(`${i + 1} ${s.name}: ${one(out.pass)}; the pass after: ${one(out.next)} (load average ${load})\n`);
      } else {
        const m = out.jumps.map((j) => j.mainMs);
        got[side] = median(m);
        const list = (k: 'mainMs' | 'cpuMs' | 'wallMs') => out.jumps.map((j) => f0(j[k])).join(' / ');
        process.stdout.write(
          `${i + 1} ${s.name}: jump 120 -> 20: main thread ${list('mainMs')} ms (median ${f0(got[side])}), CPU ${list('cpuMs')}, wall ${list('wallMs')} (load average ${load})\n`,
        );
      }
    }
    if (got.length === 2) {
      ratios.push(got[1] / got[0]);
      process.stdout.write(`${i + 1} (${order.map((k) => sides[k].name).join(' ')}): B ÷ A main thread ${ratios[ratios.length - 1].toFixed(3)}\n`);
    }
  }
  if (ratios.length) process.stdout.write(`median of B ÷ A per pair (main thread): ${median(ratios).toFixed(3)}\n`);
  return 0;
}

runMain(main);
