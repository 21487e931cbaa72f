/**
 * The scheduling queue's times, as tables: the backoff after N attempts
 * (calculateBackoffDuration), the first leftover flush that moves a parked pod
 * (flushUnschedulablePodsLeftover every 30 s, strictly longer than the limit),
 * and which version has which rule.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backoffOf, leftoverAt, nextTry, queueRulesFor } from '../../../../src/engine/controllers/scheduler/schedulingQueue';
import { seconds } from '../../../../src/engine/model/time';

test('backoff: 1 s doubled per attempt, at most 10 s (none before v1.14)', () => {
  const rows: [minor: number, attempts: number, backoffS: number][] = [
    [12, 1, 0],
    [13, 5, 0],
    [14, 0, 0],
    [14, 1, 1],
    [14, 2, 2],
    [14, 3, 4],
    [14, 4, 8],
    [14, 5, 10],
    [31, 6, 10],
    [31, 1000, 10],
  ];
  for (const [minor, attempts, s] of rows) assert.equal(backoffOf(queueRulesFor(minor), attempts), seconds(s), `v1.${minor}, ${attempts} attempts`);
});

test('leftover flush: the first 30 s tick from the start at which the pod has waited longer than the limit', () => {
  const rows: [minor: number, originS: number, lastS: number, want: number | null][] = [
    [12, 0, 10, null],
    [13, 0, 10, null],
    [14, 0, 10, 90], // > 70 s
    [23, 0, 30, 120], // 90 s is not longer than 60 s after 30 s
    [23, 5, 30, 95],
    [24, 0, 10, 330], // > 310 s
    [31, 0, 0, 330], // 300 s is not longer than 5 min
    [35, 7, 100, 427],
  ];
  for (const [minor, origin, last, want] of rows)
    assert.equal(
      leftoverAt(queueRulesFor(minor), seconds(origin), seconds(last)),
      want === null ? null : seconds(want),
      `v1.${minor} from ${origin}s, last ${last}s`,
    );
});

test('next try: a due pod at its time; a parked one at the flush; v1.21 on pre-checks nodes; v1.33 on pops from backoffQ', () => {
  const r = queueRulesFor(31);
  assert.equal(nextTry(r, 0, { attempts: 2, last: seconds(11), due: seconds(13) }), seconds(13));
  assert.equal(nextTry(r, 0, { attempts: 2, last: seconds(11), due: null }), seconds(330));
  assert.equal(nextTry(queueRulesFor(12), 0, { attempts: 2, last: seconds(11), due: null }), null);
  const rows: [minor: number, preCheck: boolean, pop: boolean][] = [
    [12, false, false],
    [20, false, false],
    [21, true, false],
    [32, true, false],
    [33, true, true],
  ];
  for (const [minor, preCheck, pop] of rows) {
    assert.equal(queueRulesFor(minor).preCheckNode, preCheck, `v1.${minor} preCheckNode`);
    assert.equal(queueRulesFor(minor).popFromBackoffQ, pop, `v1.${minor} popFromBackoffQ`);
  }
});
