import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parsePersistedState, parseWebviewMessage } from '../../src/protocol/webview';

const cases: { name: string; raw: unknown; expect: unknown }[] = [
  { name: 'ready is accepted', raw: { type: 'ready' }, expect: { type: 'ready' } },
  { name: 'painted is accepted, and carries nothing', raw: { type: 'painted', extra: 1 }, expect: { type: 'painted' } },
  { name: 'a toolbar action is accepted', raw: { type: 'action', action: 'stepBack' }, expect: { type: 'action', action: 'stepBack' } },
  { name: 'an action the host does not have is rejected', raw: { type: 'action', action: 'rm -rf' }, expect: undefined },
  { name: 'a pass number is accepted', raw: { type: 'goToPass', pass: 12 }, expect: { type: 'goToPass', pass: 12 } },
  { name: 'a negative pass is rejected', raw: { type: 'goToPass', pass: -1 }, expect: undefined },
  { name: 'a fractional pass is rejected', raw: { type: 'goToPass', pass: 1.5 }, expect: undefined },
  { name: 'a pass given as text is rejected', raw: { type: 'goToPass', pass: '3' }, expect: undefined },
  { name: 'an infinite pass is rejected', raw: { type: 'goToPass', pass: Infinity }, expect: undefined },
  { name: 'a pass that is not a number (NaN) is rejected', raw: { type: 'goToPass', pass: NaN }, expect: undefined },
  { name: 'a pass beyond the safe integers is rejected', raw: { type: 'goToPass', pass: 2 ** 53 }, expect: undefined },
  { name: 'an object reference is accepted', raw: { type: 'selectObject', object: 'Node/a' }, expect: { type: 'selectObject', object: 'Node/a' } },
  { name: 'an empty object reference is rejected', raw: { type: 'selectObject', object: '' }, expect: undefined },
  { name: 'a huge string is rejected', raw: { type: 'runUntil', text: 'x'.repeat(5000) }, expect: undefined },
  { name: 'extra fields are dropped', raw: { type: 'selectDecision', seq: 4, evil: 'x' }, expect: { type: 'selectDecision', seq: 4 } },
  { name: 'a what-if needs a key and a value', raw: { type: 'whatIf', key: 'nodeEvictionRate' }, expect: undefined },
  {
    name: 'a what-if with both is accepted',
    raw: { type: 'whatIf', key: 'nodeEvictionRate', value: '0.5' },
    expect: { type: 'whatIf', key: 'nodeEvictionRate', value: '0.5' },
  },
  { name: 'an unknown type is rejected', raw: { type: 'eval', code: '1' }, expect: undefined },
  { name: 'an inherited property name as type is rejected', raw: { type: 'toString' }, expect: undefined },
  { name: 'a string is rejected', raw: 'ready', expect: undefined },
  { name: 'null is rejected', raw: null, expect: undefined },
  { name: 'an array is rejected', raw: [{ type: 'ready' }], expect: undefined },
  { name: 'a reality mark is selected by its index', raw: { type: 'selectReality', index: 2 }, expect: { type: 'selectReality', index: 2 } },
  { name: 'a reality index given as text is rejected', raw: { type: 'selectReality', index: '2' }, expect: undefined },
  {
    name: 'dropped files are a list of URIs',
    raw: { type: 'dropEvidence', uris: ['file:///tmp/kcm.log', 'file:///tmp/events.yaml'] },
    expect: { type: 'dropEvidence', uris: ['file:///tmp/kcm.log', 'file:///tmp/events.yaml'] },
  },
  { name: 'a drop of nothing is rejected', raw: { type: 'dropEvidence', uris: [] }, expect: undefined },
  { name: 'a drop with a non-text URI is rejected', raw: { type: 'dropEvidence', uris: ['file:///a', 7] }, expect: undefined },
  { name: 'a drop given as one string is rejected', raw: { type: 'dropEvidence', uris: 'file:///a' }, expect: undefined },
  {
    name: 'a drop of more files than one drop may name is rejected',
    raw: { type: 'dropEvidence', uris: Array.from({ length: 201 }, (_, i) => `file:///e/${i}.log`) },
    expect: undefined,
  },
];

for (const c of cases) {
  test(`webview message: ${c.name}`, () => {
    assert.deepEqual(parseWebviewMessage(c.raw), c.expect);
  });
}

test('persisted state keeps only well-formed fields', () => {
  assert.deepEqual(parsePersistedState({ file: '/a.yaml', pass: 3, selected: 'Node/x', other: 1 }), { file: '/a.yaml', pass: 3, selected: 'Node/x' });
  assert.deepEqual(parsePersistedState({ file: 42, pass: -2 }), {});
  assert.deepEqual(parsePersistedState(undefined), {});
});

test('a saved pass that is fractional, infinite, not a number or beyond the safe integers is dropped, the rest of the state kept', () => {
  for (const pass of [1.5, Infinity, NaN, 2 ** 53, '7']) {
    assert.deepEqual(parsePersistedState({ file: '/a.yaml', pass, selected: 'Node/x' }), { file: '/a.yaml', selected: 'Node/x' }, String(pass));
  }
});
