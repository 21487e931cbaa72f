import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { BENCH_LOCK, lockHeld, pairOrder, type ProcessView } from '../../bench/benchLock';

const NODE = process.execPath;

test('a bench knows when it runs under the bench lock already', () => {
  const view = (v: Partial<ProcessView>): ProcessView => ({ env: {}, openFiles: [], ancestors: [], ...v });
  const cases: [name: string, p: ProcessView, held: boolean][] = [
    ['a bench started without the lock takes it', view({ ancestors: [['bash'], ['node', 'x.js']] }), false],
    ['a bench started as `flock LOCK node … ab.ts` holds it', view({ ancestors: [['flock', BENCH_LOCK, NODE, 'ab.ts']] }), true],
    ['flock named by its path, with options before the file', view({ ancestors: [['/usr/bin/flock', '-w', '60', BENCH_LOCK, 'npm', 'run', 'bench']] }), true],
    [
      'an ancestor further up holds it (npm run under flock)',
      view({ ancestors: [['sh', '-c', 'node ab.ts'], ['npm'], ['flock', '-o', BENCH_LOCK, 'npm']] }),
      true,
    ],
    ['flock of another file is not the bench lock', view({ ancestors: [['flock', '/tmp/other.lock', NODE]] }), false],
    ['a command that only names the lock is not flock', view({ ancestors: [['cat', BENCH_LOCK]] }), false],
    ["flock(1)'s descriptor handed to this process", view({ openFiles: ['/dev/null', BENCH_LOCK] }), true],
    ['CS_BENCH_LOCK_HELD=1, set by the bench for its children', view({ env: { CS_BENCH_LOCK_HELD: '1' } }), true],
    ['CS_BENCH_LOCK_HELD other than 1', view({ env: { CS_BENCH_LOCK_HELD: '0' } }), false],
  ];
  for (const [name, p, held] of cases) assert.equal(lockHeld(p), held, name);
});

test('the pairs alternate their order: A B, B A, A B, B A', () => {
  const cases: [pair: number, order: [number, number]][] = [
    [0, [0, 1]],
    [1, [1, 0]],
    [2, [0, 1]],
    [3, [1, 0]],
  ];
  for (const [pair, order] of cases) assert.deepEqual(pairOrder(pair), order, `pair ${pair + 1}`);
});

test('a bench run under flock of its lock runs its children without waiting for itself', () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-lock-'));
  try {
    const lock = join(dir, 'bench.lock');
    const script = `const { timedRunner } = require(${JSON.stringify(resolve(__dirname, '../../bench/benchLock.ts'))});
const r = timedRunner(true, ${JSON.stringify(lock)});
const c = r.run([process.execPath, '-e', 'console.log(process.env.CS_BENCH_LOCK_HELD)']);
console.log(JSON.stringify({ locked: r.locked, heldAlready: r.heldAlready, child: c.stdout.trim() }));`;
    const cases: [name: string, argv: string[], expected: object][] = [
      [
        'under flock: held already, the child told so',
        ['flock', lock, NODE, '--import', 'tsx', '-e', script],
        { locked: false, heldAlready: true, child: '1' },
      ],
      ['without: the lock taken per child', [NODE, '--import', 'tsx', '-e', script], { locked: true, heldAlready: false, child: '1' }],
    ];
    for (const [name, argv, expected] of cases) {
      const r = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', timeout: 30_000, env: { ...process.env, CS_BENCH_LOCK_HELD: '' } });
      assert.equal(r.signal, null, `${name}: timed out (waiting for its own lock)`);
      assert.deepEqual(JSON.parse(r.stdout.trim().split('\n').pop()!), expected, name);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
