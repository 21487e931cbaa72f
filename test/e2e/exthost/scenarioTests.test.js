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
        /^at \+2m09s \(2026-01-01T00:02:09\.000Z\): Pod\/default\/toleration-sixty is deleted\nfound: it exists on node-a1\nwhy: .*run until 2026-01-01T00:02:09\.000Z and select Pod\/default\/toleration-sixty/,
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
  [
    'a long scenario runs off the extension host: the host answers meanwhile, and Cancel skips its entries at once',
    async (api) => {
      const dir = path.join(wsDir(), 'stepper-tests-long');
      fs.mkdirSync(dir, { recursive: true });
      const ext = vscode.extensions.getExtension('controller-stepper.controller-stepper');
      fs.copyFileSync(path.join(ext.extensionPath, 'examples', 'clusters', 'three-zones.yaml'), path.join(dir, 'three-zones.yaml'));
      // 300 hours of monitor passes: several seconds of engine time
      const long = path.join(dir, 'long.yaml');
      fs.writeFileSync(long, scenario('./three-zones.yaml', ['  - {at: 300h, pod: default/toleration-sixty, deleted: true}']));
      const { controller, outcomes, discover, profile } = api.tests;
      await discover();
      const item = await poll('the long scenario in the Testing view', () => controller.items.get(vscode.Uri.file(long).toString()));
      const entry = `${vscode.Uri.file(long).toString()}#expect-0`;
      outcomes.delete(entry);
      const cancel = new vscode.CancellationTokenSource();
      const pending = profile.runHandler(new vscode.TestRunRequest([item]), cancel.token);
      // the timers fire while the scenario runs: the host is not frozen
      let ticks = 0;
      let longest = 0;
      const t0 = Date.now();
      while (Date.now() - t0 < 500) {
        const t = Date.now();
        await new Promise((r) => setTimeout(r, 10));
        longest = Math.max(longest, Date.now() - t);
        ticks++;
      }
      assert.ok(ticks >= 3 && longest < 1000, `${ticks} timer callbacks in 500 ms during the run, the longest wait ${longest} ms`);
      assert.ok(!outcomes.has(entry), 'the 300-hour run is still under way');
      const asked = Date.now();
      cancel.cancel();
      await pending;
      const answered = Date.now() - asked;
      assert.ok(answered < 3000, `Cancel took ${answered} ms`);
      assert.deepStrictEqual(outcomes.get(entry), { state: 'skipped' });
    },
  ],
];
