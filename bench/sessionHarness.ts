/**
 * What the Session harnesses (idleBlocks.ts, idleClicks.ts) share: their arguments (the scenario as the
 * first bare argument, `--root DIR` for another checkout's Session: the A side of an A/B pair) and a
 * panel Session opened as the extension opens it, its messages serialised and dropped.
 */
import { resolve } from 'node:path';

/** A pause of wall time, as a user reading or the bench waiting for idle work. */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function harnessArgs(args: readonly string[]): { flag: (name: string) => string | undefined; file: string; root: string } {
  const flag = (name: string): string | undefined => {
    const i = args.indexOf(name);
    return i >= 0 ? args[i + 1] : undefined;
  };
  const file = args.find((a, i) => !a.startsWith('--') && (i === 0 || !args[i - 1].startsWith('--'))) ?? '/tmp/panel-outage5k/scenario.yaml';
  return { flag, file, root: resolve(flag('--root') ?? '.') };
}

/** Loads `root`'s Session (the import is not timed by the caller's open) and gives what opens one on a scenario. */
export async function sessionOpener(root: string): Promise<(file: string) => any> {
  const { openScenario } = await import(`${root}/src/extension/openScenario`);
  const { Session } = await import(`${root}/src/extension/session`);
  return (file) => {
    const opened = openScenario(file, '', { allowOutside: true });
    return new Session({
      make: opened.make,
      options: opened.options,
      settings: { collapseNoise: true, playSpeed: 2 },
      post: (m: unknown) => JSON.stringify(m),
    } as never);
  };
}

/**
 * A panel Session opened on `file` with the panel's idle work on real timers, as ctx.ts runs it (IdlePrepare, armed by
 * every message the session posts: the selections' warm-up first, then Session.idleSlice). `timed` hears each slice's
 * wall time and the process's CPU time in it.
 */
export async function idleSession(
  root: string,
  file: string,
  timed?: (ms: number, cpuMs: number) => void,
): Promise<{ session: any; idle: { dispose(): void } }> {
  const open = await sessionOpener(root);
  const { IdlePrepare } = await import(`${root}/src/extension/idlePrepare`);
  const { panelIdleWork, panelOwedWork: owedWork } = await import(`${root}/src/extension/warmSelection`);
  let session: any;
  const work = panelIdleWork(() => session);
  // each slice's wall time and the process's CPU time in it (every thread's: the collector's helpers too)
  const cpu = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const timedSlice = (slice: (more: () => boolean) => boolean) => (more: () => boolean) => {
    const [t, c] = [performance.now(), cpu()];
    const left = session ? slice(more) : false;
    timed?.(performance.now() - t, cpu() - c);
    return left;
  };
  const idle = new IdlePrepare(
    (more: () => boolean, idleTime?: boolean) => {
      const [t, c] = [performance.now(), cpu()];
      const left = session ? work(more, idleTime) : false;
      timed?.(performance.now() - t, cpu() - c);
      return left;
    },
    () => session?.slices.running ?? true,
    undefined,
    undefined,
    // the work the next step owes (the root's panelOwedWork, where it has one: the A side may not)
    owedWork && timedSlice(owedWork(() => session)),
  );
  const opened = open(file);
  const post = opened.post;
  opened.post = (m: unknown) => (idle.arm(), post(m));
  session = opened;
  return { session, idle };
}
