/**
 * The first step after open, in the extension host: the real Session opens SCENARIO in node and is sent
 * everything (the open's first update); the page's `painted` comes PAINT ms later (handled as the panel
 * handles it); the idle work runs as the panel runs it (IdlePrepare on real timers, armed by every
 * message, the selections' warm-up first, then Session.idleSlice); the user clicks Step READ ms after the
 * open's update was sent. Prints per read time the wait for the slice the click lands in, the command's
 * wall and CPU time (the host's part of click to paint: the page and the relays are not in it), when the
 * ahead simulation stood on pass 0 with its views prepared, and every idle slice over --over ms with
 * what it did. A measurement, not a test: run it under the bench lock.
 *
 *   flock /tmp/cs-bench.lock node --max-old-space-size=16000 --import tsx bench/firstClick.ts SCENARIO [--root DIR] [--read 0,1000,1500,3000] [--paint 150] [--over 40] [--no-ahead-at-open] [--ahead-before]
 *
 * The open's pass ahead as ctx.ts makes it (openpost): in slices once the open's update is sent (aheadAtOpen.ts
 * `nextPassInSlices`, on setImmediate; since swapopen its first slice hands the open's simulation to the run-ahead); `--ahead-before`: at once before the update (`Session.nextPassNow`, firstpass);
 * `--no-ahead-at-open`: none (left to idle time).
 *
 * `--click select`: the click selects the scenario's first node instead (the why of a start still being made, bench/README.md
 * "pending"); printed beside the host's part of the click: when the selection with its why was sent. `--click ready`: the
 * page restarts instead (its `ready`: everything sent again, bench/README.md "pending2"); printed beside it: when the full
 * update was sent.
 *
 * `--root DIR`: another checkout's Session (the A side of an A/B pair). Each read time opens the scenario again
 * (the load is not timed).
 */
import { loadavg } from 'node:os';
import { harnessArgs } from './sessionHarness';

const { flag, file, root } = harnessArgs(process.argv.slice(2));
const reads = (flag('--read') ?? '0,1000,1500,3000').split(',').map(Number);
const PAINT = Number(flag('--paint') ?? 150);
const OVER = Number(flag('--over') ?? 40);
const aheadAtOpen = !process.argv.includes('--no-ahead-at-open');
/** the open makes the next pass before its update, as ctx.ts did before openpost */
const aheadBefore = process.argv.includes('--ahead-before');
const selectClick = flag('--click') === 'select';
const readyClick = flag('--click') === 'ready';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;
const load = (): string => loadavg()[0].toFixed(1);

/** Where the ahead simulation stands (read from private fields: either side's, a missing one reads undefined). */
function aheadState(session: any): string {
  const ra = session.ahead;
  const a = ra.sim;
  // the shown start still being made (swapAtOpen.ts: the open's simulation went to the run-ahead)
  const shown = session.shownPending ? ', shown being made' : '';
  if (!a) return (ra.making ? 'making' : 'none') + shown;
  const views = ra.views;
  const prepared = views?.prepared ? ' prepared' : '';
  return `${a.pass ?? '-'}${a.partDone ? '*' : ''}${a.hasPendingCheckpoint ? 'p' : ''} ${ra.phase?.kind ?? ''}${prepared}${shown}`;
}

const main = async (): Promise<void> => {
  const { openScenario } = await import(`${root}/src/extension/openScenario`);
  const { Session } = await import(`${root}/src/extension/session`);
  const { IdlePrepare } = await import(`${root}/src/extension/idlePrepare`);
  const { panelIdleWork } = await import(`${root}/src/extension/warmSelection`);
  const { nextPassInSlices } = await import(`${root}/src/extension/aheadAtOpen`);
  process.stdout.write(`== ${root} ${new Date().toISOString()} paint after ${PAINT} ms, load ${load()}\n`);
  for (const read of reads) {
    (globalThis as { gc?: () => void }).gc?.();
    const opened = openScenario(file, '', { allowOutside: true });
    let session: any;
    const slices: { at: number; ms: number; what: string }[] = [];
    let t0 = 0;
    let readyAt: number | undefined;
    // when the selection with its why was sent (--click select)
    let whyAt: number | undefined;
    let fullAt: number | undefined;
    let clicked = false;
    const work = panelIdleWork(() => session);
    const idle = new IdlePrepare(
      (more: () => boolean) => {
        const before = aheadState(session);
        const s0 = performance.now();
        const left = work(more);
        const end = performance.now();
        const after = aheadState(session);
        slices.push({ at: s0 - t0, ms: end - s0, what: `${before} -> ${after}` });
        if (readyAt === undefined && session.ahead.sim?.pass === 0 && session.ahead.views?.prepared) readyAt = end - t0;
        return left;
      },
      () => session?.slices.running ?? true,
    );
    session = new Session({
      make: opened.make,
      options: opened.options,
      settings: { collapseNoise: true, playSpeed: 2 },
      post: (m: { type: string; full?: boolean; object?: string; waiting?: true; selection?: { object?: string; waiting?: true } }) => {
        JSON.stringify(m);
        const sel = m.type === 'selection' ? m : m.selection;
        if (sel?.object && !sel.waiting && whyAt === undefined) whyAt = performance.now();
        if (readyClick && m.type === 'update' && m.full && clicked) fullAt ??= performance.now();
        idle.arm();
      },
    });
    const s0 = performance.now();
    if (aheadAtOpen && aheadBefore) session.nextPassNow?.();
    const aheadMs = performance.now() - s0;
    session.sendAll();
    t0 = performance.now();
    if (session.ahead.sim?.pass === 0 && session.ahead.views?.prepared) readyAt = 0;
    // as ctx.ts opens: the pass ahead in slices of its own, each timed like the idle ones
    if (aheadAtOpen && !aheadBefore)
      nextPassInSlices(session, () => true, {
        now: () => performance.now(),
        next: (run: () => void) =>
          setImmediate(() => {
            const before = aheadState(session);
            const a0 = performance.now();
            run();
            const end = performance.now();
            slices.push({ at: a0 - t0, ms: end - a0, what: `open's ${before} -> ${aheadState(session)}` });
            if (readyAt === undefined && session.ahead.sim?.pass === 0 && session.ahead.views?.prepared) readyAt = end - t0;
          }),
      });
    const sendAll = t0 - s0 - aheadMs;
    // the page's paint, then its `painted`, as a macrotask of its own (the host handles it between two slices)
    let paintedMs = 0;
    setTimeout(() => {
      const p0 = performance.now();
      session.handle({ type: 'painted' }, { play() {}, pause() {} });
      paintedMs = performance.now() - p0;
      slices.push({ at: p0 - t0, ms: paintedMs, what: 'painted' });
    }, PAINT);
    await sleep(read);
    // the click's message is a macrotask: it waits for the slice under way (measured from the click's time)
    const clickAt = performance.now();
    await new Promise((r) => setImmediate(r));
    const wait = performance.now() - clickAt;
    const state = aheadState(session);
    const c0 = process.cpuUsage();
    const h0 = performance.now();
    const node = `Node/${[...opened.scenario.snapshot.cluster.nodes.keys()][0]}`;
    clicked = true;
    const r = session.handle(selectClick ? { type: 'selectObject', object: node } : readyClick ? { type: 'ready' } : { type: 'action', action: 'step' }, {
      play() {},
      pause() {},
    });
    const ms = performance.now() - h0;
    const cpu = cpuMs(process.cpuUsage(c0));
    if (!r.ok) throw new Error(r.message);
    if (selectClick) {
      for (let i = 0; whyAt === undefined && i < 2000; i++) await sleep(5);
      process.stdout.write(`   the why of ${node} sent ${whyAt === undefined ? 'never (10 s)' : `${(whyAt - h0).toFixed(0)} ms after the click`}\n`);
    }
    if (readyClick) {
      for (let i = 0; fullAt === undefined && i < 2000; i++) await sleep(5);
      process.stdout.write(`   the full update sent ${fullAt === undefined ? 'never (10 s)' : `${(fullAt - h0).toFixed(0)} ms after the click`}\n`);
    }
    idle.dispose();
    const long = slices.filter((x) => x.ms > OVER && x.at < read);
    const idleMs = slices.filter((x) => x.at < read).reduce((a, x) => a + x.ms, 0);
    process.stdout.write(
      `read ${read} ms (load ${load()}): ${(wait + ms).toFixed(0)} ms (wait ${wait.toFixed(0)} + the step ${ms.toFixed(0)}, CPU ${cpu.toFixed(0)}); ` +
        `ahead at the click: ${state}; pass 0 ready at ${readyAt === undefined ? '-' : readyAt.toFixed(0)} ms; ` +
        `the open's pass ahead ${aheadMs.toFixed(0)} ms, sendAll ${sendAll.toFixed(0)} ms, painted ${paintedMs.toFixed(0)} ms, idle work ${idleMs.toFixed(0)} ms in ${slices.length} slices\n`,
    );
    for (const x of long) process.stdout.write(`   at ${x.at.toFixed(0).padStart(5)}: ${x.ms.toFixed(0).padStart(4)} ms  ${x.what}\n`);
  }
};
void main();
