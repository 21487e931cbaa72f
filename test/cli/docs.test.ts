/**
 * docs/scenario-format.md is the users' reference for the format: every event
 * kind and every expect: key is documented, and every example in its tables
 * is valid against the bundled three-zone cluster (the same checks as
 * `validate`), so the documentation cannot drift from the parser.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tmpdir } from 'node:os';
import { EVENT_KINDS } from '../../src/engine/snapshot/parseEvents';
import { EXPECT_ASSERTIONS, EXPECT_TARGETS } from '../../src/engine/snapshot/parseExpectations';
import { lintFile } from '../../src/engine/lint';
import { nodeFs } from '../../src/platform/nodeFs';

const ROOT = resolve(__dirname, '../..');
const DOC = readFileSync(join(ROOT, 'docs/scenario-format.md'), 'utf8');

/** The rows of the markdown table under a heading: cells without their backticks' content split. */
function table(heading: string): string[][] {
  const section = DOC.split(/^## /m).find((s) => s.startsWith(heading));
  assert.ok(section, `a "## ${heading}" section`);
  return section
    .split('\n')
    .filter((l) => l.startsWith('| ') && !l.startsWith('| ---'))
    .slice(1)
    .map((l) => l.slice(2, -2).split(/ \| (?=(?:[^`]*`[^`]*`)*[^`]*$)/));
}
const code = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

const events = table('Events');
const expectations = table('Expectations');

test('every event kind the parser knows has a row with its fields and an example', () => {
  const documented = events.map((r) => code(r[0])[0]);
  assert.deepEqual([...documented].sort(), [...EVENT_KINDS].sort());
  for (const r of events) assert.ok(code(r[2]).length === 1 && code(r[2])[0].startsWith('{at: '), `an example for ${r[0]}`);
});

test('every expect: key the parser knows is documented', () => {
  const documented = new Set(expectations.flatMap((r) => code(r[0])));
  for (const k of [...EXPECT_TARGETS, ...EXPECT_ASSERTIONS]) assert.ok(documented.has(k), `${k} is documented`);
});

test('every example in the tables is valid: validate finds no error in a scenario made of them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-docs-'));
  try {
    const file = join(dir, 'docs-examples.yaml');
    const body = [
      'apiVersion: controllerstepper.io/v1alpha1',
      'kind: Scenario',
      'metadata: {name: docs-examples}',
      'kubernetesVersion: "1.31"',
      'startTime: "2026-01-01T00:00:00Z"',
      `snapshot: ${join(ROOT, 'examples/clusters/three-zones.yaml')}`,
      'events:',
      ...events.map((r) => `  - ${code(r[2])[0]}`),
      'expect:',
      ...expectations.map((r) => `  - ${code(r[2])[0]}`),
    ].join('\n');
    writeFileSync(file, `${body}\n`);
    // the scenario is written to a temporary folder and names the example cluster by its absolute path
    const errors = lintFile(file, nodeFs(), { allowOutside: true }).filter((p) => p.severity === 'error');
    assert.deepEqual(
      errors.map((p) => `${p.position?.line}: ${p.message}`),
      [],
      body,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
