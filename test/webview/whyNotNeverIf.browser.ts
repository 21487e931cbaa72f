/**
 * The panel's "never, if …" (a kubelet the timeline stops and starts again before the outcome's
 * time), as a user reads it on a pod, checked against the simulation run forward: the pod the
 * answer says is never deleted is still there at the end of the horizon, and its deletion was
 * scheduled and cancelled on the way (so the answer is not "never" for a reason of its own).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { realPanelsOnServedPage } from './harness/realPanel';
import { openScenario } from '../../src/extension/openScenario';

const examples = join(resolve(__dirname, '../..'), 'examples');
const openPanel = realPanelsOnServedPage();
const POD = 'Pod/default/web-7d9f-6wlhb';

/** one-node-stops with node-a1's kubelet started again at 2m: its pods' 300 s tolerations never run out. */
function scenarioFile(dir: string): string {
  copyFileSync(join(examples, 'clusters', 'three-zones.yaml'), join(dir, 'three-zones.yaml'));
  let text = readFileSync(join(examples, 'one-node-stops.yaml'), 'utf8');
  text = text.slice(0, text.indexOf('\nexpect:') + 1).replace('./clusters/three-zones.yaml', './three-zones.yaml');
  text = text.replace('    nodes: [node-a1]\n', '    nodes: [node-a1]\n  - at: 2m\n    kubelet: start\n    nodes: [node-a1]\n');
  const file = join(dir, 'restart.yaml');
  writeFileSync(file, text);
  return file;
}

test('a pod whose node the timeline stops and starts again before its toleration runs out reads "never, if …" in the panel, and run forward it stays', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-neverif-'));
  try {
    const file = scenarioFile(dir);
    const sim = openScenario(file, '').make({});
    sim.runUntil(sim.startTime + 30 * 60 * 1e6);
    const mine = sim.trace.filter((d) => d.object === POD).map((d) => d.action);
    assert.deepEqual(mine, ['PodEvictionScheduled', 'PodEvictionCancelled'], 'run forward: scheduled at the taint, cancelled at the start, never deleted');

    const a = await openPanel(file);
    const when = a.page.locator('#why-not > li[data-status="PodDeletedByTaintEviction"] > .why-not-when');
    const read = async (): Promise<string> => {
      await a.page.locator('#nodes .node[data-ref="Node/node-a1"]').click();
      await a.page.locator(`#pods .pod[data-ref="${POD}"]`).click();
      await a.page.locator('#why-object', { hasText: POD }).waitFor();
      return when.innerText();
    };
    // before the stop: both events are the condition; after the taint, the start alone
    await a.page.locator('vscode-button[data-action="step"]').click();
    await a.at('00:00:00');
    assert.equal(await read(), 'never, if the timeline stops the kubelet at +30s and starts it again at +2m00s');
    assert.equal(await when.getAttribute('data-state'), 'never');
    await a.runUntil('1m30s');
    await a.at('00:01:30');
    assert.equal(await read(), 'never, if the timeline starts the kubelet again at +2m00s');
    // the offsets carry their clock time on hover, as every time in the panel
    assert.deepEqual(await when.locator('.time').evaluateAll((xs) => xs.map((x) => x.getAttribute('title'))), ['2026-01-01T00:02:00.000Z']);
    assert.deepEqual(a.errors, []);
    await a.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
