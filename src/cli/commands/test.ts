/**
 * `test FILE...`: run each scenario's `expect:` entries. One line per
 * expectation, and a closing plain `N passed, N failed` line; exit 1 on any
 * failure. Every file is opened first: an error in any input (including an
 * invalid expectation) is exit 2 and nothing is run, so a broken expectation
 * can never be dropped while the rest pass.
 */
import type { ParsedArgs } from '../args';
import { UsageError } from '../args';
import type { CliIo } from '../io';
import { openInput, type Opened } from '../open';
import { escapeControl } from '../../engine/trace/text';
import { Guards } from '../guards';

/** A word as a POSIX shell reads it back: bare when it is plain, else in single quotes. */
function shellWord(s: string): string {
  return /^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

export function runTests(args: ParsedArgs, io: CliIo): number {
  if (!args.files.length) throw new UsageError('test takes one or more scenario FILEs');
  // no pauses: checkExpectations runs the simulation itself and cannot be taken up again after one
  const guards = new Guards(args, io, false);
  const opened: { file: string; o: Extract<Opened, { ok: true }> }[] = [];
  let bad = 0;
  for (const file of args.files) {
    const o = openInput(file, args, io, guards);
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
  let passed = 0;
  let failed = 0;
  for (const {
    file,
    o: { sim },
  } of opened) {
    io.out(`${file} (Kubernetes ${sim.behaviour.version.text})\n`);
    guards.watch(sim);
    for (const r of sim.checkExpectations()) {
      const where = r.position ? `${r.position.file}:${r.position.line}:${r.position.column}` : `${file} expect[${r.index}]`;
      if (r.ok) {
        passed++;
        io.out(`  ok    ${escapeControl(r.description)}\n`);
      } else {
        failed++;
        io.out(`  FAIL  ${escapeControl(r.description)}\n        found: ${escapeControl(r.actual ?? '?')}  (${where})\n`);
        // the why (or why not) of what was found, as the command that shows it
        if (r.object) io.out(`        why:   controller-stepper explain ${shellWord(file)} --object ${shellWord(r.object)} --until ${r.at}\n`);
      }
    }
    if (sim.stopped) {
      // the expectations not reached are neither passed nor failed: the closing line says so, stderr says why
      io.out(`${passed} passed, ${failed} failed, not finished\n`);
      return guards.report(sim);
    }
  }
  io.out(`${passed} passed, ${failed} failed\n`);
  return failed ? 1 : 0;
}
