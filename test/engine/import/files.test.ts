/** The folder walk and import shared by the command line's `import` and the extension's Import Evidence. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_EVIDENCE_FILES, evidenceFiles, importEvidenceFiles } from '../../../src/engine/import/files';
import { MemoryFs } from '../../../src/engine/snapshot/source';
import { parseTimestamp } from '../../../src/engine/model/time';
import { nodeFs, readChunks } from '../../../src/platform/nodeFs';
import { gunzipText } from '../../../src/platform/gunzip';
import { gzipSync } from 'node:zlib';
import { runCli } from '../../helpers/cliRun';

const LOG = 'I0516 19:33:12.204484       1 controller_utils.go:180] Recording status change NodeNotReady event message for node k8s-worker3\n';

describe('evidence files', () => {
  const walks: [name: string, files: Record<string, string>, paths: string[], want: string[], problems: string[]][] = [
    [
      'a folder in name order, notes and hidden files left out',
      { '/e/b.log': LOG, '/e/a.log': LOG, '/e/README.md': '# notes', '/e/.hidden': 'x', '/e/sub/c.log.gz': 'x' },
      ['/e'],
      ['/e/a.log', '/e/b.log', '/e/sub/c.log.gz'],
      [],
    ],
    ['a .md named on its own is read (the user asked for it)', { '/e/notes.md': 'x' }, ['/e/notes.md'], ['/e/notes.md'], []],
    ['a missing path', { '/e/a.log': LOG }, ['/e/a.log', '/nope'], ['/e/a.log'], []],
    ['folders nested too deep', { [`/d${'/x'.repeat(34)}/a.log`]: LOG }, ['/d'], [], ['folder-too-deep']],
  ];
  for (const [name, files, paths, want, problems] of walks) {
    it(name, () => {
      const r = evidenceFiles(paths, new MemoryFs(files));
      assert.deepEqual(r.files, want);
      assert.deepEqual(
        r.problems.map((p) => p.code),
        problems,
      );
    });
  }
  it(`more than ${MAX_EVIDENCE_FILES} files: the first in name order, with a warning`, () => {
    const files: Record<string, string> = {};
    for (let i = 0; i <= MAX_EVIDENCE_FILES; i++) files[`/e/${String(i).padStart(6, '0')}.log`] = '';
    const r = evidenceFiles(['/e'], new MemoryFs(files));
    assert.equal(r.files.length, MAX_EVIDENCE_FILES);
    assert.deepEqual(
      r.problems.map((p) => p.code),
      ['too-many-files'],
    );
  });
  it('a link back to a parent folder is read once', () => {
    const dir = mkdtempSync(join(tmpdir(), 'evidence-loop-'));
    try {
      mkdirSync(join(dir, 'a'));
      writeFileSync(join(dir, 'a', 'k.log'), LOG);
      symlinkSync(dir, join(dir, 'a', 'up'));
      const r = evidenceFiles([dir], nodeFs());
      assert.deepEqual(r.files, [join(dir, 'a', 'k.log')]);
      assert.deepEqual(
        r.problems.map((p) => p.code),
        ['folder-too-deep'],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('one import for both shells', () => {
  it('the command line prints what the extension imports, byte for byte, with the same options', async () => {
    const F = 'test/fixtures/real-evidence';
    const ext = importEvidenceFiles(
      [`${F}/describe-pod-1.29-trident-node-shutdown.txt`],
      { fs: nodeFs(), readChunks },
      { now: 0, at: parseTimestamp('2025-03-21T01:41:04Z'), version: '1.29' },
    );
    assert.ok(ext.ok);
    const cli = await runCli('import', `${F}/describe-pod-1.29-trident-node-shutdown.txt`, '--at', '2025-03-21T01:41:04Z', '--version', '1.29');
    assert.equal(cli.code, 0, cli.err);
    assert.equal(cli.out, ext.imported.text);
    assert.deepEqual(ext.imported.assumed, { at: false, atInferred: false, version: false });
  });
  it('what was assumed is said, so a shell can offer --at and --version', () => {
    const r = importEvidenceFiles(
      ['test/fixtures/real-evidence/describe-pod-1.29-trident-node-shutdown.txt'],
      { fs: nodeFs(), readChunks },
      { now: parseTimestamp('2025-03-21T01:41:04Z')! },
    );
    assert.ok(r.ok);
    // a describe paste dates its ages by its own times (describeClock.ts): inferred, not read against now
    assert.deepEqual(r.imported.assumed, { at: false, atInferred: true, version: true });
    const table = importEvidenceFiles(['test/fixtures/real-evidence/events-table-rancher-29997.txt'], { fs: nodeFs(), readChunks }, { now: 0 });
    assert.ok(table.ok);
    assert.deepEqual(table.imported.assumed, { at: true, atInferred: false, version: true });
  });
  it('a NodeList alone (kubectl get nodes -o json, or a cluster-info dump without events or logs) is objects, not evidence', () => {
    const nodes = JSON.stringify(
      {
        kind: 'NodeList',
        apiVersion: 'v1',
        items: [{ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' }, status: { conditions: [{ type: 'Ready', status: 'True' }] } }],
      },
      null,
      4,
    );
    const fs = new MemoryFs({ '/d/nodes.json': nodes, '/e/a.log': LOG });
    const alone = importEvidenceFiles(['/d/nodes.json'], { fs, readChunks: (p) => fs.readChunks(p) }, { now: 0 });
    assert.equal(alone.ok, false);
    assert.match(
      (alone as { message: string }).message,
      /^none of nodes.json is evidence this tool reads: nodes.json holds the cluster's objects \(1 Node\), not what happened to them/,
    );
    // beside evidence it is the snapshot
    const withLog = importEvidenceFiles(['/d/nodes.json', '/e/a.log'], { fs, readChunks: (p) => fs.readChunks(p) }, { now: 0 });
    assert.ok(withLog.ok);
    assert.deepEqual(
      withLog.imported.inputs.map((i) => `${i.file} ${i.format}`),
      ['/d/nodes.json snapshot', '/e/a.log controller-manager-log'],
    );
  });
  it('evidence without a time (a get nodes table) starts at the import time, said so, and --at is offered', () => {
    const fs = new MemoryFs({ '/e/nodes.txt': 'NAME   STATUS   ROLES    AGE   VERSION\nn1     Ready    <none>   3d    v1.29.4\n' });
    const r = importEvidenceFiles(['/e/nodes.txt'], { fs, readChunks: (p) => fs.readChunks(p) }, { now: parseTimestamp('2026-12-05T06:00:00Z')! });
    assert.ok(r.ok);
    assert.match(r.imported.text, /# start: no evidence has a time: the time of the import \(give --at\)\nstartTime: "2026-12-05T06:00:00.000Z"/);
    assert.match(r.imported.text, /kubernetesVersion: "1.29"/);
    assert.deepEqual(r.imported.assumed, { at: true, atInferred: false, version: false });
  });
  const refused: [name: string, paths: string[], options: object, says: RegExp][] = [
    ['a missing file', ['/nope.log'], {}, /cannot read \/nope.log: no such file or folder/],
    ['a missing snapshot', ['/e/a.log'], { snapshots: ['/snap.json'] }, /cannot read snapshot \/snap.json/],
    ['nothing this tool reads', ['/e/notes.txt'], {}, /none of notes.txt is evidence this tool reads/],
    ['a folder of notes only', ['/n'], {}, /^no files to import$/],
    [
      'a gzip file cut short',
      ['/e/cut.log.gz'],
      {},
      /^none of cut.log.gz is evidence this tool reads: cut.log.gz could not be read to its end \(the error above\)/,
    ],
  ];
  for (const [name, paths, options, says] of refused) {
    it(`refused with a reason: ${name}`, () => {
      const fs = new MemoryFs({ '/e/a.log': LOG, '/e/notes.txt': 'we restarted the nodes\n', '/n/only.md': '# notes' });
      const readChunks = (p: string): Iterable<string> =>
        p === '/e/cut.log.gz' ? gunzipText([new Uint8Array(gzipSync(`${'x'.repeat(200)}\n`.repeat(50))).subarray(0, 60)]) : fs.readChunks(p);
      fs.write('/e/cut.log.gz', 'x');
      const r = importEvidenceFiles(paths, { fs, readChunks }, { now: 0, ...options });
      assert.equal(r.ok, false);
      assert.match((r as { message: string }).message, says);
    });
  }
});

describe('evidence longer than one run', () => {
  const F = 'test/fixtures/real-evidence';
  const table: { name: string; files: string[]; at: string; want: string[] }[] = [
    {
      name: 'two incidents years apart, imported together',
      files: [`${F}/kcm-1.14-k8s-worker3-unreachable.log`, `${F}/describe-pod-1.29-trident-node-shutdown.txt`],
      at: '2025-03-21T01:41:04Z',
      want: [`warning evidence-too-long ${F}/describe-pod-1.29-trident-node-shutdown.txt:72`],
    },
    { name: 'one incident', files: [`${F}/kcm-1.28-node-down-taint-eviction.log`], at: '2024-09-01T00:00:00Z', want: [] },
  ];
  for (const row of table) {
    it(`${row.name}: ${row.want.length ? 'said where the latest evidence is, before compare refuses it' : 'nothing said'}`, () => {
      const r = importEvidenceFiles(row.files, { fs: nodeFs(), readChunks }, { now: 0, at: parseTimestamp(row.at) });
      assert.ok(r.ok);
      assert.deepEqual(
        r.imported.problems.filter((p) => p.code === 'evidence-too-long').map((p) => `${p.severity} ${p.code} ${p.position?.file}:${p.position?.line}`),
        row.want,
      );
    });
  }
});

describe("the cluster's objects among the evidence are the snapshot", () => {
  const NODE = (name: string, version: string) =>
    `{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "${name}"}, "status": {"nodeInfo": {"kubeletVersion": "${version}"}, "conditions": [{"type": "Ready", "status": "True", "lastHeartbeatTime": "2019-05-16T19:31:47Z", "lastTransitionTime": "2019-05-16T19:31:47Z"}]}}`;
  const files = {
    '/e/kcm.log': LOG,
    // kubectl prints a List's kind after its items: not a cluster-info dump's NodeList
    '/e/nodes.json': `{\n    "apiVersion": "v1",\n    "items": [\n        ${NODE('k8s-worker2', 'v1.14.1')},\n        ${NODE('k8s-worker3', 'v1.14.1')}\n    ],\n    "kind": "List"\n}\n`,
    '/e/ds.yaml': 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: kube-proxy, namespace: kube-system}\nspec: {selector: {matchLabels: {k: p}}}\n',
    '/e/notes.txt': 'we restarted the nodes\n',
    '/m/app.yaml': 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: web}\n',
    '/o/nodes.json': `{"apiVersion": "v1", "kind": "List", "items": [${NODE('n1', 'v1.20.0')}]}`,
    '/o/more.json': `{"apiVersion": "v1", "kind": "List", "items": [${NODE('n2', 'v1.20.0')}]}`,
  };
  const fs = new MemoryFs(files);
  const access = { fs, readChunks: (p: string) => fs.readChunks(p) };
  const table: { name: string; paths: string[]; options?: object; snapshot: string; version: string; codes: string[]; name_: string }[] = [
    {
      name: 'a log and a kubectl export of its nodes: the export is the snapshot, and its kubelets give the version',
      paths: ['/e/nodes.json', '/e/kcm.log'],
      snapshot: 'snapshot: "/e/nodes.json"',
      version: '# from /e/nodes.json:4: Node/k8s-worker2 kubeletVersion: v1.14.1',
      codes: [],
      name_: 'imported-kcm',
    },
    {
      name: 'a folder: the YAML object and the JSON List both, the notes still unrecognised',
      paths: ['/e'],
      snapshot: 'snapshot: ["/e/ds.yaml", "/e/nodes.json"]',
      version: '# from /e/nodes.json:4: Node/k8s-worker2 kubeletVersion: v1.14.1',
      codes: ['unrecognised-format /e/notes.txt'],
      name_: 'imported-kcm',
    },
    {
      name: 'with --snapshot too: both are read, the version given wins',
      paths: ['/e/kcm.log', '/e/nodes.json'],
      options: { snapshots: ['/o/nodes.json'], version: '1.19' },
      snapshot: 'snapshot: ["/o/nodes.json", "/e/nodes.json"]',
      version: '# from --version',
      codes: [],
      name_: 'imported-kcm',
    },
  ];
  for (const row of table) {
    it(row.name, () => {
      const r = importEvidenceFiles(row.paths, access, { now: 0, at: parseTimestamp('2019-05-17T00:00:00Z'), ...row.options });
      assert.ok(r.ok, (r as { message?: string }).message);
      const text = r.imported.text;
      assert.ok(text.includes(`\n${row.snapshot}\n`), text);
      assert.ok(text.includes(`\n${row.version}\n`), text);
      assert.match(text, new RegExp(`name: "${row.name_}"`));
      assert.deepEqual(
        r.imported.problems.filter((p) => p.severity !== 'info' && p.code !== 'no-leases').map((p) => `${p.code} ${p.position?.file}`),
        row.codes,
      );
      assert.equal(r.imported.assumed.version, false);
    });
  }
  const refused: [name: string, paths: string[], says: RegExp][] = [
    [
      'one export alone',
      ['/o/nodes.json'],
      /^none of nodes.json is evidence this tool reads: nodes.json holds the cluster's objects \(1 Node\), not what happened to them\. Give the events, controller-manager logs or audit log, with this as --snapshot$/,
    ],
    ['a folder of exports', ['/o'], /^none of the 2 files is evidence this tool reads: they hold the cluster's objects \(2 Nodes\)/],
    ['an export and a note', ['/e/ds.yaml', '/e/notes.txt'], /: ds.yaml holds the cluster.s objects \(1 DaemonSet\)/],
    [
      'a manifest of kinds the controllers do not read',
      ['/m/app.yaml', '/e/notes.txt'],
      /^none of the 2 files is evidence this tool reads: app.yaml holds 1 Deployment, 1 Service, none of a kind the controllers read \(Node, Pod, ReplicaSet, DaemonSet, node Lease\) and no record of what happened$/,
    ],
  ];
  for (const [name, paths, says] of refused) {
    it(`refused, and said what it is: ${name}`, () => {
      const r = importEvidenceFiles(paths, access, { now: 0 });
      assert.equal(r.ok, false);
      assert.match((r as { message: string }).message, says);
    });
  }
});
