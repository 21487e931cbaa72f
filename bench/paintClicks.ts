/**
 * The webview bench's quick clicks without the page: the real Session opens SCENARIO in node as the extension does (the
 * run-ahead's first pass before the paint), then clicks as the bench does (the first step, five quiet ones, on to pass
 * FROM - 1, then COUNT outage steps), each PAINT ms after the last command returned: the page's parse and paint, during
 * which the host is idle. The root's own IdlePrepare runs the idle slices on real timers, armed by every message the
 * session posts (the panel's idle work: the selections' warm-up, then Session.idleSlice); a click is a timer, so it waits for the slice it lands in. Prints per outage click the wait, the
 * command, where the ahead simulation stood (`*`: inside an instant), the pause's idle work and its longest slice; and
 * the longest slice of the whole run. The host's part of click to paint only; a measurement, not a test: run it under
 * the bench lock.
 *
 *   flock /tmp/cs-bench.lock node --max-old-space-size=16000 --import tsx bench/paintClicks.ts SCENARIO [--root DIR] [--paint 30] [--from 12] [--count 15]
 */
import { loadavg } from 'node:os';
import { harnessArgs, idleSession } from './sessionHarness';

const { flag, file, root } = harnessArgs(process.argv.slice(2));
const paint = Number(flag('--paint') ?? 30);
const from = Number(flag('--from') ?? 12);
const count = Number(flag('--count') ?? 15);

const load = (): string => loadavg()[0].toFixed(1);

const main = async (): Promise<void> => {
  const slices: number[] = [];
  const { session, idle } = await idleSession(root, file, (ms) => slices.push(ms));
  // where the pauses' idle time went: the engine's and the views' idle calls, timed on their prototypes (outermost only)
  const spent = new Map<string, number>();
  let depth = 0;
  const timeOn = (proto: any, names: string[], label: string) => {
    for (const name of names) {
      const f = proto[name];
      if (typeof f !== 'function') continue;
      proto[name] = function (this: any, ...args: unknown[]) {
        const who = this === session.sim ? 'shown' : this === session.ahead.sim ? 'ahead' : label;
        const t = performance.now();
        depth++;
        try {
          return f.apply(this, args);
        } finally {
          if (--depth === 0) spent.set(`${who}.${name}`, (spent.get(`${who}.${name}`) ?? 0) + performance.now() - t);
        }
      };
    }
  };
  timeOn(Object.getPrototypeOf(session.sim), ['prepareSlice', 'handOffSlice', 'goToPass', 'settle'], 'sim');
  timeOn(Object.getPrototypeOf(session['kept']), ['alignSlice', 'prepare', 'update', 'completeSlice'], 'views');
  session.nextPassNow?.();
  session.sendAll();
  process.stdout.write(`== ${root} ${new Date().toISOString()} load ${load()}, paint ${paint} ms\n`);
  let longest = 0;
  const click = async (): Promise<{ total: number; cpu: number; where: string; idle: number; long: number; parts: string }> => {
    slices.splice(0);
    spent.clear();
    const clickAt = performance.now() + paint;
    const waited = await new Promise<number>((r) => setTimeout(() => r(performance.now() - clickAt), paint));
    const a = session.ahead.sim;
    const where = a ? `${a.pass}${a.partDone ? '*' : ''}` : '-';
    const idleMs = slices.reduce((x, y) => x + y, 0);
    const long = Math.max(0, ...slices);
    const parts = [...spent].map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ');
    longest = Math.max(longest, long);
    const s0 = performance.now();
    const c0 = process.cpuUsage();
    const r = session.step();
    if (!r.ok) throw new Error(r.message);
    const c = process.cpuUsage(c0);
    // the command's CPU (every thread: the collector's too), which a loaded machine stretches less than its wall time
    const cpu = (c.user + c.system) / 1000;
    return { total: Math.max(0, waited) + performance.now() - s0, cpu, where, idle: idleMs, long, parts };
  };
  const quick: string[] = [];
  const verbose = process.argv.includes('--verbose');
  const show = (c: Awaited<ReturnType<typeof click>>) => {
    if (verbose)
      process.stdout.write(
        `    onto ${session.sim.pass}: ${c.total.toFixed(0)} ms; ahead ${c.where}; idle ${c.idle.toFixed(0)}: ${c.parts}${session.sim.hasPendingCheckpoint ? '; a checkpoint pending' : ''}\n`,
      );
    return c;
  };
  for (let i = 0; i < 6; i++) quick.push(show(await click()).total.toFixed(0));
  while ((session.sim.pass ?? -1) < from - 1) show(await click());
  process.stdout.write(`first and quiet steps ${quick.join(', ')} ms\n`);
  for (let i = 0; i < count; i++) {
    const c = await click();
    process.stdout.write(
      `  onto ${String(session.sim.pass).padStart(2)}: ${c.total.toFixed(0).padStart(5)} ms (CPU ${c.cpu.toFixed(0)}); ahead at the click ${c.where}; idle ${c.idle.toFixed(0)} ms, longest slice ${c.long.toFixed(0)}${verbose ? `: ${c.parts}` : ''}\n`,
    );
  }
  process.stdout.write(`longest idle slice ${longest.toFixed(0)} ms; load ${load()}\n`);
  idle.dispose();
};
void main();
