import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseArgs, UsageError } from '../../src/cli/args';

test('command-line arguments are parsed into a typed form', () => {
  const a = parseArgs([
    'replay',
    'x.yaml',
    '--until',
    '10m',
    '--set',
    'nodeMonitorGracePeriod=20s',
    '--set=podEvictionTimeout=1m',
    '--output=both',
    '--format',
    'json',
    '--version',
    '1.12',
  ]);
  assert.equal(a.command, 'replay');
  assert.deepEqual(a.files, ['x.yaml']);
  assert.equal(a.until, '10m');
  assert.deepEqual(a.set, { nodeMonitorGracePeriod: '20s', podEvictionTimeout: '1m' });
  assert.equal(a.output, 'both');
  assert.equal(a.format, 'json');
  assert.equal(a.version, '1.12');
});

test('bad arguments are usage errors that say what was expected', () => {
  const cases: [string[], RegExp][] = [
    [['replay', '--untl', '5m'], /unknown option --untl \(did you mean --until\?\)/],
    [['replay', '--output', 'everything'], /--output is trace, state or both/],
    [['replay', '--format', 'xml'], /--format is text, json or yaml \(or junit, for test\)/],
    [['replay', '--steps', 'two'], /--steps wants a whole number/],
    [['replay', '--set', 'noequals'], /--set wants KEY=VALUE/],
    [['replay', '--until'], /--until needs a value/],
    [['replay', '--until', '1m', '--until', '2m'], /--until given twice/],
    [['replay', '--help=yes'], /--help takes no value/],
  ];
  for (const [argv, message] of cases)
    assert.throws(
      () => parseArgs(argv),
      (e: unknown) => e instanceof UsageError && message.test(e.message),
      argv.join(' '),
    );
});
