/**
 * When a `kubectl describe` paste was printed, read from the paste itself (describeClock.ts): the
 * anchor of its Events' ages when --at is not given. The real samples are read without --at and
 * must land where SOURCES.md dates them.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ageUnit, printedAt } from '../../../src/engine/import/describeClock';
import { importEvidence } from '../../../src/engine/import/index';
import { linesOf } from '../../../src/engine/import/lines';
import { formatTime, parseTimestamp, seconds } from '../../../src/engine/model/time';
import { readChunks } from '../../../src/platform/nodeFs';

const dir = new URL('../../fixtures/real-evidence', import.meta.url).pathname;
const lines = (text: string) => [...linesOf([text])];
const t = (s: string) => parseTimestamp(s)!;

const events = (rows: string[]) =>
  `Events:\n  Type     Reason        Age    From             Message\n  ----     ------        ----   ----             -------\n${rows.map((r) => `  ${r}`).join('\n')}\n`;
const pod = (start: string | undefined, rows: string[]) =>
  `Name:         web-1\nNamespace:    shop\n${start ? `Start Time:   ${start}\n` : ''}Status:       Running\n${events(rows)}`;
const node = (ready: string, heartbeat: string, transition: string, renew: string | undefined, rows: string[]) =>
  `Name:               n1\nRoles:              <none>\n${renew ? `Lease:\n  HolderIdentity:  n1\n  RenewTime:       ${renew}\n` : ''}Conditions:\n  Type    Status  LastHeartbeatTime                 LastTransitionTime                Reason  Message\n  ----    ------  -----------------                 ------------------                ------  -------\n  Ready   ${ready}  ${heartbeat}   ${transition}   R       m\n${events(rows)}`;

describe('describeClock: when a described object was printed', () => {
  const units: [string, number][] = [
    ['0s', 1],
    ['1m59s', 1],
    ['9m59s', 1],
    ['10m', 60],
    ['7h59m', 60],
    ['8h', 3600],
    ['7d23h', 3600],
    ['8d', 86_400],
    ['7y364d', 86_400],
    ['8y', 365 * 86_400],
  ];
  for (const [age, unit] of units)
    it(`an age of ${age} is good to ${unit}s`, () => {
      const m = /^(?:(\d+)y)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(age)!.map((x) => Number(x ?? 0));
      assert.equal(ageUnit(seconds((((m[1] * 365 + m[2]) * 24 + m[3]) * 60 + m[4]) * 60 + m[5])), seconds(unit));
    });

  const cases: { name: string; text: string; kind: 'node' | 'pod'; after?: string; want: string | undefined; basis?: RegExp }[] = [
    {
      name: 'a pod: its Start Time plus its Scheduled event age',
      text: pod('Fri, 21 Mar 2025 01:34:43 +0000', [
        'Normal   Scheduled     6m21s  default-scheduler  Assigned',
        'Warning  NodeNotReady  89s    node-controller  Node is not ready',
      ]),
      kind: 'pod',
      want: '2025-03-21T01:41:04.000Z',
      basis: /Start Time \(line 3\) and its Scheduled event's age \(line 8\)/,
    },
    {
      name: 'a pod without a Scheduled event: no earlier than its Start Time',
      text: pod('Fri, 21 Mar 2025 01:34:43 +0100', ['Warning  NodeNotReady  89s    node-controller  Node is not ready']),
      kind: 'pod',
      want: '2025-03-21T00:34:43.000Z',
      basis: /latest time it prints \(line 3\)/,
    },
    {
      name: 'a pod printed after an object whose time is later than its own pin: the one before',
      text: pod('Fri, 21 Mar 2025 01:34:43 +0000', ['Normal   Scheduled     10s    default-scheduler  Assigned']),
      kind: 'pod',
      after: '2025-03-21T02:00:00Z',
      want: '2025-03-21T02:00:00.000Z',
      basis: /the object before it/,
    },
    {
      name: 'a pod with nothing to go by, after another object: that object',
      text: pod(undefined, ['Warning  NodeNotReady  89s    node-controller  Node is not ready']),
      kind: 'pod',
      after: '2025-03-21T02:00:00Z',
      want: '2025-03-21T02:00:00.000Z',
    },
    {
      name: 'a pod with nothing to go by, first: nothing',
      text: pod(undefined, ['Warning  NodeNotReady  89s    node-controller  m']),
      kind: 'pod',
      want: undefined,
    },
    {
      name: 'a node gone Unknown: its Ready transition plus the newest NodeNotReady age',
      text: node('Unknown', 'Thu, 01 Jan 2026 00:00:20 +0000', 'Thu, 01 Jan 2026 00:01:05 +0000', 'Thu, 01 Jan 2026 00:00:25 +0000', [
        'Normal   NodeNotReady  8m     node-controller  Node n1 status is now: NodeNotReady',
        'Normal   NodeNotReady  3m10s  node-controller  Node n1 status is now: NodeNotReady',
      ]),
      kind: 'node',
      want: '2026-01-01T00:04:15.000Z',
      basis: /LastTransitionTime \(line 9\) and its NodeNotReady event's age \(line 14\)/,
    },
    {
      name: 'a Ready node whose NodeReady age is coarse (19h): its newest heartbeat, which that age allows',
      text: node('True', 'Tue, 19 Mar 2024 11:02:23 +0000', 'Mon, 18 Mar 2024 15:28:19 +0000', 'Tue, 19 Mar 2024 11:02:21 +0000', [
        'Normal   NodeReady     19h    kubelet          Node n1 status is now: NodeReady',
      ]),
      kind: 'node',
      want: '2024-03-19T11:02:23.000Z',
      basis: /latest time it prints \(line 9\).*as the Ready condition's LastTransitionTime \(line 9\) and its NodeReady event's age \(line 13\) allow/,
    },
    {
      name: "a Ready node's NodeNotReady event pins nothing (Ready is True): its newest heartbeat",
      text: node('True', 'Tue, 19 Mar 2024 11:02:23 +0000', 'Tue, 19 Mar 2024 11:00:00 +0000', undefined, ['Normal   NodeNotReady  30s    kubelet  m']),
      kind: 'node',
      want: '2024-03-19T11:02:23.000Z',
    },
    {
      name: 'an age that contradicts a later printed time pins nothing',
      text: node('True', 'Tue, 19 Mar 2024 11:02:23 +0000', 'Tue, 19 Mar 2024 10:00:00 +0000', undefined, ['Normal   NodeReady     5m     kubelet  m']),
      kind: 'node',
      want: '2024-03-19T11:02:23.000Z',
      basis: /^the latest time it prints/,
    },
  ];
  for (const c of cases)
    it(c.name, () => {
      const got = printedAt(lines(c.text), c.kind, c.after ? { time: t(c.after), basis: 'before' } : undefined);
      assert.equal(got && formatTime(got.time), c.want);
      if (c.basis) assert.match(got!.basis, c.basis);
    });
});

describe('describe pastes without --at: ages read from when they were printed', () => {
  const read = (f: string) => importEvidence([{ name: f, chunks: readChunks(join(dir, f)) }], { anchor: t('2026-12-05T00:00:00Z'), anchorGiven: false });
  it('the 1.29 node shutdown: the same decisions as with --at 2025-03-21T01:41:04Z (SOURCES.md), one warning for both pods', () => {
    const r = read('describe-pod-1.29-trident-node-shutdown.txt');
    assert.deepEqual(
      r.decisions.map((d) => `${formatTime(d.time)} ${d.action} ${d.object}`),
      [
        '2025-03-21T01:39:35.000Z PodsMarkedNotReady Pod/default/test-deployment-57fb685899-d5r6n',
        '2025-03-21T01:40:10.000Z PodEvicted Pod/default/test-deployment-57fb685899-d5r6n',
      ],
    );
    assert.deepEqual(
      r.problems.map((p) => `${p.code} ${p.position?.line}`),
      ['anchor-inferred 64'],
    );
    assert.match(r.problems[0].message, /2025-03-21T01:41:04\.000Z.*and 1 more object of this file/);
  });
  it('the healthy 1.28 node: RegisteredNode 4m53s before its newest heartbeat (11:02:23; printed about 11:02:40)', () => {
    const r = read('describe-node-1.28-lfs258.txt');
    assert.deepEqual(
      r.decisions.map((d) => `${formatTime(d.time)} ${d.action}`),
      ['2024-03-18T16:02:23.000Z NodeRegistered', '2024-03-18T16:02:23.000Z NodeRegistered', '2024-03-19T10:57:30.000Z NodeRegistered'],
    );
    assert.deepEqual(
      r.problems.map((p) => p.code),
      ['anchor-inferred'],
    );
  });
  it('the finished Job: printed at 2022-10-08T01:53:51Z, as SOURCES.md dates it', () => {
    const r = read('describe-pod-kodekloud-job.txt');
    assert.match(r.problems.find((p) => p.code === 'anchor-inferred')?.message ?? '', /ages read back from 2022-10-08T01:53:51\.000Z/);
  });
});
