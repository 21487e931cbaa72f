import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gcInTimedPart } from '../../bench/gcTrace';

const line = (ms: number, kind: string, mb: number, pause: number, why = 'allocation failure;') =>
  `[1:0x1]     ${ms} ms: ${kind} ${mb} (${mb + 5}) -> ${mb - 1} (${mb + 5}) MB, ${pause} / 0.00 ms  (average mu = 0.9) ${why}`;
const testing = 'testing; GC in old space requested';

const cases: { name: string; stdout: string[]; want: ReturnType<typeof gcInTimedPart> }[] = [
  {
    name: 'the events between the gc() before the timed part and the gc() after it are counted',
    stdout: [
      line(50, 'Scavenge', 8, 1),
      line(70, 'Mark-Compact', 8, 5, testing),
      line(900, 'Scavenge', 300, 2),
      line(1000, 'Mark-Compact', 402, 4, testing),
      line(1100, 'Scavenge', 410, 20),
      line(1500, 'Mark-Compact', 455, 30, 'finalize incremental marking via stack guard; GC in old space requested'),
      line(2000, 'Scavenge', 600, 25),
      line(5000, 'Mark-Compact', 900, 300, testing),
      '{"ok":true}',
    ],
    want: { scavenges: 2, scavengeMs: 45, markCompacts: 1, markCompactMs: 30, markCompactAt: [455] },
  },
  {
    name: 'a child that printed no trace has nothing counted',
    stdout: ['{"ok":true}'],
    want: { scavenges: 0, scavengeMs: 0, markCompacts: 0, markCompactMs: 0, markCompactAt: [] },
  },
];

for (const c of cases) test(c.name, () => assert.deepEqual(gcInTimedPart(c.stdout.join('\n')), c.want));
