/** The scenario field docs (hover, completion) match what the scenario parser accepts. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EVENT_FIELDS, EVENT_KINDS, EXPECT_FIELDS, SCENARIO_FIELDS } from '../../../src/engine/lint/fieldDocs';
import { parseScenario } from '../../../src/engine/snapshot/scenario';
import { MemoryFs } from '../../../src/engine/snapshot/source';

const unknownFieldsIn = (text: string): string[] =>
  parseScenario(text, '/s.yaml', new MemoryFs())
    .problems.filter((p) => p.code === 'unknown-field')
    .map((p) => p.message);

test('every documented top-level field is one the parser accepts', () => {
  for (const k of Object.keys(SCENARIO_FIELDS)) assert.deepEqual(unknownFieldsIn(`kind: Scenario\n${k}: null\n`), [], k);
});

test('a field the parser rejects is not documented (the check can fail)', () => {
  assert.equal(unknownFieldsIn('kind: Scenario\nnotAField: 1\n').length, 1);
});

test('every documented event kind is one the parser accepts', () => {
  for (const k of Object.keys(EVENT_KINDS)) {
    const msgs = unknownFieldsIn(`kind: Scenario\nevents:\n  - at: 1s\n    ${k}: null\n`);
    assert.deepEqual(
      msgs.filter((m) => m.includes(`"${k}"`)),
      [],
      k,
    );
  }
});

test('every documented event field is accepted by some event kind', () => {
  const withKind: Record<string, string> = { only: 'kubelet: stop', conditions: 'kubelet: start', phase: 'pod: default/x', ready: 'pod: default/x' };
  for (const k of Object.keys(EVENT_FIELDS)) {
    if (k === 'at') continue;
    const msgs = unknownFieldsIn(`kind: Scenario\nevents:\n  - at: 1s\n    ${withKind[k] ?? 'kubelet: stop'}\n    ${k}: null\n`);
    assert.deepEqual(
      msgs.filter((m) => m.includes(k)),
      [],
      k,
    );
  }
});

test('every documented expectation field is one the parser accepts', () => {
  for (const k of Object.keys(EXPECT_FIELDS)) {
    const msgs = unknownFieldsIn(`kind: Scenario\nexpect:\n  - at: 1s\n    ${k}: null\n`);
    assert.deepEqual(
      msgs.filter((m) => m.includes(`"${k}"`)),
      [],
      k,
    );
  }
});
