/**
 * The scenario's events on the timeline: one after the last pass is not drawn at the track's end (it read as
 * happening there, its title saying otherwise); it is named past the end, and going there runs the passes before it.
 * The real host over a scenario with a kubelet stop at 30s and its start at 3m.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { realPanelsOnServedPage } from './harness/realPanel';

const dir = mkdtempSync(join(tmpdir(), 'later-events-'));
after(() => rmSync(dir, { recursive: true, force: true }));
copyFileSync(join(resolve(__dirname, '../..'), 'examples', 'clusters', 'three-zones.yaml'), join(dir, 'three-zones.yaml'));
const file = join(dir, 'stop-and-start.yaml');
writeFileSync(
  file,
  [
    'apiVersion: controllerstepper.io/v1alpha1',
    'kind: Scenario',
    'metadata:',
    '  name: stop-and-start',
    'kubernetesVersion: "1.31"',
    'startTime: "2026-01-01T00:00:00Z"',
    'snapshot: ./three-zones.yaml',
    'events:',
    '  - at: 30s',
    '    kubelet: stop',
    '    nodes: [node-a1]',
    '  - at: 3m',
    '    kubelet: start',
    '    nodes: [node-a1]',
    '',
  ].join('\n'),
);
const openPanel = realPanelsOnServedPage();

test('an event after the last pass is named past the track, not drawn at its end; going there runs to it', async () => {
  const a = await openPanel(file);
  await a.settled();
  const marks = a.page.locator('#events .event-mark');
  const later = a.page.locator('#events-later');
  // at the start the track is one pass long: both events are later
  assert.equal(await marks.count(), 0, 'no event drawn on a track that ends before it');
  assert.equal(await later.innerText(), '+30s \u25b8');
  assert.match(
    (await later.getAttribute('title')) ?? '',
    /^later in the scenario, past the last pass: \+30s \(2026-01-01T00:00:30\.000Z\): kubelet stop: node-a1; \+3m00s \(2026-01-01T00:03:00\.000Z\): kubelet start: node-a1$/,
  );

  await a.runUntil('1m');
  await a.at('00:01:00');
  assert.equal(await marks.count(), 1);
  assert.match((await marks.first().getAttribute('title')) ?? '', /^\+30s /);
  // the one drawn sits at its time on the axis, half way between the +20s and +40s ticks (labels centred on them)
  const centre = (sel: string) =>
    a.page.locator(sel).evaluate((e) => {
      const r = e.getBoundingClientRect();
      return r.left + r.width / 2;
    });
  const [x, x20, x40] = [await centre('#events .event-mark'), await centre('#axis .tick >> text="+20s"'), await centre('#axis .tick >> text="+40s"')];
  assert.ok(Math.abs(x - (x20 + x40) / 2) < 2, `the +30s event at ${x}, +20s at ${x20}, +40s at ${x40}`);
  assert.equal(await later.innerText(), '+3m00s \u25b8');
  const sideways = await a.page.evaluate(() =>
    [document.documentElement, document.getElementById('timeline')!].filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.id || e.tagName),
  );
  assert.deepEqual(sideways, [], 'nothing to scroll sideways');

  // the marker goes to the first pass that shows the later event's consequences
  await later.click();
  await a.at('00:03:00');
  assert.equal(await a.text('#pass'), '36');
  assert.equal(await marks.count(), 2);
  assert.equal(await later.isVisible(), false);
  await a.close();
});
