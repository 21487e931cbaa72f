/**
 * The pod map's order a restore leaves owed (model/podOrder.ts): made good when first iterated, by
 * whichever iteration comes first, and before a key is added; equal to the eager order (inOrder) and
 * to a fresh run's, while a restore that puts evicted pods back leaves it owed.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { inOrder, keysInOrderWithGone, PodMap } from '../../../src/engine/model/podOrder';
import { createSimulation, loadScenario } from '../../../src/engine';
import type { SimulationImpl } from '../../../src/engine/simulation/simulation';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';
import { nodeFs } from '../../../src/platform/nodeFs';

/** the ways a map is iterated: each must make the owed order good */
const iterations: { name: string; keys: (m: Map<string, number>) => string[] }[] = [
  { name: 'keys()', keys: (m) => [...m.keys()] },
  { name: 'values()', keys: (m) => [...m.values()].map(String) },
  { name: 'entries()', keys: (m) => [...m.entries()].map(([k]) => k) },
  { name: 'for-of', keys: (m) => [...m].map(([k]) => k) },
  {
    name: 'forEach',
    keys: (m) => {
      const out: string[] = [];
      m.forEach((_v, k) => out.push(k));
      return out;
    },
  },
  { name: 'new Map(map)', keys: (m) => [...new Map(m).keys()] },
];

/** a map of `live` (keys are their values), owing `order`, then `after` applied: the keys expected */
const cases: { name: string; live: string[]; order: string[]; after?: (m: PodMap<number>) => void; want: string[] }[] = [
  { name: 'keys put back last go to their places', live: ['1', '3', '5', '2', '4'], order: ['1', '2', '3', '4', '5'], want: ['1', '2', '3', '4', '5'] },
  { name: 'already in order', live: ['1', '2', '3'], order: ['1', '2', '3'], want: ['1', '2', '3'] },
  { name: 'the first key out of place', live: ['2', '3', '1'], order: ['1', '2', '3'], want: ['1', '2', '3'] },
  { name: 'a key deleted while owed is skipped', live: ['1', '3', '2'], order: ['1', '2', '3'], after: (m) => m.delete('2'), want: ['1', '3'] },
  { name: 'a key deleted in the kept prefix', live: ['1', '2', '4', '3'], order: ['1', '2', '3', '4'], after: (m) => m.delete('1'), want: ['2', '3', '4'] },
  { name: 'a value written while owed keeps its place', live: ['3', '1', '2'], order: ['1', '2', '3'], after: (m) => m.set('1', 1), want: ['1', '2', '3'] },
  {
    name: 'settled before a key is added: it comes last',
    live: ['3', '1', '2'],
    order: ['1', '2', '3'],
    after: (m) => (m.settle(), m.set('0', 0)),
    want: ['1', '2', '3', '0'],
  },
  {
    name: 'a second order owed replaces the first',
    live: ['3', '2', '1'],
    order: ['1', '2', '3'],
    after: (m) => m.owe(['3', '1', '2']),
    want: ['3', '1', '2'],
  },
  // made good a part at a time (settleSome: the panel's idle slices), the rest by the iteration
  {
    name: 'part made good, one key',
    live: ['5', '1', '3', '2', '4'],
    order: ['1', '2', '3', '4', '5'],
    after: (m) => m.settleSome(1),
    want: ['1', '2', '3', '4', '5'],
  },
  {
    name: 'part made good, two keys twice',
    live: ['5', '4', '3', '2', '1'],
    order: ['1', '2', '3', '4', '5'],
    after: (m) => (m.settleSome(2), m.settleSome(2)),
    want: ['1', '2', '3', '4', '5'],
  },
  {
    name: 'part made good, then a key moved deleted',
    live: ['4', '3', '1', '2'],
    order: ['1', '2', '3', '4'],
    after: (m) => (m.settleSome(2), m.delete('1')),
    want: ['2', '3', '4'],
  },
  {
    name: 'part made good, then a key not yet moved deleted',
    live: ['4', '3', '1', '2'],
    order: ['1', '2', '3', '4'],
    after: (m) => (m.settleSome(2), m.delete('3')),
    want: ['1', '2', '4'],
  },
  {
    name: 'part made good, then another order owed',
    live: ['4', '3', '1', '2'],
    order: ['1', '2', '3', '4'],
    after: (m) => (m.settleSome(2), m.owe(['4', '2', '3', '1'])),
    want: ['4', '2', '3', '1'],
  },
  {
    name: 'part made good, then another order owed whose first keys are out of place',
    live: ['1', '2', '3', '4'],
    order: ['4', '3', '2', '1'],
    after: (m) => (m.settleSome(2), m.owe(['2', '1', '4', '3'])),
    want: ['2', '1', '4', '3'],
  },
];

describe('PodMap: the owed order', () => {
  for (const c of cases)
    for (const it_ of iterations)
      it(`${c.name}, made good by ${it_.name}`, () => {
        const m = new PodMap<number>(c.live.map((k) => [k, Number(k)]));
        m.owe(c.order);
        c.after?.(m);
        // the order without making it good: maybe with keys gone since among them
        assert.deepEqual(
          [...keysInOrderWithGone(m)].filter((k) => m.has(k)),
          c.want,
          'keysInOrderWithGone',
        );
        assert.equal(m.owing, c.after === undefined || !c.name.startsWith('settled'), 'owing before the iteration');
        assert.deepEqual(it_.keys(m), c.want);
        assert.equal(m.owing, false);
        if (c.after !== undefined) return;
        // as the eager restore orders a plain map of the same keys
        const plain = new Map([...Map.prototype.keys.call(m)].map((k) => [k, 1]));
        assert.deepEqual([...inOrder(plain, c.order).keys()], c.want);
      });

  it('made good a key at a time, it ends in the order, a call per key at most', () => {
    for (const live of [
      ['5', '4', '3', '2', '1'],
      ['1', '2', '5', '3', '4'],
      ['2', '1', '3', '4', '5'],
    ]) {
      const m = new PodMap<number>(live.map((k) => [k, Number(k)]));
      m.owe(['1', '2', '3', '4', '5']);
      let calls = 1;
      while (m.settleSome(1)) assert.ok(++calls <= live.length, `${live}: still owed after ${calls} calls`);
      assert.equal(m.owing, false);
      assert.deepEqual([...Map.prototype.keys.call(m)], ['1', '2', '3', '4', '5'], `${live}`);
    }
  });

  it('keysInOrderWithGone reads the owed order without making it good', () => {
    const m = new PodMap<number>([
      ['2', 2],
      ['1', 1],
    ]);
    m.owe(['1', '2']);
    assert.deepEqual([...keysInOrderWithGone(m)], ['1', '2']);
    assert.equal(m.owing, true);
    assert.deepEqual([...Map.prototype.keys.call(m)], ['2', '1']);
  });
});

const example = join(new URL('../../..', import.meta.url).pathname, 'examples', 'outage-1.31.yaml');

describe('a step back that owes the pod order', () => {
  const make = () => createSimulation(loadScenario(example, nodeFs()), { checkpointEvery: 30, checks: { podOrder: true } }) as SimulationImpl;
  const LAST = 90;
  it(`from ${LAST} back one pass at a time, and a pass forward after each: a fresh run's pods, in order, and trace`, () => {
    const fresh = make();
    const at: { pods: string; trace: string }[] = [];
    for (let n = 0; n <= LAST; n++) {
      fresh.goToPass(n);
      at.push({ pods: [...fresh.cluster.pods.keys()].join(), trace: traceToJsonLines(fresh.trace) });
    }
    const sim = make();
    sim.goToPass(LAST);
    let owed = 0;
    for (let n = LAST - 1; n > 0; n--) {
      sim.goToPass(n);
      if ((sim.cluster.pods as PodMap<unknown>).owing) owed++;
      // on a pass forward first (a pod created settles the order), then back, then read
      sim.goToPass(n + 1);
      assert.equal(traceToJsonLines(sim.trace), at[n + 1].trace, `trace at pass ${n + 1} after a step back to ${n}`);
      assert.equal([...sim.cluster.pods.keys()].join(), at[n + 1].pods, `pods at pass ${n + 1} after a step back to ${n}`);
      sim.goToPass(n);
      assert.equal([...sim.cluster.pods.keys()].join(), at[n].pods, `pods at pass ${n}`);
    }
    assert.ok(owed > 0, `some step back left the order owed (${owed})`);
  });
});

describe('the owed pod order in the idle preparation', () => {
  const make = () => createSimulation(loadScenario(example, nodeFs()), { checkpointEvery: 30, checks: { podOrder: true } }) as SimulationImpl;
  it('prepareSlice makes it good in parts, the checkpoint-only preparation too, and a pass on from there is a fresh run', () => {
    const fresh = make();
    const sim = make();
    sim.goToPass(90);
    let tried = 0;
    for (const checkpointOnly of [false, true])
      for (let n = 89; n > 0; n--) {
        sim.goToPass(n);
        const pods = sim.cluster.pods as PodMap<unknown>;
        if (!pods.owing) continue;
        tried++;
        // one look at the clock a slice: it stops after a part, and says work is left while some is
        let slices = 0;
        while (sim.prepareSlice(() => false, checkpointOnly)) assert.ok(++slices < 1000);
        assert.equal(pods.owing, false, `pass ${n}: the order made good by the preparation (checkpointOnly ${checkpointOnly})`);
        fresh.goToPass(n);
        assert.deepEqual([...Map.prototype.keys.call(pods)], [...fresh.cluster.pods.keys()], `pass ${n}: the order`);
        sim.goToPass(n + 1);
        fresh.goToPass(n + 1);
        assert.equal(traceToJsonLines(sim.trace), traceToJsonLines(fresh.trace), `pass ${n + 1} after the preparation`);
        sim.goToPass(90);
        break;
      }
    assert.equal(tried, 2, 'a step back that owes the order, prepared both ways');
  });
});
