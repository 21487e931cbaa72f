// The extension's commands and tree views, inside a real VS Code extension host.
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');

const run = (id, ...args) => vscode.commands.executeCommand(`controllerStepper.${id}`, ...args);
const { poll: waitFor, wsDir } = require('./wait');
const poll = (what, f, ms = 10000) => waitFor(what, f, ms);

exports.tests = [
  [
    'every contributed command is registered',
    async () => {
      const pkg = vscode.extensions.getExtension('controller-stepper.controller-stepper').packageJSON;
      const all = await vscode.commands.getCommands(true);
      const missing = pkg.contributes.commands.map((c) => c.command).filter((c) => !all.includes(c));
      assert.deepStrictEqual(missing, []);
    },
  ],
  [
    'before anything is open the trees are empty and stepping says to open a scenario',
    async (api) => {
      assert.deepStrictEqual(api.cluster.getChildren(), []);
      const s = await run('status');
      assert.strictEqual(s.file, undefined);
    },
  ],
  [
    'Open Example opens the bundled example in the panel',
    async () => {
      assert.strictEqual(await run('openExample', 'one-node-stops'), true);
      const s = await run('status');
      assert.strictEqual(s.scenario, 'one-node-stops');
      assert.strictEqual(s.panelOpen, true);
      assert.strictEqual(s.pass, null);
      await poll('the panel tab', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.label === 'Stepper: one-node-stops'));
    },
  ],
  [
    'Step runs one monitor pass and Step Back returns to the one before',
    async () => {
      assert.strictEqual((await run('step')).pass, 0);
      assert.strictEqual((await run('step')).pass, 1);
      const back = await run('stepBack');
      assert.strictEqual(back.pass, 0);
      assert.strictEqual(back.time, '2026-01-01T00:00:00.000Z');
    },
  ],
  [
    'the Cluster tree shows zones, their nodes and the nodes’ pods',
    async (api) => {
      const zones = api.cluster.getChildren();
      assert.ok(zones.length >= 1, 'no zones');
      assert.ok(
        zones.some((z) => z.zone === 'Zone/us-east-1/us-east-1a'),
        zones.map((z) => z.zone).join(', '),
      );
      const zone = zones.find((z) => z.zone === 'Zone/us-east-1/us-east-1a');
      const nodes = api.cluster.getChildren(zone);
      const a1 = nodes.find((n) => n.node.name === 'node-a1');
      assert.ok(a1, 'node-a1 not under its zone');
      const item = api.cluster.getTreeItem(a1);
      assert.match(String(item.description), /Ready True/);
      const pods = api.cluster.getChildren(a1);
      assert.ok(
        pods.some((p) => p.pod.ref === 'Pod/default/toleration-forever'),
        'pods of node-a1',
      );
    },
  ],
  [
    'Run Until a decision stops at the taint and the Decisions tree shows its pass',
    async (api) => {
      const r = await run('runUntil', 'next TaintAdded on node-a1');
      assert.ok(r.result && r.result.ok, JSON.stringify(r.result));
      const passes = api.decisions.getChildren();
      const current = passes.find((p) => p.pass === r.pass);
      assert.ok(current, `pass ${r.pass} in the Decisions tree`);
      const ds = api.decisions.getChildren(current).map((d) => d.decision);
      const taint = ds.find((d) => d.action === 'TaintAdded' && d.object === 'Node/node-a1');
      assert.ok(taint, ds.map((d) => `${d.action} ${d.object}`).join(', '));
      assert.ok(taint.because.length > 0);
      assert.ok(taint.causes.length > 0);
    },
  ],
  [
    'selecting a tree item selects it in the panel',
    async (api) => {
      const zone = api.cluster.getChildren().find((z) => z.zone === 'Zone/us-east-1/us-east-1a');
      const a1 = api.cluster.getChildren(zone).find((n) => n.node.name === 'node-a1');
      const cmd = api.cluster.getTreeItem(a1).command;
      const s = await vscode.commands.executeCommand(cmd.command, ...cmd.arguments);
      assert.strictEqual(s.selected, 'Node/node-a1');
    },
  ],
  [
    'Explain Object answers why, and why not for a pod that tolerates forever',
    async () => {
      const node = await run('explainObject', 'Node/node-a1');
      assert.strictEqual(node.object, 'Node/node-a1');
      assert.ok(node.happened.some((h) => h.decision.action === 'TaintAdded'));
      await run('runUntil', '10m');
      const pod = await run('explainObject', 'Pod/default/toleration-forever');
      assert.strictEqual(pod.exists, true);
      assert.ok(pod.whyNot.length > 0, 'a why-not for the surviving pod');
    },
  ],
  [
    'Export Trace writes the engine’s JSON Lines',
    async () => {
      const file = path.join(wsDir(), 'out.trace.jsonl');
      const written = await run('exportTrace', vscode.Uri.file(file));
      assert.strictEqual(written, file);
      const lines = fs
        .readFileSync(file, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.ok(lines.length > 10);
      assert.deepStrictEqual(
        lines.slice(0, 3).map((d) => d.seq),
        [1, 2, 3],
      );
      assert.ok(lines.some((d) => d.action === 'TaintAdded'));
    },
  ],
  [
    'Export State writes a kubectl-style List',
    async () => {
      const file = path.join(wsDir(), 'out.state.yaml');
      await run('exportState', vscode.Uri.file(file), 'yaml');
      const text = fs.readFileSync(file, 'utf8');
      assert.match(text, /^apiVersion: v1\nkind: List\nitems:/);
      assert.match(text, /name: node-a1/);
    },
  ],
  [
    'Change Setting and Re-run compares the two traces',
    async () => {
      const c = await run('whatIf', 'nodeMonitorGracePeriod', '20s');
      assert.ok(c, 'a comparison');
      assert.strictEqual(c.setting, 'nodeMonitorGracePeriod');
      assert.ok(c.moved.length + c.onlyOriginal.length + c.onlyChanged.length > 0, 'a shorter grace period changes the trace');
    },
  ],
  [
    'Next and Previous Decision move between passes holding decisions',
    async () => {
      await run('reset');
      const next = await run('nextDecision');
      assert.ok(next.result.ok, JSON.stringify(next.result));
      const again = await run('nextDecision');
      assert.ok(again.pass >= next.pass);
      const prev = await run('previousDecision');
      assert.ok(prev.pass < again.pass || !prev.result.ok);
    },
  ],
  [
    'the panel is revived by its serializer at the pass it was left at',
    async (api) => {
      const panel = vscode.window.createWebviewPanel('controllerStepper.panel', 'revived', vscode.ViewColumn.Active, {});
      const file = path.join(vscode.extensions.getExtension('controller-stepper.controller-stepper').extensionPath, 'examples', 'one-node-stops.yaml');
      await api.ctx.serializer().deserializeWebviewPanel(panel, { file, pass: 3, selected: 'Node/node-a1' });
      const s = await run('status');
      assert.strictEqual(s.pass, 3);
      assert.strictEqual(s.selected, 'Node/node-a1');
      assert.strictEqual(panel.title, 'Stepper: one-node-stops');
    },
  ],
  [
    'going to a pass from the Decisions tree keeps every later pass in the tree and marks the one gone to',
    async (api) => {
      await run('runUntil', '3m');
      const before = api.decisions.getChildren().map((p) => p.pass);
      const five = api.decisions.getChildren().find((p) => p.pass === 6);
      assert.ok(five, `pass 6 (KubeletStopped at 0:30) in the tree: ${before.join(', ')}`);
      const kubelet = api.decisions.getChildren(five).map((d) => d.decision.action);
      assert.ok(kubelet.includes('KubeletStopped'), kubelet.join(', '));
      const cmd = api.decisions.getTreeItem(five).command;
      const s = await vscode.commands.executeCommand(cmd.command, ...cmd.arguments);
      assert.strictEqual(s.pass, 6);
      assert.deepStrictEqual(
        api.decisions.getChildren().map((p) => p.pass),
        before,
      );
      assert.match(String(api.decisions.getTreeItem(api.decisions.getChildren().find((p) => p.pass === 6)).description), /current/);
    },
  ],
  [
    'an open in a window without the panel makes it first, marked loading, and sends it the scenario once',
    async (api) => {
      const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => /^Stepper/.test(t.label));
      api.ctx.panel.dispose();
      await poll('the panel closed', () => tabs().length === 0);
      const file = path.join(vscode.extensions.getExtension('controller-stepper.controller-stepper').extensionPath, 'examples', 'one-node-stops.yaml');
      const opening = api.ctx.openWithProgress(file);
      // before the load (openWithProgress's first wait): the panel is there, and has been told what loads
      const panel = api.ctx.panel;
      assert.ok(panel && !panel.isDisposed, 'the panel is made before the load');
      assert.strictEqual(panel.panel.title, 'Stepper: loading one-node-stops.yaml');
      const posted = [];
      const post = panel.post.bind(panel);
      panel.post = (m) => {
        posted.push(m.type);
        post(m);
      };
      // the open ends with the page's paint of the scenario: by then it was sent once (on its ready), not again
      assert.strictEqual(await opening, true);
      assert.strictEqual(api.ctx.panel, panel, 'the same panel shows the scenario');
      assert.strictEqual(panel.panel.title, 'Stepper: one-node-stops');
      assert.ok(panel.ready, 'the page said it is ready');
      assert.deepStrictEqual(
        posted.filter((t) => t === 'init'),
        ['init'],
        posted.join(', '),
      );
      assert.strictEqual((await run('status')).pass, null);
    },
  ],
  [
    'a Step after the panel was closed opens it again on the same session, one pass on',
    async (api) => {
      const tabs = () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => /^Stepper/.test(t.label));
      await run('step');
      await run('step');
      const session = api.ctx.session;
      api.ctx.panel.dispose();
      await poll('the panel closed', () => tabs().length === 0);
      const s = await run('step');
      assert.strictEqual(s.pass, 2);
      assert.strictEqual(api.ctx.session, session, 'the scenario was not loaded again');
      await poll('the panel open again', () => tabs().some((t) => t.label === 'Stepper: one-node-stops'));
      await poll('the page sent the scenario', () => api.ctx.panel && api.ctx.panel.ready);
    },
  ],
];
