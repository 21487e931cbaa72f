import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { README_SECTIONS, updateReadmeSections } from '../../../src/engine/versions/readme';

const README = resolve(__dirname, '../../../README.md');

test('the README shows the current version and settings tables between their markers', () => {
  assert.ok(existsSync(README), 'README.md is missing at the repository root');
  const text = readFileSync(README, 'utf8');
  const { missing, changed } = updateReadmeSections(text);
  assert.deepEqual(missing, [], `README.md lacks the markers for ${missing.join(', ')}: add <!-- NAME:begin --> and <!-- NAME:end --> lines`);
  assert.deepEqual(changed, [], `README.md sections ${changed.join(', ')} are stale: run npx tsx scripts/render-readme-tables.ts`);
});

test('updating the README replaces only what is between the markers and is idempotent', () => {
  const before =
    '# T\n\nintro\n<!-- version-table:begin -->\nold\n<!-- version-table:end -->\nmiddle\n<!-- settings-table:begin --><!-- settings-table:end -->\nend\n';
  const once = updateReadmeSections(before);
  assert.deepEqual(once.missing, []);
  assert.deepEqual(once.changed, ['version-table', 'settings-table']);
  assert.ok(once.text.startsWith('# T\n\nintro\n<!-- version-table:begin -->\n| Version |'));
  assert.ok(once.text.includes('<!-- version-table:end -->\nmiddle\n'));
  assert.ok(once.text.endsWith('<!-- settings-table:end -->\nend\n'));
  const twice = updateReadmeSections(once.text);
  assert.equal(twice.text, once.text);
  assert.deepEqual(twice.changed, []);
});

test('a README without markers is reported, section by section', () => {
  const r = updateReadmeSections('# nothing here\n');
  assert.deepEqual(
    r.missing,
    README_SECTIONS.map((s) => s.name),
  );
  assert.equal(r.text, '# nothing here\n');
});
