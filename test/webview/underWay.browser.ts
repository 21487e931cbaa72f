/**
 * A step under way, as the user sees it (the real webview, the real host over an example): the quick click onto the
 * pass in which 1,667 nodes go Unknown holds the host for over a second at 5,000 nodes. The toolbar says at once that
 * the move is under way, and a click meanwhile waits for it (the last one clicked), instead of queueing every
 * impatient click in the host. The host is held here (RealPanel.hold) as a long step holds it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { realPanelsOnServedPage, type RealPanel } from './harness/realPanel';

const open = realPanelsOnServedPage();
const file = join(resolve(__dirname, '../..'), 'examples', 'one-node-stops.yaml');

const busy = (p: RealPanel) => p.page.locator('header.toolbar').getAttribute('aria-busy');
const actions = (p: RealPanel) => p.received.flatMap((m) => (m.type === 'action' ? [m.action] : []));
const pass = (p: RealPanel) => p.page.locator('#pass').innerText();

test('a step under way shows at once: the toolbar is busy, its bar is up, the Step button is marked; the answer clears them', async () => {
  const p = await open(file);
  p.hold();
  await p.page.locator('vscode-button[data-action="step"]').click();
  assert.equal(await busy(p), 'true');
  assert.equal(await p.page.locator('#busy').getAttribute('hidden'), null);
  assert.equal(await p.page.locator('#busy').getAttribute('aria-label'), 'step under way');
  assert.deepEqual(await p.page.locator('vscode-button.busy').evaluateAll((bs) => bs.map((b) => (b as HTMLElement).dataset.action)), ['step']);
  assert.equal(await pass(p), 'none yet');
  await p.release();
  assert.equal(await pass(p), '0');
  assert.equal(await busy(p), null);
  assert.equal(await p.page.locator('#busy').getAttribute('hidden'), '');
  assert.equal(await p.page.locator('vscode-button.busy, vscode-button.queued').count(), 0);
  assert.deepEqual(p.errors, []);
  await p.close();
});

const cases: { name: string; from: number; input: string[]; posted: string[]; then: string[]; pass: string }[] = [
  {
    name: 'a second click waits for the first step and goes with its answer: two steps',
    from: 1,
    input: ['step', 'step'],
    posted: ['step'],
    then: ['step', 'step'],
    pass: '3',
  },
  {
    name: 'clicks beyond one waiting are not piled up in the host: three clicks, two steps',
    from: 1,
    input: ['step', 'step', 'step'],
    posted: ['step'],
    then: ['step', 'step'],
    pass: '3',
  },
  {
    name: 'the last click waiting is the one that goes: Step, Step, Step back is a step and a step back',
    from: 1,
    input: ['step', 'step', 'stepBack'],
    posted: ['step'],
    then: ['step', 'stepBack'],
    pass: '1',
  },
  {
    name: 'the arrow keys wait as the buttons do',
    from: 1,
    input: ['ArrowRight', 'ArrowRight', 'ArrowRight'],
    posted: ['step'],
    then: ['step', 'step'],
    pass: '3',
  },
];

for (const c of cases) {
  test(c.name, async () => {
    const p = await open(file);
    p.session?.goToPass(c.from);
    await p.settled();
    const before = actions(p).length;
    p.hold();
    for (const x of c.input) {
      if (x.startsWith('Arrow')) {
        await p.page.locator('#decisions').focus();
        await p.page.keyboard.press(x);
      } else await p.page.locator(`vscode-button[data-action="${x}"]`).click();
    }
    // the page has handled every input: what it posted so far is all the held host got
    await p.settled();
    assert.deepEqual(actions(p).slice(before), c.posted);
    assert.equal(await busy(p), 'true');
    if (c.input.length > 1) assert.equal(await p.page.locator('vscode-button.queued').count(), 1);
    await p.release();
    // the waiting click went with the first answer; its own answer came after
    await p.settled();
    assert.deepEqual(actions(p).slice(before), c.then);
    assert.equal(await pass(p), c.pass);
    assert.equal(await busy(p), null);
    assert.deepEqual(p.errors, []);
    await p.close();
  });
}
