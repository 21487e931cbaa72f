/**
 * A why-not's list cut at 20 names ("and 10 more") is whole on demand in the panel: a ReplicaSet of 34
 * pods the timeline scales to 4 reads a collapsed "All 30 deleting" that opens on every pod the
 * scale deletes, in the order the run deletes them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realPanelsOnServedPage } from './harness/realPanel';
import { openScenario } from '../../src/extension/openScenario';
import { node, pod, replicaSet } from '../helpers/scenario';

const openPanel = realPanelsOnServedPage();
const owner = { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'web', uid: 'uid-rs-default-web', controller: true };
const names = Array.from({ length: 34 }, (_, i) => `p${String(i).padStart(2, '0')}`);

test('a why-not list of 30 pods deleted shows 20 and opens on all 30, the ones the run deletes', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-lists-panel-'));
  try {
    const items = [
      ...['n1', 'n2', 'n3', 'n4'].map((n) => node(n)),
      replicaSet('default', 'web', 34, { app: 'web' }),
      ...names.map((n, i) => pod('default', n, `n${(i % 4) + 1}`, { labels: { app: 'web' }, owner })),
    ];
    writeFileSync(join(dir, 'cluster.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));
    const file = join(dir, 'scenario.yaml');
    writeFileSync(
      file,
      [
        'apiVersion: controllerstepper.io/v1alpha1',
        'kind: Scenario',
        'metadata: {name: lists}',
        'kubernetesVersion: "1.31"',
        'startTime: "2026-01-01T00:00:00Z"',
        'snapshot: ./cluster.json',
        'events:',
        '  - at: 30s',
        '    scale: {replicaSet: default/web, replicas: 4}',
        '',
      ].join('\n'),
    );
    const sim = openScenario(file, '').make({});
    sim.runUntil(sim.startTime + 60e6);
    const gone = sim.trace.filter((d) => d.action === 'PodsDeleted').flatMap((d) => (d.details as { pods: string[] }).pods);
    assert.equal(gone.length, 30);

    const a = await openPanel(file);
    await a.page.locator('vscode-button[data-action="step"]').click();
    await a.at('00:00:00');
    await a.page.locator('#replicasets .rs[data-ref="ReplicaSet/default/web"]').click();
    const item = a.page.locator('#why-not > li[data-status="ReplicaSetPodsDeleted"]');
    await item.waitFor();
    const list = item.locator(':scope > details.why-not-list', { hasText: 'All 30 deleting' });
    assert.equal(await list.locator('summary').innerText(), 'All 30 deleting');
    assert.equal(await list.evaluate((d) => (d as HTMLDetailsElement).open), false, 'collapsed until asked');
    await list.locator('summary').click();
    const shown = await list.locator('ol.whole-list > li').allInnerTexts();
    assert.deepEqual(shown, gone, 'every pod the run deletes, in its order');
    assert.deepEqual(a.errors, []);
    await a.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
