/**
 * V8 options the command line sets once its input is loaded and its simulation built, before it
 * runs anything (RUN_OPTIONS; bin/node-options.json holds the ones only node's start can
 * set). V8 reads these when it compiles a function, so from then on they apply; the load, which runs
 * before, is not slowed by them. Each is measured in bench/README.md: half of V8's cumulative
 * inlining budget ("nodeopts") made the load about 2.5 % slower when set at start, and the outage
 * hour at 5,000 nodes about a tenth cheaper in CPU (its compiling about half as dear, the main
 * thread's time unchanged); a quarter of it, set after the load ("engine18"), about a seventh, and
 * without peeling the first iteration off loops as it compiles them, about a fortieth more.
 *
 * Not an option the caller set on node's command line or in NODE_OPTIONS (the caller chose). Not in
 * the extension host: V8's options are the whole process's, and that one is VS Code's.
 */
/** The options, in the order they are set. */
export const RUN_OPTIONS: readonly string[] = ['--max-inlined-bytecode-size-cumulative=230', '--no-turbo-loop-peeling'];

/** Where an option is set: node:v8's setFlagsFromString in the command line and the bench's children. */
export type SetV8Option = (option: string) => void;

/** The options of `options` that `set` was given: all but those named in `execArgv` or `nodeOptions`. */
export function setRunOptions(
  set: SetV8Option,
  execArgv: readonly string[],
  nodeOptions: string | undefined,
  options: readonly string[] = RUN_OPTIONS,
): string[] {
  const callers = [...execArgv, ...(nodeOptions ?? '').split(/\s+/)].map(optionName);
  const given = options.filter((o) => !callers.includes(optionName(o)));
  for (const o of given) set(o);
  return given;
}

/** `--max-inlined-bytecode-size-cumulative` of `--max-inlined-bytecode-size-cumulative=230`, `--turbo-loop-peeling` of `--no-turbo-loop-peeling`; V8 reads `_` as `-`. */
function optionName(option: string): string {
  return option
    .split('=')[0]
    .replace(/_/g, '-')
    .replace(/^--no-/, '--');
}
