/**
 * A real export whose nodes have no zone labels (a kind cluster's, sonobuoy's
 * core_v1_nodes.json): kube-controller-manager keys them all in the zone ""
 * (GetZoneKey), which the trace names `Zone/`. The panel showed "Zone/ Normal"
 * and a node heading "Zone/ (3)", read as a name cut short. The zone's card
 * and the node list's heading say what it is; its ref (data-ref, the trace's
 * name) is unchanged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realPanelsOnServedPage } from './harness/realPanel';

const openPanel = realPanelsOnServedPage();

const node = (name: string, labels: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name, ...labels } },
  status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2026-01-01T00:00:00Z' }] },
});

function scenario(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cs-unlabelled-'));
  const file = join(dir, 'unlabelled.yaml');
  const objects = [
    node('kind-worker', {}),
    node('kind-worker2', {}),
    node('eu-1', { 'topology.kubernetes.io/region': 'eu-west-1' }),
    node('us-1', { 'topology.kubernetes.io/region': 'us-east-1', 'topology.kubernetes.io/zone': 'us-east-1a' }),
  ];
  writeFileSync(
    file,
    `apiVersion: controllerstepper.io/v1alpha1\nkind: Scenario\nmetadata: {name: unlabelled}\nkubernetesVersion: "1.31"\nstartTime: "2026-01-01T00:00:00Z"\nobjects: ${JSON.stringify(objects)}\n`,
  );
  return file;
}

test('nodes without zone labels: the zone card and the node heading say so, the trace name kept as the ref', async () => {
  const a = await openPanel(scenario());
  await a.page.locator('vscode-button[data-action="step"]').click();
  await a.page.locator('#pass', { hasText: '0' }).waitFor();
  await a.settled();
  const cards = await a.page
    .locator('#zones .zone-card')
    .evaluateAll((cs) => cs.map((c) => ({ ref: c.getAttribute('data-ref'), name: c.querySelector('.zone-name')?.textContent })));
  assert.deepEqual(cards, [
    { ref: 'Zone/', name: 'Zone/ (no zone labels)' },
    { ref: 'Zone/eu-west-1/', name: 'Zone/eu-west-1/ (no zone label)' },
    { ref: 'Zone/us-east-1/us-east-1a', name: 'Zone/us-east-1/us-east-1a' },
  ]);
  const headings = await a.page.locator('#nodes .zone-row').allInnerTexts();
  assert.deepEqual(headings, ['Zone/ (no zone labels) (2)', 'Zone/eu-west-1/ (no zone label) (1)', 'Zone/us-east-1/us-east-1a (1)']);
  assert.deepEqual(a.errors, []);
  await a.close();
});
