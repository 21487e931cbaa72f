/**
 * The machine drawn is the machine that decided: the node lifecycle's stateless machines
 * (noScheduleTaints, nodeLabels, markPodsNotReady, deletePods) are drawn from their own xstate
 * definitions, as the node health machine is, reached from a decision they made and from the object
 * they answered about. The built webview in chromium with the real host (the Session over the engine).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { realPanelsOnServedPage, type RealPanel } from './harness/realPanel';
import { machineGraph } from '../../src/extension/machineGraph';
import { markPodsNotReadyMachine, deletePodsPodMachine } from '../../src/engine/controllers/nodeLifecycle/controllerUtilsMachines';
import { noScheduleTaintsMachine } from '../../src/engine/controllers/nodeLifecycle/doNodeProcessingPassMachines';
import { podEvictionMachineDefinition } from '../../src/engine/controllers/taintEviction/machine';

const root = resolve(__dirname, '../..');
const example = (name: string) => join(root, 'examples', name);
const openPanel = realPanelsOnServedPage();

const open = (file: string) => openPanel(example(file));

/** The transitions drawn, by their labels, against the machine's own definition. */
async function drawnLabels(p: RealPanel): Promise<string[]> {
  return (await p.page.locator('#machine-body svg.statechart .transition').evaluateAll((es) => es.map((e) => e.getAttribute('aria-label') ?? ''))).sort();
}
const definedLabels = (definition: unknown): string[] =>
  machineGraph(definition)
    .transitions.map((t) => `${t.guard ? `${t.event} [${t.guard}]` : t.event}: ${t.source || 'machine'} → ${t.target || 'itself'}`)
    .sort();

test('a stateless machine is drawn from its own definition: from the decision it made, and from the node among its machines', async () => {
  const a = await open('one-node-stops.yaml');
  await a.runUntil('1m5s');
  await a.at('00:01:05');
  // the decision MarkPodsNotReady made: its machine is the one drawn
  await a.page.locator('#decisions li.decision', { hasText: 'PodsMarkedNotReady' }).click();
  await a.page.locator('#why-decision', { hasText: 'PodsMarkedNotReady' }).waitFor();
  await a.page.locator('#tab-machine').click();
  await a.page.locator('#machine-current', { hasText: 'markPodsNotReady/node-a1' }).waitFor();
  assert.equal(await a.text('#machine-current .state'), 'marked');
  assert.deepEqual(await drawnLabels(a), definedLabels(markPodsNotReadyMachine.definition));
  assert.match(await a.text('#machine-last'), /observed → marked on MARK_PODS_NOT_READY/);
  const current = await a.page.locator('svg .state-box.current').evaluateAll((es) => es.map((e) => e.getAttribute('data-state')));
  assert.deepEqual(current, ['marked']);
  // the node's other machines are offered beside it
  const tabs = await a.page.locator('#machine-choices .machine-choice').evaluateAll((es) => es.map((e) => e.getAttribute('data-ref')));
  assert.deepEqual(tabs, ['markPodsNotReady/node-a1', 'node/node-a1', 'noScheduleTaints/node-a1']);

  // from the object: the node health machine first, the stateless machines that answered about it beside it
  await a.page.locator('#tab-why').click();
  await a.page.locator('#nodes .node[data-ref="Node/node-a1"]').click();
  await a.page.locator('#why-object', { hasText: 'Node/node-a1' }).waitFor();
  await a.page.locator('#tab-machine').click();
  await a.page.locator('#machine-current', { hasText: 'node/node-a1' }).waitFor();
  await a.page.locator('#machine-choices .machine-choice[data-ref="noScheduleTaints/node-a1"]').click();
  await a.page.locator('#machine-current', { hasText: 'noScheduleTaints/node-a1' }).waitFor();
  assert.equal(await a.text('#machine-current .state'), 'patched');
  assert.equal(await a.page.locator('#machine-choices .machine-choice[aria-selected="true"]').getAttribute('data-ref'), 'noScheduleTaints/node-a1');
  assert.deepEqual(await drawnLabels(a), definedLabels(noScheduleTaintsMachine.definition));
  // its transition lists the decision it made
  await a.page.locator('svg .transition[aria-label^="NO_SCHEDULE_PASS [hasTaintsToAdd]"] .label').click();
  await a.page.locator('#machine-taken', { hasText: 'taken 1 time' }).waitFor();
  assert.match(await a.text('#machine-taken'), /TaintAdded Node\/node-a1/);
  await a.close();
});

test("a pod's DeletePods machine (1.12's pod eviction) is drawn from the decision it made", async () => {
  const a = await open('outage-1.12.yaml');
  await a.runUntil('5m25s');
  await a.at('00:05:25');
  await a.page.locator('#decisions li.decision', { hasText: 'PodStatusUpdated' }).first().click();
  await a.page.locator('#why-decision', { hasText: 'PodStatusUpdated' }).waitFor();
  await a.page.locator('#tab-machine').click();
  await a.page.locator('#machine-current', { hasText: 'deletePods/kube-system/kube-proxy-a1' }).waitFor();
  assert.equal(await a.text('#machine-current .state'), 'statusUpdated');
  assert.deepEqual(await drawnLabels(a), definedLabels(deletePodsPodMachine.definition));
  await a.close();
});

test("the PodEvicted decision's Machine tab draws the worker that deleted the pod, ended in evicted (it said: has no machine at this point)", async () => {
  const a = await open('one-node-stops.yaml');
  await a.runUntil('2m10s');
  await a.at('00:02:10');
  await a.page.locator('#decisions li.decision', { hasText: 'PodEvicted' }).first().click();
  await a.page.locator('#why-decision', { hasText: 'PodEvicted' }).waitFor();
  await a.page.locator('#tab-machine').click();
  await a.page.locator('#machine-current', { hasText: 'taint-eviction/default/toleration-sixty' }).waitFor();
  assert.equal(await a.page.locator('#machine-none').count(), 0);
  assert.equal(await a.text('#machine-current .state'), 'evicted');
  assert.match(await a.text('#machine-last'), /deleting → evicted on DELETED/);
  assert.deepEqual(await drawnLabels(a), definedLabels(podEvictionMachineDefinition));
  const current = await a.page.locator('svg .state-box.current').evaluateAll((es) => es.map((e) => e.getAttribute('data-state')));
  assert.deepEqual(current, ['evicted']);
  assert.deepEqual(a.errors, []);
  await a.close();
});
