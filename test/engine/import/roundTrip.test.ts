/**
 * Round trip: simulate every bundled example, render its trace as the
 * evidence a cluster leaves (controller-manager log, kubectl events, audit
 * log), import that evidence, and compare it with a fresh simulation of the
 * same scenario: everything matches. This checks the importers and compare
 * against each other; the importers' own tests use real samples.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createSimulation, loadScenario } from '../../../src/engine';
import { nodeFs } from '../../../src/platform/nodeFs';
import { defaultHorizon } from '../../../src/cli/horizon';
import { importEvidence } from '../../../src/engine/import/index';
import { compareDecisions } from '../../../src/engine/import/compare';
import type { RealityEntry } from '../../../src/engine/import/reality';
import type { RealDecision } from '../../../src/engine/import/types';
import { minutes, seconds } from '../../../src/engine/model/time';
import { renderAudit, renderEvents, renderKlog } from './evidenceFromTrace';

const root = new URL('../../..', import.meta.url).pathname;
const dir = join(root, 'examples');
const examples = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .sort();

const toEntries = (ds: RealDecision[]): RealityEntry[] =>
  ds.map((d, index) => ({
    at: d.time,
    action: d.action,
    object: d.object,
    detail: d.detail,
    controller: d.controller,
    evidence: `${d.evidence.file}:${d.evidence.line}`,
    index,
  }));

function roundTrip(file: string, sources: ('log' | 'events' | 'audit')[]) {
  const scenario = loadScenario(join(dir, file), nodeFs());
  const first = createSimulation(scenario);
  first.runUntil(defaultHorizon(scenario, first.startTime) + minutes(1));
  const inputs = [];
  if (sources.includes('log')) inputs.push({ name: 'kube-controller-manager.log', chunks: [renderKlog(first.trace)] });
  if (sources.includes('events')) inputs.push({ name: 'events.yaml', chunks: [renderEvents(first.trace)] });
  if (sources.includes('audit')) inputs.push({ name: 'audit.log', chunks: [renderAudit(first.trace, scenario)] });
  const imported = importEvidence(inputs, { anchor: first.startTime, anchorGiven: true });
  const again = createSimulation(loadScenario(join(dir, file), nodeFs()));
  const reality = toEntries(imported.decisions);
  const tolerance = seconds(5);
  again.runUntil(Math.max(...reality.map((r) => r.at)) + tolerance);
  const report = compareDecisions(
    again.trace,
    reality,
    tolerance,
    { version: again.behaviour.version.text, hasObject: () => true, versionHas: () => true },
    again.startTime,
  );
  return { imported, report };
}

describe('round trip: simulate, render as evidence, import, compare', () => {
  it('there are examples to round-trip', () => assert.ok(examples.length >= 10));
  for (const file of examples) {
    it(`${file}: the log, the events and the audit log together agree with the simulation`, () => {
      const { imported, report } = roundTrip(file, ['log', 'events', 'audit']);
      // the rendered audit log has no kubelet heartbeats, and says so
      assert.deepEqual(
        imported.problems.filter((p) => p.severity !== 'info' && p.code !== 'no-heartbeats'),
        [],
      );
      assert.ok(report.matched.length > 0, 'something was compared');
      assert.deepEqual(
        report.onlyReal.map((o) => `${o.real.action} ${o.real.object} ${o.reasons}`),
        [],
      );
      assert.deepEqual(
        report.onlySimulated.map((o) => `${o.sim.action} ${o.sim.object} ${o.reasons}`),
        [],
      );
      assert.equal(report.agree, true);
    });
  }
  for (const source of ['log', 'events', 'audit'] as const) {
    it(`rs-zone-outage.yaml: the ${source} alone agrees with the simulation`, () => {
      const { report } = roundTrip('rs-zone-outage.yaml', [source]);
      assert.ok(report.matched.length > 0);
      assert.equal(
        report.agree,
        true,
        JSON.stringify({
          real: report.onlyReal.map((o) => `${o.real.action} ${o.real.object}`),
          sim: report.onlySimulated.map((o) => `${o.sim.action} ${o.sim.object}`),
        }),
      );
    });
  }
});
