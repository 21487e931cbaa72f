/**
 * The host's part of one step, profiled: opens a scenario into the extension's Session (as the
 * webview bench does, messages JSON-serialised), steps untimed to the pass before `pass`, then
 * steps that pass under V8's CPU profiler (node:inspector) and prints the wall and CPU time of
 * the engine's step and of the rest (the view, the message), with the rest's heaviest functions.
 *
 *   node --import tsx bench/hostPass.ts SCENARIO [--pass 19] [--then 1] [--back 0] [--top 30]
 *
 * `--back N`: then N steps back, each profiled the same way (the panel's Step back: the engine's goToPass, the views).
 */
import { Session as Inspector } from 'node:inspector';
import { openScenario } from '../src/extension/openScenario';
import { Session } from '../src/extension/session';
import type { HostMessage } from '../src/protocol/webview';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

const argv = process.argv.slice(2);
const opt = (name: string, def: number) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : def);
const hr = () => Number(process.hrtime.bigint()) / 1e6;

function byFunction(p: Profile, inclusive: boolean): [string, number][] {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const out = new Map<string, number>();
  p.samples.forEach((id, i) => {
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = inclusive ? parent.get(n) : undefined) {
      const f = byId.get(n)!.callFrame;
      const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').slice(-2).join('/')}:${f.lineNumber + 1}`;
      if (!seen.has(key)) out.set(key, (out.get(key) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000);
      seen.add(key);
    }
  });
  return [...out].sort((a, b) => b[1] - a[1]);
}

async function main(): Promise<void> {
  const scenario = argv[0];
  const pass = opt('--pass', 19),
    then = opt('--then', 1),
    back = opt('--back', 0),
    top = opt('--top', 30);
  let bytes = 0,
    jsonMs = 0;
  const post = (m: HostMessage) => {
    const t = hr();
    bytes = JSON.stringify(m).length;
    jsonMs += hr() - t;
    if (process.env.SIZES && m.type === 'update')
      process.stdout.write(
        `  update ${Object.entries(m)
          .map(([k, v]) => `${k} ${(JSON.stringify(v ?? null).length / 1024).toFixed(0)}K`)
          .join(', ')}\n`,
      );
  };
  const opened = openScenario(scenario, '');
  const session = new Session({ make: opened.make, options: opened.options, settings: { collapseNoise: true, playSpeed: 2 }, post });
  session.sendAll();
  session.handle({ type: 'painted' } as never, { play() {}, pause() {} });
  while ((session.sim.pass ?? -1) < pass - 1) session.step();
  const insp = new Inspector();
  insp.connect();
  const call = (m: string, p?: object) => new Promise<unknown>((r, j) => insp.post(m, p, (e, v) => (e ? j(e) : r(v))));
  for (let k = 0; k <= then + back; k++) {
    await call('Profiler.enable');
    await call('Profiler.setSamplingInterval', { interval: 250 });
    await call('Profiler.start');
    const sim = session.sim;
    const step = sim.goToPass.bind(sim);
    let engineMs = 0;
    sim.goToPass = (...a: Parameters<typeof step>) => {
      const t = hr();
      try {
        return step(...a);
      } finally {
        engineMs += hr() - t;
      }
    };
    jsonMs = 0;
    const c0 = process.cpuUsage();
    const t0 = hr();
    if (k <= then) session.step();
    else session.stepBack();
    const wall = hr() - t0;
    const c = process.cpuUsage(c0);
    sim.goToPass = step;
    const { profile } = (await call('Profiler.stop')) as { profile: Profile };
    process.stdout.write(
      `${k <= then ? '' : 'back to '}pass ${session.sim.pass}: host ${wall.toFixed(0)} ms wall, ${((c.user + c.system) / 1000).toFixed(0)} ms CPU; engine ${engineMs.toFixed(0)} ms; JSON ${jsonMs.toFixed(0)} ms (${(bytes / 1024).toFixed(0)} KiB); the rest ${(wall - engineMs - jsonMs).toFixed(0)} ms\n`,
    );
    const notEngine = (k: string) => !k.includes('engine/');
    process.stdout.write('  inclusive (outside src/engine):\n');
    for (const [f, t] of byFunction(profile, true)
      .filter(([k]) => notEngine(k))
      .slice(0, top))
      process.stdout.write(`    ${t.toFixed(1).padStart(8)} ms  ${f}\n`);
    process.stdout.write('  self:\n');
    for (const [f, t] of byFunction(profile, false).slice(0, top)) process.stdout.write(`    ${t.toFixed(1).padStart(8)} ms  ${f}\n`);
  }
  insp.disconnect();
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack}\n`);
  process.exitCode = 1;
});
