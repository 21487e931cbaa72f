// The language client inside a real VS Code: the server it starts checks a
// kube-controller-manager manifest as it is opened, and answers hovers.
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');

const { poll: waitFor, wsDir } = require('./wait');
const poll = (what, f, ms = 30000) => waitFor(what, f, ms);

const MANIFEST = [
  'apiVersion: v1',
  'kind: Pod',
  'metadata:',
  '  name: kube-controller-manager',
  '  namespace: kube-system',
  'spec:',
  '  containers:',
  '  - name: kube-controller-manager',
  '    image: registry.k8s.io/kube-controller-manager:v1.31.2',
  '    command:',
  '    - kube-controller-manager',
  '    - --node-monitor-grace-period=20s',
  '    - --pod-eviction-timeout=2m',
  '',
].join('\n');

exports.tests = [
  [
    'the language server flags a removed flag in a controller-manager manifest, with its range',
    async () => {
      const file = path.join(wsDir(), 'kube-controller-manager.yaml');
      fs.writeFileSync(file, MANIFEST);
      const uri = vscode.Uri.file(file);
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      const diags = await poll('diagnostics', () => {
        const d = vscode.languages.getDiagnostics(uri);
        return d.some((x) => x.code === 'not-in-version') ? d : undefined;
      });
      const removed = diags.find((x) => x.code === 'not-in-version');
      assert.strictEqual(removed.severity, vscode.DiagnosticSeverity.Error);
      assert.strictEqual(removed.range.start.line, 12);
      assert.match(removed.message, /--pod-eviction-timeout was removed in 1\.27/);
      const grace = diags.find((x) => x.code === 'grace-period-under-http2-timeout');
      assert.ok(grace, `no grace-period warning in ${diags.map((x) => x.code).join(', ')}`);
      assert.strictEqual(grace.severity, vscode.DiagnosticSeverity.Warning);
    },
  ],
  [
    'hovering a flag shows its documentation and its default for the version',
    async () => {
      const uri = vscode.Uri.file(path.join(wsDir(), 'kube-controller-manager.yaml'));
      const hovers = await poll('a hover', async () => {
        const h = await vscode.commands.executeCommand('vscode.executeHoverProvider', uri, new vscode.Position(11, 12));
        return h && h.length ? h : undefined;
      });
      const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
      assert.match(text, /node-monitor-grace-period|nodeMonitorGracePeriod/);
      assert.match(text, /40s|50s/);
    },
  ],
];
