/**
 * The panel's why-not, as the ui walk reads it (one-node-stops: run until
 * node-a1's first taint, a step back, a step), checked against the engine's
 * answer at the same pass (what `explain --until` prints) and against the
 * simulation run forward to the time it names: each pod of node-a1 is
 * deleted at the time its why-not names and not a pass before; a pod whose
 * why-not says never is still there at the end of the scenario's horizon.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { realPanelsOnServedPage } from './harness/realPanel';
import { openScenario } from '../../src/extension/openScenario';
import { parseTimestamp } from '../../src/engine/model/time';
import type { WhyNot } from '../../src/engine/trace/whyNot';
import { createSimulation } from '../../src/engine';

const file = join(resolve(__dirname, '../..'), 'examples', 'one-node-stops.yaml');
const openPanel = realPanelsOnServedPage();

const PODS = ['toleration-unset', 'toleration-zero', 'toleration-sixty', 'toleration-forever', 'web-7d9f-6wlhb', 'kube-proxy-a1'];
const HORIZON = 30 * 60 * 1e6;

/** The taint eviction controller's why-not of the pod in a fresh simulation gone straight to `pass` (what `explain` reads). */
function engineWhyNot(pass: number, pod: string): WhyNot | undefined {
  const sim = openScenario(file, '').make({});
  sim.goToPass(pass);
  return sim.explain(pod).whyNot.find((w) => w.outcome === 'PodDeletedByTaintEviction');
}

/** When the taint eviction controller deletes the pod in the scenario as it is (or with the pod's tolerations dropped), within the horizon. */
function deletedAt(pod: string, dropTolerations = false): number | undefined {
  const o = openScenario(file, '');
  let scenario = o.scenario;
  if (dropTolerations) {
    const pods = new Map(scenario.snapshot.cluster.pods);
    const key = pod.slice('Pod/'.length);
    pods.set(key, { ...pods.get(key)!, tolerations: [] });
    scenario = { ...scenario, snapshot: { ...scenario.snapshot, cluster: { ...scenario.snapshot.cluster, pods } } };
  }
  const sim = createSimulation(scenario, {});
  sim.runUntil(sim.startTime + HORIZON);
  const d = sim.trace.find((x) => x.controller === 'taint-eviction' && x.action === 'PodEvicted' && x.object === pod);
  return d ? parseTimestamp(d.time) : undefined;
}

/** When node-a1 is first tainted NoExecute in the scenario run forward. */
function taintedAt(): number | undefined {
  const sim = openScenario(file, '').make({});
  sim.runUntil(sim.startTime + HORIZON);
  const d = sim.trace.find((x) => x.action === 'TaintAdded' && x.object === 'Node/node-a1' && x.summary.includes(':NoExecute'));
  return d ? parseTimestamp(d.time) : undefined;
}

test("after a step back and a step, each pod's why-not in the panel is the engine's at that pass, and the forward run deletes the pod when it says", async () => {
  const a = await openPanel(file);
  await a.runUntil('next TaintAdded on node-a1');
  await a.at('00:01:05');
  await a.page.locator('vscode-button[data-action="stepBack"]').click();
  await a.at('00:01:00');
  await a.page.locator('vscode-button[data-action="step"]').click();
  await a.at('00:01:05');
  const pass = a.session!.sim.pass;
  assert.ok(typeof pass === 'number');
  const start = a.session!.sim.startTime;
  await a.page.locator('#nodes .node[data-ref="Node/node-a1"]').click();
  const seen: string[] = [];
  for (const name of PODS) {
    const pod = `Pod/${name.startsWith('kube-') ? 'kube-system' : 'default'}/${name}`;
    await a.page.locator(`#pods .pod[data-ref="${pod}"]`).click();
    await a.page.locator('#why-object', { hasText: pod }).waitFor();
    const when = a.page.locator('#why-not > li[data-status="PodDeletedByTaintEviction"] > .why-not-when');
    const shown = await when.innerText();
    const w = engineWhyNot(pass, pod);
    assert.ok(w, `${pod}: the engine has a why-not of its deletion at pass ${pass}`);
    const deleted = deletedAt(pod);
    if (w.wouldFireAt) {
      const at = parseTimestamp(w.wouldFireAt)!;
      const offset = (at - start) / 1e6;
      assert.equal(shown, `would fire at +${offset >= 60 ? `${Math.floor(offset / 60)}m${String(offset % 60).padStart(2, '0')}s` : `${offset}s`}`, pod);
      assert.equal(await when.locator('.time').getAttribute('title'), w.wouldFireAt, `${pod}: the clock time on hover is the engine's`);
      assert.equal(deleted, at, `${pod}: run forward, deleted at the time the why-not names (${w.wouldFireAt})`);
      seen.push(`${name}@${shown}`);
      if (w.via) {
        // the pod's time counts from its node's NoExecute taint, whose own why-not the panel draws under it
        const via = a.page.locator('#why-not > li[data-status="PodDeletedByTaintEviction"] > .why-not-via > ol > li > .why-not-when');
        assert.equal(w.via.outcome, 'NodeTaintedNoExecute');
        assert.equal(await via.locator('.time').getAttribute('title'), w.via.wouldFireAt, `${pod}: the node's taint time`);
        assert.equal(taintedAt(), parseTimestamp(w.via.wouldFireAt!), `${pod}: run forward, node-a1 is tainted NoExecute when the via names`);
      }
    } else {
      assert.equal(w.never, true, `${pod}: ${JSON.stringify(w)}`);
      assert.equal(shown, `never as things stand (it would with ${w.counterfactual?.description})`, pod);
      assert.equal(deleted, undefined, `${pod}: run forward ${HORIZON / 60e6} minutes, never deleted`);
      assert.equal(w.counterfactual?.kind, 'dropTolerations');
      assert.ok(deletedAt(pod, true) !== undefined, `${pod}: deleted without its tolerations`);
      seen.push(`${name}@never`);
    }
  }
  // the walk's case: 60 seconds' toleration counted from the NoExecute taint of 1:10, not from now
  assert.deepEqual(seen, [
    'toleration-unset@would fire at +1m10s',
    'toleration-zero@would fire at +1m10s',
    'toleration-sixty@would fire at +2m10s',
    'toleration-forever@never',
    'web-7d9f-6wlhb@would fire at +6m10s',
    'kube-proxy-a1@never',
  ]);
  assert.deepEqual(a.errors, []);
  await a.close();
});
