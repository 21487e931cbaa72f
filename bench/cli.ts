/** What every bench tool's command line shares: its options and how its main ends the process. */

/** The value after `name` on the command line, else `def`. */
export function arg(name: string, def?: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : def;
}

/** Runs `main`: its number is the exit code; a throw prints its stack and exits 1. */
export function runMain(main: () => Promise<number>, prefix = ''): void {
  main().then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`${prefix}${(e as Error).stack ?? String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
