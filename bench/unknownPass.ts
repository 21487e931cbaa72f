/**
 * One pass alone: the outage scenario stepped as the panel steps it (`step(true)`) to just before
 * pass N, then that pass timed (CPU and wall) with the one after it; or profiled (V8's CPU profile
 * or its sampling heap profile of that one step). At 5,000 nodes the bench's `outage.yaml` (1.35)
 * has the zone's 1,667 nodes go Unknown in pass 21 (MarkPodsNotReady's 50,000 pod updates); the
 * generated `--outage 1:60s:30m` scenario (1.31) in pass 19.
 *
 *   node --import tsx bench/unknownPass.ts --inputs DIR [--pass 21] [--pairs 3] [--ref CHECKOUT] [--prepare] [--settle] [--idle | --back]
 *        [--after-gc MS] [--cpu-profile FILE | --heap-profile FILE] [--no-lock]
 *
 * Each side is bundled as bench/ab.ts bundles the child (the engine as it ships) and run in a child
 * process of its own; with --ref, A (that checkout) and B (this one) run in interleaved pairs whose
 * order alternates (A B, B A, …) and B ÷ A is printed per pair. --prepare calls `Simulation.prepare()`
 * first, as the panel does when idle. --idle runs the panel's idle preparation between the pass and
 * the one after (prepareSlice in 10 ms slices where the engine has it, else prepare) and times it
 * apart; --settle times apart the checkpoint the pass before left pending (a user's step leaves one,
 * and a click with no idle time before it takes it first: after the Unknown pass, most of that
 * click); --back steps back one pass from the pass first (its pending checkpoint taken before,
 * untimed), then prepares so. Timed runs take the bench lock per child (bench/benchLock.ts) unless
 * this run holds it already (`flock /tmp/cs-bench.lock node … unknownPass.ts` works too) or `--no-lock`.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pairOrder, timedRunner } from './benchLock';
import { median } from './median';
import { arg, bundleSource, runMain } from './cli';

const root = resolve(__dirname, '..');

/** The child: runs in its own process, bundled against one checkout's engine. */
const CHILD = (checkout: string) => `
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { loadScenario } from ${JSON.stringify(join(checkout, 'src/engine/snapshot/scenario'))};
import { createSimulation } from ${JSON.stringify(join(checkout, 'src/engine/simulation/simulation'))};
import { nodeFs } from ${JSON.stringify(join(checkout, 'src/platform/nodeFs'))};

const a = JSON.parse(process.argv[2]);
const cpuMs = (c0) => { const c = process.cpuUsage(c0); return (c.user + c.system) / 1000; };
const post = (s, m, p) => new Promise((res, rej) => s.post(m, p ?? {}, (e, r) => (e ? rej(e) : res(r))));
async function main() {
  const loaded = loadScenario(a.scenario, nodeFs(), { maxFileBytes: Number.MAX_SAFE_INTEGER });
  // a scenario with errors still loads (an empty cluster, say) and would be timed as if it were the outage
  const errors = (loaded.problems ?? []).filter((p) => p.severity === 'error');
  if (errors.length) throw new Error(\`\${a.scenario}: \${errors.map((p) => p.message).join('; ')}\`);
  const sim = createSimulation(loaded);
  if (a.prepare) sim.prepare();
  while ((sim.pass ?? -1) < a.pass - 1) sim.step(true);
  globalThis.gc?.();
  // --after-gc MS: the collector's concurrent sweeping after that gc is left to finish; otherwise the first
  // timed allocations wait on it (the Unknown pass's pending checkpoint: pod copies 37 ms after 1 s, 222 ms at once)
  if (a.afterGc) await new Promise((r) => setTimeout(r, a.afterGc));
  // --settle: the checkpoint the pass before left pending (a user's step leaves one) timed apart; else the pass takes it first, as a quick click does
  let settle;
  if (a.settle) {
    const pending = sim.hasPendingCheckpoint === true;
    const cs = process.cpuUsage(), ts = performance.now();
    sim.settle?.();
    settle = { pending, cpuMs: cpuMs(cs), wallMs: performance.now() - ts };
  }
  const before = sim.trace.length;
  let s;
  if (a.cpuProfile || a.heapProfile) {
    s = new Session();
    s.connect();
    if (a.cpuProfile) {
      await post(s, 'Profiler.enable');
      await post(s, 'Profiler.setSamplingInterval', { interval: 200 });
      await post(s, 'Profiler.start');
    } else {
      await post(s, 'HeapProfiler.enable');
      await post(s, 'HeapProfiler.startSampling', { samplingInterval: 4096, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    }
  }
  const c0 = process.cpuUsage(), t0 = performance.now();
  sim.step(true);
  const pass = { pass: sim.pass, decisions: sim.trace.length - before, cpuMs: cpuMs(c0), wallMs: performance.now() - t0, settle };
  if (s) {
    const { profile } = await post(s, a.cpuProfile ? 'Profiler.stop' : 'HeapProfiler.stopSampling');
    writeFileSync(a.cpuProfile ?? a.heapProfile, JSON.stringify(profile));
    console.log(JSON.stringify({ pass }));
    return;
  }
  // --back: a step back from the pass (its checkpoint taken first, as a click after idle time finds it), then the idle preparation
  let back;
  if (a.back) {
    sim.settle?.();
    const cb = process.cpuUsage(), tb = performance.now();
    sim.goToPass(sim.pass - 1);
    back = { cpuMs: cpuMs(cb), wallMs: performance.now() - tb };
  }
  // --idle: the panel's idle time between the two clicks (ctx.ts), in 10 ms slices where the engine has them
  let idle;
  if (a.idle || a.back) {
    const ci = process.cpuUsage(), ti = performance.now();
    let slices = 0, longest = 0;
    if (sim.prepareSlice)
      for (let left = true; left; slices++) {
        const s0 = performance.now();
        left = sim.prepareSlice(() => performance.now() < s0 + 10);
        longest = Math.max(longest, performance.now() - s0);
      }
    else {
      sim.prepare();
      slices = 1;
      longest = performance.now() - ti;
    }
    idle = { cpuMs: cpuMs(ci), wallMs: performance.now() - ti, slices, longestMs: longest };
  }
  const c1 = process.cpuUsage(), t1 = performance.now();
  sim.step(true);
  console.log(JSON.stringify({ pass, back, idle, next: { cpuMs: cpuMs(c1), wallMs: performance.now() - t1 } }));
}
main();
`;

const bundle = (checkout: string, out: string): Promise<string> => bundleSource(checkout, CHILD(checkout), out);

interface Figures {
  pass: { pass: number; decisions: number; cpuMs: number; wallMs: number; settle?: { pending: boolean; cpuMs: number; wallMs: number } };
  idle?: { cpuMs: number; wallMs: number; slices: number; longestMs: number };
  back?: { cpuMs: number; wallMs: number };
  next?: { cpuMs: number; wallMs: number };
}

function run(runner: ReturnType<typeof timedRunner>, entry: string, args: object): Figures {
  const r = runner.run([process.execPath, '--expose-gc', '--max-old-space-size=16384', entry, JSON.stringify(args)]);
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Figures;
}

async function main(): Promise<number> {
  const inputs = arg('--inputs');
  if (!inputs) {
    process.stderr.write(
      'usage: node --import tsx bench/unknownPass.ts --inputs DIR [--pass N] [--pairs N] [--ref CHECKOUT] [--prepare] [--settle] [--idle | --back] [--after-gc MS] [--cpu-profile FILE | --heap-profile FILE] [--no-lock]\n',
    );
    return 2;
  }
  const dir = join(tmpdir(), `controller-stepper-pass-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  // the two bundles are this run's alone: gone with it, however it ends (kept with a profile, whose lines are theirs)
  if (!arg('--cpu-profile') && !arg('--heap-profile')) process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  else process.stdout.write(`the bundles the profile's lines refer to: ${dir}\n`);
  const ref = arg('--ref');
  const sides = [
    ...(ref ? [{ name: 'A', entry: await bundle(resolve(ref), join(dir, 'a.js')) }] : []),
    { name: 'B', entry: await bundle(root, join(dir, 'b.js')) },
  ];
  const args = {
    scenario: join(resolve(inputs), 'outage.yaml'),
    pass: Number(arg('--pass', '21')),
    prepare: process.argv.includes('--prepare'),
    settle: process.argv.includes('--settle'),
    idle: process.argv.includes('--idle'),
    back: process.argv.includes('--back'),
    afterGc: Number(arg('--after-gc', '0')),
    cpuProfile: arg('--cpu-profile'),
    heapProfile: arg('--heap-profile'),
  };
  const runner = timedRunner(!args.cpuProfile && !args.heapProfile && !process.argv.includes('--no-lock'));
  process.stdout.write(
    `bench lock: ${runner.locked ? 'taken per child' : runner.heldAlready ? 'held by this run already' : 'not taken'}${sides.length === 2 ? '; pairs alternate A B, B A' : ''}\n`,
  );
  const pairs = args.cpuProfile || args.heapProfile ? 1 : Number(arg('--pairs', '1'));
  const ratios: number[] = [];
  const settleRatios: number[] = [];
  for (let i = 0; i < pairs; i++) {
    const got: Figures[] = [];
    const order = sides.length === 2 ? pairOrder(i) : [0];
    for (const side of order) {
      const s = sides[side];
      const f = run(runner, s.entry, args);
      const load = loadavg()[0];
      got[side] = f;
      const idle = f.idle
        ? `; idle: CPU ${f.idle.cpuMs.toFixed(0)} ms, wall ${f.idle.wallMs.toFixed(0)} ms in ${f.idle.slices} slices (the longest ${f.idle.longestMs.toFixed(0)} ms)`
        : '';
      const back = f.back ? `; a step back: CPU ${f.back.cpuMs.toFixed(0)} ms, wall ${f.back.wallMs.toFixed(0)} ms` : '';
      const next = f.next ? `${back}${idle}; the pass after: CPU ${f.next.cpuMs.toFixed(0)} ms, wall ${f.next.wallMs.toFixed(0)} ms` : '';
      const st = f.pass.settle;
      const settle = st
        ? `the pending checkpoint before it${st.pending ? '' : ' (none pending)'}: CPU ${st.cpuMs.toFixed(0)} ms, wall ${st.wallMs.toFixed(0)} ms; then `
        : '';
      process.stdout.write(
        `${i + 1} ${s.name}: ${settle}pass ${f.pass.pass} (${f.pass.decisions} decisions): CPU ${f.pass.cpuMs.toFixed(0)} ms, wall ${f.pass.wallMs.toFixed(0)} ms${next} (load average ${load.toFixed(1)})\n`,
      );
    }
    if (got.length === 2) {
      ratios.push(got[1].pass.cpuMs / got[0].pass.cpuMs);
      const names = order.map((k) => sides[k].name).join(' ');
      const sa = got[0].pass.settle,
        sb = got[1].pass.settle;
      if (sa && sb) settleRatios.push(sb.wallMs / sa.wallMs);
      const st = sa && sb ? `; the pending checkpoint B ÷ A wall ${settleRatios[settleRatios.length - 1].toFixed(3)}` : '';
      process.stdout.write(`${i + 1} (${names}): B ÷ A CPU ${ratios[ratios.length - 1].toFixed(3)}${st}\n`);
    }
  }
  if (ratios.length) {
    process.stdout.write(`median of B ÷ A per pair (CPU): ${median(ratios).toFixed(3)}\n`);
    if (settleRatios.length) process.stdout.write(`median of the pending checkpoint's B ÷ A per pair (wall): ${median(settleRatios).toFixed(3)}\n`);
  }
  if (args.cpuProfile || args.heapProfile) process.stdout.write(`profile: ${args.cpuProfile ?? args.heapProfile}\n`);
  return 0;
}

runMain(main);
