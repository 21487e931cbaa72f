/**
 * Every time the user reads in the panel is an offset from the start, as
 * scenarios are written, with the clock time on hover: the times the engine
 * writes into decision messages ("will be deleted at 2026-…") included, and
 * the log's line between two passes. The real host over one-node-stops.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { realPanelsOnServedPage } from './harness/realPanel';

const file = join(resolve(__dirname, '../..'), 'examples', 'one-node-stops.yaml');
const CLOCK = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}|\b\d{2}:\d{2}:\d{2}\.\d{3}\b/;
const openPanel = realPanelsOnServedPage();

test('a decision message reads its times as offsets (the clock time on hover), in the log, its tooltip and the Why', async () => {
  const a = await openPanel(file);
  await a.runUntil('1m10s');
  await a.at('00:01:10');
  const row = a.page.locator('#decisions li.decision', { hasText: 'PodEvictionScheduled' }).filter({ hasText: 'toleration-sixty' });
  // the text, not what the line shows of it: where the object leaves less than 5em, the summary is hidden until the entry opens (fonts decide)
  assert.match((await row.locator('.summary').textContent()) ?? '', /will be deleted at \+2m10s \(tolerates/);
  assert.equal(await row.locator('.summary .time').getAttribute('title'), '2026-01-01T00:02:10.000Z');
  assert.match((await row.getAttribute('title')) ?? '', /will be deleted at \+2m10s \(2026-01-01T00:02:10\.000Z\)/);
  await row.click();
  await a.page.locator('#why-decision', { hasText: 'PodEvictionScheduled' }).waitFor();
  assert.match(await a.text('#why-summary'), /will be deleted at \+2m10s/);
  assert.doesNotMatch(await a.text('#decisions'), CLOCK);
  assert.doesNotMatch(await a.text('#why-body'), CLOCK);
  // the pod's own Why lists the same decision with the same offset
  a.session?.selectObject('Pod/default/toleration-sixty');
  await a.page.locator('#why-object', { hasText: 'toleration-sixty' }).waitFor();
  assert.match(await a.text('#why-happened'), /will be deleted at \+2m10s/);
  assert.doesNotMatch(await a.text('#why-body'), CLOCK);
  await a.close();
});

test('the log line between two passes says until an offset, not a clock time', async () => {
  // zone-large-partial's deadlines fall between passes (a node's taint at +2m50.1s, its pods deleted 5m later)
  const a = await openPanel(join(resolve(__dirname, '../..'), 'examples', 'zone-large-partial.yaml'));
  await a.runUntil('7m50.1s');
  await a.at('00:07:50');
  const between = a.page.locator('#between-passes');
  assert.equal(await between.innerText(), 'after pass 94, until +7m50.1s (before pass 95)');
  assert.equal(await between.locator('.time').getAttribute('title'), '2026-01-01T00:07:50.100Z');
  assert.doesNotMatch(await a.text('#decisions'), CLOCK);
  await a.close();
});

test('a why-not under a condition of the timeline reads the time in its condition as an offset too', async () => {
  // before the kubelet stop one-node-stops' timeline holds at 30s, node-a1's taint is named "if the timeline stops the kubelet at …"
  const a = await openPanel(file);
  a.session?.selectObject('Node/node-a1');
  await a.page.locator('#why-object', { hasText: 'node-a1' }).waitFor();
  const when = a.page.locator('#why-not .why-not-when[data-state="conditional"]', { hasText: 'the timeline stops the kubelet' }).first();
  assert.match(await when.innerText(), /^if the timeline stops the kubelet at \+30s.*: at \+1m\d+s$/);
  assert.equal(await when.locator('.time').first().getAttribute('title'), '2026-01-01T00:00:30.000Z');
  assert.doesNotMatch(await a.text('#why-body'), CLOCK);
  await a.close();
});
