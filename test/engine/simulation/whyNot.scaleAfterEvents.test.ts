/**
 * A scale-down read ahead through other events of the timeline: rs-scale-down-1.31's six pods (a, b on
 * node-a1, c node-b1, d node-c1, e node-a2, f node-b2) scaled to 4 and then to 2, with a kubelet stop,
 * an apply or a failed sync on the way. An event that reaches none of the pods ranked changes nothing
 * the ranking reads; a kubelet stop of a pod's node makes it not ready from the pass its node goes
 * Unknown (and it is deleted first); an apply is not read (no time, and the answer says why). A surplus
 * whose sync failed is retried after the workqueue's backoff, or synced at once by a scale that comes
 * first, which it reads. Each answer is run forward: the pods go at the time named, the kept ones stay.
 * On main the first two cases had no answer (a first scale after another event) or no time, and the
 * surplus in backoff named no time and ranked for the old spec.replicas.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { whyNotOfControllers } from '../../../src/engine/simulation/explain';
import { nodeFs } from '../../../src/platform/nodeFs';
import { MICROS_PER_MS, seconds } from '../../../src/engine/model/time';
import type { Scenario } from '../../../src/engine/snapshot/types';
import { audit, missText, unsoundText } from '../../helpers/whyNotAudit';
import { pod } from '../../helpers/scenario';

const RS = 'ReplicaSet/default/shop-5c8d';
const START = Date.UTC(2026, 0, 1);
const T = (s: number) => new Date(START + s * 1000).toISOString();
type Event = Scenario['events'][number];

/** rs-scale-down-1.31 with its scale replaced by these events (offset in seconds). */
function withEvents(events: [number, Omit<Event, 'at' | 'index'>][]): Scenario {
  const sc = loadScenario(join('examples', 'rs-scale-down-1.31.yaml'), nodeFs());
  const all: Event[] = sc.events.filter((e) => e.kind !== 'scale');
  for (const [at, e] of events) all.push({ ...e, at: { offset: Math.round(at * 1e6) }, index: all.length } as Event);
  return { ...sc, events: all };
}
const scale = (replicas: number) => ({ kind: 'scale', replicaSet: 'default/shop-5c8d', replicas }) as Omit<Event, 'at' | 'index'>;
const stop = (node: string) => ({ kind: 'kubelet', action: 'stop', target: { nodes: [node] } }) as Omit<Event, 'at' | 'index'>;

/** What a pod's answer says: `at S` (certain, or `if`), `never if TEXT`, or `none` with the rule that blocks. */
type Said = { at: number; if?: string } | { never: string } | { none: RegExp } | 'absent';

interface Case {
  name: string;
  events: [number, Omit<Event, 'at' | 'index'>][];
  asked: [number, Record<string, Said>][];
  /** the run forward: each pod deleted by the scale-down at (s), or undefined when it stays */
  deleted: Record<string, number | undefined>;
  /** a pod read not ready at the scale, and from when (its node's Unknown pass), as the first answer gives it */
  notReadyFrom?: [string, number];
}

const to = (n: number, s: number) => `to ${n} at ${T(s)}`;
const runs = (...at: number[]) => `runs its other events at ${at.map(T).join(' and at ')} and `;
const scales = (before: string, ...parts: string[]) => `the timeline ${before}scales ${RS} ${parts.join(' and ')}`;

const cases: Case[] = [
  {
    name: "a kubelet stop of a node none of its pods run on (node-c2): every pod named, the stop in the answer's condition",
    events: [
      [30, stop('node-c2')],
      [60, scale(4)],
      [120, scale(2)],
    ],
    asked: [
      [
        0,
        {
          a: { at: 60, if: scales(runs(30), to(4, 60)) },
          c: { at: 120, if: scales(runs(30), to(4, 60), to(2, 120)) },
          d: { at: 120, if: scales(runs(30), to(4, 60), to(2, 120)) },
          e: { never: `${scales(runs(30), to(4, 60), to(2, 120))}: it is kept` },
        },
      ],
      [90, { c: { at: 120, if: scales('', to(2, 120)) }, f: { never: `${scales('', to(2, 120))}: it is kept` } }],
    ],
    deleted: { a: 60, b: 60, c: 120, d: 120, e: undefined, f: undefined },
  },
  {
    name: "a kubelet stop of e's node (node-a2): e is not ready at the second scale and goes first, d is kept",
    events: [
      [30, stop('node-a2')],
      [60, scale(4)],
      [180, scale(2)],
    ],
    asked: [
      [
        0,
        {
          a: { at: 60, if: scales(runs(30), to(4, 60)) },
          c: { at: 180, if: scales(runs(30), to(4, 60), to(2, 180)) },
          e: { at: 180, if: scales(runs(30), to(4, 60), to(2, 180)) },
          d: { never: `${scales(runs(30), to(4, 60), to(2, 180))}: it is kept` },
        },
      ],
      [120, { e: { at: 180, if: scales('', to(2, 180)) }, d: { never: `${scales('', to(2, 180))}: it is kept` } }],
    ],
    deleted: { a: 60, b: 60, c: 180, d: undefined, e: 180, f: undefined },
    notReadyFrom: ['e', 65],
  },
  {
    name: "d's node posts Ready=False before its kubelet stops: its pods are never marked not ready (MarkPodsNotReady runs only when Ready leaves True), e's are",
    events: [
      [30, stop('node-a2')],
      [30, { kind: 'condition', target: { nodes: ['node-c1'] }, condition: { type: 'Ready', status: 'False' } } as Omit<Event, 'at' | 'index'>],
      [30, stop('node-c1')],
      [60, scale(4)],
      [180, scale(2)],
    ],
    asked: [
      [
        40,
        {
          a: { at: 60, if: scales('', to(4, 60)) },
          c: { at: 180, if: scales('', to(4, 60), to(2, 180)) },
          e: { at: 180, if: scales('', to(4, 60), to(2, 180)) },
          d: { never: `${scales('', to(4, 60), to(2, 180))}: it is kept` },
        },
      ],
    ],
    deleted: { a: 60, b: 60, c: 180, d: undefined, e: 180, f: undefined },
  },
  {
    name: 'an apply between the two scales: the pods the first keeps get no time, and the answer says why',
    events: [
      [60, scale(4)],
      [90, { kind: 'apply', object: pod('default', 'other', 'node-b2') } as Omit<Event, 'at' | 'index'>],
      [180, scale(2)],
    ],
    asked: [
      [
        30,
        {
          a: { at: 60, if: scales('', to(4, 60)) },
          c: { none: /the timeline's apply event at 2026-01-01T00:01:30.000Z comes first/ },
          e: { none: /the timeline's apply event at/ },
        },
      ],
    ],
    deleted: { a: 60, b: 60, c: 180, d: 180, e: undefined, f: undefined },
  },
  {
    name: 'a delete of a ranked pod at the scale instant, after the scale in the file: the sync ranks without it (main named it and 3 others)',
    events: [
      [60, scale(2)],
      [60, { kind: 'delete', ref: 'Pod/default/shop-5c8d-a' } as Omit<Event, 'at' | 'index'>],
    ],
    asked: [
      [
        30,
        {
          a: 'absent',
          b: { at: 60, if: scales(runs(60), to(2, 60)) },
          d: { at: 60, if: scales(runs(60), to(2, 60)) },
          e: { never: `${scales(runs(60), to(2, 60))}: it is kept` },
        },
      ],
    ],
    deleted: { a: undefined, b: 60, c: 60, d: 60, e: undefined, f: undefined },
  },
  {
    name: 'a surplus whose sync failed (6 deletes fail): the retry after the backoff is certain, the later scale named',
    events: [
      [60, { kind: 'fail', verb: 'delete', resource: 'pods', count: 6 } as Omit<Event, 'at' | 'index'>],
      [60, scale(4)],
      [60.04, scale(2)],
    ],
    asked: [
      [
        60.006,
        { a: { at: 60.025 }, b: { at: 60.025 }, c: { at: 60.04, if: scales('', to(2, 60.04)) }, e: { never: `${scales('', to(2, 60.04))}: it is kept` } },
      ],
    ],
    deleted: { a: 60.025, b: 60.025, c: 60.04, d: 60.04, e: undefined, f: undefined },
  },
  {
    name: 'a surplus whose sync failed, scaled again before the retry: that scale syncs at once and is what the sync reads',
    events: [
      [60, { kind: 'fail', verb: 'delete', resource: 'pods', count: 6 } as Omit<Event, 'at' | 'index'>],
      [60, scale(4)],
      [60.012, scale(2)],
    ],
    asked: [
      [
        60.006,
        {
          a: { at: 60.012, if: scales('', to(2, 60.012)) },
          d: { at: 60.012, if: scales('', to(2, 60.012)) },
          e: { never: `${scales('', to(2, 60.012))}: it is kept` },
        },
      ],
    ],
    deleted: { a: 60.012, b: 60.012, c: 60.012, d: 60.012, e: undefined, f: undefined },
  },
];

const offset = (t: string) => Math.round(Date.parse(t) - START) / 1000;

for (const c of cases) {
  test(`scale-down through other events: ${c.name}`, () => {
    const sc = withEvents(c.events);
    const sim = createSimulation(sc);
    for (const [at, pods] of c.asked) {
      sim.runUntil(sim.startTime + Math.round(at * 1000) * MICROS_PER_MS);
      for (const [p, said] of Object.entries(pods)) {
        const w = whyNotOfControllers(sim, `Pod/default/shop-5c8d-${p}`).find((x) => x.outcome === 'PodDeletedByScaleDown');
        const where = `${p}, asked at +${at}s: ${w ? JSON.stringify({ rule: w.check.rule, at: w.wouldFireAt, c: w.conditional, n: w.neverIf }) : 'no answer'}`;
        if (said === 'absent') {
          assert.equal(w, undefined, where);
          continue;
        }
        assert.ok(w, where);
        if ('none' in said) {
          assert.equal(w.wouldFireAt ?? w.conditional ?? w.never, undefined, where);
          assert.match(w.check.rule, said.none, where);
        } else if ('never' in said) assert.equal(w.neverIf, said.never, where);
        else {
          assert.equal(w.wouldFireAt ?? w.conditional?.at, T(said.at), where);
          assert.equal(w.conditional?.if, said.if, where);
        }
        if (c.notReadyFrom?.[0] === p && at === c.asked[0]![0]) assert.equal(w.check.values?.notReadyFrom, T(c.notReadyFrom[1]), where);
      }
    }
    sim.runUntil(sim.startTime + seconds(300));
    const gone = new Map<string, number>();
    for (const d of sim.trace)
      if (d.controller === 'replicaset' && d.action === 'PodsDeleted')
        for (const p of (d.details as { pods?: string[] }).pods ?? []) gone.set(p, offset(d.time));
    for (const [p, at] of Object.entries(c.deleted)) assert.equal(gone.get(`shop-5c8d-${p}`), at, `${p} in the run forward`);
    // at the pass at +1m the fault still has deletes to fail: the answers there name no time (the retries that use
    // it up are not forecast), which the audit would count as misses; the answers after it are checked above
    if (c.events.some(([, e]) => e.kind === 'fail')) return;
    const a = audit(sc, sim.startTime + seconds(300));
    assert.deepEqual(a.misses.filter((m) => !m.exempt).map(missText), []);
    assert.deepEqual([...a.unsound, ...a.wrong].map(unsoundText), []);
  });
}
