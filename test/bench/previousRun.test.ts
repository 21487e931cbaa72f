import { test } from 'node:test';
import assert from 'node:assert/strict';
import { comparablePrevious, type PreviousRun } from '../../bench/previousRun';

const run = (nodeOptions?: string[]): PreviousRun<{ key: string }> => ({
  date: '2026-12-05T05:13:00.000Z',
  metrics: [{ key: 'load' }],
  ...(nodeOptions ? { nodeOptions } : {}),
});

const cases: { name: string; previous?: PreviousRun<{ key: string }>; now: string[]; compared: boolean; note?: RegExp }[] = [
  { name: 'no earlier run', previous: undefined, now: ['--max-semi-space-size=64'], compared: false },
  { name: 'a record from before the options were kept', previous: run(), now: ['--max-semi-space-size=64'], compared: true },
  { name: 'the same options', previous: run(['--max-semi-space-size=64']), now: ['--max-semi-space-size=64'], compared: true },
  {
    name: 'an experiment with another option',
    previous: run(['--max-semi-space-size=64', '--initial-old-space-size=1024']),
    now: ['--max-semi-space-size=64'],
    compared: false,
    note: /--initial-old-space-size=1024, now --max-semi-space-size=64\): not compared/,
  },
  {
    name: "V8's defaults (--semi-space 0) after the command line's",
    previous: run(['--max-semi-space-size=64']),
    now: [],
    compared: false,
    note: /now V8's defaults/,
  },
  { name: 'the same options in another order', previous: run(['--b', '--a']), now: ['--a', '--b'], compared: false, note: /--b --a, now --a --b/ },
];

for (const c of cases)
  test(`the previous run: ${c.name}`, () => {
    const got = comparablePrevious(c.previous, c.now);
    assert.equal(got.previous !== undefined, c.compared);
    if (c.note) assert.match(got.note ?? '', c.note);
    else assert.equal(got.note, undefined);
  });
