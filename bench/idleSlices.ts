/**
 * The idle slices a user's click meets after the code-server walk's long Run Until (issue 14, bench/README.md "walk30",
 * "idle31"): the real Session opens SCENARIO in node with the panel's idle work on real timers, as ctx.ts runs it
 * (IdlePrepare: the owed work, the selections' warm-up, then Session.idleSlice; sessionHarness.idleSession), and makes the
 * walk's clicks at the walk's pace (bench/webviewSelected.ts walkBackClick): Run Until 1m35s, steps to pass 25, the outage
 * zone's queue opened, 3 s of reading, Run Until 5m (25 → 60, 35 passes), the node filter typed, the first NoExecute node
 * selected, then its first pod. From the end of that Run Until until the idle work is done (or --seconds), every slice is
 * timed and labelled by what ran in it (the calls below, their inclusive times, nested ones counted in their callers too)
 * and by the collections that fell in it; a click lands in whatever slice is under way and waits for its end.
 * Prints each slice over --over ms (wall, and the process's CPU time in it: on a shared machine a slice's wall time counts
 * the time the process waited for a core), the clicks, and one SUMMARY line (how many slices, how many over 20 and 50 ms,
 * the longest, the most CPU, the sum) for A/B pairs. A measurement, not a test: run it under the bench lock.
 *
 *   flock /tmp/cs-bench.lock node --max-old-space-size=16000 --import tsx bench/idleSlices.ts [SCENARIO] [--root DIR] [--over 20] [--seconds 30]
 *
 * `--root DIR`: the Session of another checkout (the A side of an A/B pair). `--cpu-profile FILE`: the V8 profiler runs
 * from the Run Until's end (it slows every slice a little), the profile is written to FILE, and each slice printed gets the
 * functions with the most samples of their own in it.
 */
import { writeFileSync } from 'node:fs';
import { Session as Inspector } from 'node:inspector';
import { loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { harnessArgs, idleSession, sleep } from './sessionHarness';

const { flag, file, root } = harnessArgs(process.argv.slice(2));
const OVER = Number(flag('--over') ?? 20);
const SECONDS = Number(flag('--seconds') ?? 30);
const PROFILE = flag('--cpu-profile');

type Profile = {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
};

/** The profile's samples in [from, to) (ms since `hrAt`, the profile's clock in µs at that ms 0): the `top` functions by samples of their own. */
function selfIn(p: Profile, hrAt: number, from: number, to: number, top = 4): string {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let t = p.startTime;
  for (let i = 0; i < p.samples.length; i++) {
    t += p.timeDeltas[i];
    const at = (t - hrAt) / 1000;
    if (at < from || at >= to) continue;
    const f = byId.get(p.samples[i])!.callFrame;
    const k = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    self.set(k, (self.get(k) ?? 0) + (p.timeDeltas[i + 1] ?? 0) / 1000);
  }
  return [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([k, ms]) => `${k} ${ms.toFixed(0)}`)
    .join(', ');
}

const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** the labelled calls' inclusive times in the slice under way */
let parts = new Map<string, { n: number; ms: number }>();

/** Times every call of `names` on `proto` into `parts`, as `label.name`. */
function label(proto: any, name: string, names: readonly string[]): void {
  for (const m of names) {
    const f = proto?.[m];
    if (typeof f !== 'function') continue;
    proto[m] = function (this: unknown, ...args: unknown[]) {
      const t = performance.now();
      try {
        return f.apply(this, args);
      } finally {
        const k = `${name}.${m}`;
        const e = parts.get(k) ?? { n: 0, ms: 0 };
        e.n++;
        e.ms += performance.now() - t;
        parts.set(k, e);
      }
    };
  }
}

const main = async (): Promise<void> => {
  const { KeptView } = await import(`${root}/src/extension/keptView`);
  const { RecordsView } = await import(`${root}/src/extension/recordsView`);
  const { NodeIndexBuild } = await import(`${root}/src/engine/controllers/scheduler/nodeIndexBuild`).catch(() => ({ NodeIndexBuild: undefined }));
  label(KeptView.prototype, 'KeptView', ['alignSlice', 'prepare', 'completeSlice', 'update', 'flushStaleSlice']);
  label(RecordsView.prototype, 'RecordsView', ['completeOpenSlice', 'update', 'flushStaleSlice']);
  label(NodeIndexBuild?.prototype, 'NodeIndexBuild', ['slice', 'finish']);

  /** every slice from the Run Until's end: its start, its length, what ran in it */
  const slices: { at: number; ms: number; cpu: number; what: string }[] = [];
  let t0 = 0;
  const { session, idle } = await idleSession(root, file, (ms, cpu) => {
    if (t0) {
      const what = [...parts]
        .sort((a, b) => b[1].ms - a[1].ms)
        .filter(([, e]) => e.ms >= 1)
        .map(([k, e]) => `${k}${e.n > 1 ? ` ×${e.n}` : ''} ${e.ms.toFixed(0)}`)
        .join(', ');
      slices.push({ at: performance.now() - ms - t0, ms, cpu, what });
    }
    parts = new Map();
  });
  label(Object.getPrototypeOf(session.sim), 'Simulation', ['explain', 'goToPass', 'prepareSlice', 'handOffSlice', 'finishRestore', 'prepare']);
  label(Object.getPrototypeOf(session.ahead), 'RunAhead', ['slice']);
  const gcs: { at: number; ms: number }[] = [];
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (t0) gcs.push({ at: e.startTime - t0, ms: e.duration });
  });
  obs.observe({ entryTypes: ['gc'] });

  const finish = async (r: { ok: boolean; message?: string; pending?: boolean }): Promise<void> => {
    if (!r.ok) throw new Error(r.message);
    if (r.pending) await session.finishLong({ isCancellationRequested: false });
  };
  process.stdout.write(`== ${root} ${new Date().toISOString()} load ${load()}\n`);
  session.nextPassNow?.();
  session.sendAll();
  await finish(session.runUntil('1m35s'));
  while ((session.shown.pass ?? -1) < 25) await finish(session.step());
  session.zoneQueue?.('Zone/us-east-1/us-east-1b', true);
  await sleep(3000);
  const r0 = performance.now();
  await finish(session.runUntil('5m'));
  const ins = PROFILE ? new Inspector() : undefined;
  const post = (m: string, p?: object): Promise<any> => new Promise((ok, fail) => ins!.post(m, p, (e, r) => (e ? fail(e) : ok(r))));
  if (ins) {
    ins.connect();
    await post('Profiler.enable');
    await post('Profiler.setSamplingInterval', { interval: 250 });
    await post('Profiler.start');
  }
  parts = new Map();
  t0 = performance.now();
  const hrAt = Number(process.hrtime.bigint() / 1000n);
  const clicks: string[] = [`Run Until 5m: ${(t0 - r0).toFixed(0)} ms, at pass ${session.shown.pass}`];
  const click = (what: string, run: () => void): void => {
    const s = performance.now();
    parts = new Map();
    run();
    parts = new Map();
    clicks.push(`${(s - t0).toFixed(0).padStart(6)}: ${what} ${(performance.now() - s).toFixed(0)} ms`);
  };
  for (const text of ['us-east-1b', 'NoExecute']) {
    await sleep(300);
    click(`filter "${text}"`, () => session.nodeFilter(text));
  }
  const names = [...(session.sim.cluster?.nodes.values() ?? [])]
    .filter((n: any) => n.taints.some((t: any) => t.effect === 'NoExecute'))
    .map((n: any) => n.meta.name as string)
    .sort();
  if (!names.length) throw new Error('no node is tainted NoExecute');
  await sleep(300);
  click(`select Node/${names[0]}`, () => session.selectObject(`Node/${names[0]}`));
  await sleep(400);
  const pod = session
    .podsOn(names[0])
    .map((p: { ref: string }) => p.ref)
    .sort()[0];
  click(`select ${pod}`, () => session.selectObject(pod));
  // until the idle work is done: no slice for 1.5 s
  for (;;) {
    await sleep(250);
    const now = performance.now() - t0;
    const last = slices.length ? slices[slices.length - 1].at + slices[slices.length - 1].ms : 0;
    if (now - last > 1500 || now > SECONDS * 1000) break;
  }
  obs.disconnect();
  idle.dispose();
  const profile: Profile | undefined = ins && (await post('Profiler.stop')).profile;
  if (profile) writeFileSync(PROFILE!, JSON.stringify(profile));
  for (const c of clicks) process.stdout.write(`${c}\n`);
  const gcIn = (s: { at: number; ms: number }): string => {
    const g = gcs.filter((x) => x.at >= s.at && x.at < s.at + s.ms && x.ms >= 1);
    return g.length ? `; GC ${g.map((x) => x.ms.toFixed(0)).join('+')}` : '';
  };
  for (const s of slices)
    if (s.ms > OVER) {
      process.stdout.write(`  ${s.at.toFixed(0).padStart(6)}: ${s.ms.toFixed(0).padStart(4)} ms (CPU ${s.cpu.toFixed(0)})  ${s.what}${gcIn(s)}\n`);
      if (profile) process.stdout.write(`          self: ${selfIn(profile, hrAt, s.at, s.at + s.ms)}\n`);
    }
  const ms = slices.map((s) => s.ms);
  const longest = slices.reduce((a, s) => (s.ms > a.ms ? s : a), { at: 0, ms: 0, cpu: 0, what: '' });
  const cpus = slices.map((s) => s.cpu);
  process.stdout.write(
    `SUMMARY slices ${ms.length} over20 ${ms.filter((x) => x > 20).length} over50 ${ms.filter((x) => x > 50).length} longest ${longest.ms.toFixed(0)} ms (CPU ${longest.cpu.toFixed(0)}; ${longest.what}${gcIn(longest)}) most CPU ${Math.max(0, ...cpus).toFixed(0)} ms, CPU over20 ${cpus.filter((x) => x > 20).length} sum ${ms.reduce((a, b) => a + b, 0).toFixed(0)} ms, the longest at ${longest.at.toFixed(0)} ms; GCs over 20 ms ${gcs.filter((g) => g.ms > 20).length}; load ${load()}\n`,
  );
  process.exit(0);
};
void main();
