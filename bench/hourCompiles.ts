/**
 * The optimising compiler's work in the outage hour, from a V8 trace of the bench's child: compiles,
 * re-compiles, deopts (bailouts) and dependency deopts ("marking dependent code"), and each compile
 * in the hour with the cause of its function's last deopt (bench/README.md, "deopts2"). Counts do not
 * depend on load; the traced ms do (inflated), so they only rank.
 *
 *   node --import tsx bench/hourCompiles.ts --bundle BUNDLE          (bundles bench/child.ts with the hour's markers)
 *   node --expose-gc --max-old-space-size=16384 --max-semi-space-size=64 --trace-opt --trace-deopt --trace-deopt-verbose \
 *        [--no-sparkplug --trace-generalization] BUNDLE simulate "$(cat ARGS.json)" > TRACE.txt
 *   node --import tsx bench/hourCompiles.ts TRACE.txt BUNDLE [--causes N]
 *
 * ARGS.json is the child's `simulate` arguments ({ snapshot, scenario, healthy, durationS, steps, backPasses }).
 * With --trace-generalization (which on Node 20 needs --no-sparkplug) a dependency deopt is put down to
 * the field change printed just before it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { arg, bundleChild, bundleModules, runMain } from './cli';

const HOUR_CALL = '    sim.runUntil(sim.startTime + a.durationS * 1e6);';
const START = '=== HOUR START';
const END = '=== HOUR END';

interface Cause {
  ms: number;
  compiles: number;
  byFunction: Map<string, number>;
}

/** The module a bundle line belongs to and the line's text. */
function sourceOf(bundle: readonly string[]): (line: number) => string {
  const modules = bundleModules(bundle.join('\n'));
  return (line) => `${modules[line] || '?'}:${line} ${(bundle[line - 1] ?? '').trim().slice(0, 70)}`;
}

function analyse(trace: readonly string[], bundle: readonly string[], top: number): string[] {
  const where = sourceOf(bundle);
  const start = trace.findIndex((l) => l.includes(START));
  const end = trace.findIndex((l) => l.includes(END));
  if (start < 0 || end < start) throw new Error(`no "${START}" … "${END}" in the trace`);
  const lastDeopt = new Map<bigint, string>();
  const causes = new Map<string, Cause>();
  let generalised = '?';
  let compiles = 0,
    recompiles = 0,
    bailouts = 0,
    dependencies = 0;
  for (let i = 0; i < end; i++) {
    const l = trace[i];
    const inHour = i > start;
    const gen = /^\[generalizing\]([^:]+):(\S+) .*?\[[~*^+]*([^+ \]]+)/.exec(l);
    if (gen) {
      generalised = `${gen[1]} ${gen[2]} by ${gen[3]}`;
      continue;
    }
    const dep = /marking dependent code .*\((0x\w+) <SharedFunctionInfo/.exec(l);
    if (dep) {
      lastDeopt.set(BigInt(dep[1]), `dependency: ${generalised}`);
      if (inHour) dependencies++;
      continue;
    }
    const bail = /\[bailout \(kind: [\w-]+, reason: ([^)]*)\): begin\. deoptimizing \S+ <JSFunction \S+.*?sfi = (\w+)/.exec(l);
    if (bail) {
      const at = /deoptimize at <[^:]+:(\d+):/.exec(trace[i + 1] ?? '');
      lastDeopt.set(BigInt(bail[2]), `${bail[1]} at ${at ? where(Number(at[1])) : '?'}`);
      if (inHour) bailouts++;
      continue;
    }
    const done = /\[completed compiling .*?<JSFunction (\S+) .*?sfi = (\w+).*took ([\d.]+), ([\d.]+), ([\d.]+)/.exec(l);
    if (!done) continue;
    const sfi = BigInt(done[2]);
    const cause = lastDeopt.get(sfi);
    // OSR compiles a loop's way in; the whole function is compiled after it
    lastDeopt.set(sfi, l.includes(' OSR') ? 'the whole function after its OSR compile' : 'compiled again, no deopt seen');
    if (!inHour) continue;
    compiles++;
    if (cause === undefined) continue;
    recompiles++;
    const ms = Number(done[3]) + Number(done[4]) + Number(done[5]);
    const c = causes.get(cause) ?? { ms: 0, compiles: 0, byFunction: new Map<string, number>() };
    c.ms += ms;
    c.compiles++;
    c.byFunction.set(done[1], (c.byFunction.get(done[1]) ?? 0) + ms);
    causes.set(cause, c);
  }
  const out = [`in the hour: ${compiles} compiles (${recompiles} of a function compiled before), ${bailouts} deopts, ${dependencies} dependency deopts`];
  for (const [cause, c] of [...causes].sort((a, b) => b[1].ms - a[1].ms).slice(0, top)) {
    const fns = [...c.byFunction]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 12)
      .map(([f, ms]) => `${f} ${ms.toFixed(0)}`);
    out.push(`${c.ms.toFixed(0).padStart(6)} ms ${String(c.compiles).padStart(3)}  ${cause}`, `              ${fns.join(', ')}`);
  }
  return out;
}

runMain(async () => {
  const out = arg('--bundle');
  if (out !== undefined) {
    await bundleChild(resolve(__dirname, '..'), 'bench/child.ts', out);
    const text = readFileSync(out, 'utf8');
    if (!text.includes(HOUR_CALL)) throw new Error('the hour call in bench/child.ts moved: update HOUR_CALL');
    writeFileSync(out, text.replace(HOUR_CALL, `    process.stdout.write("${START}\\n"); ${HOUR_CALL.trim()} process.stdout.write("${END}\\n");`));
    process.stdout.write(`${out}\n`);
    return 0;
  }
  const [trace, bundle] = process.argv.slice(2).filter((a) => !a.startsWith('--') && !/^\d+$/.test(a));
  if (!trace || !bundle) throw new Error('usage: hourCompiles.ts --bundle BUNDLE | hourCompiles.ts TRACE.txt BUNDLE [--causes N]');
  const lines = analyse(readFileSync(trace, 'utf8').split('\n'), readFileSync(bundle, 'utf8').split('\n'), Number(arg('--causes', '30')));
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
});
