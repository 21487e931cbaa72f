/**
 * A pod whose deletion by the taint eviction controller waits for a user's NoExecute taint (tolerated
 * for tolerationSeconds) that the timeline removes before the deadline: the removal cancels it
 * (PodEvictionCancelled), so the why-not says "never, if the timeline removes the taint KEY at R",
 * not a time the run forward contradicts; a taint written again after its removal gives no time.
 * Each case is run forward, and the whole run audited (helpers/whyNotAudit.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { whyNotOfControllers } from '../../../src/engine/simulation/explain';
import { nodeFs } from '../../../src/platform/nodeFs';
import { seconds } from '../../../src/engine/model/time';
import { audit, missText, unsoundText } from '../../helpers/whyNotAudit';

const pod = (key: string): string =>
  JSON.stringify({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'tol', namespace: 'default', uid: 'u-tol', creationTimestamp: '2025-12-31T22:00:00Z' },
    spec: {
      nodeName: 'node-c1',
      // no key: every NoExecute taint tolerated (a toleration's key must be a valid label key, a taint's need not)
      tolerations: [{ ...(key ? { key } : {}), operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 60 }],
      containers: [{ name: 'c', image: 'i' }],
    },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2025-12-31T23:00:00Z' }] },
  });

function scenario(
  dir: string,
  name: string,
  events: string[],
  taint = '{key: example.com/maint, effect: NoExecute}',
  tolerates = 'example.com/maint',
  taintAt = '30s',
): string {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    [
      'apiVersion: controllerstepper.io/v1alpha1',
      'kind: Scenario',
      `metadata: {name: ${name}}`,
      'kubernetesVersion: "1.31"',
      'startTime: "2026-01-01T00:00:00Z"',
      'snapshot: ./clusters/three-zones.yaml',
      'events:',
      `  - {at: 0s, apply: ${pod(tolerates)}}`,
      `  - {at: ${taintAt}, taint: ${taint}, node: node-c1}`,
      ...events.map((e) => `  - ${e}`),
      '',
    ].join('\n'),
  );
  return file;
}

const untaint = (at: string) => `{at: ${at}, untaint: {key: example.com/maint, effect: NoExecute}, node: node-c1}`;
const retaint = (at: string) => `{at: ${at}, taint: {key: example.com/maint, effect: NoExecute}, node: node-c1}`;
const T = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000).toISOString();

interface Case {
  name: string;
  events: string[];
  /** asked at these offsets (s): before the taint (its time read under the timeline's taint) and after it (scheduled) */
  asked: number[];
  said: 'never' | 'at' | 'none';
  neverIf?: (asked: number) => string;
  /** the pod's deletion in the run forward, or undefined when it stays */
  deletedAt?: number;
  /** the taint the timeline adds at 30s (example.com/maint:NoExecute when not given) */
  taint?: string;
  /** the key the pod tolerates for 60s (example.com/maint when not given; '' for every key) */
  tolerates?: string;
}

/** The never-if of a taint (`text`) the timeline adds at 30s and removes at 80s, asked before or after the taint. */
const removedAt80 =
  (text: string) =>
  (asked: number): string =>
    asked < 30
      ? `the timeline taints Node/node-c1 with ${text} at ${T(30)} and removes the taint example.com/maint at ${T(80)}`
      : `the timeline removes the taint example.com/maint at ${T(80)}`;

const cases: Case[] = [
  {
    name: 'removed before the deadline: never',
    events: [untaint('80s')],
    asked: [20, 40],
    said: 'never',
    neverIf: removedAt80('example.com/maint:NoExecute'),
  },
  { name: 'removed at the very deadline: the event comes before the timer, never', events: [untaint('90s')], asked: [20, 40], said: 'never' },
  { name: 'removed after the deadline: the deadline stands', events: [untaint('100s')], asked: [40], said: 'at', deletedAt: 90 },
  {
    // the taint's text names its value (example.com/maint=yes:NoExecute); the removal names the key alone
    name: 'a taint with a value, removed before the deadline: never',
    taint: '{key: example.com/maint, value: "yes", effect: NoExecute}',
    events: [untaint('80s')],
    asked: [20, 40],
    said: 'never',
    neverIf: removedAt80('example.com/maint=yes:NoExecute'),
  },
  {
    // a key and value the conditional's text cannot be split back into (an '=' in the key, ':' and a space in the value): read from data
    name: "a key with '=' and a value with ':' and a space, removed before the deadline: never",
    taint: '{key: "maint.example.com/a=b", value: "x:y z", effect: NoExecute}',
    events: ['{at: 80s, untaint: {key: "maint.example.com/a=b", effect: NoExecute}, node: node-c1}'],
    asked: [20, 40],
    said: 'never',
    neverIf: (asked) =>
      asked < 30
        ? `the timeline taints Node/node-c1 with maint.example.com/a=b=x:y z:NoExecute at ${T(30)} and removes the taint maint.example.com/a=b at ${T(80)}`
        : `the timeline removes the taint maint.example.com/a=b at ${T(80)}`,
    tolerates: '',
  },
  { name: 'removed and written again: no time', events: [untaint('80s'), retaint('85s')], asked: [20, 40], said: 'none', deletedAt: 145 },
];

for (const c of cases) {
  test(`untaint read ahead: ${c.name}`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'cs-untaint-'));
    try {
      mkdirSync(join(dir, 'clusters'));
      copyFileSync('examples/clusters/three-zones.yaml', join(dir, 'clusters', 'three-zones.yaml'));
      const sc = loadScenario(scenario(dir, 'untaint', c.events, c.taint, c.tolerates), nodeFs());
      const sim = createSimulation(sc);
      for (const at of c.asked) {
        sim.runUntil(sim.startTime + seconds(at));
        const w = whyNotOfControllers(sim, 'Pod/default/tol').find((x) => x.outcome === 'PodDeletedByTaintEviction');
        assert.ok(w, `asked at ${at}s`);
        if (c.said === 'never') {
          assert.equal(w.never, true, `asked at ${at}s: never`);
          assert.equal(w.wouldFireAt ?? w.conditional, undefined);
          if (c.neverIf) assert.equal(w.neverIf, c.neverIf(at));
        } else if (c.said === 'at') assert.equal(w.wouldFireAt, T(c.deletedAt!), `asked at ${at}s`);
        else assert.equal(w.wouldFireAt ?? w.conditional ?? w.never, undefined, `asked at ${at}s: no time`);
      }
      sim.runUntil(sim.startTime + seconds(300));
      const evicted = sim.trace.find((d) => d.controller === 'taint-eviction' && d.action === 'PodEvicted' && d.object === 'Pod/default/tol');
      assert.equal(evicted?.time, c.deletedAt === undefined ? undefined : T(c.deletedAt), 'the run forward');
      const a = audit(sc, sim.startTime + seconds(300));
      assert.deepEqual(a.misses.filter((m) => !m.exempt).map(missText), []);
      assert.deepEqual(a.unsound.map(unsoundText), []);
      if (c.said === 'never') assert.ok(a.untaintChecked > 0, 'the never-ifs were checked against the run');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('untaint after a timeline taint at a sub-millisecond instant: the answer finds its own taint (main lost it: no time)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-untaint-us-'));
  try {
    mkdirSync(join(dir, 'clusters'));
    copyFileSync('examples/clusters/three-zones.yaml', join(dir, 'clusters', 'three-zones.yaml'));
    const sc = loadScenario(scenario(dir, 'sub-ms', [untaint('80s')], undefined, undefined, '30.0005s'), nodeFs());
    const sim = createSimulation(sc);
    sim.runUntil(sim.startTime + seconds(20));
    const w = whyNotOfControllers(sim, 'Pod/default/tol').find((x) => x.outcome === 'PodDeletedByTaintEviction');
    assert.ok(w?.never, JSON.stringify(w?.path?.at(-1)));
    assert.equal(
      w.neverIf,
      `the timeline taints Node/node-c1 with example.com/maint:NoExecute at ${T(30)} and removes the taint example.com/maint at ${T(80)}`,
    );
    sim.runUntil(sim.startTime + seconds(400));
    assert.equal(
      sim.trace.find((d) => d.action === 'PodEvicted' && d.object === 'Pod/default/tol'),
      undefined,
      'the run forward',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
