/**
 * The hand-off's cost and the pass after it, against the pass after a step: three simulations of the panel's outage
 * (SCENARIO) stepped as the panel steps (`step(true)`) to the pass before the heavy one (`--pass`, default 19); A steps
 * the heavy pass, B takes it from A's checkpoints (`handOffSlice`, 10 ms slices), C steps it too; then B and C each step
 * the panel's idle preparation (prepareSlice, 10 ms slices) and the next `--on` passes (order `--order bc|cb`, default bc), each step and its pending checkpoint timed apart (wall,
 * the main thread's CPU from /proc/self/task/PID/schedstat, every thread's CPU). B's pass after the hand-off should
 * cost what C's does (the controllers warm). A measurement, not a test: run it under the bench lock.
 *
 *   flock /tmp/cs-bench.lock node --expose-gc --max-old-space-size=16000 --import tsx bench/handOffPass.ts SCENARIO
 *        [--root DIR] [--pass 19] [--on 2] [--order bc] [--cpu-profile PREFIX]
 *
 * `--root DIR`: the engine of another checkout (the A side of an A/B pair). `--cpu-profile PREFIX`: V8's CPU profile
 * of B's and C's first pass after, written to PREFIX-b.cpuprofile and PREFIX-c.cpuprofile, their self time printed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { loadavg } from 'node:os';
import { harnessArgs } from './sessionHarness';

const { flag, file, root } = harnessArgs(process.argv.slice(2));
const PASS = Number(flag('--pass') ?? 19);
const ON = Number(flag('--on') ?? 2);
const ORDER = flag('--order') ?? 'bc';
const PROFILE = flag('--cpu-profile');
const SLICE_MS = 10;

const load = (): string => loadavg()[0].toFixed(1);
/** The main thread's CPU time (ns, the scheduler's own count: the collector's helper threads are not in it). */
const mainNs = (): number => Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]);
const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;

interface Timed {
  wall: number;
  main: number;
  cpu: number;
}
function timed(run: () => void): Timed {
  const c0 = process.cpuUsage(),
    m0 = mainNs(),
    t0 = performance.now();
  run();
  return { wall: performance.now() - t0, main: (mainNs() - m0) / 1e6, cpu: cpuMs(process.cpuUsage(c0)) };
}
const show = (t: Timed): string => `${t.wall.toFixed(0)} / ${t.main.toFixed(0)} / ${t.cpu.toFixed(0)}`;

const post = (s: Session, m: string, p?: object): Promise<any> =>
  new Promise((res, rej) => s.post(m, p ?? {}, (e: Error | null, r: unknown) => (e ? rej(e) : res(r))));

async function profiled(name: string, run: () => void): Promise<Timed> {
  if (!PROFILE) return timed(run);
  const s = new Session();
  s.connect();
  await post(s, 'Profiler.enable');
  await post(s, 'Profiler.setSamplingInterval', { interval: 200 });
  await post(s, 'Profiler.start');
  const t = timed(run);
  const { profile } = await post(s, 'Profiler.stop');
  s.disconnect();
  writeFileSync(`${PROFILE}-${name}.cpuprofile`, JSON.stringify(profile));
  const self = new Map<string, number>();
  let total = 0;
  const byId = new Map<number, any>(profile.nodes.map((n: any) => [n.id, n]));
  profile.samples.forEach((id: number, i: number) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const n = byId.get(id);
    if (n.callFrame.functionName === 'dispatch' && !n.callFrame.url) return; // the inspector's own
    const key = `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/src\//, '')}:${n.callFrame.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + dt);
    total += dt;
  });
  process.stdout.write(`  profile ${name}: ${(total / 1000).toFixed(0)} ms sampled; self time:\n`);
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) process.stdout.write(`    ${(v / 1000).toFixed(1).padStart(7)} ms  ${k}\n`);
  return t;
}

/**
 * Adds the main thread's time in each call of `o[method]` to `took[name]` (nanoseconds ÷ `per`);
 * the function returned puts the method back.
 */
function timeCalls(took: Map<string, number>, o: any, method: string, name: string, per = 1): () => void {
  const own = Object.prototype.hasOwnProperty.call(o, method);
  const was = o[method];
  o[method] = function (this: unknown, ...args: unknown[]) {
    const t0 = mainNs();
    try {
      return was.apply(this, args);
    } finally {
      took.set(name, (took.get(name) ?? 0) + (mainNs() - t0) / per);
    }
  };
  return () => (own ? (o[method] = was) : delete o[method]);
}

/** The main thread's time in each controller's wake and the kubelets' materialise, while `undo` is not called. */
function byPart(sim: any): { took: Map<string, number>; undo: () => void } {
  const took = new Map<string, number>();
  const undos = sim.host.controllers.map((c: any) => timeCalls(took, c, 'wake', c.name));
  undos.push(timeCalls(took, sim.kubelets, 'materialise', 'kubelets'));
  return { took, undo: () => undos.forEach((u: () => void) => u()) };
}

/** The main thread's time (ms) in the hand-off's controller restores (by controller) and the host's reindex. */
function handOffPieces(sim: any): Map<string, number> {
  const took = new Map<string, number>();
  for (const c of sim.host.controllers) timeCalls(took, Object.getPrototypeOf(c), 'restore', c.name, 1e6);
  timeCalls(took, sim.host, 'reindex', 'reindex', 1e6);
  timeCalls(took, sim.kubelets, 'restore', 'kubelets', 1e6);
  return took;
}

const main = async (): Promise<void> => {
  const { loadScenario } = await import(`${root}/src/engine/snapshot/scenario`);
  const { createSimulation } = await import(`${root}/src/engine/simulation/simulation`);
  const { nodeFs } = await import(`${root}/src/platform/nodeFs`);
  const scenario = loadScenario(file, nodeFs(), { maxFileBytes: Number.MAX_SAFE_INTEGER });
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
  const make = (): any => {
    const sim = createSimulation(scenario);
    sim.goToPass(PASS - 2);
    sim.step(true);
    // as the panel's idle time leaves it at the pass before (its checkpoint taken, the binder's index made)
    while (sim.prepareSlice(() => true));
    return sim;
  };
  const [a, b, c] = [make(), make(), make()];
  const pieceMs = handOffPieces(b);
  process.stdout.write(`== ${root} ${new Date().toISOString()} load ${load()}: three simulations at ${a.pass}\n`);
  gc();
  const aStep = timed(() => a.step(true));
  const aCp = timed(() => a.settle());
  process.stdout.write(`A steps ${a.pass}: ${show(aStep)}, its checkpoint ${show(aCp)} (wall / main thread / CPU ms, load ${load()})\n`);
  gc();
  const pieces: number[] = [];
  const hand = timed(() => {
    for (;;) {
      const s0 = performance.now();
      const left = b.handOffSlice(a, PASS, () => performance.now() < s0 + SLICE_MS);
      pieces.push(performance.now() - s0);
      if (left === undefined) throw new Error('no hand-off possible');
      if (!left) break;
    }
  });
  process.stdout.write(`  its pieces (main thread ms): ${[...pieceMs].map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}\n`);
  const longest = [...pieces].sort((x, y) => y - x).slice(0, 5);
  process.stdout.write(
    `B's hand-off of ${b.pass}: ${show(hand)}; ${pieces.length} slices, the longest ${longest.map((x) => x.toFixed(0)).join(', ')} ms (load ${load()})\n`,
  );
  gc();
  const cStep = timed(() => c.step(true));
  const cCp = timed(() => c.settle());
  process.stdout.write(`C steps ${c.pass}: ${show(cStep)}, its checkpoint ${show(cCp)} (load ${load()})\n`);
  // the idle preparation both get in the panel before the next pass (the binder's index: prepareIdle), in slices
  for (const who of ORDER.split('')) {
    const sim = who === 'b' ? b : c;
    const slices: number[] = [];
    const t = await profiled(`${who}-prepare`, () => {
      for (let left = true; left;) {
        const s0 = performance.now();
        left = sim.prepareSlice(() => performance.now() < s0 + SLICE_MS);
        slices.push(performance.now() - s0);
      }
    });
    process.stdout.write(`${who.toUpperCase()}'s idle preparation: ${show(t)}; ${slices.length} slices, the longest ${Math.max(...slices).toFixed(0)} ms\n`);
  }
  for (let i = 1; i <= ON; i++) {
    for (const who of ORDER.split('')) {
      const sim = who === 'b' ? b : c;
      gc();
      const parts = byPart(sim);
      // the ReplicaSet checks made anew in the pass (its checks' change count: a check made again is one)
      const checksMade = (): number => sim.host.controllers.find((x: any) => x.name === 'replicaset')?.checksChanged ?? 0;
      const checks0 = checksMade();
      const step = i === 1 ? await profiled(who, () => sim.step(true)) : timed(() => sim.step(true));
      const cp = i === ON && PROFILE ? await profiled(`${who}-checkpoint`, () => sim.settle()) : timed(() => sim.settle());
      const of = [...parts.took].map(([k, ns]) => `${k} ${(ns / 1e6).toFixed(0)}`).join(', ');
      parts.undo();
      process.stdout.write(
        `${who.toUpperCase()} steps ${sim.pass}: ${show(step)} (main thread: ${of}; ReplicaSet checks made ${checksMade() - checks0}), its checkpoint ${show(cp)} (load ${load()})\n`,
      );
    }
  }
};
void main();
