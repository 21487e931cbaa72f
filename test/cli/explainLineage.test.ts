import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../helpers/cliRun';

test('explain of a replacement pod says which ReplicaSet created it and which eviction it replaces', async () => {
  const r = await runCli('explain', 'examples/rs-zone-outage.yaml', '--object', 'Pod/default/web-7d9f-pxwsk', '--until', '6m20s');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /Created by ReplicaSet\/default\/web-7d9f: \S+ {2}#\d+ PodsCreated/);
  assert.match(r.out, /replacing {2}\S+ {2}#\d+ PodEvicted Pod\/default\/web-7d9f-w5zkb/);
});

test('explain of a pod from the snapshot has no creation line', async () => {
  const r = await runCli('explain', 'examples/rs-zone-outage.yaml', '--object', 'Pod/default/web-7d9f-6wlhb', '--until', '1m');
  assert.equal(r.code, 0, r.err);
  assert.doesNotMatch(r.out, /Created by/);
});
