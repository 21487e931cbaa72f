/**
 * The bench lock and the order of an A/B pair, for the benches that run timed children
 * (bench/ab.ts, bench/unknownPass.ts).
 *
 * Several sessions share the machine's CPUs: every timed child runs under `flock /tmp/cs-bench.lock`,
 * taken by the bench itself around each child, so that a long A/B lets other timed runs in between
 * its children. A bench started under the lock already (`flock /tmp/cs-bench.lock node … ab.ts`,
 * as the README's older runs were) must not take it again: flock(1) from a child of the holder opens
 * the file anew and waits for the holder, which waits for it. Held already: an ancestor process is
 * `flock … /tmp/cs-bench.lock …` (the lock outlives its command only in that process), or this
 * process has the lock file open (flock(1) hands its descriptor to the command it runs), or
 * CS_BENCH_LOCK_HELD=1 (which the bench sets for its children, and a caller may set by hand).
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';

export const BENCH_LOCK = '/tmp/cs-bench.lock';
export const LOCK_HELD_ENV = 'CS_BENCH_LOCK_HELD';

/** What lockHeld looks at: read from /proc by `processView`, written out by the tests. */
export interface ProcessView {
  env: Record<string, string | undefined>;
  /** what this process's open descriptors point to */
  openFiles: readonly string[];
  /** the command lines of this process's ancestors, parent first */
  ancestors: readonly (readonly string[])[];
}

/** Whether the process `p` describes runs under the lock `lock` already (see the file comment). */
export function lockHeld(p: ProcessView, lock = BENCH_LOCK): boolean {
  if (p.env[LOCK_HELD_ENV] === '1') return true;
  if (p.openFiles.includes(lock)) return true;
  return p.ancestors.some((argv) => argv.length > 1 && /(^|\/)flock$/.test(argv[0]) && argv.slice(1).includes(lock));
}

/** This process as /proc shows it (on a machine without /proc: no descriptors and no ancestors). */
export function processView(): ProcessView {
  const openFiles: string[] = [];
  const ancestors: string[][] = [];
  try {
    for (const fd of readdirSync('/proc/self/fd'))
      try {
        openFiles.push(readlinkSync(`/proc/self/fd/${fd}`));
      } catch {
        // the descriptor readdir itself used, closed since
      }
    for (let pid = process.ppid; pid > 1 && ancestors.length < 64;) {
      ancestors.push(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean));
      // the parent's pid is the field after the command's name, which is in parentheses and may hold spaces
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    }
  } catch {
    // no /proc, or an ancestor gone while read: what was read stands
  }
  return { env: process.env, openFiles, ancestors };
}

/**
 * How a bench runs its timed children: under the lock it takes per child (`flock`), or as they are
 * when the lock is held already, flock(1) is missing, or `take` is false (profiles, which are not timed).
 */
export function timedRunner(take = true, lock = BENCH_LOCK): { locked: boolean; heldAlready: boolean; run(argv: readonly string[]): SpawnSyncReturns<string> } {
  const heldAlready = lockHeld(processView(), lock);
  const locked = take && !heldAlready && existsSync('/usr/bin/flock');
  const env = { ...process.env, [LOCK_HELD_ENV]: locked || heldAlready ? '1' : process.env[LOCK_HELD_ENV] };
  return {
    locked,
    heldAlready,
    run: (argv) =>
      locked
        ? spawnSync('flock', [lock, ...argv], { encoding: 'utf8', env, maxBuffer: 1 << 28 })
        : spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', env, maxBuffer: 1 << 28 }),
  };
}

/**
 * The order of pair `i` (from 0): A B, B A, A B, … so that neither side is always the second
 * of its pair (a page cache the first warmed, a load that rose meanwhile). Indexes into [A, B].
 */
export function pairOrder(i: number): [number, number] {
  return i % 2 === 0 ? [0, 1] : [1, 0];
}
