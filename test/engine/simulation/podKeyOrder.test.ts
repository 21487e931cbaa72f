/**
 * A checkpoint's pod key order made from the previous one's and the key log when read
 * (simulation/podKeyOrder.ts) against a Map that had the same keys deleted and inserted, for
 * chains of checkpoints read in any order, and the whole simulation's checkpoints against the live
 * map at every save (checks.podOrder) through an outage that evicts and creates pods.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { PodKeyOrder } from '../../../src/engine/simulation/podKeyOrder';
import { createSimulation, loadScenario } from '../../../src/engine';
import type { SimulationImpl } from '../../../src/engine/simulation/simulation';
import { nodeFs } from '../../../src/platform/nodeFs';
import type { CheckpointStore } from '../../../src/engine/simulation/checkpointStore';

/** `+k` inserts k, `-k` deletes it: one string per checkpoint, its ops separated by spaces */
const cases: { name: string; start: string[]; logs: string[]; read: 'last' | 'each' | 'backwards' }[] = [
  { name: 'nothing came or went', start: ['a', 'b', 'c'], logs: ['', ''], read: 'each' },
  { name: 'inserted keys go last, in order', start: ['a', 'b'], logs: ['+c +d', '+e'], read: 'last' },
  { name: 'a deleted key leaves its place', start: ['a', 'b', 'c'], logs: ['-b', '-a'], read: 'each' },
  { name: 'deleted and inserted again: last', start: ['a', 'b', 'c'], logs: ['-a +a'], read: 'each' },
  { name: 'inserted again in a later checkpoint', start: ['a', 'b', 'c'], logs: ['-b', '+x', '+b'], read: 'last' },
  { name: 'inserted then deleted in one log', start: ['a'], logs: ['+x +y -x'], read: 'each' },
  { name: 'inserted, deleted and inserted again', start: ['a', 'b'], logs: ['+x -a +y -x +x +a'], read: 'last' },
  { name: 'a start key deleted, inserted, deleted', start: ['a', 'b', 'c'], logs: ['-b +b', '-b'], read: 'backwards' },
  { name: 'the later read first, then the earlier', start: ['p', 'q', 'r', 's'], logs: ['-q +t', '', '-p +q', '-t +p'], read: 'backwards' },
  { name: 'a long chain, none read before the last', start: ['a', 'b'], logs: ['+c', '-a', '+a', '-c', '+d', '-b +b', '', '+e -d'], read: 'last' },
  { name: 'every key gone', start: ['a', 'b'], logs: ['-a -b'], read: 'each' },
  { name: 'from an empty map', start: [], logs: ['+a +b', '-a', '+a'], read: 'each' },
];

function apply(map: Map<string, true>, ops: string): (string | boolean)[] {
  const log: (string | boolean)[] = [];
  for (const op of ops.split(' ').filter(Boolean)) {
    const key = op.slice(1);
    if (op[0] === '+') {
      assert.ok(!map.has(key), `case error: ${key} is in the map`);
      map.set(key, true);
      log.push(key, true);
    } else {
      assert.ok(map.delete(key), `case error: ${key} is not in the map`);
      log.push(key, false);
    }
  }
  return log;
}

describe("a checkpoint's pod key order from the key log", () => {
  for (const c of cases) {
    it(c.name, () => {
      const map = new Map<string, true>(c.start.map((k) => [k, true]));
      const orders = [PodKeyOrder.of([...map.keys()])];
      const want = [[...map.keys()]];
      for (const ops of c.logs) {
        orders.push(PodKeyOrder.after(orders[orders.length - 1], apply(map, ops)));
        want.push([...map.keys()]);
      }
      const at = c.read === 'last' ? [orders.length - 1] : c.read === 'each' ? orders.map((_, i) => i) : orders.map((_, i) => orders.length - 1 - i);
      for (const i of at) assert.deepEqual(orders[i].order, want[i], `checkpoint ${i}`);
      // read again: the same (kept) array
      for (const i of at) assert.equal(orders[i].order, orders[i].order);
    });
  }
});

describe("the checkpoints of a run keep the live map's order (checks.podOrder)", () => {
  for (const file of ['outage-1.31.yaml', 'zone-large-partial.yaml', 'restart-mid-outage.yaml']) {
    it(`${file}: through evictions and the ReplicaSets' new pods, then back and on again`, () => {
      const sim = createSimulation(loadScenario(join(__dirname, '../../../examples', file), nodeFs()), { checks: { podOrder: true } }) as SimulationImpl;
      sim.runUntil(sim.startTime + 1_200_000_000);
      const list = (sim as unknown as { store: CheckpointStore }).store.list;
      assert.ok(list.filter((cp) => cp.pods.keyLog.length > 0).length >= 2, 'pods came or went between checkpoints');
      const last = sim.pass ?? 0;
      sim.goToPass(Math.floor(last / 2));
      sim.runUntil(sim.startTime + 1_200_000_000);
      assert.equal(sim.pass, last);
    });
  }
});
