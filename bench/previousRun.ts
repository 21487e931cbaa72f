/**
 * Which earlier run the report's "previous" column compares with. The last run on the machine is kept as
 * `latest-<size>.json` whatever it measured, and a run made with other V8 options for the bench's children (an
 * experiment with `bin/node-options.json`, as the presized old generation of bench/README "loadfast") is not the
 * code's previous figure: its column would mislead the next run. Records from before the options were kept name
 * none and are compared as before.
 */
export interface PreviousRun<M> {
  date: string;
  metrics: M[];
  /** the children's V8 options (bench/cli.ts childNodeOptions) */
  nodeOptions?: string[];
}

export function comparablePrevious<M>(previous: PreviousRun<M> | undefined, nodeOptions: readonly string[]): { previous?: PreviousRun<M>; note?: string } {
  if (!previous?.nodeOptions) return { previous };
  const same = previous.nodeOptions.length === nodeOptions.length && previous.nodeOptions.every((x, i) => x === nodeOptions[i]);
  if (same) return { previous };
  const shown = (opts: readonly string[]) => (opts.length ? opts.join(' ') : "V8's defaults");
  return {
    note: `the last run (${previous.date.slice(0, 16)}) ran its children with other V8 options (${shown(previous.nodeOptions)}, now ${shown(nodeOptions)}): not compared`,
  };
}
