/**
 * The trace's decisions by machine id (SimHost.byMachine, simulation/seqIndex.ts) stand in for walks of the
 * whole trace where the panel draws a machine: its last transition (statelessMachineView, a pod's ended
 * taint eviction worker) and the decisions that took each of its transitions (selectedMachines). The index
 * must say what the walk says at every position, a step back (the trace cut back) and the steps after it too.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../src/platform/nodeFs';
import { lastOfMachine } from '../../../src/engine/controllers/statelessMachines';
import type { Decision } from '../../../src/engine/trace/decision';
import { selectedMachines } from '../../../src/extension/machineGraph';
import { SeqIndex } from '../../../src/engine/simulation/seqIndex';
import type { DecisionList } from '../../../src/engine/trace/decisionLog';

const examples = join(__dirname, '..', '..', '..', 'examples');

/** Each key's decisions as a walk of the trace finds them. */
function walked<K>(trace: DecisionList, keyOf: (d: Decision) => K | undefined = (d) => d.machine?.id as K): Map<K, number[]> {
  const out = new Map<K, number[]>();
  for (const d of trace) {
    const k = keyOf(d);
    if (k !== undefined) out.set(k, [...(out.get(k) ?? []), d.seq]);
  }
  return out;
}

const copied = <K>(m: ReadonlyMap<K, readonly number[]>): Map<K, number[]> => new Map([...m].map(([k, v]) => [k, [...v]]));

// A trace cut back as SimHost.truncate cuts it (the index first, while the trace still holds what is taken back), then
// grown again. Twelve keys over 40 decisions, 'b' every third, some decisions with none: [decisions before the cut,
// whether the index read them all before the cut (else only up to a ninth), the length cut to, decisions added after].
// Each way a cut is made: a few decisions taken back one by one, many for the keys with much kept (every key looked
// at), many with little kept (the index read again from the trace), a cut past what the index has read, a cut to nothing.
const cuts: [number, boolean, number, number][] = [
  [40, true, 38, 5],
  [40, true, 30, 12],
  [40, true, 3, 20],
  [40, false, 35, 4],
  [40, true, 0, 7],
  [12, true, 11, 0],
];
const keyOfSeq = (seq: number): string | undefined => (seq % 7 === 0 ? undefined : seq % 3 === 0 ? 'b' : `k${seq % 11}`);

for (const [before, read, length, after] of cuts) {
  test(`SeqIndex: ${before} decisions${read ? '' : ' (unread)'}, cut back to ${length}, ${after} more: the walk's lists`, () => {
    const trace: Decision[] = [];
    const add = () => trace.push({ seq: trace.length + 1, object: keyOfSeq(trace.length + 1) } as Decision);
    const index = new SeqIndex<string>(trace, (d) => d.object as string | undefined);
    for (let i = 0; i < before; i++) {
      add();
      if (i % 9 === 0) index.get();
    }
    if (read) index.get();
    index.truncate(length);
    trace.length = length;
    const keyOf = (d: Decision) => d.object as string | undefined;
    assert.deepEqual(copied(index.get()), walked(trace, keyOf), 'after the cut');
    for (let i = 0; i < after; i++) add();
    assert.deepEqual(copied(index.get()), walked(trace, keyOf), 'grown again');
  });
}

// [example, the passes gone to in order: forward, back (the trace cut back), forward again]
const cases: [string, number[]][] = [
  ['outage-1.31.yaml', [12, 20, 14, 15, 30, 3, 25]],
  // one pass back at a time, where the objects outnumber the decisions taken back (each one's seq popped)
  ['rs-zone-outage.yaml', [30, 29, 28, 31]],
  ['rs-zone-outage.yaml', [20, 10, 22]],
  ['outage-1.12.yaml', [40, 18, 45]],
  ['rs-create-failures.yaml', [10, 4, 12]],
];

for (const [file, passes] of cases) {
  test(`${file}: the decisions by machine are the walk's at every position (passes ${passes.join(', ')})`, () => {
    const sim = createSimulation(loadScenario(join(examples, file), nodeFs()));
    for (const pass of passes) {
      sim.goToPass(pass);
      const want = walked<string>(sim.trace);
      assert.ok(want.size > 0, `machines at pass ${pass}`);
      assert.deepEqual(copied(sim.host.byMachine), want, `pass ${pass}`);
      assert.deepEqual(
        copied(sim.host.byObject),
        walked(sim.trace, (d) => d.object),
        `by object at pass ${pass}`,
      );
      for (const id of want.keys()) {
        assert.equal(lastOfMachine(id, sim.trace, sim.machineSeqs(id)), lastOfMachine(id, sim.trace), `${id}'s last at pass ${pass}`);
      }
      // the drawings: the transitions each decision took, from the index and from the walk
      const ms = [...want.keys()].slice(0, 40).flatMap((id) => sim.machine(id) ?? []);
      assert.deepEqual(
        selectedMachines(ms, sim.trace, (id) => sim.machineSeqs(id)),
        selectedMachines(ms, sim.trace),
        `drawings at pass ${pass}`,
      );
    }
  });
}
