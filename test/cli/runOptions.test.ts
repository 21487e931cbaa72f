/**
 * The command line's run options (src/cli/runOptions.ts): V8 options set once the input is loaded,
 * but not one the caller set on node's command line or in NODE_OPTIONS; and `io.loaded`, where the
 * command line's own process sets them, called after the load and before anything is simulated,
 * never for an input that is not run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RUN_OPTIONS, setRunOptions } from '../../src/cli/runOptions';
import { runCliWith } from '../helpers/cliRun';

const BUDGET = '--max-inlined-bytecode-size-cumulative=230';
const PEELING = '--no-turbo-loop-peeling';
const OTHER = '--max-lazy';

const cases: { name: string; execArgv: string[]; nodeOptions?: string; options?: string[]; set: string[] }[] = [
  { name: 'the run options, when the caller set none of them', execArgv: ['--max-semi-space-size=64'], options: [BUDGET, OTHER], set: [BUDGET, OTHER] },
  {
    name: "not one the caller set on node's command line, whatever its value",
    execArgv: ['--max-inlined-bytecode-size-cumulative=920'],
    options: [BUDGET, OTHER],
    set: [OTHER],
  },
  {
    name: 'not one the caller set in NODE_OPTIONS, spelled with _ as V8 also reads it',
    execArgv: [],
    nodeOptions: '--inspect  --max_inlined_bytecode_size_cumulative=100',
    options: [BUDGET, OTHER],
    set: [OTHER],
  },
  {
    name: 'not one the caller set either way: --turbo-loop-peeling names --no-turbo-loop-peeling',
    execArgv: ['--turbo-loop-peeling'],
    options: [BUDGET, PEELING],
    set: [BUDGET],
  },
  { name: 'RUN_OPTIONS by default: the inlining budget, no loop peeling', execArgv: [], set: [BUDGET, PEELING] },
];

for (const c of cases)
  test(c.name, () => {
    const given: string[] = [];
    const returned = setRunOptions((o) => given.push(o), c.execArgv, c.nodeOptions, c.options ?? RUN_OPTIONS);
    assert.deepEqual(given, c.set);
    assert.deepEqual(returned, c.set);
  });

const runs: { name: string; argv: string[]; loaded: number }[] = [
  { name: 'replay: once, after the load and before the trace', argv: ['replay', 'examples/one-node-stops.yaml'], loaded: 1 },
  { name: 'explain: once', argv: ['explain', 'examples/one-node-stops.yaml', '--object', 'Pod/default/toleration-unset', '--until', '3m'], loaded: 1 },
  { name: 'test of two scenarios: once each', argv: ['test', 'examples/one-node-stops.yaml', 'examples/notready-then-unknown.yaml'], loaded: 2 },
  { name: 'a file that does not exist: never', argv: ['replay', 'no/such/file.yaml'], loaded: 0 },
  { name: 'a scenario whose snapshot does not exist: never', argv: ['replay', 'test/fixtures/cli/missing-snapshot.yaml'], loaded: 0 },
];

for (const r of runs)
  test(`io.loaded: ${r.name}`, async () => {
    let out = '';
    const printedBefore: number[] = [];
    await runCliWith(r.argv, {
      out: (t) => {
        out += t;
      },
      loaded: () => printedBefore.push(out.length),
    });
    assert.equal(printedBefore.length, r.loaded);
    assert.deepEqual(printedBefore.slice(0, 1), r.loaded ? [0] : []);
  });
