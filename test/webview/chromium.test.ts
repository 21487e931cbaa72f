import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { chromiumMissing } from './harness/chromium';

test('the browser suites and the bench say at once when chromium is missing, instead of waiting on a launch', () => {
  const cases: [string, string, boolean][] = [
    ['no such file', '/nonexistent/chromium', true],
    ['a file that cannot be run', resolve(__dirname, '../../package.json'), true],
    ['a program', process.execPath, false],
  ];
  for (const [what, path, missing] of cases) {
    const why = chromiumMissing(path);
    assert.equal(why !== undefined, missing, what);
    if (why) assert.match(why, new RegExp(`no chromium at ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: install`), what);
  }
});
