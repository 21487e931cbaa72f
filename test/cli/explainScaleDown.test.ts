/**
 * `explain` of a pod and its ReplicaSet before a scale-down the timeline holds (rs-scale-down-1.12: 6
 * pods scaled to 2 at +1m): which pods go and when, which rule keeps the others, in text and JSON.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../helpers/cliRun';

const FILE = 'examples/rs-scale-down-1.12.yaml';

test("explain names a scale-down's deletions before the scale: the pod that goes, the pod kept and why, the ReplicaSet's", async () => {
  const goes = await runCli('explain', FILE, '--object', 'Pod/default/shop-5c8d-a', '--until', '30s');
  assert.equal(goes.code, 0, goes.err);
  assert.match(
    goes.out,
    /deleted by a scale-down \(manageReplicas \/ getPodsToDelete\): .*ranked among the 4 pods deleted \(sync 1\): before shop-5c8d-f \(the first pod kept\): ready for a shorter time goes first .*; if the timeline scales ReplicaSet\/default\/shop-5c8d to 2 at \+1m00s \(2026-01-01T00:01:00\.000Z\): at \+1m00s/,
  );
  const kept = await runCli('explain', FILE, '--object', 'Pod/default/shop-5c8d-b', '--until', '30s', '--format', 'json');
  assert.equal(kept.code, 0, kept.err);
  const w = JSON.parse(kept.out).whyNot.find((x: { outcome?: string }) => x.outcome === 'PodDeletedByScaleDown');
  assert.equal(w.never, true);
  assert.equal(w.neverIf, 'the timeline scales ReplicaSet/default/shop-5c8d to 2 at 2026-01-01T00:01:00.000Z: it is kept');
  assert.equal(w.blocking.guard, 'getPodsToDelete');
  assert.deepEqual([w.check.values.ranking, w.check.values.deletedInstead], ['readyTime', 'shop-5c8d-e']);
  const rs = await runCli('explain', FILE, '--object', 'ReplicaSet/default/shop-5c8d', '--until', '30s', '--format', 'json');
  const r = JSON.parse(rs.out).whyNot.find((x: { outcome?: string }) => x.outcome === 'ReplicaSetPodsDeleted');
  assert.deepEqual(r.check.values.deleting, ['shop-5c8d-c', 'shop-5c8d-d', 'shop-5c8d-a', 'shop-5c8d-e']);
  assert.equal(r.conditional.at, '2026-01-01T00:01:00.000Z');
});

// Two scales of one ReplicaSet at one instant: the sync after them deletes down to the last one's count.
// Reading the first (6 -> 4), shop-5c8d-c was "kept"; the run deletes it with a, b and d (6 -> 2).
test('explain reads the last of two scales of one ReplicaSet at the same instant, as the sync after them does', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-two-scales-'));
  try {
    cpSync('examples/clusters', join(dir, 'clusters'), { recursive: true });
    const text = readFileSync('examples/rs-scale-down-1.31.yaml', 'utf8')
      .replace(
        '  - at: 1m\n    scale: {replicaSet: default/shop-5c8d, replicas: 2}',
        '  - at: 1m\n    scale: {replicaSet: default/shop-5c8d, replicas: 4}\n  - at: 1m\n    scale: {replicaSet: default/shop-5c8d, replicas: 2}',
      )
      .split('expect:')[0];
    assert.match(text, /replicas: 4\}\n {2}- at: 1m\n {4}scale/);
    const file = join(dir, 'two-scales.yaml');
    writeFileSync(file, text);
    const c = await runCli('explain', file, '--object', 'Pod/default/shop-5c8d-c', '--until', '30s', '--format', 'json');
    assert.equal(c.code, 0, c.err);
    const w = JSON.parse(c.out).whyNot.find((x: { outcome?: string }) => x.outcome === 'PodDeletedByScaleDown');
    assert.equal(w.never, undefined, 'not kept');
    assert.equal(w.conditional?.at, '2026-01-01T00:01:00.000Z');
    assert.match(w.conditional.if, /scales ReplicaSet\/default\/shop-5c8d to 2 at/);
    assert.equal(JSON.parse(c.out).exists, true);
    // run forward: gone at +1m, which only the scale-down's sync does here
    const ran = await runCli('explain', file, '--object', 'Pod/default/shop-5c8d-c', '--until', '1m', '--format', 'json');
    assert.equal(ran.code, 0, ran.err);
    assert.equal(JSON.parse(ran.out).exists, false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
