/**
 * The panel's assumption list (spec 1.4: whatever was assumed is shown in the UI): the
 * missing-Lease assumption, one decision per node in the trace, is one line there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { openScenario } from '../../src/extension/openScenario';
import { Session } from '../../src/extension/session';
import type { HostMessage, InitMessage } from '../../src/protocol/webview';

const REAL = resolve(__dirname, '../../../shared/fixtures/real');

function initOf(path: string): InitMessage {
  const sent: HostMessage[] = [];
  const o = openScenario(path, '');
  const session = new Session({ make: o.make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: (m) => sent.push(m) });
  session.handle({ type: 'ready' }, { play() {}, pause() {} });
  return sent.find((m): m is InitMessage => m.type === 'init')!;
}

const cases: { name: string; export: string; line?: string }[] = [
  {
    name: 'an export without Leases lists the nodes taken as renewed, in one line that leads to the first decision',
    export: 'insights-ocp44-gcp-nodes',
    line: 'No Lease in the snapshot: 6 nodes whose Ready is True taken as having renewed their Leases at the start time (missingLeases: assumed): ci-ln-3z9y7mt-f76d1-69jcr-master-0, ci-ln-3z9y7mt-f76d1-69jcr-master-1, ci-ln-3z9y7mt-f76d1-69jcr-master-2, ci-ln-3z9y7mt-f76d1-69jcr-worker-b-q6vs9, ci-ln-3z9y7mt-f76d1-69jcr-worker-c-h8zcp and 1 more.',
  },
  { name: 'an export of a version without Leases (1.10 -> 1.12) assumes nothing about them', export: 'gke-v1.10-node-from-raw-api.excerpt.json' },
];

for (const c of cases) {
  test(c.name, () => {
    const init = initOf(resolve(REAL, c.export));
    const lines = init.assumptions.filter((a) => a.text.startsWith('No Lease in the snapshot'));
    assert.deepEqual(lines, c.line ? [{ text: c.line, seq: 1 }] : []);
    assert.match(init.assumptions[0].text, /Controller memory: reconstructed/);
  });
}
