// The session's life in a real extension host: opening another scenario closes the one before (ctx.ts), so what still
// waited for its start (a selection's why, the object pick, Explain while a 5,000-node start is made in slices) is never
// answered into the new scenario's panel. Runs last (name order): it leaves its own scenario open.
const assert = require('assert');
const vscode = require('vscode');

const run = (id, ...args) => vscode.commands.executeCommand(`controllerStepper.${id}`, ...args);

exports.tests = [
  [
    'opening another scenario closes the session before it, and only that one',
    async (api) => {
      assert.strictEqual(await run('openExample', 'one-node-stops'), true);
      const first = api.ctx.session;
      assert.ok(first, 'no session after the open');
      assert.strictEqual(await first.started(), true, 'an open session answers');
      assert.strictEqual(await run('openExample', 'outage-1.31'), true);
      const second = api.ctx.session;
      assert.notStrictEqual(second, first, 'the open made no new session');
      assert.strictEqual(await first.started(), false, 'the session before the open was not closed');
      assert.strictEqual(await second.started(), true, 'the new session is closed');
      assert.strictEqual((await run('status')).scenario, 'outage-1.31');
    },
  ],
];
