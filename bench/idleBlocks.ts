/**
 * The extension host's idle pieces on the walk's sequence: the real Session opens SCENARIO in node,
 * then open, Run Until 1m35s, six steps, Run Until 5m and a step back, each followed by the host's
 * idle slices run back to back (Session.idleSlice, PREPARE_SLICE_MS each, as IdlePrepare runs them)
 * until no work is left. Prints every slice longer than --over ms with what the run-ahead did in it
 * (a click arriving then waits for that slice), each pause's total and longest, and at the end the
 * RSS and heap after a full GC. A measurement, not a test: run it under the bench lock.
 *
 *   flock /tmp/cs-bench.lock node --expose-gc --max-old-space-size=16000 --import tsx bench/idleBlocks.ts SCENARIO [--root DIR] [--over 25]
 *
 * `--root DIR`: the Session of another checkout (the A side of an A/B pair).
 * `--pieces`: also where the slices overrun: each piece of work longer than 12 ms between two of the slice's
 * `more()` checks, by the stack of the check that ended it (the loop whose piece is too coarse), per pause; and one
 * SUMMARY line over all the slices (how many over 20 and 40 ms, p50/p90/p99, the longest, the sum) for A/B pairs.
 */
import { loadavg } from 'node:os';
import { harnessArgs, sessionOpener } from './sessionHarness';

const { flag, file, root } = harnessArgs(process.argv.slice(2));
const OVER = Number(flag('--over') ?? 25);
const PIECES = process.argv.includes('--pieces');
/** a piece longer than this between two `more()` checks is recorded with the stack of the check that ended it */
const PIECE_MS = 12;
/** the pieces over PIECE_MS of the current pause, by the check's stack: how many, their sum and the longest */
const pieces = new Map<string, { n: number; total: number; max: number }>();
const allSlices: number[] = [];

/** `until`'s budget as the slice's `more()`, recording the pieces that ran past PIECE_MS (--pieces). */
function budget(until: number): () => boolean {
  if (!PIECES) return () => performance.now() < until;
  let last = performance.now();
  return () => {
    const now = performance.now();
    if (now - last > PIECE_MS) {
      const stack = (new Error().stack ?? '')
        .split('\n')
        .slice(2, 6)
        .map((l) =>
          l
            .trim()
            .replace(/^at /, '')
            .replace(/\(.*\/(src|bench)\//, '('),
        )
        .join(' < ');
      const e = pieces.get(stack) ?? { n: 0, total: 0, max: 0 };
      e.n++;
      e.total += now - last;
      e.max = Math.max(e.max, now - last);
      pieces.set(stack, e);
    }
    last = now;
    return now < until;
  };
}
const SLICE_MS = 10;

const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
const mib = (b: number): string => `${(b / 2 ** 20).toFixed(0)} MiB`;

/** What the run-ahead holds, read from its private fields (either side's: a field it lacks reads as undefined). */
function stateOf(session: any): string {
  const ra = session.ahead;
  const a = ra.sim;
  if (!a) return 'none';
  const sim = `${a.pass ?? '-'}${a.partDone ? '*' : ''}${a.hasPendingCheckpoint ? 'p' : ''}`;
  const views = ra.views;
  const view = views ? `${views.view ? 'view' : 'no view'}${views.prepared ? ' prepared' : ''}${views.pendingUpdate ? ' updating' : ''}` : '';
  const making = ra.making ? ' making' : '';
  // RunAhead's phase (an older checkout's: its alignedAt marker)
  const aligned = ra.phase ? ra.phase.kind !== 'apart' && ra.phase.on !== undefined : ra.alignedAt !== undefined;
  return `${sim}${aligned ? ' aligned' : ''} ${view}${making}`;
}

const main = async (): Promise<void> => {
  const open = await sessionOpener(root);
  process.stdout.write(`== ${root} ${new Date().toISOString()} load ${load()}\n`);
  const t0 = performance.now();
  const session = open(file);
  session.sendAll();
  process.stdout.write(`open ${(performance.now() - t0).toFixed(0)} ms\n`);
  let worst = 0;
  const idle = (label: string): void => {
    const slices: { ms: number; what: string }[] = [];
    const start = performance.now();
    for (;;) {
      const before = stateOf(session);
      const s0 = performance.now();
      const until = s0 + SLICE_MS;
      const more = session.idleSlice(budget(until));
      const ms = performance.now() - s0;
      slices.push({ ms, what: `${before} -> ${stateOf(session)}; shown ${session.sim.pass}` });
      if (!more || performance.now() - start > 120_000) break;
    }
    const total = slices.reduce((a, x) => a + x.ms, 0);
    const longest = Math.max(...slices.map((x) => x.ms));
    worst = Math.max(worst, longest);
    process.stdout.write(`${label}: ${slices.length} slices, ${total.toFixed(0)} ms, longest ${longest.toFixed(0)} ms (load ${load()})\n`);
    for (const x of slices) if (x.ms > OVER) process.stdout.write(`   ${x.ms.toFixed(0).padStart(5)} ms  ${x.what}\n`);
    for (const x of slices) allSlices.push(x.ms);
    for (const [stack, e] of [...pieces].sort((a, b) => b[1].total - a[1].total))
      process.stdout.write(`  piece ${e.n} x, ${e.total.toFixed(0)} ms, longest ${e.max.toFixed(0)} ms: ${stack}\n`);
    pieces.clear();
  };
  const timed = (label: string, run: () => void): void => {
    const s0 = performance.now();
    run();
    process.stdout.write(`${label}: ${(performance.now() - s0).toFixed(0)} ms, shown ${session.sim.pass}\n`);
  };
  idle('after open');
  timed('runUntil 1m35s', () => session.runUntil('1m35s'));
  idle('after runUntil 1m35s');
  for (let i = 0; i < 6; i++) {
    timed('step', () => session.step());
    idle(`after the step to ${session.sim.pass}`);
  }
  timed('runUntil 5m', () => session.runUntil('5m'));
  idle('after runUntil 5m');
  timed('stepBack', () => session.stepBack());
  idle('after the step back');
  if (PIECES) {
    const a = [...allSlices].sort((x, y) => x - y);
    const q = (f: number): string => a[Math.min(a.length - 1, Math.floor(f * a.length))].toFixed(0);
    process.stdout.write(
      `SUMMARY slices ${a.length} over20 ${a.filter((x) => x > 20).length} over40 ${a.filter((x) => x > 40).length} p50 ${q(0.5)} p90 ${q(0.9)} p99 ${q(0.99)} max ${q(1)} sum ${a.reduce((x, y) => x + y, 0).toFixed(0)} load ${load()}\n`,
    );
  }
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) {
    gc();
    gc();
  }
  const m = process.memoryUsage();
  process.stdout.write(
    `longest idle slice ${worst.toFixed(0)} ms; held${gc ? ' after a full GC' : ''}: RSS ${mib(m.rss)}, heap ${mib(m.heapUsed)}; load ${load()}\n`,
  );
};
void main();
