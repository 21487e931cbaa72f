import { test } from 'node:test';
import assert from 'node:assert/strict';
import { shareWithinLimits } from '../../../src/engine/snapshot/share';
import { findLimitViolation, MAX_NESTING_DEPTH, MAX_STRING_LENGTH } from '../../../src/engine/model/limits';
import { loadSnapshot } from '../../../src/engine/snapshot/load';

/** A value nested `levels` mappings deep ({ d: { d: ... } }), ending in `leaf`. */
function nested(levels: number, leaf: unknown = 'x'): unknown {
  let v = leaf;
  for (let i = 0; i < levels; i++) v = { d: v };
  return v;
}

const long = 'a'.repeat(MAX_STRING_LENGTH + 1);
const fresh = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

// Each case: the previous object of the kind, and the object shared with it; sharing must answer
// "within the limits" exactly as findLimitViolation answers of the object alone.
const cases: { name: string; prev: Record<string, unknown>; obj: Record<string, unknown> }[] = [
  { name: 'an object equal to its neighbour is within the limits', prev: { a: { b: [1, 'x'] } }, obj: { a: { b: [1, 'x'] } } },
  { name: 'a part nested too deep under a key its neighbour lacks is found', prev: { a: 1 }, obj: { a: 1, b: nested(MAX_NESTING_DEPTH) } },
  { name: 'a part nested too deep where its neighbour has a string is found', prev: { a: 'x' }, obj: { a: nested(MAX_NESTING_DEPTH) } },
  { name: 'a part nested too deep where its neighbour has a list is found', prev: { a: [] }, obj: { a: nested(MAX_NESTING_DEPTH) } },
  { name: 'a part nested too deep beyond the end of its neighbour’s list is found', prev: { a: [1] }, obj: { a: [1, nested(MAX_NESTING_DEPTH)] } },
  {
    name: 'a part nested too deep below where sharing stops comparing is found',
    prev: { a: nested(MAX_NESTING_DEPTH, 'y') },
    obj: { a: nested(MAX_NESTING_DEPTH, 'x') },
  },
  {
    name: 'a part nested too deep and equal to its neighbour’s is found',
    prev: { a: nested(MAX_NESTING_DEPTH) },
    obj: { a: nested(MAX_NESTING_DEPTH) },
  },
  { name: 'a part nested as deep as allowed is within the limits', prev: { a: 1 }, obj: { a: nested(MAX_NESTING_DEPTH - 1) } },
  {
    name: 'a part as deep as allowed, below where sharing stops comparing, is within the limits',
    prev: { a: nested(MAX_NESTING_DEPTH - 1, 'y') },
    obj: { a: nested(MAX_NESTING_DEPTH - 1, 'x') },
  },
  { name: 'a string too long and equal to its neighbour’s is found', prev: { a: long }, obj: { a: long } },
  { name: 'a string too long where its neighbour has another is found', prev: { a: 'x' }, obj: { a: long } },
  { name: 'a string too long in a list is found', prev: { a: ['x'] }, obj: { a: [long] } },
  { name: 'a key too long is found', prev: { a: 1 }, obj: { a: 1, [long]: 1 } },
  { name: 'a string as long as allowed is within the limits', prev: { a: 'x' }, obj: { a: long.slice(1) } },
];

for (const c of cases) {
  test(c.name, () => {
    const obj = fresh(c.obj);
    const expected = findLimitViolation(fresh(c.obj)) === undefined;
    assert.equal(shareWithinLimits(obj, fresh(c.prev)), expected);
  });
}

test('the very same part in an object and its neighbour (a YAML alias) is checked too', () => {
  const deep = nested(MAX_NESTING_DEPTH);
  assert.equal(shareWithinLimits({ a: deep }, { a: deep }), false);
  const ok = nested(3);
  assert.equal(shareWithinLimits({ a: ok }, { a: ok }), true);
});

test('a big List’s item nested too deep after a neighbour of its kind is left out with its error', () => {
  const pod = (name: string, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default' },
    spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'nginx' }] },
    ...extra,
  });
  const text = JSON.stringify({
    apiVersion: 'v1',
    kind: 'List',
    items: [pod('a'), pod('b', { extra: nested(MAX_NESTING_DEPTH) }), pod('c', { extra: long }), pod('d')],
  });
  // over objectPositionsUpTo: the List is parsed item by item and shared (listParse.ts)
  const snap = loadSnapshot({ file: 'pods.json', text }, undefined, { objectPositionsUpTo: 10 });
  assert.deepEqual([...snap.cluster.pods.keys()], ['default/a', 'default/d']);
  assert.deepEqual(
    snap.problems.filter((p) => p.severity === 'error').map((p) => p.code),
    ['too-deep', 'string-too-long'],
  );
});
