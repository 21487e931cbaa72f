/**
 * The open's first update goes without the pods' items; the real webview says
 * when it has painted it (the panel's load progress ends then), and the host
 * makes them in idle time, not on that message (the real host over an example,
 * messages as VS Code delivers them).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { serveWebview, type Served } from './harness/page';
import { RealPanel } from './harness/realPanel';
import { openScenario } from '../../src/extension/openScenario';

let served: Served;
before(async () => {
  served = await serveWebview({ prelude: false });
});
after(async () => {
  await served?.close();
});

test("after the open's first paint the webview says so, and the host's idle time makes every pod's item without anything reading them", async () => {
  const file = join(resolve(__dirname, '../..'), 'examples', 'rs-zone-outage.yaml');
  const p = await RealPanel.open(served.browser, served.origin, () => openScenario(file, ''));
  const records = () => (p.session as unknown as { kept: { records: { podsPending?: unknown; view: { pods: Map<string, unknown> } } } }).kept.records;
  for (let i = 0; i < 50 && !p.received.some((m) => m.type === 'painted'); i++) await p.settled();
  assert.deepEqual(
    p.received.map((m) => m.type),
    ['ready', 'painted'],
  );
  assert.notEqual(records().podsPending, undefined, 'painted makes nothing: a Step clicked at once does not wait for it');
  const sent = p.sent.length;
  while (p.session!.idleSlice(() => true));
  assert.equal(records().podsPending, undefined);
  assert.equal(records().view.pods.size, p.session!.sim.cluster!.pods.size);
  await p.settled();
  assert.equal(p.sent.length, sent, 'nothing sent: the counts the webview holds were right');
  assert.deepEqual(p.errors, []);
  await p.close();
});
