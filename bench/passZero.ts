/**
 * Pass 0 alone at 5,000 nodes: the first step of a simulation made afresh (`fresh`: createSimulation, the
 * controllers started), and of one made like another (`like`: the run-ahead's second simulation at open,
 * simulationInSlices with the shown one as `like`, its controllers restored from the shown one's start,
 * startLike.ts). Pass 0 is the ReplicaSet controller's first sync of every ReplicaSet and node lifecycle's
 * first monitor pass with its reconstruction (bench/README.md "fork", "pass0").
 *
 *   node --import tsx bench/passZero.ts [--scenario FILE] [--modes fresh,like] [--pairs 3] [--ref CHECKOUT]
 *        [--cpu-profile PREFIX] [--no-lock]
 *
 * Each side is bundled as bench/ab.ts bundles the child (the engine as it ships) and run in a child process of
 * its own, one per mode, so that the pass meets a JIT as cold as a user's first step does; with --ref, A (that
 * checkout) and B (this one) run in interleaved pairs whose order alternates (A B, B A, …), and B ÷ A is printed
 * per pair and mode (the main thread's CPU time, read from /proc as bench/mainThread.ts does, beside the process's CPU
 * and the wall). The pass is `goToPass(0, { interactive: true })`, as the run-ahead steps it, after a `gc()`.
 * --cpu-profile writes one V8 CPU profile per side and mode (PREFIX-A-fresh.cpuprofile, …; 200 µs sampling) and
 * times nothing. Timed children take the bench lock (bench/benchLock.ts) unless it is held already or --no-lock.
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
import { readFileSync, writeFileSync } from 'node:fs';
import { loadScenario } from ${JSON.stringify(join(checkout, 'src/engine/snapshot/scenario'))};
import { createSimulation } from ${JSON.stringify(join(checkout, 'src/engine/simulation/simulation'))};
import { simulationInSlices } from ${JSON.stringify(join(checkout, 'src/engine/simulation/makeInSlices'))};
import { nodeFs } from ${JSON.stringify(join(checkout, 'src/platform/nodeFs'))};

const a = JSON.parse(process.argv[2]);
const cpuMs = (c0) => { const c = process.cpuUsage(c0); return (c.user + c.system) / 1000; };
// the main thread's own CPU time (schedstat, ns): what a busy machine disturbs least (bench/mainThread.ts)
const mainMs = () => Number(readFileSync('/proc/self/task/' + process.pid + '/schedstat', 'utf8').split(' ')[0]) / 1e6;
const post = (s, m, p) => new Promise((res, rej) => s.post(m, p ?? {}, (e, r) => (e ? rej(e) : res(r))));
async function main() {
  const loaded = loadScenario(a.scenario, nodeFs(), { maxFileBytes: Number.MAX_SAFE_INTEGER });
  const errors = (loaded.problems ?? []).filter((p) => p.severity === 'error');
  if (errors.length) throw new Error(\`\${a.scenario}: \${errors.map((p) => p.message).join('; ')}\`);
  // the making of the simulation whose pass 0 is timed (its start: the controllers started, or restored from the other's start)
  let m0 = mainMs(), t0 = performance.now();
  let sim = createSimulation(loaded);
  if (a.mode === 'like') {
    m0 = mainMs(), t0 = performance.now();
    const make = simulationInSlices(loaded, {}, 500, sim);
    let made;
    while (!(made = make(() => true)));
    sim = made;
  }
  const making = { mainMs: mainMs() - m0, wallMs: performance.now() - t0 };
  globalThis.gc?.();
  await new Promise((r) => setTimeout(r, 200));
  let s;
  if (a.cpuProfile) {
    s = new Session();
    s.connect();
    await post(s, 'Profiler.enable');
    await post(s, 'Profiler.setSamplingInterval', { interval: 200 });
    await post(s, 'Profiler.start');
  }
  const before = sim.trace.length;
  const c0 = process.cpuUsage();
  m0 = mainMs(), t0 = performance.now();
  sim.goToPass(0, { interactive: true });
  const pass = { pass: sim.pass, decisions: sim.trace.length - before, cpuMs: cpuMs(c0), mainMs: mainMs() - m0, wallMs: performance.now() - t0, making };
  if (s) {
    const { profile } = await post(s, 'Profiler.stop');
    writeFileSync(a.cpuProfile, JSON.stringify(profile));
  }
  console.log(JSON.stringify(pass));
}
main();
`;

interface Figures {
  pass: number;
  decisions: number;
  cpuMs: number;
  mainMs: number;
  wallMs: number;
  /** the making of the simulation (createSimulation, or simulationInSlices like the other): main thread and wall */
  making: { mainMs: number; wallMs: number };
}

function run(runner: ReturnType<typeof timedRunner>, entry: string, args: object): Figures {
  const r = runner.run([process.execPath, '--expose-gc', '--max-old-space-size=16384', entry, JSON.stringify(args)]);
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Figures;
}

async function main(): Promise<number> {
  const scenario = resolve(arg('--scenario', '/tmp/panel-outage5k/scenario.yaml')!);
  const modes = arg('--modes', 'fresh,like')!.split(',');
  const dir = join(tmpdir(), `controller-stepper-pass0-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const profile = arg('--cpu-profile');
  if (!profile) process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  else process.stdout.write(`the bundles the profiles' lines refer to: ${dir}\n`);
  const ref = arg('--ref');
  const sides = [
    ...(ref ? [{ name: 'A', entry: await bundleSource(resolve(ref), CHILD(resolve(ref)), join(dir, 'a.js')) }] : []),
    { name: 'B', entry: await bundleSource(root, CHILD(root), join(dir, 'b.js')) },
  ];
  const runner = timedRunner(!profile && !process.argv.includes('--no-lock'));
  process.stdout.write(
    `bench lock: ${runner.locked ? 'taken per child' : runner.heldAlready ? 'held by this run already' : 'not taken'}${sides.length === 2 ? '; pairs alternate A B, B A' : ''}\n`,
  );
  const pairs = profile ? 1 : Number(arg('--pairs', '1'));
  const ratios = new Map<string, { main: number[]; cpu: number[]; wall: number[] }>(modes.map((m) => [m, { main: [], cpu: [], wall: [] }]));
  for (let i = 0; i < pairs; i++) {
    for (const mode of modes) {
      const got: Figures[] = [];
      const order = sides.length === 2 ? pairOrder(i) : [0];
      for (const k of order) {
        const side = sides[k];
        const cpuProfile = profile ? `${profile}-${side.name}-${mode}.cpuprofile` : undefined;
        const f = run(runner, side.entry, { scenario, mode, cpuProfile });
        got[k] = f;
        process.stdout.write(
          `${i + 1} ${side.name} ${mode}: pass ${f.pass} (${f.decisions} decisions): main thread ${f.mainMs.toFixed(0)} ms, CPU ${f.cpuMs.toFixed(0)} ms, wall ${f.wallMs.toFixed(0)} ms; its making: main thread ${f.making.mainMs.toFixed(0)} ms, wall ${f.making.wallMs.toFixed(0)} ms (load average ${loadavg()[0].toFixed(1)})\n`,
        );
      }
      if (got.length === 2) {
        const r = ratios.get(mode)!;
        r.main.push(got[1].mainMs / got[0].mainMs);
        r.cpu.push(got[1].cpuMs / got[0].cpuMs);
        r.wall.push(got[1].wallMs / got[0].wallMs);
        process.stdout.write(
          `${i + 1} ${mode}: B ÷ A main thread ${r.main[r.main.length - 1].toFixed(3)}, CPU ${r.cpu[r.cpu.length - 1].toFixed(3)}, wall ${r.wall[r.wall.length - 1].toFixed(3)}\n`,
        );
      }
    }
  }
  for (const [mode, r] of ratios)
    if (r.cpu.length)
      process.stdout.write(
        `${mode}: median of B ÷ A per pair: main thread ${median(r.main).toFixed(3)}, CPU ${median(r.cpu).toFixed(3)}, wall ${median(r.wall).toFixed(3)}\n`,
      );
  return 0;
}

runMain(main);
