/**
 * The reality lane in Debian's chromium (playwright-core), with the real
 * host: a real kube-controller-manager log (test/fixtures/real-evidence) is
 * imported as Import Evidence does, its scenario opened as the untitled
 * editor's text is, and the extension's Session over the real engine answers
 * the page's messages in this process (delivered as VS Code delivers them:
 * JSON, a message event). One real entry is moved two minutes later, so the
 * lane holds a match, two decisions only real and one only simulated.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { serveWebview, type Served } from './harness/page';
import { RealPanel } from './harness/realPanel';
import { openScenarioText } from '../../src/extension/openScenario';
import { importEvidenceFiles } from '../../src/extension/evidence';
import { nodeFs, readChunks } from '../../src/platform/nodeFs';

const root = resolve(__dirname, '../..');
const LOG = join(root, 'test/fixtures/real-evidence/kcm-1.14-k8s-worker3-unreachable.log');
let served: Served;
let origin = '';
let browser: Browser;

before(async () => {
  served = await serveWebview({ prelude: false });
  origin = served.origin;
  browser = served.browser;
});

after(async () => {
  await served?.close();
});

/** The scenario Import Evidence makes of the real log, with the NodeQueuedForTainting entry moved 2m later. */
function importedText(): { text: string; file: string } {
  const r = importEvidenceFiles([LOG], { fs: nodeFs(), readChunks }, Date.parse('2026-12-02T00:00:00Z') * 1000);
  if (!r.ok) throw new Error(r.message);
  const moved = r.imported.text.replace(
    'at: 2019-05-16T19:33:17.229Z\n    action: NodeQueuedForTainting',
    'at: 2019-05-16T19:35:17.229Z\n    action: NodeQueuedForTainting',
  );
  assert.notEqual(moved, r.imported.text, 'the entry to move is in the imported text');
  return { text: moved, file: r.imported.file };
}

/** The panel of an imported scenario; dropped evidence is accepted as Ctx would start importing it. */
const Panel = {
  open: async (text: string, file: string) => {
    const p = await RealPanel.open(browser, origin, () => openScenarioText(text, file), {
      dropEvidence: (uris) => ({ ok: true, message: `importing ${uris.length}` }),
    });
    return Object.assign(p, { session: p.session!, marks: (selector: string) => p.page.locator(`#reality ${selector}`) });
  },
};

test('the reality lane shows the real decisions up to now under the simulated marks, matched and mismatched ones distinct, and the Why gives the matched real line or the likely reason', async () => {
  const { text, file } = importedText();
  const p = await Panel.open(text, file);
  try {
    // at the start nothing real has happened yet
    assert.equal(await p.marks('.reality-mark').count(), 0);
    assert.match(await p.page.locator('#reality-summary').innerText(), /0 matched · 0 only real · 0 only simulated \(of 3 real, within 5s\)/);

    // to 19:34: the NoSchedule taint matched, the NoExecute taint only real, the queueing only simulated (its real twin is at 19:35)
    await p.page.locator('#run-until input').fill('2019-05-16T19:34:00Z');
    await p.page.locator('#run-until-go').click();
    await p.page.locator('#reality-summary', { hasText: '1 matched · 1 only real · 1 only simulated' }).waitFor();
    assert.equal(await p.marks('.reality-mark.matched').count(), 1);
    assert.equal(await p.marks('.reality-mark.only-real').count(), 1);
    assert.equal(await p.marks('.reality-mark.only-simulated').count(), 1);
    assert.equal(await p.marks('.reality-mark.only-real').getAttribute('data-index'), '2');
    // the lane lies under the simulated decision marks
    const lane = await p.page.locator('#reality').boundingBox();
    const sim = await p.page.locator('#marks').boundingBox();
    assert.ok(lane && sim && lane.y >= sim.y + sim.height - 1, `the lane (${lane?.y}) is under the decision marks (${sim?.y})`);

    // a matched real mark: the panel jumps to it and the Why of the simulated decision shows the real line
    const seq = await p.marks('.reality-mark.matched').getAttribute('data-seq');
    await p.marks('.reality-mark.matched').click();
    await p.page.locator('#why-reality.matched').waitFor();
    await p.settled();
    assert.equal(p.received.at(-1)?.type, 'selectReality');
    assert.match(await p.page.locator('#why-decision').innerText(), /TaintAdded/);
    assert.equal(String(p.session.selectedSeq), seq);
    assert.match(await p.page.locator('#why-evidence .evidence-where').innerText(), /kcm-1\.14-k8s-worker3-unreachable\.log:1$/);
    assert.match(
      await p.page.locator('#why-evidence .evidence-text').innerText(),
      /^I0516 19:33:12\.204484 .*Added \[&Taint\{Key:node\.kubernetes\.io\/unreachable,Value:,Effect:NoSchedule/,
    );
    assert.match(await p.page.locator('#why-reality-real').innerText(), /simulated #\d+, \+0s/);
    assert.equal(await p.marks('.reality-mark.matched').evaluate((e) => e.classList.contains('current')), true);
    // the jump went back to the decision's time: the later real decisions are off the lane again
    assert.match((await p.page.locator('#time').getAttribute('title')) ?? '', /T19:33:1/);
    assert.equal(await p.marks('.reality-mark.only-real').count(), 0);

    // forward again; the only-real mark: the Why gives the likely reason
    await p.page.locator('#run-until input').fill('2019-05-16T19:34:00Z');
    await p.page.locator('#run-until-go').click();
    await p.marks('.reality-mark.only-real').waitFor();
    await p.marks('.reality-mark.only-real').click();
    await p.page.locator('#why-reality.only-real').waitFor();
    assert.match(await p.page.locator('#why-reality-reasons').innerText(), /FullDisruption/);
    assert.match(await p.page.locator('#why-evidence .evidence-where').innerText(), /log:4$/);

    // the only-simulated mark selects its decision, whose Why says reality shows none
    await p.page.locator('#run-until input').fill('2019-05-16T19:34:00Z');
    await p.page.locator('#run-until-go').click();
    await p.marks('.reality-mark.only-simulated').waitFor();
    await p.marks('.reality-mark.only-simulated').click();
    await p.page.locator('#why-reality.only-simulated').waitFor();
    assert.match(await p.page.locator('#why-decision').innerText(), /NodeQueuedForTainting/);
    assert.match(await p.page.locator('#why-reality-reasons').innerText(), /real .*later|2m/);
    assert.deepEqual(p.errors, []);
  } finally {
    await p.page.close();
  }
});

test('files dropped onto the panel are posted to the host as their URIs', async () => {
  const { text, file } = importedText();
  const p = await Panel.open(text, file);
  try {
    await p.page.evaluate(`(() => {
      const dt = new DataTransfer();
      dt.setData('text/uri-list', '# a comment line\\r\\nfile:///evidence/kcm.log\\r\\nfile:///evidence/events.yaml');
      document.body.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    })()`);
    await p.settled();
    assert.deepEqual(
      p.received.filter((m) => m.type === 'dropEvidence'),
      [{ type: 'dropEvidence', uris: ['file:///evidence/kcm.log', 'file:///evidence/events.yaml'] }],
    );
    assert.equal(await p.page.evaluate('document.body.classList.contains("drop-target")'), false, 'the drop highlight goes with the drop');
  } finally {
    await p.page.close();
  }
});

test('the Why of a real NodeNotReady Event lists the other pod whose Event the same simulated PodsMarkedNotReady matched', async () => {
  const r = importEvidenceFiles(
    [join(root, 'test/fixtures/real-evidence/kcm-1.28-node-down-taint-eviction.log')],
    { fs: nodeFs(), readChunks },
    Date.parse('2026-12-02T00:00:00Z') * 1000,
  );
  if (!r.ok) throw new Error(r.message);
  const p = await Panel.open(r.imported.text, r.imported.file);
  try {
    await p.page.locator('#run-until input').fill('2026-08-27T02:06:00Z');
    await p.page.locator('#run-until-go').click();
    await p.page.locator('#reality-summary', { hasText: '2 matched · 0 only real · 0 only simulated' }).waitFor();
    await p.marks('.reality-mark[data-index="0"]').click();
    await p.page.locator('#why-reality.matched').waitFor();
    assert.match(await p.page.locator('#why-decision').innerText(), /PodsMarkedNotReady/);
    assert.match(await p.page.locator('#why-reality-real').innerText(), /Pod\/supcon\/ice1-1/);
    assert.match(await p.page.locator('#why-reality-also').innerText(), /Pod\/supcon\/datacenter-dc-0 .*kcm-1\.28-node-down-taint-eviction\.log:3/);
    assert.deepEqual(p.errors, []);
  } finally {
    await p.page.close();
  }
});
