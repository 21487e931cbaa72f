/**
 * `import` and `compare` from the command line: real samples in, a scenario
 * out that the other commands accept, and a comparison whose exit code says
 * whether simulation and reality agree.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, runCliWith } from '../helpers/cliRun';
import { nodeFs } from '../../src/platform/nodeFs';

const F = 'test/fixtures/real-evidence';
const tmp = mkdtempSync(join(tmpdir(), 'cs-import-'));
const save = (name: string, text: string) => {
  const p = join(tmp, name);
  writeFileSync(p, text);
  return p;
};

describe('controller-stepper import', () => {
  it('imports a real node failure into a scenario that validate accepts, citing its evidence', async () => {
    const r = await runCli('import', `${F}/kcm-1.28-node-down-taint-eviction.log`, '--version', '1.28', '--at', '2024-09-01T00:00:00Z');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /^# Imported by `controller-stepper import` from:/);
    assert.match(r.out, /# evidence: test\/fixtures\/real-evidence\/kcm-1.28-node-down-taint-eviction.log:2:/);
    assert.match(r.out, /kubelet: stop/);
    assert.match(r.out, /\nreality:\n/);
    const v = await runCli('validate', save('imported-28.yaml', r.out));
    assert.equal(v.code, 0, v.out + v.err);
  });
  it('reads a folder of evidence, and warns about the files it cannot read', async () => {
    save('notes.txt', 'we restarted the nodes on Tuesday\n');
    const r = await runCli('import', F, tmp, '--at', '2026-12-02T00:00:00Z');
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /notes.txt:1:1: warning unrecognised-format/);
    assert.match(r.out, /events-table-rancher-29997.txt \(events-table, 9 lines\)/);
    assert.doesNotMatch(r.out, /SOURCES.md/);
    assert.match(r.out, /kcm-1.14-k8s-worker3-unreachable.log \(controller-manager-log, 6 lines\)/);
  });
  it("reads files through the shell's chunked reader when it has one", async () => {
    const text = readFileSync(`${F}/kcm-1.14-k8s-worker3-unreachable.log`, 'utf8');
    const fs = {
      ...nodeFs(),
      readText: () => {
        throw new Error('read whole');
      },
    };
    const { code, out } = await runCliWith(['import', `${F}/kcm-1.14-k8s-worker3-unreachable.log`], {
      fs,
      readChunks: () => [text.slice(0, 100), text.slice(100, 101), text.slice(101)],
    });
    assert.equal(code, 0);
    assert.match(out, /action: NodeQueuedForTainting/);
  });
  const bad: [string, string[], RegExp][] = [
    ['no files is a usage error', ['import'], /give one or more evidence files/],
    ['a missing file is unreadable input', ['import', 'nope.log'], /cannot read nope.log/],
    ['a bad --at is a usage error', ['import', `${F}/kcm-1.14-k8s-worker3-unreachable.log`, '--at', 'yesterday'], /--at wants an RFC3339 time/],
    ['a version out of range is a usage error', ['import', `${F}/kcm-1.14-k8s-worker3-unreachable.log`, '--version', '1.9'], /--version 1.9 is not a version/],
    ['an unknown option is a usage error', ['import', `${F}/kcm-1.14-k8s-worker3-unreachable.log`, '--until', '5m'], /unknown option --until/],
    [
      'evidence of no known format is unreadable input',
      ['import', save('notes.txt', 'we restarted the nodes on Tuesday\n')],
      /none of notes.txt is evidence this tool reads/,
    ],
  ];
  for (const [name, argv, message] of bad) {
    it(`exit 2: ${name}`, async () => {
      const r = await runCli(...argv);
      assert.equal(r.code, 2);
      assert.match(r.err, message);
    });
  }
});

describe('controller-stepper compare', () => {
  it('a real 1.28 node failure agrees with its simulation: exit 0', async () => {
    const imported = await runCli('import', `${F}/kcm-1.28-node-down-taint-eviction.log`, '--version', '1.28', '--at', '2024-09-01T00:00:00Z');
    const r = await runCli('compare', save('c28.yaml', imported.out));
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /AGREE: 4 matched, 0 only real, 0 only simulated/);
    assert.match(r.out, /PodEvicted +Pod\/supcon\/ice1-1 +simulated -328ms/);
  });
  it('a node registered three times in its describe: the two restarts are inferred, and the comparison agrees: exit 0', async () => {
    const imported = await runCli('import', `${F}/describe-node-1.28-lfs258.txt`, '--at', '2024-03-19T11:02:23Z');
    assert.equal(imported.code, 0, imported.err);
    assert.deepEqual(
      [...imported.out.matchAll(/- at: (\S+)\n +restartControllerManager: true/g)].map((m) => m[1]),
      ['2024-03-18T16:02:23.000Z', '2024-03-19T10:57:30.000Z'],
    );
    assert.match(imported.out, /# inferred: Node\/ip-172-31-40-74 registered again with no RemovingNode between/);
    const r = await runCli('compare', save('describe-node.yaml', imported.out));
    assert.equal(r.code, 0, r.out + r.err);
    assert.match(r.out, /AGREE: 3 matched, 0 only real, 0 only simulated/);
  });
  it('the rancher events table: the evicted pods get a stand-in node; with a healthy node beside it the evictions match, the cancellations say why', async () => {
    const imported = await runCli('import', `${F}/events-table-rancher-29997.txt`, '--at', '2020-11-01T12:00:00Z');
    assert.equal(imported.code, 0, imported.err);
    assert.match(imported.out, /# assumed: pods evicted by the taint eviction controller at .* called unnamed-node-1/);
    // the events name no other node: the stand-in alone is a zone in FullDisruption, which holds evictions back (said)
    const alone = await runCli('compare', save('rancher.yaml', imported.out));
    assert.equal(alone.code, 1);
    assert.match(alone.out, /zone of the nodes without a zone label was in FullDisruption/);
    const edited = imported.out.replace(
      /^objects:$/m,
      'objects:\n  - {apiVersion: v1, kind: Node, metadata: {name: healthy}, status: {conditions: [{type: Ready, status: "True", lastHeartbeatTime: "2020-11-01T11:52:00Z", lastTransitionTime: "2020-11-01T00:00:00Z"}]}}',
    );
    const r = await runCli('compare', save('rancher-edited.yaml', edited));
    assert.match(r.out, /DIFFER: 3 matched, 3 only real, 0 only simulated/);
    assert.equal([...r.out.matchAll(/PodEvicted +Pod\/\S+ +simulated [+-]0s/g)].length, 3, r.out);
    assert.equal([...r.out.matchAll(/likely: the real controller cancelled Pod\/\S+'s deletion: the NoExecute taint it waited on left the node/g)].length, 3);
  });
  it('the 1.14 log that names only the failing node differs, and says why: exit 1', async () => {
    const imported = await runCli('import', `${F}/kcm-1.14-k8s-worker3-unreachable.log`, '--version', '1.14');
    const r = await runCli('compare', save('c14.yaml', imported.out));
    assert.equal(r.code, 1);
    assert.match(r.out, /only real \(1\)/);
    assert.match(r.out, /likely: the simulated zone of the nodes without a zone label was in FullDisruption/);
  });
  it('edited to hold the healthy node the log does not name, the same scenario agrees: exit 0', async () => {
    const imported = await runCli('import', `${F}/kcm-1.14-k8s-worker3-unreachable.log`, '--version', '1.14');
    const edited = imported.out.replace(
      /^objects:$/m,
      'objects:\n  - {apiVersion: v1, kind: Node, metadata: {name: k8s-worker2}, status: {conditions: [{type: Ready, status: "True", lastHeartbeatTime: "2019-05-16T19:31:47Z", lastTransitionTime: "2019-05-16T00:00:00Z"}]}}',
    );
    const r = await runCli('compare', save('c14-edited.yaml', edited));
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /AGREE: 3 matched, 0 only real, 0 only simulated/);
  });
  it('--format json prints one object with the three lists', async () => {
    const imported = await runCli('import', `${F}/kcm-1.14-k8s-worker3-unreachable.log`, '--version', '1.14');
    const r = await runCli('compare', save('c14j.yaml', imported.out), '--format', 'json', '--tolerance', '10s');
    const j = JSON.parse(r.out);
    assert.equal(j.agree, false);
    assert.equal(j.tolerance, '10s');
    assert.deepEqual([j.matched.length, j.onlyReal.length, j.onlySimulated.length], [2, 1, 0]);
  });
  it('a wider tolerance can turn a difference into a match, and a narrower one the reverse', async () => {
    const imported = await runCli('import', `${F}/kcm-1.28-node-down-taint-eviction.log`, '--version', '1.28', '--at', '2024-09-01T00:00:00Z');
    const r = await runCli('compare', save('c28t.yaml', imported.out), '--tolerance', '100ms');
    assert.equal(r.code, 1);
    assert.match(r.out, /only real \(3\)/);
  });
  const bad: [string, () => string[], RegExp][] = [
    ['a missing scenario', () => ['compare', 'nope.yaml'], /cannot read nope.yaml/],
    ['a scenario without reality:', () => ['compare', 'examples/one-node-stops.yaml'], /has no reality: entries/],
    ['a bad tolerance', () => ['compare', 'examples/one-node-stops.yaml', '--tolerance', 'soon'], /--tolerance wants a duration/],
    ['a bad format', () => ['compare', 'examples/one-node-stops.yaml', '--format', 'yaml'], /--format is text or json/],
    [
      'a reality entry with an unknown action',
      () => [
        'compare',
        save(
          'bad-reality.yaml',
          'apiVersion: controllerstepper.io/v1alpha1\nkind: Scenario\nobjects: []\nreality:\n  - {at: "2026-01-01T00:00:00Z", action: Exploded, object: Node/n1}\n',
        ),
      ],
      /bad-reality.yaml:5:\d+: error bad-value: reality 1: expected action/,
    ],
  ];
  for (const [name, argv, message] of bad) {
    it(`exit 2: ${name}`, async () => {
      const r = await runCli(...argv());
      assert.equal(r.code, 2, r.out);
      assert.match(r.err, message);
    });
  }
});
