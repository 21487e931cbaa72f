/**
 * What a reader's clicks wait for in the extension host after Run Until 5m: the real Session opens SCENARIO in node,
 * runs to 1m35s and to 5m with all its idle work done, then makes the clicks of SEQ (`b` a step back, `f` a step), each
 * READ ms after the last. Meanwhile the idle slices run as IdlePrepare runs them (nothing for its first 400 ms, then
 * slices of PREPARE_SLICE_MS, one a macrotask); a click waits for the slice it lands in, then runs. Prints per click the
 * wait for that slice, the command's wall time and its CPU time (the host's part of click to paint; the page and the
 * relays are not in it). A measurement, not a test: run it under the bench lock.
 *
 *   flock /tmp/cs-bench.lock node --max-old-space-size=16000 --import tsx bench/idleClicks.ts SCENARIO [--root DIR] [--read 1000,2500] [--seq bbbffff]
 *
 * `--root DIR`: the Session of another checkout (the A side of an A/B pair). Between two read times the session goes
 * back to where it was and finishes its idle work.
 */
import { loadavg } from 'node:os';
import { harnessArgs, sessionOpener } from './sessionHarness';

const { flag, file, root } = harnessArgs(process.argv.slice(2));
const reads = (flag('--read') ?? '1000,2500').split(',').map(Number);
const seq = (flag('--seq') ?? 'bbbffff').split('');
const SLICE_MS = 10;
const IDLE_MS = 400;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const nextTask = () => new Promise((r) => setImmediate(r));
const cpuMs = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000;

const main = async (): Promise<void> => {
  const open = await sessionOpener(root);
  const session = open(file);
  const idleAll = (): void => {
    while (session.idleSlice(() => true));
  };
  session.sendAll();
  idleAll();
  session.runUntil('1m35s');
  idleAll();
  session.runUntil('5m');
  idleAll();
  const start = session.sim.pass;
  process.stdout.write(`== ${root} at pass ${start}, load ${loadavg()[0].toFixed(1)}\n`);
  for (const read of reads) {
    const rows: string[] = [];
    for (const c of seq) {
      const clickAt = performance.now() + read;
      await sleep(Math.min(IDLE_MS, read));
      let wait = 0;
      while (performance.now() < clickAt) {
        const s0 = performance.now();
        const more = session.idleSlice(() => performance.now() < s0 + SLICE_MS);
        const end = performance.now();
        // the click came while this slice ran: it waited for the rest of it
        if (end > clickAt) wait = end - Math.max(clickAt, s0);
        if (!more) {
          await sleep(Math.max(0, clickAt - performance.now()));
          break;
        }
        await nextTask();
      }
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const r = c === 'b' ? session.stepBack() : session.step();
      const ms = performance.now() - t0;
      const cpu = cpuMs(process.cpuUsage(c0));
      if (!r.ok) throw new Error(r.message);
      rows.push(
        `${c === 'b' ? 'back' : 'step'} to ${session.sim.pass}: ${(wait + ms).toFixed(0)} ms (the slice ${wait.toFixed(0)} + the command ${ms.toFixed(0)}, CPU ${cpu.toFixed(0)})`,
      );
    }
    process.stdout.write(`read ${read} ms (load ${loadavg()[0].toFixed(1)}):\n  ${rows.join('\n  ')}\n`);
    session.goToPass(start);
    idleAll();
  }
};
void main();
