// Long runs in the extension host (issue 17 §2): Run Until far ahead runs the engine in slices with a
// cancellable progress; the host answers meanwhile, and Cancel leaves the run where it stopped.
const assert = require('assert');
const vscode = require('vscode');

const run = (id, ...args) => vscode.commands.executeCommand(`controllerStepper.${id}`, ...args);
const { poll: waitFor } = require('./wait');
// every 50 ms: the run's slices are watched as they go
const poll = (what, f, ms = 20000) => waitFor(what, f, ms, 50);

exports.tests = [
  [
    'Run Until 300h runs in slices: the host answers meanwhile, and Cancel stops it where it is',
    async (api) => {
      assert.strictEqual(await run('openExample', 'one-node-stops'), true);
      const started = Date.now();
      const pending = run('runUntil', '300h');
      // the poll's timers fire while the run goes on: the host is not frozen
      await poll('the run to be under way', () => api.ctx.session && api.ctx.session.slices.running);
      let ticks = 0;
      const t0 = Date.now();
      while (Date.now() - t0 < 500) {
        await new Promise((r) => setTimeout(r, 10));
        ticks++;
      }
      assert.ok(ticks >= 3, `only ${ticks} timer callbacks in 500 ms during the run`);
      const busy = await run('step');
      assert.strictEqual(busy.result.ok, false, 'a step meanwhile is refused');
      assert.match(busy.result.message, /under way/);
      assert.ok(api.ctx.session.slices.running, 'and the run goes on');
      const before = (await run('status')).pass;
      const asked = Date.now();
      assert.strictEqual(api.ctx.cancelRun(), true);
      const s = await pending;
      const answered = Date.now() - asked;
      console.log(`  cancelled after ${asked - started} ms, answered ${answered} ms after Cancel, at pass ${s.pass}`);
      assert.strictEqual(s.result.ok, false);
      assert.match(s.result.message, /^Cancelled at /);
      assert.ok(answered < 3000, `Cancel took ${answered} ms`);
      assert.ok(s.pass >= before && s.pass < 200000, `stopped at pass ${s.pass}`);
      assert.strictEqual(api.ctx.cancelRun(), false, 'nothing runs any more');
      const next = await run('step');
      assert.strictEqual(next.pass, s.pass + 1, 'the next command runs from there');
    },
  ],
];
