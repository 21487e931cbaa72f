import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateName, generateUid, podNamePrefix, RANDOM_ALPHABET } from '../../../../src/engine/model/podNames';

test('pod names are the generateName plus 5 characters of utilrand alphabet, the same for the same seed and counter', () => {
  const a = generateName('web-7d9f-', 'uid-1', 0);
  assert.match(a, /^web-7d9f-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
  assert.equal(generateName('web-7d9f-', 'uid-1', 0), a);
  assert.notEqual(generateName('web-7d9f-', 'uid-1', 1), a);
  assert.notEqual(generateName('web-7d9f-', 'uid-2', 0), a);
  assert.equal(RANDOM_ALPHABET, 'bcdfghjklmnpqrstvwxz2456789');
});

test('a long generateName is cut to 58 characters before the suffix, as the API server does', () => {
  const name = generateName(`${'x'.repeat(70)}-`, 's', 0);
  assert.equal(name.length, 63);
  assert.equal(name.slice(0, 58), 'x'.repeat(58));
});

test('the prefix is name- unless that is not a valid pod name prefix', () => {
  assert.equal(podNamePrefix('web'), 'web-');
  assert.equal(podNamePrefix('Web_App'), 'Web_App');
});

test('many names from one ReplicaSet rarely collide, and uids are shaped like UUIDs', () => {
  const names = new Set<string>();
  for (let i = 0; i < 2000; i++) names.add(generateName('web-', 'uid-rs', i));
  assert.ok(names.size >= 1995, `${names.size} distinct names of 2000`);
  assert.match(generateUid('uid-rs', 3), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.notEqual(generateUid('uid-rs', 3), generateUid('uid-rs', 4));
});
