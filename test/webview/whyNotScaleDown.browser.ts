/**
 * The panel's answer for a scale-down the timeline holds (rs-scale-down-1.31: 6 pods scaled to 2 at
 * +1m), as a user reads it on a pod before the scale, checked against the simulation run forward: the
 * pod the answer says goes is deleted at the time named, the one it says is kept is still there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { realPanelsOnServedPage } from './harness/realPanel';
import { openScenario } from '../../src/extension/openScenario';

const file = join(resolve(__dirname, '../..'), 'examples', 'rs-scale-down-1.31.yaml');
const openPanel = realPanelsOnServedPage();
const GOES = 'Pod/default/shop-5c8d-a';
const KEPT = 'Pod/default/shop-5c8d-e';

test('a pod of a ReplicaSet the timeline scales down reads when it goes, or which rule keeps it, and run forward it comes true', async () => {
  const sim = openScenario(file, '').make({});
  sim.runUntil(sim.startTime + 10 * 60 * 1e6);
  const deleted = sim.trace.find((d) => d.action === 'PodsDeleted');
  assert.equal(deleted?.time, '2026-01-01T00:01:00.000Z');
  assert.ok((deleted?.details as { pods: string[] }).pods.includes('shop-5c8d-a'));
  const gone = sim.trace.filter((d) => d.action === 'PodsDeleted' || d.action === 'PodEvicted');
  assert.ok(!gone.some((d) => d.object === KEPT || (d.details as { pods?: string[] } | undefined)?.pods?.includes('shop-5c8d-e')), 'the kept pod stays');

  const a = await openPanel(file);
  const when = a.page.locator('#why-not > li[data-status="PodDeletedByScaleDown"] > .why-not-when');
  const read = async (node: string, pod: string): Promise<string> => {
    await a.page.locator(`#nodes .node[data-ref="Node/${node}"]`).click();
    await a.page.locator(`#pods .pod[data-ref="${pod}"]`).click();
    await a.page.locator('#why-object', { hasText: pod }).waitFor();
    return when.innerText();
  };
  await a.page.locator('vscode-button[data-action="step"]').click();
  await a.at('00:00:00');
  assert.equal(await read('node-a1', GOES), 'if the timeline scales ReplicaSet/default/shop-5c8d to 2 at +1m00s: at +1m00s');
  assert.equal(await when.getAttribute('data-state'), 'conditional');
  assert.equal(await read('node-a2', KEPT), 'never, if the timeline scales ReplicaSet/default/shop-5c8d to 2 at +1m00s: it is kept');
  assert.equal(await when.getAttribute('data-state'), 'never');
  // the rule that keeps it, and the pod deleted instead, are in the answer's check
  const rule = await a.page.locator('#why-not > li[data-status="PodDeletedByScaleDown"]').innerText();
  assert.match(rule, /kept: shop-5c8d-d \(the last pod deleted\) ranks before it/);
  assert.deepEqual(a.errors, []);
  await a.close();
});
