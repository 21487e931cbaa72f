/**
 * The round trip through the command line: each bundled example's trace,
 * rendered as a controller-manager log, is imported, its real decisions are
 * written under `reality:` in a copy of the example, and `controller-stepper
 * compare` reports full agreement (exit 0).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { runCli } from '../helpers/cliRun';
import { createSimulation, loadScenario } from '../../src/engine';
import { nodeFs } from '../../src/platform/nodeFs';
import { defaultHorizon } from '../../src/cli/horizon';
import { importEvidence } from '../../src/engine/import/index';
import { formatTime, minutes } from '../../src/engine/model/time';
import { renderEvents, renderKlog } from '../engine/import/evidenceFromTrace';

const root = new URL('../..', import.meta.url).pathname;
const examples = readdirSync(join(root, 'examples'))
  .filter((f) => f.endsWith('.yaml'))
  .sort();
const tmp = mkdtempSync(join(tmpdir(), 'cs-roundtrip-'));

describe('round trip through import and compare', () => {
  for (const file of examples) {
    it(`${file}: compare reports full agreement with the evidence its own simulation left`, async () => {
      const path = join(root, 'examples', file);
      const scenario = loadScenario(path, nodeFs());
      const sim = createSimulation(scenario);
      sim.runUntil(defaultHorizon(scenario, sim.startTime) + minutes(1));
      const imported = importEvidence(
        [
          { name: 'kcm.log', chunks: [renderKlog(sim.trace)] },
          { name: 'events.yaml', chunks: [renderEvents(sim.trace)] },
        ],
        { anchor: sim.startTime, anchorGiven: true },
      );
      const reality = imported.decisions.map((d) => ({
        at: formatTime(d.time),
        action: d.action,
        object: d.object,
        ...(d.detail ? { detail: d.detail } : {}),
        evidence: `${d.evidence.file}:${d.evidence.line}`,
      }));
      const text = readFileSync(path, 'utf8')
        .replace(/^snapshot: \.\/(.*)$/m, (_, rel: string) => `snapshot: ${JSON.stringify(join(root, 'examples', rel))}`)
        .replace(/^expect:[\s\S]*$/m, '');
      const copy = join(tmp, file);
      writeFileSync(copy, `${text}\n${stringify({ reality })}`);
      const r = await runCli('compare', copy);
      assert.equal(r.code, 0, r.out + r.err);
      assert.match(r.out, /AGREE: [1-9]\d* matched, 0 only real, 0 only simulated/);
    });
  }
});
