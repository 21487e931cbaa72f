// Import Evidence inside a real VS Code extension host: a folder holding a real
// kube-controller-manager log (test/fixtures/real-evidence) is imported; the
// scenario opens in an untitled YAML editor and the panel, the log's problems
// are diagnostics at their lines, an edit of the untitled text is run by Open
// Scenario, and dropped URIs are imported the same way.
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');

const run = (id, ...args) => vscode.commands.executeCommand(`controllerStepper.${id}`, ...args);
const LOG = 'kcm-1.14-k8s-worker3-unreachable.log';
const fixture = () =>
  path.join(vscode.extensions.getExtension('controller-stepper.controller-stepper').extensionPath, 'test', 'fixtures', 'real-evidence', LOG);
const evidenceDir = () => path.join(vscode.workspace.workspaceFolders[0].uri.fsPath, 'evidence-exthost');
// the editor this extension host's import opened (an untitled editor restored from another window may be open too)
const importedDoc = (api) => {
  const last = [...api.ctx.imported.keys()].at(-1);
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === last);
};
const { poll: waitFor } = require('./wait');
const poll = (what, f, ms = 10000) => waitFor(what, f, ms);

exports.tests = [
  [
    'Import Evidence on a folder opens the imported scenario in an untitled YAML editor and in the panel',
    async (api) => {
      fs.mkdirSync(evidenceDir(), { recursive: true });
      fs.copyFileSync(fixture(), path.join(evidenceDir(), LOG));
      assert.strictEqual(await run('importEvidence', vscode.Uri.file(evidenceDir())), true);
      const s = await run('status');
      assert.strictEqual(s.scenario, 'imported-kcm-1.14-k8s-worker3-unreachable');
      assert.strictEqual(s.panelOpen, true);
      const doc = await poll('the untitled scenario', () => importedDoc(api));
      assert.strictEqual(doc.languageId, 'yaml');
      assert.match(doc.getText(), /# evidence: .*kcm-1\.14-k8s-worker3-unreachable\.log:1: /);
      const lane = api.ctx.session.initMessage().reality;
      assert.deepStrictEqual(
        lane.real.map((r) => r.status),
        ['matched', 'matched', 'onlyReal'],
      );
    },
  ],
  [
    'the import’s problems are diagnostics on the evidence file at their line',
    async () => {
      const ds = vscode.languages.getDiagnostics(vscode.Uri.file(path.join(evidenceDir(), LOG)));
      const cut = ds.find((d) => d.code === 'cut-line');
      assert.ok(cut, ds.map((d) => `${d.code} ${d.message}`).join(' | '));
      assert.strictEqual(cut.range.start.line, 5);
    },
  ],
  [
    'Open Scenario on the untitled editor runs its text as edited',
    async (api) => {
      const doc = importedDoc(api);
      assert.strictEqual(doc.uri.scheme, 'untitled');
      const edit = new vscode.WorkspaceEdit();
      const text = doc.getText();
      const at = text.indexOf('"imported-kcm-1.14-k8s-worker3-unreachable"');
      edit.replace(
        doc.uri,
        new vscode.Range(doc.positionAt(at), doc.positionAt(at + '"imported-kcm-1.14-k8s-worker3-unreachable"'.length)),
        '"worker3-edited"',
      );
      assert.ok(await vscode.workspace.applyEdit(edit));
      assert.strictEqual(await run('open', doc.uri), true);
      assert.strictEqual((await run('status')).scenario, 'worker3-edited');
    },
  ],
  [
    'files dropped onto the panel are imported; what is not a file URI is refused',
    async (api) => {
      assert.strictEqual(api.ctx.dropEvidence(['https://example.com/kcm.log']).ok, false);
      const r = api.ctx.dropEvidence([vscode.Uri.file(path.join(evidenceDir(), LOG)).toString()]);
      assert.strictEqual(r.ok, true, JSON.stringify(r));
      await poll('the dropped evidence imported', async () => (await run('status')).scenario === 'imported-kcm-1.14-k8s-worker3-unreachable');
    },
  ],
];
