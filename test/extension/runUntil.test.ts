import { test } from 'node:test';
import assert from 'node:assert/strict';
import { decisionMatcher, parseRunUntil } from '../../src/extension/runUntil';
import { parseTimestamp } from '../../src/engine/model/time';
import type { Decision } from '../../src/engine/trace/decision';

const start = parseTimestamp('2026-01-01T00:00:00Z') as number;
const cases: { name: string; text: string; expect: unknown }[] = [
  { name: 'a Go duration is an offset from the start', text: '1m30s', expect: { kind: 'time', at: start + 90_000_000 } },
  { name: 'a leading plus is allowed', text: '+10m', expect: { kind: 'time', at: start + 600_000_000 } },
  { name: 'an RFC3339 time is absolute', text: '2026-01-01T00:05:00Z', expect: { kind: 'time', at: start + 300_000_000 } },
  {
    name: 'next ACTION on NAME',
    text: 'next TaintAdded on node-a1',
    expect: { kind: 'decision', action: 'TaintAdded', object: 'node-a1', description: 'next TaintAdded on node-a1' },
  },
  {
    name: 'the action is matched without regard to case',
    text: 'podevicted',
    expect: { kind: 'decision', action: 'PodEvicted', object: undefined, description: 'next PodEvicted' },
  },
  {
    name: 'an object alone means any decision about it',
    text: 'next Pod/default/web-1',
    expect: { kind: 'decision', action: undefined, object: 'Pod/default/web-1', description: 'next decision on Pod/default/web-1' },
  },
  { name: 'next decision is any decision', text: 'next decision', expect: { kind: 'decision', description: 'the next decision' } },
];
for (const c of cases) {
  test(`run until: ${c.name}`, () => {
    const r = parseRunUntil(c.text, start);
    assert.ok(r.ok, JSON.stringify(r));
    assert.deepEqual(r.target, c.expect);
  });
}

for (const [name, text] of [
  ['an unknown action is refused', 'next Exploded'],
  ['an empty input is refused', '  '],
  ['a negative offset is refused', '-5m'],
]) {
  test(`run until: ${name}`, () => assert.equal(parseRunUntil(text, start).ok, false));
}

const refusedTimes: { name: string; text: string; message: RegExp }[] = [
  {
    name: 'an offset beyond the horizon (a year and a day) is refused before running',
    text: '9000h',
    message: /"9000h" is beyond the simulation's horizon: it runs at most 8784h0m0s, until 2027-01-02T00:00:00\.000Z/,
  },
  { name: 'an RFC3339 time beyond the horizon is refused', text: '2027-06-01T00:00:00Z', message: /beyond the simulation's horizon/ },
  {
    name: 'a number too large to be a duration is a time refused, not an unknown decision',
    text: '99999999h',
    message: /"99999999h" is not a time the simulation can run to/,
  },
  { name: 'an exponent is not a duration', text: '1e400h', message: /"1e400h" is not a time the simulation can run to/ },
];
for (const c of refusedTimes) {
  test(`run until: ${c.name}`, () => {
    const r = parseRunUntil(c.text, start);
    assert.equal(r.ok, false);
    assert.match(r.ok ? '' : r.message, c.message);
  });
}

test('run until: the horizon itself is reachable', () => {
  const r = parseRunUntil('8784h', start);
  assert.ok(r.ok, JSON.stringify(r));
  assert.deepEqual(r.target, { kind: 'time', at: start + 8784 * 3_600_000_000 });
});

test('the decision filter matches a short name against the last part of the reference', () => {
  const d = { action: 'TaintAdded', object: 'Node/node-a1', controller: 'node-lifecycle' } as Decision;
  const r = parseRunUntil('TaintAdded node-a1', start);
  assert.ok(r.ok && r.target.kind === 'decision');
  const m = decisionMatcher(r.target as Extract<typeof r.target, { kind: 'decision' }>, () => false);
  assert.equal(m(d), true);
  assert.equal(m({ ...d, object: 'Node/node-a10' }), false);
  assert.equal(m({ ...d, action: 'TaintRemoved' }), false);
});
