/**
 * The built webview (out/webview.js) in a real browser, Debian's chromium
 * driven by playwright-core, with a fake host speaking the same typed protocol
 * (test/webview/harness/fakeHost.ts: the extension's Session over a scripted
 * simulation). Run by scripts/test-phase-1-browser.mjs after the build.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { serveWebview, type Served } from './harness/page';
import { fakePasses } from '../extension/fakeSimulation';
import { FIRST_ROWS } from '../../src/protocol/lists';

let served: Served;
let origin = '';
let browser: Browser;

before(async () => {
  served = await serveWebview({ prelude: true });
  origin = served.origin;
  browser = served.browser;
});

after(async () => {
  await served?.close();
});

interface Opened {
  page: Page;
  errors: string[];
  dialogs: string[];
  cspViolations: string[];
}

async function open(mode: 'plain' | 'hostile' | 'big' = 'plain'): Promise<Opened> {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(10_000);
  const errors: string[] = [];
  const dialogs: string[] = [];
  const cspViolations: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) cspViolations.push(m.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const w = window as unknown as { __violations?: string[] };
      (w.__violations ??= []).push(`${e.violatedDirective} ${e.sourceFile}:${e.lineNumber}:${e.columnNumber} ${e.sample}`);
    });
  });
  await page.goto(`${origin}/index.html#${mode}`);
  await page.locator('#scenario-name', { hasText: 'one-node-stops' }).waitFor();
  return { page, errors, dialogs, cspViolations };
}

const pass = (page: Page) => page.locator('#pass').innerText();
const click = (page: Page, action: string) => page.locator(`vscode-button[data-action="${action}"]`).click();

async function runUntil(page: Page, text: string) {
  await page
    .locator('#run-until input')
    .fill(text)
    .catch(async () => {
      await page.locator('#run-until').click();
      await page.keyboard.type(text);
    });
  await page.locator('#run-until-go').click();
}

test('the page runs under a CSP of default-src none with a nonce, and the webview says ready once', async () => {
  const { page, errors, cspViolations } = await open();
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  assert.match(csp ?? '', /^default-src 'none'; /);
  assert.match(csp ?? '', /script-src 'nonce-/);
  const received = await page.evaluate(() => window.harness.received.map((m) => m.type));
  assert.deepEqual(
    received.filter((t) => t !== 'painted'),
    ['ready'],
  );
  assert.deepEqual(errors, []);
  assert.deepEqual(cspViolations, [], String(await page.evaluate(() => (window as unknown as { __violations?: string[] }).__violations)));
  await page.close();
});

test('stepping moves one monitor pass forward and stepping back one pass back', async () => {
  const { page, errors } = await open();
  assert.equal(await pass(page), 'none yet');
  await click(page, 'step');
  await page.locator('#pass', { hasText: '0' }).waitFor();
  await click(page, 'step');
  await click(page, 'step');
  await page.locator('#pass', { hasText: '2' }).waitFor();
  assert.equal(await page.locator('#time').innerText(), '+10s');
  assert.equal(await page.locator('#time').getAttribute('title'), '2026-01-01T00:00:10.000Z');
  await click(page, 'stepBack');
  await page.locator('#pass', { hasText: /^1$/ }).waitFor();
  assert.equal(await page.locator('#time').innerText(), '+5s');
  assert.deepEqual(errors, []);
  await page.close();
});

test('the routine monitor-pass tick is collapsed in the decision log', async () => {
  const { page } = await open();
  await click(page, 'step');
  await page.locator('#noise-toggle').waitFor();
  assert.match(await page.locator('#noise-toggle').innerText(), /1 routine tick \(MonitorPass\) hidden/);
  assert.equal(await page.locator('#decisions li.decision .action', { hasText: 'MonitorPass' }).count(), 0);
  assert.equal(await page.locator('#decisions li.decision .action', { hasText: 'AssumptionMade' }).count(), 1);
  await page.close();
});

test('running until the taint shows why: the checks with their values, and the causes back to the world event', async () => {
  const { page, errors } = await open();
  await runUntil(page, 'next TaintAdded on node-a1');
  await page.locator('#pass', { hasText: String(fakePasses.TAINT_PASS) }).waitFor();
  const row = page.locator('#decisions li.decision.selected');
  await row.waitFor();
  assert.match(await row.innerText(), /TaintAdded/);
  await row.click();
  await page.locator('#why-decision', { hasText: 'TaintAdded' }).waitFor();
  const checks = await page.locator('#why-checks li').allInnerTexts();
  assert.equal(checks.length, 2);
  assert.match(checks[0], /Ready condition is Unknown/);
  assert.match(checks[0], /Ready\s*=\s*Unknown/);
  assert.match(checks[1], /zone\s*=\s*us-east-1a/);
  const causes = await page.locator('#why-causes .cause').allInnerTexts();
  assert.deepEqual(
    causes.map((c) => c.split(' ').slice(3, 5).join(' ')),
    ['KubeletStopped Node/node-a1', 'NodeStatusUnknown Node/node-a1', 'NodeQueuedForTainting Node/node-a1'],
  );
  assert.equal(await page.locator('#why-causes li.world-event').count(), 1);
  assert.match(await page.locator('#why-machine').innerText(), /unknown\.queued → unknown\.tainted on TAINT_PASS/);
  assert.match(await page.locator('#why-source').innerText(), /nodelifecycle/);
  // a cause is a link back: following it shows the world event
  await page.locator('#why-causes .cause').first().click();
  await page.locator('#why-decision', { hasText: 'KubeletStopped' }).waitFor();
  assert.match(await page.locator('#why-causes').innerText(), /world event/);
  assert.deepEqual(errors, []);
  await page.close();
});

test('selecting a tainted node shows its taint, its machine with the current state highlighted and the last transition marked', async () => {
  const { page } = await open();
  await runUntil(page, 'next TaintAdded');
  await page.locator('#pass', { hasText: String(fakePasses.TAINT_PASS) }).waitFor();
  const node = page.locator('#nodes .node[data-ref="Node/node-a1"]');
  assert.match(await node.innerText(), /unreachable:NoExecute/);
  assert.equal(await node.locator('.chip.noexecute').getAttribute('title'), 'node.kubernetes.io/unreachable:NoExecute');
  assert.match((await node.getAttribute('class')) ?? '', /ready-Unknown/);
  await node.click();
  await page.locator('#why-object', { hasText: 'Node/node-a1' }).waitFor();
  await page.locator('#tab-machine').click();
  await page.locator('#machine-current', { hasText: 'unknown.tainted' }).waitFor();
  assert.equal(await page.locator('#machine-body .state-box.current[data-state="unknown.tainted"]').count(), 1);
  assert.equal(await page.locator('#machine-body .state-box.active[data-state="unknown"]').count(), 1);
  assert.equal(await page.locator('#machine-body .state-box.active[data-state="ready"]').count(), 0);
  const last = await page.locator('#machine-body .transition.last').evaluateAll((ts) => ts.map((t) => t.getAttribute('aria-label')));
  assert.equal(last.length, 1);
  assert.match(last[0] ?? '', /TAINT_PASS \[queueReleased\]: unknown\.queued → unknown\.tainted/);
  // its pods, with the eviction countdown of the one that tolerates the taint for 300 s
  const pods = await page.locator('#pods .pod').allInnerTexts();
  assert.equal(pods.length, 2);
  assert.match(pods.find((p) => p.includes('web-1')) ?? '', /evicted in 5m0s, at \+5m55s/);
  assert.equal(await page.locator('#pods .pod[data-ref="Pod/default/web-1"] .countdown').getAttribute('title'), '2026-01-01T00:05:55.000Z');
  assert.doesNotMatch(pods.find((p) => p.includes('db-1')) ?? '', /evict/);
  await page.close();
});

test('a surviving pod says why it was not evicted', async () => {
  const { page } = await open();
  await runUntil(page, '10m');
  await page.locator('#nodes .node[data-ref="Node/node-a1"]').click();
  await page.locator('#pods .pod[data-ref="Pod/default/db-1"]').click();
  await page.locator('#why-object', { hasText: 'Pod/default/db-1' }).waitFor();
  assert.match(await page.locator('#why-not').innerText(), /PodEvicted: the pod tolerates node\.kubernetes\.io\/unreachable:NoExecute forever/);
  await page.close();
});

test('the timeline marks passes with decisions, and scrubbing or clicking a mark jumps there', async () => {
  const { page } = await open();
  await runUntil(page, '2m');
  await page.locator('#pass', { hasText: '24' }).waitFor();
  const marks = await page.locator('#marks .mark').evaluateAll((ms) => ms.map((m) => Number((m as HTMLElement).dataset.pass)));
  assert.deepEqual(marks, [0, fakePasses.STOP_PASS, fakePasses.UNKNOWN_PASS, fakePasses.TAINT_PASS]);
  await page.locator('#scrubber').fill('5');
  await page.locator('#pass', { hasText: /^5$/ }).waitFor();
  await page.locator(`#marks .mark[data-pass="${fakePasses.UNKNOWN_PASS}"]`).click();
  await page.locator('#pass', { hasText: String(fakePasses.UNKNOWN_PASS) }).waitFor();
  assert.ok(await page.locator('#decisions .action', { hasText: 'NodeStatusUnknown' }).count());
  const jumps = await page.evaluate(() => window.harness.received.filter((m) => m.type === 'goToPass').map((m) => (m as { pass: number }).pass));
  assert.deepEqual(jumps, [5, fakePasses.UNKNOWN_PASS]);
  await page.close();
});

test('a what-if re-run from the toolbar shows the two traces compared', async () => {
  const { page } = await open();
  await runUntil(page, '2m');
  await page.locator('#whatif-key').selectOption('nodeMonitorGracePeriod');
  await page
    .locator('#whatif-value input')
    .fill('20s')
    .catch(async () => {
      await page.locator('#whatif-value').click();
      await page.keyboard.type('20s');
    });
  await page.locator('#whatif-go').click();
  await page.locator('#whatif-summary').waitFor();
  assert.match(await page.locator('#whatif-summary').innerText(), /nodeMonitorGracePeriod=20s/);
  // offsets as scenarios are written, the clock times on hover
  assert.match(await page.locator('#whatif-moved').innerText(), /NodeStatusUnknown Node\/node-a1: \+50s → \+30s/);
  assert.deepEqual(
    await page
      .locator('#whatif-moved li')
      .first()
      .locator('.time')
      .evaluateAll((es) => es.map((e) => e.getAttribute('title'))),
    ['2026-01-01T00:00:50.000Z', '2026-01-01T00:00:30.000Z'],
  );
  assert.doesNotMatch(await page.locator('#whatif').innerText(), /2026-01-01T/);
  await page.close();
});

test('the assumptions the loader made are shown', async () => {
  const { page } = await open();
  await page.locator('#assumptions li').first().waitFor();
  assert.match(await page.locator('#assumptions').innerText(), /Controller memory: reconstructed/);
  assert.match(await page.locator('#problems').innerText(), /x\.yaml:3:1: warning no-leases/);
  await page.close();
});

test('hostile names, labels and messages are shown as text and nothing in them runs', async () => {
  const { page, dialogs, errors, cspViolations } = await open('hostile');
  await runUntil(page, 'next TaintAdded');
  await page.locator('#decisions li.decision.selected').click();
  await page.locator('#why-checks').waitFor();
  // every view holding workspace data: node rows, zones, pods, ReplicaSets, why, machine, what-if
  const node = page.locator('#nodes .node').first();
  await node.click();
  await page.locator('#why-object').waitFor();
  assert.match(await page.locator('#pods').innerText(), /<img src=x onerror=alert\(1\)>/);
  assert.match(await page.locator('#pods').innerText(), /javascript:alert\(document\.domain\)/);
  await page.locator('#pods .pod').first().click();
  await page.locator('#replicasets .rs').first().click();
  for (const b of await page.locator('#why-body button.link').all()) await b.click().catch(() => {});
  await runUntil(page, '10m');
  await page.locator('#whatif-key').selectOption('nodeEvictionRate');
  await page
    .locator('#whatif-value input')
    .fill('0.5')
    .catch(() => {});
  await page.locator('#whatif-go').click();
  await page.locator('#whatif-summary').waitFor();
  await page.locator('#nodes .node').first().hover();
  await page.waitForTimeout(300);
  const pwned = await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned);
  assert.equal(pwned, undefined, 'a payload ran');
  assert.deepEqual(dialogs, []);
  assert.equal(await page.locator('img, svg, iframe, b, script:not([src])').count(), 0, 'markup from the data reached the DOM');
  assert.equal(await page.locator('[onerror], [onload], [onmouseover], [href^="javascript:"], [src^="javascript:"]').count(), 0);
  // and the strings are there, as text
  assert.match(await page.locator('#nodes').innerText(), /<img src=x onerror="window\.__pwned=1">/);
  assert.match(await page.locator('#replicasets').innerText(), /"><iframe src="javascript:window\.__pwned=5">/);
  assert.match(await page.locator('#zones').innerText(), /<svg onload="window\.__pwned=3">/);
  assert.deepEqual(errors, []);
  assert.deepEqual(cspViolations, []);
  await page.close();
});

test('5,000 nodes: the list draws only the rows in view, scrolls to the last node, and a step sends only what changed', async () => {
  const { page, errors } = await open('big');
  await page.locator('#nodes .node').first().waitFor();
  const rows = await page.locator('#nodes .row').count();
  assert.ok(rows > 10 && rows < 120, `${rows} rows in the DOM`);
  const full = await page.evaluate(() => window.harness.sent.find((m) => m.type === 'update'));
  // the keys of all 5,002, the items of the first rows alone; the others when the list shows them
  assert.equal(full?.nodes, FIRST_ROWS);
  // the last row: zones in name order, us-east-1b last, node-z4998 its last node
  await page.locator('#nodes').evaluate((e) => {
    e.scrollTop = e.scrollHeight;
  });
  await page.locator('#nodes .node[data-ref="Node/node-z4998"]').waitFor();
  assert.ok((await page.locator('#nodes .row').count()) < 120);
  await click(page, 'step');
  await page.locator('#pass', { hasText: '0' }).waitFor();
  await runUntil(page, 'next NodeStatusUnknown');
  await page.locator('#pass', { hasText: String(fakePasses.UNKNOWN_PASS) }).waitFor();
  const updates = await page.evaluate(() => window.harness.sent.filter((m) => m.type === 'update'));
  assert.deepEqual(
    updates.slice(1).map((u) => u.nodes),
    [0, 0],
    'after the first update, only a node in view that changed is sent: node-a1 is not (the end of the list is)',
  );
  assert.ok(await page.evaluate(() => window.harness.received.some((m) => m.type === 'nodeWindow')), 'the list asked for the rows at its end');
  // back to the top: node-a1's row is drawn as it is now, Unknown
  await page.locator('#nodes').evaluate((e) => {
    e.scrollTop = 0;
  });
  await page.locator('#nodes .node.ready-Unknown[data-ref="Node/node-a1"]').waitFor();
  assert.ok(updates[2].bytes < full!.bytes / 20, `a step sends ${updates[2].bytes} bytes, the first update ${full!.bytes}`);
  // the filter narrows the list to the matching nodes
  await page.locator('#node-filter input').fill('Unknown');
  await page.waitForFunction(() => document.querySelectorAll('#nodes .node').length === 1);
  assert.match(await page.locator('#nodes .node').innerText(), /node-a1/);
  assert.deepEqual(errors, []);
  await page.close();
});
