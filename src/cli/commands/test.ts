/**
 * `test FILE...`: run each scenario's `expect:` entries. One line per
 * expectation, and a closing plain `N passed, N failed` line; exit 1 on any
 * failure. Every file is opened first: an error in any input (including an
 * invalid expectation) is exit 2 and nothing is run, so a broken expectation
 * can never be dropped while the rest pass. `--format json` prints the same
 * results as one object, `--format junit` as JUnit XML (what CI systems read
 * into their test reports); the exit code is the same in every format.
 */
import type { ParsedArgs } from '../args';
import { UsageError } from '../args';
import type { CliIo } from '../io';
import { openInput, reportProblems, type Opened } from '../open';
import { escapeControl, timesAsOffsets } from '../../engine/trace/text';
import { formatTime } from '../../engine/model/time';
import { Guards } from '../guards';
import { junitReport, type FileResults } from './junit';
import { whyCommand } from '../../engine/simulation/explainCommand';
import type { ExpectationResult } from '../../engine/simulation/api';

export function runTests(args: ParsedArgs, io: CliIo): number {
  if (!args.files.length) throw new UsageError('test takes one or more scenario FILEs');
  if (args.format === 'yaml') throw new UsageError('test prints text, json or junit, not yaml');
  // no pauses: checkExpectations runs the simulation itself and cannot be taken up again after one
  const guards = new Guards(args, io, false);
  const opened: { file: string; o: Extract<Opened, { ok: true }> }[] = [];
  let bad = 0;
  for (const file of args.files) {
    // a folder or an export is read as a snapshot: a user who meant the scenarios in a folder is told to list them, without
    // the loader's warnings about the snapshot first (45 duplicate-object lines for examples/)
    const snapshot = (sc: { plainSnapshot?: boolean }) =>
      sc.plainSnapshot
        ? "a snapshot, not a scenario: only a scenario's expect: entries are tested (for the scenarios in a folder, give their files, e.g. examples/*.yaml)"
        : undefined;
    const o = openInput(file, args, io, guards, snapshot);
    if (!o.ok) {
      bad++;
      continue;
    }
    if (!o.scenario.expect.length) {
      io.err(`controller-stepper: ${file}: no expect: entries, nothing to test\n`);
      bad++;
      continue;
    }
    opened.push({ file, o });
  }
  if (bad) {
    io.err(`controller-stepper: ${bad} of ${args.files.length} file(s) cannot be tested; nothing was run\n`);
    return 2;
  }
  const text = args.format === 'text';
  // what makes this run this run: the why command repeats it, so that explain shows the same simulation
  const runFlags = [
    ...(args.version !== undefined ? ['--version', args.version] : []),
    ...Object.entries(args.set).flatMap(([k, v]) => ['--set', `${k}=${v}`]),
    ...(args.allowOutside ? ['--allow-outside'] : []),
  ];
  const why = (file: string, r: Pick<ExpectationResult, 'object' | 'at'>) => whyCommand(file, r, runFlags);
  const done: FileResults[] = [];
  let passed = 0;
  let failed = 0;
  let stopped: number | undefined;
  for (const {
    file,
    o: { sim },
  } of opened) {
    const version = sim.behaviour.version.text;
    if (text) io.out(`${file} (Kubernetes ${version})\n`);
    guards.watch(sim);
    const t0 = Date.now();
    const reported = sim.problems.length;
    const results = sim.checkExpectations();
    // the time as the expectation's at: was written (an offset from the start), the clock time beside it
    const startMs = Date.parse(formatTime(sim.startTime));
    const described = (r: ExpectationResult) => escapeControl(timesAsOffsets(r.description, startMs));
    // what the run itself found (a pod left to the pod GC that is not simulated, the horizon), as replay says it
    reportProblems(io, sim.problems.slice(reported));
    done.push({ file, version, results, seconds: (Date.now() - t0) / 1000, finished: !sim.stopped });
    for (const r of results) {
      const where = r.position ? `${r.position.file}:${r.position.line}:${r.position.column}` : `${file} expect[${r.index}]`;
      if (r.ok) {
        passed++;
        if (text) io.out(`  ok    ${described(r)}\n`);
      } else {
        failed++;
        if (!text) continue;
        io.out(`  FAIL  ${described(r)}\n        found: ${escapeControl(timesAsOffsets(r.actual ?? '?', startMs))}  (${where})\n`);
        // the why (or why not) of what was found, as the command that shows it
        const command = why(file, r);
        if (command) io.out(`        why:   ${escapeControl(command)}\n`);
      }
    }
    if (sim.stopped) {
      stopped = guards.report(sim);
      break;
    }
  }
  if (args.format === 'json') {
    const files = done.map((f) => ({ ...f, results: f.results.map((r) => ({ ...r, ...(r.ok ? {} : { why: why(f.file, r) }) })) }));
    io.out(`${JSON.stringify({ passed, failed, finished: stopped === undefined, files })}\n`);
  } else if (args.format === 'junit') io.out(junitReport(done, why));
  // the expectations not reached are neither passed nor failed: the closing line says so, stderr says why
  else io.out(`${passed} passed, ${failed} failed${stopped !== undefined ? ', not finished' : ''}\n`);
  if (stopped !== undefined) return stopped;
  return failed ? 1 : 0;
}
