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
