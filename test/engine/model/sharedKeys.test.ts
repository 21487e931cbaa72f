/**
 * A map saved as columns for a checkpoint (columnsSharedWith): the same keys and values as the
 * map, in its order, sharing the last checkpoint's keys when they are the same in order, and the
 * whole of the last checkpoint's columns when every value is the very one it holds; and the map
 * given back from them (mapOfColumns).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { columnsSharedWith, type MapColumns, mapOfColumns } from '../../../src/engine/model/sharedKeys';

const ready = { ready: 'True' };
const unknown = { ready: 'Unknown' };
const id = <V>(v: V): V => v;
const last: MapColumns<object> = { keys: ['n1', 'n2', 'n3'], values: [ready, ready, unknown] };

const cases: { name: string; map: [string, object][]; keys: 'shared' | 'new'; whole: boolean }[] = [
  {
    name: 'nothing changed: the last columns themselves',
    map: [
      ['n1', ready],
      ['n2', ready],
      ['n3', unknown],
    ],
    keys: 'shared',
    whole: true,
  },
  {
    name: 'a value replaced: the keys shared, new values',
    map: [
      ['n1', ready],
      ['n2', unknown],
      ['n3', unknown],
    ],
    keys: 'shared',
    whole: false,
  },
  {
    name: 'an equal value that is another object is a change',
    map: [
      ['n1', ready],
      ['n2', { ready: 'True' }],
      ['n3', unknown],
    ],
    keys: 'shared',
    whole: false,
  },
  {
    name: 'a node gone: new keys',
    map: [
      ['n1', ready],
      ['n3', unknown],
    ],
    keys: 'new',
    whole: false,
  },
  {
    name: 'the same keys in another order: new keys',
    map: [
      ['n2', ready],
      ['n1', ready],
      ['n3', unknown],
    ],
    keys: 'new',
    whole: false,
  },
  {
    name: 'a node added at the end: new keys',
    map: [
      ['n1', ready],
      ['n2', ready],
      ['n3', unknown],
      ['n4', ready],
    ],
    keys: 'new',
    whole: false,
  },
];

for (const c of cases) {
  test(`columnsSharedWith: ${c.name}`, () => {
    const map = new Map(c.map);
    const saved = columnsSharedWith(last, map, id);
    assert.deepEqual(saved.keys, [...map.keys()]);
    assert.equal(saved.values.length, map.size);
    saved.values.forEach((v, i) => assert.equal(v, [...map.values()][i], `value ${i} is the map's own object`));
    assert.equal(saved.keys === last.keys, c.keys === 'shared', 'keys shared with the last columns');
    assert.equal(saved === last, c.whole, 'the last columns returned whole');
    assert.deepEqual([...mapOfColumns(saved)], c.map, 'the map given back, in order');
  });
}

test('columnsSharedWith: no last columns, and a value made from each entry', () => {
  const map = new Map([
    ['a', { state: ready }],
    ['b', { state: unknown }],
  ]);
  const saved = columnsSharedWith(undefined, map, (e) => e.state);
  assert.deepEqual(saved, { keys: ['a', 'b'], values: [ready, unknown] });
  assert.equal(
    columnsSharedWith(saved, map, (e) => e.state),
    saved,
    'saved again with nothing changed',
  );
});
