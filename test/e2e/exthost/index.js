// Runs inside code-server's Node extension host (the extensionTestsPath of the
// page URL's payload): every *.test.js module in this folder, in name order.
// Each module exports `tests`, a list of [name, async fn(api)] where api is the
// extension's activate() result. The language client's diagnostics test
// (issue 4 item 4) is added here as another *.test.js module.
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');

exports.run = async function run() {
  const ext = vscode.extensions.getExtension('controller-stepper.controller-stepper');
  if (!ext) throw new Error('extension controller-stepper.controller-stepper not found');
  const api = await ext.activate();
  const modules = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.test.js'))
    .sort();
  let passed = 0,
    failed = 0;
  for (const m of modules) {
    const { tests } = require(path.join(__dirname, m));
    for (const [name, fn] of tests) {
      try {
        await fn(api);
        passed++;
        console.log(`ok - ${m}: ${name}`);
      } catch (e) {
        failed++;
        console.log(`not ok - ${m}: ${name}: ${e && e.stack ? e.stack : e}`);
      }
    }
  }
  console.log(`${passed} passed, ${failed} failed`);
  if (failed) throw new Error(`${failed} extension-host test(s) failed`);
};
