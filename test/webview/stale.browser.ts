/**
 * The built webview in Debian's chromium (playwright-core) with the real
 * host: the extension's Session over the real engine and the bundled
 * examples, run in this process, its messages delivered to the page as VS
 * Code delivers them (JSON, a message event). The panel is stepped, scrubbed
 * back and given a second scenario, and each view is compared with a fresh
 * panel that went straight to the same position and selection.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { serveWebview, type Served } from './harness/page';
import { RealPanel } from './harness/realPanel';
import { logRows, logText } from './harness/logRows';
import { openScenario } from '../../src/extension/openScenario';
import { writeZoneOutage } from '../helpers/generatedOutage';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { FIRST_REPLICASET_ROWS } from '../../src/protocol/webview';
import { sortRefs } from '../../src/extension/replicaSetWindow';

const root = resolve(__dirname, '../..');
const example = (name: string) => join(root, 'examples', name);
let served: Served;
let origin = '';
let browser: Browser;

before(async () => {
  served = await serveWebview({ prelude: false });
  origin = served.origin;
  browser = served.browser;
});

const generated = mkdtempSync(join(tmpdir(), 'cs-stale-browser-'));

after(async () => {
  await served?.close();
  rmSync(generated, { recursive: true, force: true });
});

const Panel = {
  open: (file: string) => RealPanel.open(browser, origin, () => openScenario(file, '')),
};

/** A panel that went straight to the pass and selected the object there. */
async function fresh(file: string, pass: number | null, object?: string): Promise<RealPanel> {
  const p = await Panel.open(file);
  if (pass !== null) p.session?.goToPass(pass);
  if (object) p.session?.selectObject(object);
  await p.settled();
  return p;
}

/** A panel run until `until` (its clock then `clock`), with `object` selected and its Why drawn. */
async function whyAt(file: string, until: string, clock: string, object: string): Promise<RealPanel> {
  const a = await Panel.open(file);
  await a.runUntil(until);
  await a.at(clock);
  a.session?.selectObject(object);
  await a.settled();
  await a.page.locator('#why-object', { hasText: object }).waitFor();
  return a;
}

const VIEWS = ['#why-body', '#log-caption', '#time', '#pass'];

async function sameViews(a: RealPanel, b: RealPanel, what: string): Promise<void> {
  for (const v of VIEWS) assert.equal(await a.text(v), await b.text(v), `${what}: ${v}`);
  // the log is virtual: each read through by scrolling
  assert.equal(await logText(a.page), await logText(b.page), `${what}: #decisions`);
  for (const p of [a, b]) await p.page.locator('#tab-machine').click();
  assert.equal(await a.text('#machine-body'), await b.text('#machine-body'), `${what}: #machine-body`);
  for (const p of [a, b]) await p.page.locator('#tab-why').click();
}

test('stepped, scrubbed back and given another scenario, every view is what a fresh panel at that position shows', async () => {
  const a = await Panel.open(example('one-node-stops.yaml'));
  await a.runUntil('1m10s');
  await a.at('00:01:10');
  await a.page.locator('#nodes .node[data-ref="Node/node-a1"]').click();
  await a.page.locator('#why-object', { hasText: 'Node/node-a1' }).waitFor();
  await a.settled();
  let b = await fresh(example('one-node-stops.yaml'), 14, 'Node/node-a1');
  await sameViews(a, b, 'at 1:10 with node-a1 selected');
  await b.close();

  // scrub back to 0:30: nothing decided later may be left in the why
  await a.page.locator('#scrubber').fill('6');
  await a.at('00:00:30');
  assert.doesNotMatch(await a.text('#why-happened'), /\+1m0[05]s/);
  assert.match(await a.text('#why-happened'), /\+30s .*KubeletStopped/);
  assert.match(await a.text('#why-happened'), /KubeletStopped/);
  b = await fresh(example('one-node-stops.yaml'), 6, 'Node/node-a1');
  await sameViews(a, b, 'scrubbed back to 0:30');
  await b.close();

  // a step forward again
  await a.page.locator('vscode-button[data-action="step"]').click();
  await a.at('00:00:35');
  b = await fresh(example('one-node-stops.yaml'), 7, 'Node/node-a1');
  await sameViews(a, b, 'stepped to 0:35');
  await b.close();

  // what the user typed for this scenario, then another scenario
  await a.page.locator('#node-filter input').fill('a1');
  await a.page.locator('#filter-search input').fill('Kubelet');
  await a.page.locator('#run-until input').fill('5m');
  let sawLoading = false;
  await a.openAnother(
    example('rs-zone-outage.yaml'),
    () => openScenario(example('rs-zone-outage.yaml'), ''),
    async () => {
      await a.page.locator('#loading', { hasText: 'Loading rs-zone-outage.yaml' }).waitFor();
      assert.equal(await a.page.locator('#nodes .node').count(), 0, 'the old nodes are gone while loading');
      assert.match(await a.text('#why-body'), /Loading rs-zone-outage\.yaml/);
      assert.equal(await a.page.evaluate(() => document.body.dataset.loading), 'rs-zone-outage.yaml');
      sawLoading = true;
    },
  );
  assert.ok(sawLoading);
  await a.page.locator('#scenario-name', { hasText: 'rs-zone-outage' }).waitFor();
  assert.equal(await a.page.locator('#loading').isVisible(), false);
  assert.equal(await a.page.locator('#node-filter input').inputValue(), '');
  assert.equal(await a.page.locator('#filter-search input').inputValue(), '');
  assert.equal(await a.page.locator('#run-until input').inputValue(), '');
  assert.equal(await a.page.locator('.selected').count(), 0, 'nothing of the old selection');
  assert.doesNotMatch(await a.page.locator('body').innerText(), /node-a1.*toleration|toleration-sixty/s);
  b = await fresh(example('rs-zone-outage.yaml'), null);
  await sameViews(a, b, 'the second scenario, just opened');
  assert.equal(await a.shownRows('#nodes'), await b.shownRows('#nodes'));
  await b.close();
  assert.deepEqual(a.errors, []);
  await a.close();
});

test('the pod evicted at 2:10 no longer says its eviction would happen at 2:10, and what happened lists the PodEvicted', async () => {
  const a = await Panel.open(example('one-node-stops.yaml'));
  await a.runUntil('1m10s');
  await a.at('00:01:10');
  await a.page.locator('#nodes .node[data-ref="Node/node-a1"]').click();
  await a.page.locator('#pods .pod[data-ref="Pod/default/toleration-sixty"]').click();
  await a.page.locator('#why-object', { hasText: 'Pod/default/toleration-sixty' }).waitFor();
  assert.match(await a.text('#why-not'), /would fire at \+2m10s/);
  await a.runUntil('2m10s');
  await a.at('00:02:10');
  assert.match(await a.text('#why-object'), /no longer exists/);
  assert.match(await a.text('#why-happened'), /PodEvicted Pod\/default\/toleration-sixty/);
  assert.doesNotMatch(await a.text('#why-body'), /would fire at \+2m10s/);
  const b = await fresh(example('one-node-stops.yaml'), 26, 'Pod/default/toleration-sixty');
  assert.equal(await a.text('#why-body'), await b.text('#why-body'));
  await b.close();
  await a.close();
});

test('next decision from the first pass stops on KubeletStopped at 0:30: the pass shows it, it is the why, its node is the machine', async () => {
  const a = await Panel.open(example('one-node-stops.yaml'));
  await a.page.locator('vscode-button[data-action="step"]').click();
  await a.at('00:00:00');
  await a.page.locator('vscode-button[data-action="nextDecision"]').click();
  await a.at('00:00:30');
  assert.match(await a.text('#decisions li.decision.selected'), /KubeletStopped/);
  assert.match(await a.text('#log-caption'), /^1 decision in pass 6/);
  await a.page.locator('#why-decision', { hasText: 'KubeletStopped' }).waitFor();
  assert.doesNotMatch(await a.text('#why-body'), /Select a decision/);
  // the timeline's mark and the pass agree
  assert.equal(await a.page.locator('#marks .mark[data-pass="6"]').getAttribute('title'), 'pass 6, +30s: 1 decision');
  assert.equal(await a.page.locator('#marks .mark[data-pass="5"]').count(), 0);
  await a.page.locator('#tab-machine').click();
  await a.page.locator('#machine-current', { hasText: 'node/node-a1' }).waitFor();
  assert.doesNotMatch(await a.text('#machine-body'), /Select a node/);
  // selecting another decision makes its object the machine
  await a.runUntil('next TaintAdded on node-a1');
  await a.at('00:01:05');
  await a.page.locator('#tab-why').click();
  const zone = a.page.locator('#decisions li.decision', { hasText: 'ReplicaSetStatusUpdated' });
  await zone.click();
  await a.page.locator('#why-decision', { hasText: 'ReplicaSetStatusUpdated' }).waitFor();
  await a.page.locator('#tab-machine').click();
  // the machine that decided the status write (updateReplicaSetStatus's), the ReplicaSet's own beside it
  await a.page.locator('#machine-current', { hasText: 'replicaSetStatus/default/web-7d9f' }).waitFor();
  await a.page.locator('#machine-choices .machine-choice[data-ref="replicaset/default/web-7d9f"]').click();
  await a.page.locator('#machine-current', { hasText: 'replicaset/default/web-7d9f' }).waitFor();
  await a.close();
});

test('before the first pass the empty zones say why, and the word goes with the first pass', async () => {
  const a = await Panel.open(example('one-node-stops.yaml'));
  assert.equal(await a.page.locator('#zones .zone-card').count(), 0);
  await a.page.locator('#zones-hint', { hasText: 'finds the zones at its first monitor pass' }).waitFor();
  await a.page.locator('vscode-button[data-action="step"]').click();
  await a.at('00:00:00');
  await a.page.locator('#zones .zone-card').first().waitFor();
  assert.equal(await a.text('#zones-hint'), '');
  await a.close();
});

test('a filter that matches nothing says so', async () => {
  const a = await Panel.open(example('one-node-stops.yaml'));
  await a.page.locator('vscode-button[data-action="step"]').click();
  await a.at('00:00:00');
  await a.page.locator('#node-filter input').fill('no-such-node');
  await a.page.locator('#node-filter-hint', { hasText: 'No node matches “no-such-node”' }).waitFor();
  await a.page.locator('#node-filter input').fill('node-b');
  await a.page.locator('#nodes .node').first().waitFor();
  assert.equal(await a.page.locator('#node-filter-hint').isVisible(), false);
  await a.page.locator('#filter-search input').fill('no-such-decision');
  await a.page.locator('#log-no-match', { hasText: 'No decision here matches the filter' }).waitFor();
  await a.close();
});

test('a replacement pod’s why shows its ReplicaSet, the PodsCreated that made it and the eviction it answers', async () => {
  const a = await Panel.open(example('rs-zone-outage.yaml'));
  await a.runUntil('6m20s');
  await a.at('00:06:20');
  // the node the binder chose for the replacement (the least allocated feasible one), as the trace says
  const bound = a.session!.sim.trace.find((d) => d.action === 'PodBound' && d.object === 'Pod/default/web-7d9f-pxwsk');
  const node = /Bound to (\S+),/.exec(bound?.summary ?? '')?.[1];
  assert.ok(node, 'the replacement was bound');
  await a.page.locator(`#nodes .node[data-ref="Node/${node}"]`).click();
  await a.page.locator('#pods .pod[data-ref="Pod/default/web-7d9f-pxwsk"]').click();
  await a.page.locator('#why-object', { hasText: 'Pod/default/web-7d9f-pxwsk' }).waitFor();
  const lineage = await a.text('#why-lineage');
  assert.match(lineage, /owned by ReplicaSet\/default\/web-7d9f/);
  assert.match(lineage, /created by #\d+ \S+ replicaset PodsCreated ReplicaSet\/default\/web-7d9f/);
  assert.match(lineage, /replacing: #\d+ \S+ taint-eviction PodEvicted Pod\/default\/web-7d9f-w5zkb/);
  // the link goes to the eviction's why
  await a.page.locator('#why-lineage .lineage-answers button.cause').click();
  await a.page.locator('#why-decision', { hasText: 'PodEvicted' }).waitFor();
  await a.close();
});

test('the machine tab draws the statechart beside Why: regions side by side, the current state, the last transition; a transition lists the decisions that took it', async () => {
  const a = await Panel.open(example('one-node-stops.yaml'));
  // a Why column wide enough for the node machine's two regions side by side (a narrower one stacks them: fits.browser.ts)
  await a.page.setViewportSize({ width: 2600, height: 900 });
  await a.runUntil('1m10s');
  await a.at('00:01:10');
  await a.page.locator('#nodes .node[data-ref="Node/node-a1"]').click();
  await a.page.locator('#why-object').waitFor();
  await a.page.locator('#tab-machine').click();
  const chart = a.page.locator('#machine-body svg.statechart');
  await chart.waitFor();
  const box = await chart.boundingBox();
  assert.ok(box && box.y < 900 && box.y >= 0, `the chart is in view without scrolling (top at ${box?.y})`);
  const ready = await a.page.locator('svg .state-box[data-state="ready"] > rect').boundingBox();
  const eviction = await a.page.locator('svg .state-box[data-state="eviction"] > rect').boundingBox();
  assert.ok(ready && eviction && Math.abs(ready.y - eviction.y) < 1 && eviction.x > ready.x + ready.width - 1, 'the parallel regions side by side');
  const current = await a.page.locator('svg .state-box.current').evaluateAll((es) => es.map((e) => e.getAttribute('data-state')));
  const live = a.session?.machineFor('Node/node-a1')?.state ?? '';
  assert.deepEqual(current.sort(), live.split(',').sort());
  const last = await a.page.locator('svg .transition.last').evaluateAll((es) => es.map((e) => e.getAttribute('aria-label')));
  assert.equal(last.length, 1);
  assert.match(last[0] ?? '', /^TAINT_PASS/);
  await a.page.locator('svg .transition[aria-label^="STATUS_UNKNOWN_SET: ready.True"] .label').click();
  await a.page.locator('#machine-taken', { hasText: 'taken 1 time' }).waitFor();
  assert.match(await a.text('#machine-taken'), /NodeStatusUnknown Node\/node-a1/);
  await a.page.locator('#machine-taken button.cause').click();
  await a.page.locator('#tab-why').click();
  await a.page.locator('#why-decision', { hasText: 'NodeStatusUnknown' }).waitFor();
  await a.close();
});

test('decision log entries are one line each, the object name whole and the full text on hover; a click opens one', async () => {
  const a = await Panel.open(example('one-node-stops.yaml'));
  // wide enough for time, action and the longest object of this pass on one line; the summary is what gets cut
  await a.page.setViewportSize({ width: 1900, height: 900 });
  await a.runUntil('1m10s');
  await a.at('00:01:10');
  const rows = a.page.locator('#decisions li.decision');
  const lines = await rows.evaluateAll((ls) =>
    ls.map((l) => {
      const obj = l.querySelector('.object') as HTMLElement;
      const cs = getComputedStyle(l);
      const line = parseFloat(getComputedStyle(obj).lineHeight) || obj.getBoundingClientRect().height;
      return {
        height: l.getBoundingClientRect().height - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom) - parseFloat(cs.borderBottomWidth),
        line,
        objectCut: obj.scrollWidth > obj.clientWidth + 1,
        objectRight: obj.getBoundingClientRect().right,
        rowRight: l.getBoundingClientRect().right,
        title: l.getAttribute('title') ?? '',
        object: obj.textContent,
      };
    }),
  );
  assert.ok(lines.length >= 5);
  for (const l of lines) {
    assert.ok(l.height < 1.5 * l.line, `${l.object}: one line (${l.height}px, a line is ${l.line}px)`);
    assert.equal(l.objectCut, false, `${l.object} is whole`);
    assert.ok(l.objectRight <= l.rowRight + 1, `${l.object} is inside its row`);
    assert.ok(l.title.includes(`${l.object}: `), 'the full text is on hover');
  }
  const sixty = a.page.locator('#decisions li.decision', { hasText: 'PodEvictionScheduled' }).first();
  const before = (await sixty.boundingBox())?.height ?? 0;
  await sixty.click();
  await a.page.locator('#decisions li.decision.expanded .because li').first().waitFor();
  // the opened entry shows the whole summary and the checks (the page may lay it out a frame after its because list appears)
  await a.page.waitForFunction((b) => (document.querySelector('#decisions li.decision.expanded')?.getBoundingClientRect().height ?? 0) > b * 1.5, before);
  await a.page.locator('#why-decision', { hasText: 'PodEvictionScheduled' }).waitFor();
  await a.close();
});

test('the Why and Machine tabs follow the tabs pattern: arrow keys move between them', async () => {
  const a = await Panel.open(example('one-node-stops.yaml'));
  await a.page.locator('#tab-why').focus();
  await a.page.keyboard.press('ArrowRight');
  assert.equal(await a.page.locator('#tab-machine').getAttribute('aria-selected'), 'true');
  assert.equal(await a.page.locator('#machine').isVisible(), true);
  assert.equal(await a.page.locator('#why').isVisible(), false);
  assert.equal(await a.page.evaluate(() => document.activeElement?.id), 'tab-machine');
  await a.settled();
  assert.equal(a.session?.sim.pass, null, 'the arrow key did not step the panel');
  await a.page.keyboard.press('ArrowLeft');
  assert.equal(await a.page.locator('#tab-why').getAttribute('aria-selected'), 'true');
  await a.close();
});

test('the Why of the small zone\'s pod shows the blocking check, its path, "never" with the input that would change it, and its node\'s answer under it', async () => {
  const a = await whyAt(example('zone-small-partial.yaml'), '10m30s', '00:10:30', 'Pod/default/web-7d9f-6wlhb');
  const item = a.page.locator('#why-not > li').first();
  const head = await item.locator(':scope > .why-not-head').innerText();
  assert.match(head, /PodDeletedByTaintEviction/);
  assert.match(head, /deletion by the taint eviction controller: the node has no NoExecute taint/);
  assert.match(head, /node=node-a1 taints=\["node.kubernetes.io\/unreachable:NoSchedule"\]/);
  assert.match(head, /\[handleNodeUpdate \/ getNoExecuteTaints\]/);
  assert.match(
    await item.locator(':scope > .why-not-when').innerText(),
    /^never as things stand \(it would with largeClusterSizeThreshold below the zone's 6 nodes/,
  );
  // the path is collapsed, and opens to every check, the blocking one marked
  const path = item.locator(':scope > details.why-not-path');
  assert.equal(await path.getAttribute('open'), null);
  assert.match(await path.locator('summary').innerText(), /Path: \d+ checks/);
  await path.locator('summary').click();
  assert.match(await path.locator('.path-check.blocking').innerText(), /the node has no NoExecute taint/);
  assert.match(await path.innerText(), /the pod is bound to a node/);
  // the node's answer under the pod's
  const via = item.locator(':scope > .why-not-via');
  assert.match(await via.innerText(), /^via Node\/node-a1/);
  const node = await via.locator('.why-not-head').first().innerText();
  assert.match(node, /NodeTaintedNoExecute/);
  assert.match(node, /rate limiter is at 0/);
  assert.match(node, /rate=0/);
  assert.match(node, /ReducedQPSFunc/);
  assert.match(await via.locator('.why-not-when').first().innerText(), /never as things stand \(it would with largeClusterSizeThreshold/);
  // a re-render (a step) keeps the path the user opened open
  await a.page.locator('vscode-button[data-action="step"]').click();
  await a.at('00:10:35');
  assert.equal(await a.page.locator('#why-not > li').first().locator(':scope > details.why-not-path').getAttribute('open'), '');
  assert.deepEqual(a.errors, []);
  await a.close();
});

test('the Why of a node whose kubelet still posts says when it would go Unknown if the kubelet stopped now, as an offset with the clock time on hover', async () => {
  const a = await whyAt(example('outage-1.12.yaml'), '10m30s', '00:10:30', 'Node/node-b1');
  const item = a.page.locator('#why-not > li[data-status="NodeStatusUnknown"]');
  assert.match(await item.locator('.why-not-head').innerText(), /Node\/node-b1 status Unknown: the node's kubelet is running/);
  const when = item.locator('.why-not-when');
  assert.equal(await when.innerText(), 'if the kubelet stopped now: at +11m15s');
  assert.equal(await when.locator('.time').getAttribute('title'), '2026-01-01T00:11:15.000Z');
  assert.deepEqual(a.errors, []);
  await a.close();
});

test('the times inside a check\u2019s values read as offsets from the start, with the engine\u2019s value on hover', async () => {
  const a = await whyAt(example('outage-1.12.yaml'), '10m30s', '00:10:30', 'Node/node-b1');
  // NodeRegistered at the start, and the why-not's lastPost (0:10:30)
  const body = await a.text('#why-body');
  assert.doesNotMatch(body, /\d\d:\d\d:\d\d/, 'no clock time is left in the text');
  assert.match(body, /#9 \+0s node-lifecycle NodeRegistered/);
  assert.match(body, /lastPost=\+10m30s/);
  assert.equal(
    await a.page
      .locator('#why-body .v', { hasText: /^\+10m30s$/ })
      .first()
      .getAttribute('title'),
    '2026-01-01T00:10:30.000Z',
  );
  // the decision itself: its time and its because values
  a.session?.selectObject('Node/node-b1');
  await a.page.locator('#why-happened .link.cause').first().click();
  await a.page.locator('#why-decision', { hasText: 'NodeRegistered' }).waitFor();
  assert.equal(await a.page.locator('#why-decision .time').innerText(), '+0s');
  assert.match(await a.text('#why-checks'), /probeTimestamp=-2s/);
  assert.equal(await a.page.locator('#why-checks .v', { hasText: /^-2s$/ }).first().getAttribute('title'), '2025-12-31T23:59:58.000Z');
  assert.deepEqual(a.errors, []);
  await a.close();
});

/** The ReplicaSet rows drawn, in order: ref and text, once every row drawn has its item (none waits for the host). */
async function replicaSetRows(p: RealPanel): Promise<{ ref: string; text: string }[]> {
  await p.settled();
  await p.page.waitForFunction(() => document.querySelectorAll('#replicasets .rs.pending').length === 0);
  return p.page.locator('#replicasets .row').evaluateAll((rs) =>
    rs
      .map((r) => ({
        ref: (r as HTMLElement).dataset.ref ?? '',
        text: (r as HTMLElement).innerText.replace(/\s+/g, ' '),
        top: new DOMMatrix(getComputedStyle(r).transform).m42,
      }))
      .sort((a, b) => a.top - b.top)
      .map(({ ref, text }) => ({ ref, text })),
  );
}

/** Waits until the panel shows pass `pass`. */
async function atPass(p: RealPanel, pass: number): Promise<void> {
  await p.page.waitForFunction((n) => document.body.dataset.pass === String(n), pass);
}

/** The scrubber moved to pass `pass`, as a user drags it. */
async function scrubTo(p: RealPanel, pass: number): Promise<void> {
  await p.page.locator('#scrubber').fill(String(pass));
  await atPass(p, pass);
}

/** A toolbar button (`step`, `stepBack`) clicked, until the panel shows pass `pass`. */
async function clickTo(p: RealPanel, action: string, pass: number): Promise<void> {
  await p.page.locator(`vscode-button[data-action="${action}"]`).click();
  await atPass(p, pass);
}

/** Scrolls the list `selector` to `where` of its height (1: the end), and waits for the frame whose scroll event draws it. */
async function scrollList(p: RealPanel, selector: string, where: number): Promise<void> {
  // the list's height follows the host's count (a filter's or a step's answer may come after the scroll): scrolled again
  // to the same share until the height it was scrolled by is the height it has once the host has answered (a row off, 1 run in 4)
  for (let i = 0; i < 5; i++) {
    const height = await p.page.locator(selector).evaluate((e, w) => {
      e.scrollTop = w * (e.scrollHeight - e.clientHeight);
      return e.scrollHeight;
    }, where);
    await p.page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    await p.settled();
    if ((await p.page.locator(selector).evaluate((e) => e.scrollHeight)) === height) return;
  }
}
const scrollReplicaSets = (p: RealPanel, where: number): Promise<void> => scrollList(p, '#replicasets', where);

/** The drawn rows against a fresh panel at the same position, scrolled alike, and against its session's items. */
async function sameReplicaSets(
  a: RealPanel,
  file: string,
  pass: number,
  where: number,
  filter: string,
  what: string,
): Promise<{ ref: string; text: string }[]> {
  const b = await fresh(file, pass);
  if (filter) await b.page.locator('#rs-filter input').fill(filter);
  await scrollReplicaSets(b, where);
  const mine = await replicaSetRows(a);
  const theirs = await replicaSetRows(b);
  assert.ok(mine.length > 5, `${what}: rows drawn`);
  assert.deepEqual(mine, theirs, `${what}: the rows a fresh panel draws`);
  const items = b.session!.clusterView.replicaSets;
  for (const r of mine) {
    const i = items.get(r.ref);
    assert.ok(i, `${what}: ${r.ref} exists`);
    assert.match(r.text, new RegExp(`${i.current}/${i.desired} ${i.ready} ready$`), `${what}: ${r.ref} as the host has it now`);
  }
  assert.equal(await a.text('#replicasets-caption'), await b.text('#replicasets-caption'), `${what}: the caption`);
  await b.close();
  return mine;
}

test('the ReplicaSets: rows scrolled to after the open, stepped, scrubbed back, filtered and another scenario, each as a fresh panel shows it', async () => {
  const file = writeZoneOutage(generated, 5);
  const a = await Panel.open(file);
  const s = a.session!;
  // past the zone's nodes going Unknown: its pods are marked not ready, so their ReplicaSets' ready counts fall
  s.goToPass(30);
  await a.settled();
  const keys = [...s.clusterView.replicaSets.keys()];
  assert.ok(keys.length > 3 * FIRST_REPLICASET_ROWS, `${keys.length} ReplicaSets, most not sent with the open`);
  const asked = () => a.received.filter((m) => m.type === 'replicaSetWindow').length;
  const before = asked();
  // to the end of the list: rows the open did not send
  await scrollReplicaSets(a, 1);
  const atEnd = await sameReplicaSets(a, file, 30, 1, '', 'scrolled to the end at pass 30');
  assert.ok(asked() > before, 'the list asked for the rows it showed');
  const order = sortRefs(keys);
  assert.equal(atEnd.at(-1)?.ref, order.at(-1), 'the last row is the end of the list');
  assert.ok(
    atEnd.every((r) => order.indexOf(r.ref) >= FIRST_REPLICASET_ROWS),
    'none of the rows in view was sent with the open',
  );

  // scrubbed back before the outage: the rows in view show that position's counts, not those of pass 30
  await scrubTo(a, 8);
  const back = await sameReplicaSets(a, file, 8, 1, '', 'scrubbed back to pass 8');
  assert.notDeepEqual(back, atEnd, 'the counts in view differ between pass 8 and pass 30 (else this proves nothing)');

  // a step, from the toolbar
  await clickTo(a, 'step', 9);
  await sameReplicaSets(a, file, 9, 1, '', 'stepped to pass 9');

  // to the middle, then on to the outage with the middle in view
  await scrollReplicaSets(a, 0.5);
  s.goToPass(30);
  await sameReplicaSets(a, file, 30, 0.5, '', 'the middle, at pass 30');

  // a filter: the rows it keeps, whichever were sent, each with its item of now
  // the namespace with the most ReplicaSets (not all of them): the filter keeps rows far apart in the list
  const byNs = new Map<string, number>();
  for (const k of keys) byNs.set(k.split('/')[1], (byNs.get(k.split('/')[1]) ?? 0) + 1);
  const [ns, inNs] = [...byNs].filter(([, n]) => n < keys.length).sort((x, y) => y[1] - x[1])[0];
  assert.ok(inNs > 10, `${inNs} ReplicaSets in ${ns}`);
  const filter = `${ns}/`;
  await a.page.locator('#rs-filter input').fill(filter);
  await scrollReplicaSets(a, 0.5);
  const filtered = await sameReplicaSets(a, file, 30, 0.5, filter, `filtered on “${filter}”`);
  for (const r of filtered) assert.ok(r.ref.slice('ReplicaSet/'.length).toLowerCase().includes(filter.toLowerCase()), `${r.ref} matches`);
  assert.match(await a.text('#replicasets-caption'), new RegExp(`of ${keys.length.toLocaleString('en')}`));
  await a.page.locator('#rs-filter input').fill('no-such-replicaset');
  await a.page.locator('#rs-filter-hint', { hasText: 'No ReplicaSet matches “no-such-replicaset”' }).waitFor();
  await a.page.locator('#rs-filter input').fill(filter);
  await scrollReplicaSets(a, 0.5);
  await sameReplicaSets(a, file, 30, 0.5, filter, 'the filter again');

  // another scenario: its own ReplicaSets, the filter gone
  const other = example('rs-zone-outage.yaml');
  await a.openAnother(other, () => openScenario(other, ''));
  assert.equal(await a.page.locator('#rs-filter input').inputValue(), '');
  const b = await fresh(other, null);
  assert.equal(await a.shownRows('#replicasets'), await b.shownRows('#replicasets'), 'the second scenario, just opened');
  await b.close();
  a.session!.goToPass(3);
  await a.settled();
  const mine = await replicaSetRows(a);
  assert.ok(mine.length > 0 && mine.every((r) => r.ref.startsWith('ReplicaSet/default/web')), JSON.stringify(mine));
  assert.deepEqual(a.errors, []);
  await a.close();
});

/** Polls until `f` holds (the page's messages reach the host through a binding, after the input that sent them). */
async function until(f: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !f(); i++) await new Promise((r) => setImmediate(r));
  for (let i = 0; i < 100 && !f(); i++) await new Promise((r) => setTimeout(r, 20));
  assert.ok(f(), what);
}

/** Types into the node filter and waits until the host answered with the keys it keeps and the page drew them. */
async function filterNodes(p: RealPanel, text: string): Promise<void> {
  const asked = () => p.received.filter((m) => m.type === 'nodeFilter');
  const before = asked().length;
  await p.page.locator('#node-filter input').fill(text);
  await until(() => asked().length > before && (asked().at(-1) as { text: string }).text === text.toLowerCase(), `the filter “${text}” reached the host`);
  await p.settled();
}

/** The node list's rows drawn, in order (zone headings too), once none waits for its item: ref, class and text. */
async function nodeRows(p: RealPanel): Promise<{ ref: string; cls: string; text: string }[]> {
  await p.settled();
  await p.page.waitForFunction(() => document.querySelectorAll('#nodes .node.pending').length === 0);
  return p.page.locator('#nodes .row').evaluateAll((rs) =>
    rs
      .map((r) => ({
        ref: (r as HTMLElement).dataset.ref ?? '',
        cls: (r as HTMLElement).className,
        text: (r as HTMLElement).innerText.replace(/\s+/g, ' '),
        top: new DOMMatrix(getComputedStyle(r).transform).m42,
      }))
      .sort((a, b) => a.top - b.top)
      .map(({ ref, cls, text }) => ({ ref, cls, text })),
  );
}

const scrollNodes = (p: RealPanel, where: number): Promise<void> => scrollList(p, '#nodes', where);

/** The node rows drawn against a fresh panel at the same position, filtered and scrolled alike, and against its session's items. */
async function sameNodes(
  a: RealPanel,
  file: string,
  pass: number,
  where: number,
  filter: string,
  what: string,
): Promise<{ ref: string; cls: string; text: string }[]> {
  const b = await fresh(file, pass);
  if (filter) await filterNodes(b, filter);
  await scrollNodes(b, where);
  const mine = await nodeRows(a);
  const theirs = await nodeRows(b);
  if (where === 0 || where === 1) assert.deepEqual(mine, theirs, `${what}: the rows a fresh panel draws`);
  else {
    // Midway the offset comes from the list's height, which sums heights measured from the rows each panel has drawn
    // (names and chips wrap): a panel that drew other rows before may stand a row off a fresh one at the same share (the
    // fresh-clone CI of 8bd8ce5: 12 px, one row's wrap, over 14,424). Every row both draw is drawn alike, and the windows
    // overlap but for that row.
    const byRef = new Map(theirs.map((r) => [r.ref, r]));
    const both = mine.filter((r) => byRef.has(r.ref));
    for (const r of both) assert.deepEqual(r, byRef.get(r.ref), `${what}: ${r.ref} as a fresh panel draws it`);
    assert.ok(
      both.length >= Math.max(mine.length, theirs.length) - 1,
      `${what}: the windows overlap (${both.length} of ${mine.length} and ${theirs.length} rows)`,
    );
  }
  const items = b.session!.nodeItems;
  for (const r of mine.filter((x) => x.ref.startsWith('Node/'))) {
    const i = items.get(r.ref);
    assert.ok(i, `${what}: ${r.ref} exists`);
    assert.match(r.cls, new RegExp(`\\bready-${i.ready}\\b`), `${what}: ${r.ref} Ready ${i.ready} as the host has it now`);
    for (const t of i.taints) assert.ok(r.text.includes(t.replace('node.kubernetes.io/', '')), `${what}: ${r.ref} shows ${t}`);
    if (filter) assert.ok(`${i.name} ${i.taints.join(' ')} ${i.ready}`.toLowerCase().includes(filter), `${what}: ${r.ref} matches “${filter}”`);
    // its pod counts, which cross with the window's rows alone: as the host counts them now
    const pods = b.session!.podsOn(i.name);
    const evicting = pods.filter((p) => p.evictionAt).length;
    assert.ok(
      r.text.includes(`${pods.length} pod${pods.length === 1 ? '' : 's'}${evicting ? `, ${evicting} to evict` : ''}`),
      `${what}: ${r.ref} shows ${pods.length} pods (${r.text})`,
    );
  }
  assert.equal(await a.text('#node-filter-hint'), await b.text('#node-filter-hint'), `${what}: the hint`);
  await b.close();
  return mine;
}

test('the nodes: rows never sent scrolled to, stepped, scrubbed back, and filtered in the host across steps, each as a fresh panel shows it', async () => {
  const file = writeZoneOutage(mkdtempSync(join(generated, 'nodes-')), 1);
  const a = await Panel.open(file);
  const s = a.session!;
  const first = a.sent.find((m) => m.type === 'update');
  assert.ok(first?.type === 'update');
  // the open sends every key and the items of the first rows alone
  assert.equal(first.nodes.keys?.length, s.nodeItems.size);
  assert.equal(first.nodes.items?.length, FIRST_REPLICASET_ROWS, 'the open sent the items of the first rows alone');
  // past the zone's nodes going Unknown: the end of the list (the second zone) is tainted
  s.goToPass(30);
  await a.settled();
  const asked = () => a.received.filter((m) => m.type === 'nodeWindow').length;
  await scrollNodes(a, 1);
  const atEnd = await sameNodes(a, file, 30, 1, '', 'scrolled to the end at pass 30');
  assert.ok(asked() > 0, 'the list asked for the rows it showed');
  assert.ok(
    atEnd.some((r) => /ready-Unknown/.test(r.cls)),
    'the rows at the end went Unknown (else this proves nothing)',
  );

  await scrubTo(a, 8);
  const back = await sameNodes(a, file, 8, 1, '', 'scrubbed back to pass 8');
  assert.notDeepEqual(back, atEnd, 'the rows in view differ between pass 8 and pass 30');

  await clickTo(a, 'step', 9);
  await sameNodes(a, file, 9, 1, '', 'stepped to pass 9');

  // the filter matches Ready and taints, which steps change: the host filters again at each position
  await filterNodes(a, 'unknown');
  await a.page.locator('#node-filter-hint', { hasText: 'No node matches “unknown”' }).waitFor();
  await sameNodes(a, file, 9, 0, 'unknown', 'filtered on “unknown” before the outage');
  s.goToPass(30);
  await a.settled();
  await scrollNodes(a, 0.5);
  const unknown = await sameNodes(a, file, 30, 0.5, 'unknown', 'the same filter, at pass 30');
  assert.ok(unknown.filter((r) => r.ref.startsWith('Node/')).length > 5, 'the Unknown nodes are listed');
  await scrubTo(a, 8);
  await a.page.locator('#node-filter-hint', { hasText: 'No node matches “unknown”' }).waitFor();
  await sameNodes(a, file, 8, 0, 'unknown', 'the same filter, scrubbed back to pass 8');
  await filterNodes(a, '');
  // the widening keystroke: every key again, as a mask over the order the panel has from the open
  const widened = a.sent.filter((m) => m.type === 'nodes').at(-1);
  assert.ok(
    widened?.type === 'nodes' && widened.keys === undefined && widened.mask?.length === s.nodeItems.size,
    'the cleared filter sent a mask, not the refs',
  );
  await scrollNodes(a, 1);
  await sameNodes(a, file, 8, 1, '', 'the filter cleared');
  assert.deepEqual(a.errors, []);
  await a.close();
});

test('the decision log: entries cross as one line; an opened one and a search over the checks bring the checks; stepped back, as a fresh panel', async () => {
  const file = writeZoneOutage(mkdtempSync(join(generated, 'log-')), 1);
  const a = await Panel.open(file);
  const s = a.session!;
  s.goToPass(30);
  const unknownPass = s.sim.trace.find((d) => d.action === 'NodeStatusUnknown')?.pass;
  assert.ok(typeof unknownPass === 'number');
  await scrubTo(a, unknownPass);
  await a.settled();
  const update = a.sent.filter((m) => m.type === 'update').at(-1);
  assert.ok(update?.type === 'update' && update.pass === unknownPass);
  assert.ok(update.decisions.length > 100, `${update.decisions.length} entries`);
  for (const d of update.decisions) {
    const sent = d as unknown as Record<string, unknown>;
    assert.equal(sent.because, undefined, `#${d.seq} crossed without its checks`);
    assert.equal(sent.machine, undefined, `#${d.seq} crossed without its machine transition`);
  }
  // opened: its checks and its transition, as the trace has them
  const whole = s.sim.trace.find((d) => d.action === 'NodeStatusUnknown')!;
  await a.page.locator(`#decisions li.decision[data-seq="${whole.seq}"]`).click();
  await a.page.locator(`#decisions li.decision.expanded[data-seq="${whole.seq}"] .because li`).first().waitFor();
  assert.deepEqual(
    await a.page.locator(`#decisions li.decision.expanded[data-seq="${whole.seq}"] .because li`).allInnerTexts(),
    whole.because.map((b) => b.rule),
  );
  assert.match(
    await a.text(`#decisions li.decision.expanded[data-seq="${whole.seq}"] .transition`),
    new RegExp(`${whole.machine!.from}.*${whole.machine!.to}`),
  );
  // a search for a word of a check alone (in no entry's line): the log asks for the entries' checks and lists those it matches
  const lines = update.decisions;
  const word = whole.because
    .flatMap((b) => b.rule.split(/[^A-Za-z]+/))
    .find((w) => w.length >= 8 && !lines.some((d) => `${d.action} ${d.object} ${d.summary}`.toLowerCase().includes(w.toLowerCase())));
  assert.ok(word, 'a word of the checks alone');
  await a.page.locator('#filter-search input').fill(word);
  await until(() => a.received.some((m) => m.type === 'decisionDetails'), 'the log asked for the checks');
  await a.settled();
  const matching = (pass: number) => {
    const listed = new Set(lines.map((d) => d.seq));
    return s.sim.trace.filter((d) => d.pass === pass && listed.has(d.seq) && d.because.some((b) => b.rule.toLowerCase().includes(word.toLowerCase()))).length;
  };
  const expected = matching(unknownPass);
  assert.ok(expected > 0, 'the search matches entries');
  await a.page.waitForFunction((n) => document.querySelector('#decisions li.decision')?.getAttribute('aria-setsize') === String(n), expected);
  assert.equal((await logRows(a.page)).length, expected, 'read through, the log lists the matches');
  // a step back: the log of that pass, searched alike, as a fresh panel draws it
  await clickTo(a, 'stepBack', unknownPass - 1);
  await a.settled();
  const b = await fresh(file, unknownPass - 1);
  await b.page.locator('#filter-search input').fill(word);
  await b.settled();
  for (const p of [a, b]) await p.settled();
  assert.equal(await logText(a.page), await logText(b.page), 'stepped back: the log');
  assert.equal(await a.text('#log-caption'), await b.text('#log-caption'), 'stepped back: the caption');
  await b.close();
  assert.deepEqual(a.errors, []);
  await a.close();
});
