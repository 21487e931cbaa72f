/**
 * The clicks onto the start without the page (the webview bench's "onto the start", bench/webview.ts startClicks): the
 * real Session opens SCENARIO in node as the extension does, its idle work on real timers (IdlePrepare, armed by every
 * message), goes to pass 27, then to pass 1, Step Back onto pass 0 and, PAINT ms later, Step Back from pass 0 at
 * once, the Step after it at once, Step Back from pass 0 again after a second; then Reset from pass 20 after a second of reading. Prints each click's host part
 * (wall and CPU), the engine's share (the shown simulation's reset / goToPass), the view's (its KeptView's update), and with `--cpu-profile DIR` writes a
 * .cpuprofile per click. `--scrub`: back and forth over the Unknown pass instead; `--quiet`: the first Step at once after
 * the open and five more; `--run-back [--select REF | --select-pod]`: as the code-server walk, Run Until 1m35s, Steps to pass 25, Run
 * Until 5m, then two Step Backs at once and one after a second (REF selected first, or with `--select-pod` the first NoExecute node's first pod, as the walk: its why is made on every step). A measurement, not a test: run it under the bench lock.
 *
 *   flock /tmp/cs-bench.lock node --expose-gc --max-old-space-size=16000 --import tsx bench/startClicks.ts SCENARIO [--root DIR] [--paint 30] [--cpu-profile DIR] [--repeat 1] [--walk MS | --read-walk MS] [--scrub | --quiet | --run-back [--select REF | --select-pod]]
 */
import { Session as Inspector } from 'node:inspector';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { harnessArgs, idleSession, sleep } from './sessionHarness';

const { flag, file, root } = harnessArgs(process.argv.slice(2));
const paint = Number(flag('--paint') ?? 30);
const profileDir = flag('--cpu-profile');
const repeat = Number(flag('--repeat') ?? 1);
// `--walk MS`: onto pass 27 by Steps MS apart (the run-ahead swapped in, as the webview bench gets there), not by one jump
const walk = flag('--walk');
const load = (): string => loadavg()[0].toFixed(1);

const main = async (): Promise<void> => {
  const { session, idle } = await idleSession(root, file);
  session.nextPassNow?.();
  session.sendAll();
  const inspector = profileDir ? new Inspector() : undefined;
  const send = (method: string, params?: object) => new Promise<any>((ok, fail) => inspector?.post(method, params, (e, r) => (e ? fail(e) : ok(r))));
  if (inspector) {
    mkdirSync(profileDir!, { recursive: true });
    inspector.connect();
    await send('Profiler.enable');
    await send('Profiler.setSamplingInterval', { interval: 100 });
  }
  // the engine's share: the shown simulation's reset and goToPass, timed on its prototype
  let engine = 0;
  const proto = Object.getPrototypeOf(session.sim);
  for (const name of ['reset', 'goToPass']) {
    const f = proto[name];
    proto[name] = function (this: any, ...args: unknown[]) {
      const t = performance.now();
      try {
        return f.apply(this, args);
      } finally {
        if (this === session.sim) engine += performance.now() - t;
      }
    };
  }
  // the view's share: the shown simulation's KeptView brought up to date (the update message's records side)
  let view = 0;
  const kept = session.kept;
  const keptProto = kept && Object.getPrototypeOf(kept);
  const keptUpdate = keptProto?.update;
  if (keptUpdate)
    keptProto.update = function (this: any, ...args: unknown[]) {
      const t = performance.now();
      try {
        return keptUpdate.apply(this, args);
      } finally {
        if (this === session.kept) view += performance.now() - t;
      }
    };
  const click = async (label: string, act: () => { ok: boolean; message?: string }): Promise<string> => {
    await sleep(paint);
    engine = view = 0;
    if (inspector) await send('Profiler.start');
    const c0 = process.cpuUsage();
    const t = performance.now();
    const r = act();
    const wall = performance.now() - t;
    const cpu = process.cpuUsage(c0);
    if (inspector) {
      const { profile } = await send('Profiler.stop');
      writeFileSync(join(profileDir!, `${label}.cpuprofile`), JSON.stringify(profile));
    }
    if (!r.ok) throw new Error(`${label}: ${r.message}`);
    return `${label} ${wall.toFixed(0)} ms (CPU ${((cpu.user + cpu.system) / 1000).toFixed(0)}, engine ${engine.toFixed(0)}, view ${view.toFixed(0)})`;
  };
  const go = async (n: number, read: number) => {
    const r = session.goToPass(n);
    if (!r.ok) throw new Error(r.message);
    await sleep(read);
  };
  if (process.argv.includes('--quiet')) {
    // as the webview bench's first step and quiet steps: Step at once after the open, then five Steps each PAINT ms after the last
    const lines: string[] = [];
    for (let i = 0; i < 6; i++) lines.push(await click(`step-${i}-from-${session.shown.pass}`, () => session.step()));
    process.stdout.write(`  ${lines.join('; ')}; load ${load()}\n`);
    idle.dispose();
    process.exit(0);
  }
  if (process.argv.includes('--scrub')) {
    // back and forth over the outage's Unknown pass (19), each click PAINT ms after the last
    await go(21, 1500);
    const lines: string[] = [];
    for (const [i, act] of ['stepBack', 'stepBack', 'stepBack', 'step', 'step', 'step'].entries())
      lines.push(await click(`${act}-${i}-from-${session.shown.pass}`, () => session[act]()));
    process.stdout.write(`  ${lines.join('; ')}; load ${load()}\n`);
    idle.dispose();
    process.exit(0);
  }
  if (process.argv.includes('--selected-back')) {
    // as the webview bench's last row: steps to pass 27, the first node tainted NoExecute selected, then five Step Backs at once
    await go(21, 1000);
    while ((session.shown.pass ?? -1) < 27) {
      const r = session.step();
      if (!r.ok) throw new Error(r.message);
      await sleep(paint);
    }
    await sleep(1000);
    const names = [...session.sim.cluster.nodes.values()].filter((n: any) => n.taints.some((t: any) => t.effect === 'NoExecute')).map((n: any) => n.meta.name);
    const r = session.selectObject(`Node/${names.sort()[0]}`);
    if (!r.ok) throw new Error(r.message);
    await sleep(1000);
    const lines: string[] = [];
    for (let i = 0; i < 5; i++) lines.push(await click(`selected-back-from-${session.shown.pass}`, () => session.stepBack()));
    process.stdout.write(`  ${lines.join('; ')}; load ${load()}\n`);
    idle.dispose();
    process.exit(0);
  }
  if (process.argv.includes('--run-back')) {
    // as the walk: Run Until 1m35s, Steps to pass 25, Run Until 5m, a second of reading, then two Step Backs PAINT ms apart
    const finish = async (r: { ok: boolean; pending?: true; message?: string }) => {
      if (!r.ok) throw new Error(r.message);
      if (r.pending) await session.finishLong({ isCancellationRequested: false });
    };
    await finish(session.runUntil('1m35s'));
    while ((session.shown.pass ?? -1) < 25) await finish(session.step());
    await sleep(1000);
    await finish(session.runUntil('5m'));
    // `--select REF`: an object selected first, as the walk's pod (its why is made anew on every step)
    const selected = flag('--select');
    if (selected !== undefined) {
      const r = session.selectObject(selected);
      if (!r.ok) throw new Error(r.message);
    }
    if (process.argv.includes('--select-pod')) {
      // as the walk and the webview bench's pod row: the first node tainted NoExecute, then its first pod
      const node = [...session.sim.cluster.nodes.values()]
        .filter((n: any) => n.taints.some((t: any) => t.effect === 'NoExecute'))
        .map((n: any) => n.meta.name)
        .sort()[0];
      const pod = session
        .podsOn(node)
        .map((p: any) => p.ref)
        .sort()[0];
      for (const ref of [`Node/${node}`, pod]) {
        const r = session.selectObject(ref);
        if (!r.ok) throw new Error(r.message);
        await sleep(1000);
      }
      process.stdout.write(`  selected ${pod} on ${node}\n`);
    }
    await sleep(1000);
    const lines = [await click(`back-from-${session.shown.pass}`, () => session.stepBack())];
    lines.push(await click(`back-from-${session.shown.pass}`, () => session.stepBack()));
    await sleep(1000);
    lines.push(await click(`back-read-from-${session.shown.pass}`, () => session.stepBack()));
    process.stdout.write(`  ${lines.join('; ')}; load ${load()}\n`);
    idle.dispose();
    process.exit(0);
  }
  process.stdout.write(`== ${root} ${new Date().toISOString()} load ${load()}, paint ${paint} ms\n`);
  for (let i = 0; i < repeat; i++) {
    if (flag('--read-walk') !== undefined) {
      // as the webview bench gets there: pass 11, then Steps each after READ ms of reading
      await go(11, Number(flag('--read-walk')));
      for (let k = 0; k < 15; k++) {
        const r = session.step();
        if (!r.ok) throw new Error(r.message);
        await sleep(Number(flag('--read-walk')));
      }
    } else if (walk !== undefined) {
      while ((session.shown.pass ?? -1) < 27) {
        const r = session.step();
        if (!r.ok) throw new Error(r.message);
        await sleep(Number(walk));
      }
    } else await go(27, 1000);
    await go(1, 1000);
    const lines = [await click(`back-onto-0-${i}`, () => session.stepBack())];
    lines.push(await click(`back-from-0-${i}`, () => session.stepBack()));
    lines.push(await click(`step-after-${i}`, () => session.step()));
    await sleep(1000);
    lines.push(await click(`back-again-${i}`, () => session.stepBack()));
    await go(20, 1000);
    lines.push(await click(`reset-from-20-${i}`, () => session.reset()));
    await sleep(1500);
    process.stdout.write(`  ${lines.join('; ')}; load ${load()}\n`);
  }
  idle.dispose();
  process.exit(0);
};
void main();
