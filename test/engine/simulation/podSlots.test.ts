/**
 * The host's slot lists (PodSlots): a node's pods listed through them (SimHost.podsIndexedUnder, what
 * MarkPodsNotReady reads) are, at every place a run lands, the pods a fresh listing from the pod
 * index finds: the same keys in key order, the pod map's own records, each handle the pod's slot.
 * The lists are made at the start and kept in step as pods are created, bound, evicted and replaced,
 * dropped by a step back or a redo's hand-off; so the table moves a run through an outage's
 * evictions and back, and a direct table moves keys in and out of sets out of key order.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeZoneOutage } from '../../helpers/generatedOutage';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../src/platform/nodeFs';
import { createSimulation, type SimulationImpl } from '../../../src/engine/simulation/simulation';
import { PodSlots } from '../../../src/engine/simulation/podSlots';
import { indexPodFrom } from '../../../src/engine/simulation/podIndex';
import { nodeKeysInOrder } from '../../../src/engine/model/cluster';
import type { PodHandle } from '../../../src/engine/controllers/controllerHost';
import type { PodRecord } from '../../../src/engine/model/types';
import { node, pod, scenarioOf, type EventSpec } from '../../helpers/scenario';

const dir = mkdtempSync(join(tmpdir(), 'cs-podslots-'));
after(() => rmSync(dir, { recursive: true, force: true }));
// 60 of 120 nodes go Unknown; their pods are evicted later and replaced by the ReplicaSets, bound elsewhere
const OUTAGE = writeZoneOutage(dir, 6, { nodes: 120, seed: 'podslots' });

/** Every node's listing through the slots against a fresh one from the index; the differences, as text. */
function differences(sim: SimulationImpl): string[] {
  const host = sim.host;
  const { pods, podsByNode, nodes } = host.cluster;
  const out: string[] = [];
  for (const node of new Set([...nodes.keys(), ...podsByNode.keys()])) {
    const keys: string[] = [];
    const handles: PodHandle[] = [];
    const listed = host.podsIndexedUnder(node, keys, handles);
    const set = podsByNode.get(node);
    const freshKeys = set ? [...nodeKeysInOrder(set)].filter((k) => pods.has(k)) : [];
    const fresh = freshKeys.map((k) => pods.get(k) as PodRecord);
    if (keys.join() !== freshKeys.join()) out.push(`${node}: keys ${keys.join()} against ${freshKeys.join()}`);
    else if (listed.some((p, i) => p !== fresh[i])) out.push(`${node}: a record is not the pod map's`);
    else if (handles.some((h, i) => h.key !== keys[i])) out.push(`${node}: a handle is not its pod's`);
  }
  return out;
}

type Move = `>${number}` | '+' | '-';

interface Case {
  name: string;
  /** the outage above, or two nodes whose pod p1 is applied again on its node at 30 s (a new record under its key, no set changed) */
  scenario: 'outage' | 'apply';
  moves: Move[];
}

const applied = () =>
  scenarioOf({
    objects: [node('a'), node('b'), pod('default', 'p1', 'a'), pod('default', 'p2', 'a'), pod('default', 'p3', 'b')],
    version: '1.31',
    events: [{ at: '30s', kind: 'apply', object: pod('default', 'p1', 'a', { labels: { again: 'yes' } }) } as EventSpec],
  });

const cases: Case[] = [
  { name: 'a pod applied again on its node, then back before it and on again', scenario: 'apply', moves: ['>3', '>8', '>4', '>8', '>2', '+', '>9'] },
  {
    scenario: 'outage',
    name: 'forward through the outage, its evictions and the replacements bound elsewhere',
    moves: ['>3', '>12', '>40', '>70', '>90', '>120'],
  },
  {
    scenario: 'outage',
    name: 'stepped one by one over the Unknown pass, then back and forward again (a restore, then a redo)',
    moves: ['>10', '+', '+', '+', '-', '-', '+', '+', '+', '>90'],
  },
  { scenario: 'outage', name: 'back over the evictions to before the outage, and on again', moves: ['>100', '>2', '>100', '>70', '+', '-', '>95'] },
];

for (const c of cases) {
  test(`a node's pods listed through the host's slots are a fresh listing's: ${c.name}`, () => {
    const sim = createSimulation(c.scenario === 'outage' ? loadScenario(OUTAGE, nodeFs()) : applied(), { checkpointEvery: 2 }) as SimulationImpl;
    assert.deepEqual(differences(sim), [], 'at the start');
    const start = new Map(sim.host.cluster.pods);
    let moved = 0;
    for (const m of c.moves) {
      if (m === '+') sim.step(true);
      else if (m === '-') sim.goToPass(sim.pass! - 1);
      else sim.goToPass(Number(m.slice(1)));
      const { pods } = sim.host.cluster;
      if (pods.size !== start.size || [...pods].some(([k, p]) => start.get(k) !== p)) moved++;
      assert.deepEqual(differences(sim), [], `after ${m} (pass ${sim.pass})`);
    }
    assert.ok(moved > 0, 'the moves create, delete or replace pods (else the lists are never kept in step)');
  });
}

/** A node's set changed key by key (indexPodFrom, as SimHost.moveIndex), the list kept in step (PodSlots.moved). */
interface MoveCase {
  name: string;
  /** key, from node, to node ('' for none) */
  moves: [string, string, string][];
}

const moveCases: MoveCase[] = [
  {
    name: 'keys added out of key order',
    moves: [
      ['ns/e', '', 'a'],
      ['ns/0', '', 'a'],
      ['ns/bb', '', 'a'],
      ['ns/d', '', 'a'],
    ],
  },
  {
    name: 'a key moved to another node and back',
    moves: [
      ['ns/b', 'a', 'b'],
      ['ns/a', 'a', 'b'],
      ['ns/b', 'b', 'a'],
    ],
  },
  {
    name: 'a node emptied and filled again (a new set)',
    moves: [
      ['ns/p', 'b', ''],
      ['ns/q', 'b', ''],
      ['ns/z', '', 'b'],
      ['ns/a0', '', 'b'],
    ],
  },
];

for (const c of moveCases) {
  test(`a node's slot list follows its set as keys move: ${c.name}`, () => {
    const pods = new Map<string, PodRecord>();
    const byNode = new Map<string, Set<string>>([
      ['a', new Set(['ns/a', 'ns/b', 'ns/c'])],
      ['b', new Set(['ns/p', 'ns/q'])],
    ]);
    const podNode = new Map<string, string>();
    for (const [node, keys] of byNode)
      for (const k of keys) {
        podNode.set(k, node);
        pods.set(k, { meta: { name: k } } as PodRecord);
      }
    const slots = new PodSlots();
    slots.newEpoch();
    for (const [node, keys] of byNode) slots.on(node, keys, pods);
    for (const [key, from, to] of c.moves) {
      if (!pods.has(key)) pods.set(key, { meta: { name: key } } as PodRecord);
      if (indexPodFrom(byNode, podNode, key, from || undefined, to || undefined)) slots.moved(key, from || undefined, to || undefined);
      for (const node of ['a', 'b']) {
        const set = byNode.get(node);
        const listed = set ? slots.on(node, set, pods).map((s) => s.key) : [];
        assert.deepEqual(listed, set ? [...nodeKeysInOrder(set)] : [], `Node ${node} after ${key} ${from || '-'} → ${to || '-'}`);
      }
    }
  });
}
