/**
 * Issue 14: the language server's answers do not wait for a big snapshot.
 * The service reads it for nothing the user waits on (code lens, hover,
 * completion of the scenario's own keys); its diagnostics come from a
 * background run that may still be pending, newest text first, kept per
 * snapshot stamp.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLanguageService, BackgroundDiagnostics, type BackgroundLintJob } from '../../src/server/service';
import { MemoryFs } from '../../src/engine/snapshot/source';
import type { LintProblem } from '../../src/engine/lint';
import { TextLines } from '../../src/server/service/text';
import { CLUSTER, CLUSTER_YAML, SCENARIO, caret, scenario } from '../engine/lint/helpers';

const URI = `file://${SCENARIO}`;

/** The workspace, counting the reads of the snapshot. */
function countingFs() {
  const fs = new MemoryFs({ [CLUSTER]: CLUSTER_YAML });
  const reads = { snapshot: 0 };
  const readText = fs.readText.bind(fs);
  fs.readText = (path: string) => {
    if (path === CLUSTER) reads.snapshot++;
    return readText(path);
  };
  return { fs, reads };
}

test('with a snapshot over the size limit, the code lens, hover and completion come back without reading it', () => {
  const { fs, reads } = countingFs();
  // the limit below the test snapshot's size: it stands for the 400 MiB one
  const service = createLanguageService({ fs, deferBytes: 100 });
  const { text, offset } = caret(scenario('1.31', 'controllerManager:\n  nodeMonitor|GracePeriod: 45s\n'));
  const pos = new TextLines(text).positionAt(offset);
  assert.deepEqual(
    service.codeLenses(URI, text).map((l) => l.command?.title),
    ['Step through'],
  );
  assert.match((service.hover(URI, text, pos)?.contents as { value: string }).value, /nodeMonitorGracePeriod/);
  const { text: t2, offset: o2 } = caret(scenario('1.31', 'controllerManager:\n  nodeMonitor|\n'));
  assert.ok(service.completion(URI, t2, new TextLines(t2).positionAt(o2)).some((c) => c.label === 'nodeMonitorGracePeriod'));
  assert.equal(reads.snapshot, 0, 'the snapshot was read');
  assert.deepEqual(service.deferred(URI, text), [CLUSTER]);
});

test('under the size limit the snapshot is read as before, and nothing is deferred', () => {
  const { fs, reads } = countingFs();
  const service = createLanguageService({ fs });
  const text = scenario('1.31', '');
  assert.equal(service.codeLenses(URI, text).length, 1);
  assert.equal(reads.snapshot, 1);
  assert.deepEqual(service.deferred(URI, text), []);
});

/** A background lint whose runs are settled by the test. */
function pendingLint() {
  const runs: { job: BackgroundLintJob; settle(p: LintProblem[]): void }[] = [];
  const lint = (job: BackgroundLintJob) =>
    new Promise<{ problems: LintProblem[] }>((resolve) => runs.push({ job, settle: (problems) => resolve({ problems }) }));
  return { runs, lint };
}
const problem = (message: string): LintProblem => ({ code: 'x', severity: 'warning', message });
const flush = () => new Promise((r) => setImmediate(r));

test('the background lint runs once at a time, drops the result of a text edited meanwhile, and runs the newest', async () => {
  const { runs, lint } = pendingLint();
  const done: [string, string[]][] = [];
  const bg = new BackgroundDiagnostics({ lint, stamp: () => 's1', done: (_u, text, ps) => done.push([text, ps.map((p) => p.message)]) });
  assert.equal(bg.request({ uri: URI, text: 'v1' }, [CLUSTER]), undefined, 'nothing yet: the run is pending');
  assert.equal(bg.request({ uri: URI, text: 'v2' }, [CLUSTER]), undefined);
  assert.equal(runs.length, 1, 'one run at a time');
  runs[0].settle([problem('for v1')]);
  await flush();
  assert.deepEqual(done, [], 'the result for v1 is stale');
  assert.equal(runs.length, 2);
  assert.equal(runs[1].job.text, 'v2');
  runs[1].settle([problem('for v2')]);
  await flush();
  assert.deepEqual(done, [['v2', ['for v2']]]);
});

test('the same text over an unchanged snapshot is not linted again; a snapshot whose stamp changed is', async () => {
  const { runs, lint } = pendingLint();
  let stamp = '100:1';
  const bg = new BackgroundDiagnostics({ lint, stamp: () => stamp, done: () => {} });
  bg.request({ uri: URI, text: 'v1' }, [CLUSTER]);
  runs[0].settle([problem('p')]);
  await flush();
  assert.deepEqual(
    bg.request({ uri: URI, text: 'v1' }, [CLUSTER])?.map((p) => p.message),
    ['p'],
  );
  assert.equal(bg.runs, 1);
  stamp = '101:2';
  assert.equal(bg.request({ uri: URI, text: 'v1' }, [CLUSTER]), undefined);
  assert.equal(bg.runs, 2);
});

test('the background problems become the document\u2019s diagnostics, the snapshot\u2019s on the snapshot: key', () => {
  const service = createLanguageService({ fs: countingFs().fs, deferBytes: 100 });
  const text = scenario('1.31', '');
  const ds = service.toDiagnostics(URI, text, [{ code: 'bad-node', severity: 'error', message: 'bad', position: { file: CLUSTER, line: 3, column: 1 } }]);
  assert.equal(ds.length, 1);
  assert.match(ds[0].message, /^cluster\.yaml:3:1: bad$/);
  assert.equal(
    ds[0].range.start.line,
    text.split('\n').findIndex((l) => l.startsWith('snapshot:')),
  );
});
