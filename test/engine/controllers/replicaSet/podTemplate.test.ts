/**
 * Pods created from a template share its labels, annotations and spec
 * (podTemplate.ts) instead of parsing copies: that holds only while nothing
 * edits them in place. A zone outage binds, starts, marks not ready, evicts and
 * replaces such pods, steps back and runs on, and exports the state; the
 * templates must come out as they went in.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadScenario } from '../../../../src/engine/snapshot/scenario';
import { nodeFs } from '../../../../src/platform/nodeFs';
import { createSimulation } from '../../../../src/engine/simulation/simulation';
import { defaultHorizon } from '../../../../src/cli/horizon';
import { toPodRecord } from '../../../../src/engine/model/convert';
import { applyDefaultTolerationSeconds } from '../../../../src/engine/model/defaultTolerations';
import type { KObject } from '../../../../src/engine/model/types';
import { checkMadeAsParsed, controllerRefTo, podFromTemplate, podFromTemplateParsed } from '../../../../src/engine/controllers/replicaSet/podTemplate';
import { toReplicaSetRecord } from '../../../../src/engine/model/convert';
import { T0, World, rsObject } from './harness';

test('a zone outage that replaces pods leaves every ReplicaSet template as it was', () => {
  const scenario = loadScenario(join(__dirname, 'examples', 'rs-zone-outage.yaml'), nodeFs());
  const sim = createSimulation(scenario);
  const templates = () => JSON.stringify([...sim.cluster!.replicaSets.values()].map((rs) => rs.template));
  const before = templates();
  const end = defaultHorizon(scenario, sim.startTime);
  sim.runUntil(end);
  assert.ok(
    sim.trace.some((d) => d.action === 'PodsCreated'),
    'pods were created from the templates',
  );
  sim.goToPass(Math.floor((sim.pass ?? 0) / 2));
  sim.runUntil(end);
  sim.state();
  assert.equal(templates(), before);
  // the spec and tolerations every created pod shares are what admitting a copy of its template gives
  let created = 0;
  for (const pod of sim.cluster!.pods.values()) {
    const owner = pod.meta.ownerReferences[0];
    const rs = owner && sim.cluster!.replicaSets.get(`${pod.meta.namespace}/${owner.name}`);
    if (!rs || !pod.raw.metadata || !(pod.raw.metadata as KObject).generateName) continue;
    created++;
    const fresh = toPodRecord({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'x', namespace: 'y' },
      spec: JSON.parse(JSON.stringify(rs.template.spec)),
      status: {},
    })!;
    applyDefaultTolerationSeconds(fresh);
    assert.equal(JSON.stringify(pod.raw.spec), JSON.stringify(fresh.raw.spec));
    assert.equal(JSON.stringify(pod.tolerations), JSON.stringify(fresh.tolerations));
  }
  assert.ok(created > 0);
});

test('the pods one ReplicaSet creates share one ownerReferences list, each pod the one the loader makes of its object', () => {
  const rows: { name: string; replicaSets: KObject[]; then?: (w: World) => void; created: number }[] = [
    { name: 'five pods from none', replicaSets: [rsObject('web', { replicas: 5 })], created: 5 },
    { name: 'two ReplicaSets: one list each', replicaSets: [rsObject('a', { replicas: 3 }), rsObject('b', { replicas: 2 })], created: 5 },
    {
      name: 'a pod deleted and replaced later',
      replicaSets: [rsObject('web', { replicas: 3 })],
      then: (w) => {
        w.host.deletePod([...w.host.cluster.pods.values()][0]!);
        w.advance(1);
      },
      created: 4,
    },
  ];
  for (const row of rows) {
    const w = new World({ minor: 31, replicaSets: row.replicaSets });
    w.settle();
    row.then?.(w);
    const pods = w.host.calls.filter((c) => c.startsWith('createPod '));
    assert.equal(pods.length, row.created, `${row.name}: pods created`);
    const all = [...w.host.cluster.pods.values()];
    const byOwner = new Map<string, typeof all>();
    for (const p of all) {
      const uid = p.meta.ownerReferences[0]!.uid;
      byOwner.set(uid, [...(byOwner.get(uid) ?? []), p]);
    }
    for (const [uid, owned] of byOwner) {
      const rs = [...w.host.cluster.replicaSets.values()].find((r) => r.meta.uid === uid)!;
      assert.equal(new Set(owned.map((p) => p.meta.ownerReferences)).size, 1, `${row.name}: ${rs.meta.name}'s pods share one list`);
      assert.deepEqual(owned[0]!.meta.ownerReferences, [controllerRefTo(rs)], row.name);
      for (const pod of owned) {
        const parsed = podFromTemplateParsed(rs, pod.meta.name, pod.meta.uid, pod.meta.creationTimestamp);
        assert.equal(JSON.stringify(pod), JSON.stringify(parsed), `${row.name}: ${pod.meta.name}`);
      }
    }
  }
});

test('a pod made from a template is the one the loader makes of its object (podFromTemplateParsed), whatever the template', () => {
  const base = rsObject('web');
  const spec = (base.spec as KObject).template as KObject;
  const rows: { name: string; template: KObject; parsedPath?: boolean }[] = [
    { name: 'labels and a container', template: spec },
    { name: 'no metadata', template: { spec: spec.spec } },
    { name: 'annotations and finalizers', template: { metadata: { labels: { app: 'web' }, annotations: { a: 'b' }, finalizers: ['x/y'] }, spec: spec.spec } },
    {
      name: 'tolerations and a nodeName in the spec',
      template: { metadata: spec.metadata, spec: { ...(spec.spec as KObject), nodeName: 'n1', tolerations: [{ key: 'k', operator: 'Exists' }] } },
    },
    {
      name: 'a label that is not a string (the loader leaves it out)',
      template: { metadata: { labels: { app: 'web', n: 1 } }, spec: spec.spec },
      parsedPath: true,
    },
    {
      name: 'an annotation that is not a string',
      template: { metadata: { labels: { app: 'web' }, annotations: { a: true } }, spec: spec.spec },
      parsedPath: true,
    },
    { name: 'no spec', template: { metadata: spec.metadata }, parsedPath: true },
  ];
  for (const row of rows) {
    const rs = toReplicaSetRecord({ ...base, spec: { ...(base.spec as KObject), template: row.template } })!;
    const owners = [controllerRefTo(rs)];
    const made = podFromTemplate(rs, 'web-bcdfg', 'uid-1', T0 + 1_234_567, 'web-', owners);
    const parsed = podFromTemplateParsed(rs, 'web-bcdfg', 'uid-1', T0 + 1_234_567, 'web-', owners);
    assert.doesNotThrow(() => checkMadeAsParsed(made, parsed), row.name);
    assert.equal(JSON.stringify(made), JSON.stringify(parsed), row.name);
    assert.equal(made.meta.creationTimestamp, T0 + 1_234_567, row.name);
  }
  // the check itself: a pod that differs is told
  const rs = toReplicaSetRecord(base)!;
  const parsed = podFromTemplateParsed(rs, 'web-bcdfg', 'uid-1', T0);
  assert.throws(() => checkMadeAsParsed({ ...parsed, phase: 'Running' }, parsed));
});
