// A scenario's expect: entries in VS Code's Testing view: found from the text, run from the
// Testing commands, each passed or failed with what was found (and errored on a bad input).
const assert = require('assert');
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');

const { poll: waitFor, wsDir } = require('./wait');
const poll = (what, f, ms = 30000) => waitFor(what, f, ms);

const scenario = (snapshot, expect) =>
  [
    'apiVersion: controllerstepper.io/v1alpha1',
    'kind: Scenario',
    'kubernetesVersion: "1.31"',
    'startTime: "2026-01-01T00:00:00Z"',
    `snapshot: ${snapshot}`,
    'events:',
    '  - {at: 30s, kubelet: stop, nodes: [node-a1]}',
    'expect:',
    ...expect,
    '',
  ].join('\n');

exports.tests = [
  [
    "a scenario's expectations are tests: one passes, one fails with the finding, a broken scenario's are errored",
    async (api) => {
      const dir = path.join(wsDir(), 'stepper-tests');
      fs.mkdirSync(dir, { recursive: true });
      const ext = vscode.extensions.getExtension('controller-stepper.controller-stepper');
      fs.copyFileSync(path.join(ext.extensionPath, 'examples', 'clusters', 'three-zones.yaml'), path.join(dir, 'three-zones.yaml'));
      const good = path.join(dir, 'sixty.yaml');
      const bad = path.join(dir, 'typo.yaml');
      fs.writeFileSync(
        good,
        scenario('./three-zones.yaml', [
          '  - {at: 2m10s, pod: default/toleration-sixty, deleted: true}',
          '  - {at: 2m9s, pod: default/toleration-sixty, deleted: true}',
        ]),
      );
      fs.writeFileSync(bad, scenario('./three-zone.yaml', ['  - {at: 2m10s, pod: default/toleration-sixty, deleted: true}']));
      const { controller, outcomes, discover } = api.tests;
      await discover();
      const goodItem = await poll('the good scenario in the Testing view', () => controller.items.get(vscode.Uri.file(good).toString()));
      const labels = [];
      goodItem.children.forEach((c) => labels.push(c.label));
      assert.deepStrictEqual(labels.sort(), [
        'at: 2m10s, pod: default/toleration-sixty, deleted: true',
        'at: 2m9s, pod: default/toleration-sixty, deleted: true',
      ]);
      await poll('the broken scenario in the Testing view', () => controller.items.get(vscode.Uri.file(bad).toString()));

      outcomes.clear();
      await vscode.commands.executeCommand('testing.runAll');
      const id = (file, i) => `${vscode.Uri.file(file).toString()}#expect-${i}`;
      await poll('the three outcomes', () => [id(good, 0), id(good, 1), id(bad, 0)].every((k) => outcomes.has(k)), 60000);
      assert.deepStrictEqual(outcomes.get(id(good, 0)), { state: 'passed' });
      const failed = outcomes.get(id(good, 1));
      assert.strictEqual(failed.state, 'failed');
      assert.match(
        failed.message,
        /Pod\/default\/toleration-sixty is deleted\nfound: it exists on node-a1\nwhy: .*run until 2026-01-01T00:02:09\.000Z and select Pod\/default\/toleration-sixty/,
      );
      // its link opens the scenario in the panel at the expectation's time with the pod selected
      assert.deepStrictEqual(failed.show, [good, '2026-01-01T00:02:09.000Z', 'Pod/default/toleration-sixty']);
      const shown = await vscode.commands.executeCommand('controllerStepper.showAt', ...failed.show);
      assert.strictEqual(shown.file, good);
      assert.strictEqual(shown.time, '2026-01-01T00:02:09.000Z');
      assert.strictEqual(shown.selected, 'Pod/default/toleration-sixty');
      assert.strictEqual(shown.panelOpen, true);
      // and again from later in the run: it goes back to the time
      await vscode.commands.executeCommand('controllerStepper.runUntil', '5m');
      const again = await vscode.commands.executeCommand('controllerStepper.showAt', ...failed.show);
      assert.strictEqual(again.time, '2026-01-01T00:02:09.000Z');
      const errored = outcomes.get(id(bad, 0));
      assert.strictEqual(errored.state, 'errored');
      assert.match(errored.message, /typo\.yaml:5:11: error file-not-found: snapshot "\.\/three-zone\.yaml" not found/);
    },
  ],
];
