import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allocators, type HeapNode } from '../../bench/hourHeap';

const node = (functionName: string, url: string, lineNumber: number, selfSize: number, children: HeapNode[] = []): HeapNode => ({
  callFrame: { functionName, url, lineNumber },
  selfSize,
  children,
});
// bundle lines 1-9 from a.ts, 10 on from b.ts (bundleModules: by 1-based line; a profile's lines are 0-based: 9 is b.ts's first)
const fileAt = ['', ...Array<string>(9).fill('a.ts'), ...Array<string>(10).fill('b.ts')];
const BUNDLE = '/tmp/x/hour-heap.js';

const cases: { name: string; head: HeapNode; want: { name: string; bytes: number; callers: [string, number][] }[] }[] = [
  {
    name: "a function's bytes are summed over every path to it, by caller, largest first",
    head: node('(root)', '', -1, 0, [
      node('run', BUNDLE, 2, 10, [node('make', BUNDLE, 12, 100), node('step', BUNDLE, 4, 0, [node('make', BUNDLE, 12, 50)])]),
      node('step', BUNDLE, 4, 5, [node('make', BUNDLE, 12, 25)]),
    ]),
    want: [
      {
        name: 'make  b.ts',
        bytes: 175,
        callers: [
          ['run  a.ts', 100],
          ['step  a.ts', 75],
        ],
      },
      { name: 'run  a.ts', bytes: 10, callers: [['(root)  (native)', 10]] },
      { name: 'step  a.ts', bytes: 5, callers: [['(root)  (native)', 5]] },
    ],
  },
  {
    name: "V8's own functions have no file: named (native), their callers say whose they are",
    head: node('(root)', '', -1, 0, [node('save', BUNDLE, 3, 0, [node('set', '', -1, 64)]), node('index', BUNDLE, 9, 0, [node('set', '', -1, 32)])]),
    want: [
      {
        name: 'set  (native)',
        bytes: 96,
        callers: [
          ['save  a.ts', 64],
          ['index  b.ts', 32],
        ],
      },
    ],
  },
];

for (const c of cases)
  test(c.name, () =>
    assert.deepEqual(
      allocators(c.head, 'hour-heap.js', fileAt).map((a) => ({ name: a.name, bytes: a.bytes, callers: [...a.callers] })),
      c.want,
    ),
  );
