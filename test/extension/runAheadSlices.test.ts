/**
 * Run-ahead's idle slices end when their time is over: the slice in which the ahead simulation finishes its
 * catch-up to the shown pass ends there if its time is over, and its views' alignment (an update of that
 * pass's changes: the 50,000 pods marked not ready, at 5,000 nodes) comes in the next slice, which does not
 * ask the catch-up again (its goToPass would take the checkpoint the pass left pending in one piece).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { openScenario } from '../../src/extension/openScenario';
import { positionOf, RunAhead, slicedMake, type Companion } from '../../src/extension/runAhead';

const example = (name: string) => resolve(__dirname, '../../examples', name);

/** Each slice's time is over after one piece (its more() says no at once), so each piece of work takes a slice of its own. */
const cases: { name: string; file: string; shown: number }[] = [
  { name: 'a zone outage shown at the pass its nodes go Unknown', file: 'rs-zone-outage.yaml', shown: 9 },
  { name: 'a zone outage shown later, its pods replaced', file: 'rs-zone-outage.yaml', shown: 30 },
  { name: 'the 1.12 path', file: 'outage-1.12.yaml', shown: 20 },
];

for (const c of cases) {
  test(`the alignment comes in a slice after the one that finished the catch-up: ${c.name}`, () => {
    const o = openScenario(example(c.file), '');
    const shown = o.make(o.options);
    shown.goToPass(c.shown);
    /** where the ahead simulation stood when the slice began; at each alignment, where it stood when that slice began */
    let began: string | undefined;
    const alignedFrom: (string | undefined)[] = [];
    const companion: Companion<undefined> = {
      make: () => undefined,
      align: (a) => {
        alignedFrom.push(began);
        a.takePodChanges?.();
        a.takeRecordChanges?.();
        return false;
      },
      prepare: () => false,
    };
    const over = () => ra.over();
    const ra: RunAhead<undefined> = new RunAhead(slicedMake(o.make, { ...o.options, shouldStop: over, shouldYield: over }), true, companion);
    for (let slice = 0; ; slice++) {
      assert.ok(slice < 100_000, 'ends');
      began = ra.sim && positionOf(ra.sim);
      ra.slice(shown, () => false);
      // such slices never get to the preparation's last question: stop once on the next pass
      if (alignedFrom.length && ra.sim!.pass === c.shown + 1 && !ra.sim!.partDone) break;
    }
    assert.deepEqual(alignedFrom, [positionOf(shown)], 'one alignment, in a slice that began with the ahead simulation on the shown position');
    assert.equal(ra.sim!.partDone, false);
  });
}
