/**
 * `test FILE...`: run each scenario's `expect:` entries. One line per
 * expectation, and a closing `N passed, N failed` line; exit 1 on any failure.
 */
import type { ParsedArgs } from '../args';
import { UsageError } from '../args';
import type { CliIo } from '../io';
import { openInput } from '../open';

export function runTests(args: ParsedArgs, io: CliIo): number {
  if (!args.files.length) throw new UsageError('test takes one or more scenario FILEs');
  let passed = 0;
  let failed = 0;
  let unreadable = false;
  for (const file of args.files) {
    const opened = openInput(file, args, io);
    if (!opened.ok) { unreadable = true; failed++; continue; }
    const { sim, scenario } = opened;
    if (!scenario.expect.length) {
      io.err(`${file}: no expect: entries\n`);
      failed++;
      continue;
    }
    io.out(`${file} (Kubernetes ${sim.behaviour.version.text})\n`);
    for (const r of sim.checkExpectations()) {
      const where = r.position ? `${r.position.file}:${r.position.line}:${r.position.column}` : `${file} expect[${r.index}]`;
      if (r.ok) {
        passed++;
        io.out(`  ok    ${r.at}  ${r.description}\n`);
      } else {
        failed++;
        io.out(`  FAIL  ${r.at}  ${r.description}\n        found: ${r.actual ?? '?'}  (${where})\n`);
      }
    }
  }
  io.out(`${passed} passed, ${failed} failed\n`);
  if (unreadable && passed === 0) return 2;
  return failed ? 1 : 0;
}
