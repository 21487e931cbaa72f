/**
 * A decision's `because` ends with the guards its machine transition evaluated: each with its
 * answer and the event fields it read, in xstate's order, after the decision's own checks (the
 * first check, which the panel and the text output show, stays the decision's own).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { attachGuards, becauseWithGuards, guardChecks, type GuardRules } from '../../../src/engine/machines/guardChecks';
import { nodeHealthGuardRules, nodeHealthMachine, zoneGuardRules, zoneMachine } from '../../../src/engine/controllers/nodeLifecycle/machines';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../src/platform/nodeFs';

const rules: GuardRules = {
  few: { rule: 'fewer than the limit', reads: ['n', 'limit'] },
  flag: { rule: 'the flag is set', reads: ['flag'] },
};

test('guard checks: in the order evaluated, with the answer and the fields each guard read', () => {
  const cases = [
    { name: 'no guard evaluated: nothing', guards: [], event: { type: 'E', n: 1 }, want: [] },
    {
      name: 'two guards, the first false',
      guards: [
        { guard: 'flag', value: false },
        { guard: 'few', value: true },
      ],
      event: { type: 'E', n: 2, limit: 5, flag: false, other: 'x' },
      want: [
        { rule: 'machine guard flag: the flag is set', values: { flag: false } },
        { rule: 'machine guard few: fewer than the limit', values: { few: true, n: 2, limit: 5 } },
      ],
    },
    {
      name: 'params are shown',
      guards: [{ guard: 'flag', value: true, params: { p: 1 } }],
      event: { type: 'E', flag: true },
      want: [{ rule: 'machine guard flag: the flag is set', values: { flag: true, params: { p: 1 } } }],
    },
  ];
  for (const c of cases) assert.deepEqual(guardChecks(c.guards, c.event, rules), c.want, c.name);
  assert.throws(() => guardChecks([{ guard: 'unnamed', value: true }], { type: 'E' }, rules), /no rule in words/);
});

test("guard checks: each guard's rule text is its own, whichever machine asked before", () => {
  // one rule object under two guard names, and one guard name in two machines with rules of their own
  const shared = { rule: 'shared words', reads: [] };
  const one: GuardRules = { a: shared, b: shared, same: { rule: 'the first machine', reads: [] } };
  const two: GuardRules = { same: { rule: 'the second machine', reads: [] } };
  const cases: { name: string; guard: string; rules: GuardRules; want: string }[] = [
    { name: 'a shared rule as a', guard: 'a', rules: one, want: 'machine guard a: shared words' },
    { name: 'the same rule as b', guard: 'b', rules: one, want: 'machine guard b: shared words' },
    { name: 'as a again', guard: 'a', rules: one, want: 'machine guard a: shared words' },
    { name: "the first machine's same", guard: 'same', rules: one, want: 'machine guard same: the first machine' },
    { name: "the second machine's same", guard: 'same', rules: two, want: 'machine guard same: the second machine' },
    { name: "the first machine's same again", guard: 'same', rules: one, want: 'machine guard same: the first machine' },
  ];
  for (const c of cases) assert.equal(guardChecks([{ guard: c.guard, value: true }], { type: 'E' }, c.rules)[0].rule, c.want, c.name);
});

test('becauseWithGuards appends the guards attached to the transition, and leaves other because lists as they are', () => {
  const own = [{ rule: 'own' }];
  const t = attachGuards({ id: 'm', from: 'a', to: 'b', event: 'E' }, guardChecks([{ guard: 'flag', value: true }], { type: 'E', flag: true }, rules));
  assert.deepEqual(
    becauseWithGuards(own, t).map((c) => c.rule),
    ['own', 'machine guard flag: the flag is set'],
  );
  assert.deepEqual(own, [{ rule: 'own' }], 'the list passed in is not changed');
  assert.equal(becauseWithGuards(own, { id: 'm', from: 'a', to: 'b', event: 'E' }), own, 'no guards: the same list');
  assert.equal(becauseWithGuards(own, null), own);
});

test('every guard of the node lifecycle machines has its rule in words', () => {
  for (const [machine, r] of [
    [nodeHealthMachine, nodeHealthGuardRules],
    [zoneMachine, zoneGuardRules],
  ] as const) {
    assert.deepEqual(Object.keys(machine.implementations.guards).sort(), Object.keys(r).sort(), machine.id);
  }
});

test("a bundled example's decisions list their transition's guards after their own checks", () => {
  const sim = createSimulation(loadScenario(join(__dirname, '..', '..', '..', 'examples', 'zone-small-partial.yaml'), nodeFs()), { checkInvariants: true });
  sim.runUntil(sim.startTime + 10 * 60 * 1_000_000);
  const partial = sim.trace.find((d) => d.action === 'ZoneStateChanged' && d.machine?.to === 'PartialDisruption');
  assert.ok(partial);
  assert.match(partial.because[0].rule, /^ComputeZoneState: FullDisruption when/, 'the decision own check stays first');
  const counts = partial.because[0].values as { ready: number; notReady: number };
  assert.deepEqual(
    partial.because.slice(1),
    [
      {
        rule: `machine guard noReadyNodes: ${zoneGuardRules.noReadyNodes.rule}`,
        values: { noReadyNodes: false, ready: counts.ready, notReady: counts.notReady },
      },
      {
        rule: `machine guard unhealthyRatioAtLeastThreshold: ${zoneGuardRules.unhealthyRatioAtLeastThreshold.rule}`,
        values: { unhealthyRatioAtLeastThreshold: true, ready: counts.ready, notReady: counts.notReady, unhealthyZoneThreshold: 0.55 },
      },
    ],
    'evaluated in the machine order, stopping at the first true one, with the counts the decision names',
  );
  // a node's registration observes its Ready condition through the node health machine's guards
  const registered = sim.trace.find((d) => d.action === 'NodeRegistered' && d.machine?.event === 'READY_OBSERVED');
  assert.ok(registered);
  assert.deepEqual(
    registered.because.filter((c) => c.rule.startsWith('machine guard ')).map((c) => c.values),
    [{ readyIsTrue: true, status: 'True' }],
  );
  // the event processTaintBaseEviction's machine chose is led by that machine's guards, in its order
  const queued = sim.trace.find((d) => d.action === 'NodeQueuedForTainting');
  assert.ok(queued);
  assert.deepEqual(
    queued.because.filter((c) => c.rule.startsWith('machine guard ')).map((c) => c.values),
    [
      { readyIsTrue: false, ready: 'Unknown' },
      { oppositeTaintPresent: false, ready: 'Unknown', oppositeTaint: false },
      // then the node health machine's own, which chose "queued" over "nothing to do"
      { queuedHere: false },
      { keptInZoneSet: false, inZoneSet: false, ownTaint: false, removesUntainted: true },
    ],
  );
  // decisions whose transitions evaluate no guard list none
  const guarded = new Set(sim.trace.filter((d) => d.because.some((c) => c.rule.startsWith('machine guard '))).map((d) => d.machine?.event));
  assert.deepEqual([...guarded].sort(), [
    'MARK_NODE_FOR_TAINTING',
    'MARK_PODS_NOT_READY',
    'NO_SCHEDULE_PASS',
    'READY_OBSERVED',
    'UPDATE_STATUS',
    'ZONE_HEALTH',
  ]);
});
