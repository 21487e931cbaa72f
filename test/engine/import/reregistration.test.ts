/**
 * A node registered again without RemovingNode between was registered by a new node lifecycle controller: a restart
 * (pkg/controller/nodelifecycle/node_lifecycle_controller.go: RegisteredNode for a node not in `knownNodeSet`, which only
 * RemovingNode shrinks and which lives in the process).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { restartsFromRegistrations } from '../../../src/engine/import/reregistration';
import { seconds } from '../../../src/engine/model/time';
import type { Evidence, RealDecision } from '../../../src/engine/import/types';

const ev: Evidence = { file: 'events.txt', line: 1, text: '', format: 'events-table' };
const reg = (t: number, node: string, action: RealDecision['action'] = 'NodeRegistered') => ({
  action,
  object: `Node/${node}`,
  time: seconds(t),
  evidence: { ...ev, line: t },
});

const cases: { name: string; decisions: ReturnType<typeof reg>[]; shown?: number[]; after?: number; want: number[] }[] = [
  { name: 'each node once: no restart', decisions: [reg(10, 'a'), reg(10, 'b')], want: [] },
  { name: 'a node registered again: a restart then', decisions: [reg(10, 'a'), reg(100, 'a')], want: [100] },
  { name: 'every node registered again in one pass: one restart', decisions: [reg(10, 'a'), reg(10, 'b'), reg(100, 'a'), reg(100, 'b')], want: [100] },
  { name: 'registered three times: two restarts', decisions: [reg(10, 'a'), reg(50, 'a'), reg(90, 'a')], want: [50, 90] },
  {
    name: 'removed between (the node was deleted and made again): no restart',
    decisions: [reg(10, 'a'), reg(40, 'a', 'NodeRemoved'), reg(100, 'a')],
    want: [],
  },
  { name: 'a restart the log shows comes first: not inferred again', decisions: [reg(10, 'a'), reg(100, 'a')], shown: [95], want: [] },
  {
    name: 'a restart the log shows came before the first registration: the second is a restart',
    decisions: [reg(10, 'a'), reg(100, 'a')],
    shown: [5],
    want: [100],
  },
  { name: 'in any order given', decisions: [reg(100, 'a'), reg(10, 'a')], want: [100] },
  { name: 'not at or before the scenario start', decisions: [reg(10, 'a'), reg(10, 'a')], after: 10, want: [10.001] },
  { name: 'other decisions are not registrations', decisions: [reg(10, 'a'), reg(20, 'a', 'TaintAdded'), reg(30, 'b')], want: [] },
];

for (const c of cases)
  test(`restarts from registrations: ${c.name}`, () => {
    const got = restartsFromRegistrations(c.decisions, (c.shown ?? []).map(seconds), seconds(c.after ?? 0), (e) => `${e.file}:${e.line}`);
    assert.deepEqual(
      got.map((e) => e.at),
      c.want.map((t) => Math.round(t * 1_000_000)),
    );
    for (const e of got) {
      assert.deepEqual(e.fields, { restartControllerManager: true });
      assert.match(e.why[0], /^evidence: events\.txt:\d+/);
    }
  });
