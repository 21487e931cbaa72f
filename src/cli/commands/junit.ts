/**
 * `test --format junit`: the results as JUnit XML, the report format CI systems read (GitHub
 * Actions' test reporters, GitLab's `artifacts:reports:junit`, Jenkins' junit step): one
 * `<testsuite>` per scenario file, one `<testcase>` per expectation, a `<failure>` with what was
 * found and the command that explains it. Names come from the user's files and snapshots, so
 * every text is escaped and characters XML 1.0 cannot hold are replaced.
 */
import type { ExpectationResult } from '../../engine';

export interface FileResults {
  file: string;
  version: string;
  results: ExpectationResult[];
  seconds: number;
  /** false: a guard (--max-decisions, --max-seconds, Ctrl-C) stopped the run; the rest were not reached */
  finished: boolean;
}

/**
 * Text as an XML attribute value (`attr`: line breaks as `&#10;`, which an attribute would
 * otherwise fold into spaces) or character data: markup escaped, characters XML 1.0 forbids
 * replaced by U+FFFD.
 */
export function xmlText(s: string, attr = true): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff;
    if (pair) {
      out += s[i] + s[++i];
      continue;
    }
    if (c === 0x26) out += '&amp;';
    else if (c === 0x3c) out += '&lt;';
    else if (c === 0x3e) out += '&gt;';
    else if (c === 0x22) out += '&quot;';
    else if (c === 0x0a) out += attr ? '&#10;' : '\n';
    else if ((c < 0x20 && c !== 0x09 && c !== 0x0d) || (c >= 0xd800 && c <= 0xdfff) || c === 0xfffe || c === 0xffff) out += '\uFFFD';
    else out += s[i];
  }
  return out;
}

const attrs = (a: Record<string, string | number | undefined>) =>
  Object.entries(a)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${xmlText(String(v))}"`)
    .join('');

export function junitReport(files: readonly FileResults[], why: (file: string, r: ExpectationResult) => string | undefined): string {
  const count = (f: FileResults, ok: boolean) => f.results.filter((r) => r.ok === ok).length;
  const tests = files.reduce((n, f) => n + f.results.length, 0);
  const failures = files.reduce((n, f) => n + count(f, false), 0);
  const time = files.reduce((n, f) => n + f.seconds, 0);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: 'controller-stepper', tests, failures, errors: 0, time: time.toFixed(3) })}>`,
  ];
  for (const f of files) {
    out.push(
      `  <testsuite${attrs({ name: f.file, tests: f.results.length, failures: count(f, false), errors: 0, skipped: 0, time: f.seconds.toFixed(3) })}>`,
      `    <properties><property${attrs({ name: 'kubernetesVersion', value: f.version })}/></properties>`,
    );
    for (const r of f.results) {
      const head = `    <testcase${attrs({ classname: f.file, name: r.description, file: r.position?.file ?? f.file, line: r.position?.line })}`;
      if (r.ok) {
        out.push(`${head}/>`);
        continue;
      }
      const w = why(f.file, r);
      const body = `found: ${r.actual ?? '?'}${r.position ? `\nat: ${r.position.file}:${r.position.line}:${r.position.column}` : ''}${w ? `\nwhy: ${w}` : ''}`;
      out.push(
        `${head}>`,
        `      <failure${attrs({ message: `found: ${r.actual ?? '?'}`, type: 'ExpectationFailed' })}>${xmlText(body, false)}</failure>`,
        '    </testcase>',
      );
    }
    if (!f.finished)
      out.push(
        `    <system-err>the run was stopped (--max-decisions, --max-seconds or Ctrl-C): the expectations after the last one here were not reached</system-err>`,
      );
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}
