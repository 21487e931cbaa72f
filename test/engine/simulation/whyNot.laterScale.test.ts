/**
 * A scale-down read ahead against every later scale of the same ReplicaSet: rs-scale-down-1.31's six
 * pods (a and b doubled up on node-a1, then ranked by how long they have been ready) scaled to 4 at
 * +1m and again later. A pod the first scale keeps can go at the second, so the answer folds every
 * later scale into its condition ("if the timeline scales X to 4 at S and to 2 at S2: at S2"), or
 * names no time when the later scale ranks pods it cannot know yet (made by a scale up between), but
 * under 1.12's ranking, where those pods go before every pod there now that is Running and Ready.
 * Each case is asked before the scales and between them, then run forward, and the run audited.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { whyNotOfControllers } from '../../../src/engine/simulation/explain';
import { nodeFs } from '../../../src/platform/nodeFs';
import { seconds } from '../../../src/engine/model/time';
import type { Scenario } from '../../../src/engine/snapshot/types';
import { audit, missText, unsoundText } from '../../helpers/whyNotAudit';

const RS = 'ReplicaSet/default/shop-5c8d';
const T = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString();

/** rs-scale-down-1.31 (or `file`) with its scale replaced by these (offset s, replicas). */
function withScales(scales: [number, number][], file = 'rs-scale-down-1.31.yaml'): Scenario {
  const sc = loadScenario(join('examples', file), nodeFs());
  const events: Scenario['events'][number][] = sc.events.filter((e) => e.kind !== 'scale');
  for (const [at, replicas] of scales)
    events.push({ at: { offset: seconds(at) }, index: events.length, kind: 'scale', replicaSet: 'default/shop-5c8d', replicas } as Scenario['events'][number]);
  return { ...sc, events };
}

/** What a pod's answer says: `at S if TEXT`, `never if TEXT`, or `none` (no time). */
type Said = { at: number; if: string } | { never: string } | 'none';

interface Case {
  name: string;
  /** the example, rs-scale-down-1.31.yaml unless said */
  file?: string;
  scales: [number, number][];
  /** asked at this offset (s): each pod's answer */
  asked: [number, Record<string, Said>][];
  /** the run forward: each pod deleted at (s), or undefined when it stays */
  deleted: Record<string, number | undefined>;
}

const to = (n: number, s: number) => `to ${n} at ${T(s)}`;
const scales = (...parts: string[]) => `the timeline scales ${RS} ${parts.join(' and ')}`;

const cases: Case[] = [
  {
    name: 'down, then further down: the second scale deletes the pods the first keeps',
    scales: [
      [60, 4],
      [120, 2],
    ],
    asked: [
      [
        30,
        {
          a: { at: 60, if: scales(to(4, 60)) },
          b: { at: 60, if: scales(to(4, 60)) },
          c: { at: 120, if: scales(to(4, 60), to(2, 120)) },
          d: { at: 120, if: scales(to(4, 60), to(2, 120)) },
          e: { never: `${scales(to(4, 60), to(2, 120))}: it is kept` },
          f: { never: `${scales(to(4, 60), to(2, 120))}: it is kept` },
        },
      ],
      [
        90,
        {
          c: { at: 120, if: scales(to(2, 120)) },
          d: { at: 120, if: scales(to(2, 120)) },
          e: { never: `${scales(to(2, 120))}: it is kept` },
        },
      ],
    ],
    deleted: { a: 60, b: 60, c: 120, d: 120, e: undefined, f: undefined },
  },
  {
    name: 'down, up, then down before the new pods can be ranked: no time for the pods the first keeps',
    scales: [
      [60, 4],
      [90, 6],
      [120, 3],
    ],
    asked: [[30, { a: { at: 60, if: scales(to(4, 60)) }, b: { at: 60, if: scales(to(4, 60)) }, c: 'none', d: 'none', e: 'none', f: 'none' }]],
    // the pods made at +1m30s have been ready for the shortest time: they go, and then c
    deleted: { a: 60, b: 60, c: 120, d: undefined, e: undefined, f: undefined },
  },
  {
    // 1.12's ActivePods: the pods made at +1m30s (ready for a shorter time than any pod of now, all Running and Ready
    // since before) go first, and a after them; main named no time for a, b, e and f (whynot6)
    name: 'down, up, then down under 1.12: the pods made go first, then the first pod of now, the rest are kept',
    file: 'rs-scale-down-1.12.yaml',
    scales: [
      [60, 4],
      [90, 6],
      [120, 3],
    ],
    asked: [
      [
        30,
        {
          a: { at: 120, if: scales(to(4, 60), to(6, 90), to(3, 120)) },
          b: { never: `${scales(to(4, 60), to(6, 90), to(3, 120))}: it is kept` },
          c: { at: 60, if: scales(to(4, 60)) },
          d: { at: 60, if: scales(to(4, 60)) },
          e: { never: `${scales(to(4, 60), to(6, 90), to(3, 120))}: it is kept` },
          f: { never: `${scales(to(4, 60), to(6, 90), to(3, 120))}: it is kept` },
        },
      ],
    ],
    deleted: { a: 120, b: undefined, c: 60, d: 60, e: undefined, f: undefined },
  },
  {
    name: 'down, then up after: the pods the first keeps stay',
    scales: [
      [60, 4],
      [120, 6],
    ],
    asked: [
      [
        30,
        {
          a: { at: 60, if: scales(to(4, 60)) },
          c: { never: `${scales(to(4, 60), to(6, 120))}: it is kept` },
          f: { never: `${scales(to(4, 60), to(6, 120))}: it is kept` },
        },
      ],
    ],
    deleted: { a: 60, b: 60, c: undefined, d: undefined, e: undefined, f: undefined },
  },
];

for (const c of cases) {
  test(`a later scale of the same ReplicaSet: ${c.name}`, () => {
    const sc = withScales(c.scales, c.file);
    const sim = createSimulation(sc);
    for (const [at, pods] of c.asked) {
      sim.runUntil(sim.startTime + seconds(at));
      for (const [pod, said] of Object.entries(pods)) {
        const w = whyNotOfControllers(sim, `Pod/default/shop-5c8d-${pod}`).find((x) => x.outcome === 'PodDeletedByScaleDown');
        const got: Said = w?.conditional
          ? { at: (Date.parse(w.conditional.at) - Date.UTC(2026, 0, 1)) / 1000, if: w.conditional.if }
          : w?.never && w.neverIf
            ? { never: w.neverIf }
            : w?.wouldFireAt || w?.never
              ? ({ at: -1, if: String(w.wouldFireAt ?? 'never') } as Said)
              : 'none';
        assert.deepEqual(got, said, `${pod}, asked at +${at}s`);
      }
    }
    sim.runUntil(sim.startTime + seconds(300));
    const gone = new Map<string, number>();
    for (const d of sim.trace)
      if (d.controller === 'replicaset' && d.action === 'PodsDeleted')
        for (const p of (d.details as { pods?: string[] }).pods ?? []) gone.set(p, (Date.parse(d.time) - Date.UTC(2026, 0, 1)) / 1000);
    for (const [pod, at] of Object.entries(c.deleted)) assert.equal(gone.get(`shop-5c8d-${pod}`), at, `${pod} in the run forward`);
    const a = audit(sc, sim.startTime + seconds(300));
    assert.deepEqual(a.misses.filter((m) => !m.exempt).map(missText), []);
    assert.deepEqual(a.unsound.map(unsoundText), []);
  });
}
