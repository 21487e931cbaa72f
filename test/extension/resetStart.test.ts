/**
 * Step Back from pass 0 and Reset show the start as a session opened afresh shows it, without making a simulation on
 * the click (session.ts reset: the shown simulation's first checkpoint is put back). What the panel holds after the
 * session's messages (the webview's own Store fed with them), the shown simulation (records, trace, problems, the why
 * and the machines of a node and a pod, zones), and the run forward from there, step for step, are compared with a
 * fresh session's, with the same selection. The moments before the click are driven by hand as in swapAtOpen.test.ts:
 * the open's turns, then the panel's idle work.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stepsLikeFresh, click as act, shownStore as shown, shownState as state, startScenarios, type Click } from '../helpers/shownState';

const { files: FILES, opened, firstNode } = startScenarios('cs-reset-start-');

type Before = Exclude<Click, 'reset'>;

/** Where the user stands and how long the host was idle before the click (moments: the open's turns and idle slices). */
const cases: { name: string; before: Before[]; idle: number | 'all'; click: 'back' | 'reset' }[] = [
  { name: 'Step Back from pass 0 clicked at once after the first step', before: ['step'], idle: 0, click: 'back' },
  { name: 'Step Back from pass 0 a few moments after the first step', before: ['step'], idle: 4, click: 'back' },
  { name: 'Step Back from pass 0 after the idle work', before: ['step'], idle: 'all', click: 'back' },
  { name: 'Step Back from pass 0 after stepping back to it', before: ['step', 'step', 'step', 'back', 'back'], idle: 2, click: 'back' },
  { name: 'Step Back from pass 0 with a node selected', before: [{ select: firstNode }, 'step'], idle: 'all', click: 'back' },
  { name: 'Reset from pass 0', before: ['step'], idle: 1, click: 'reset' },
  { name: 'Reset after a jump', before: [{ goTo: 5 }], idle: 'all', click: 'reset' },
  { name: 'Reset after Run Until, clicked at once', before: [{ runUntil: '2m' }], idle: 0, click: 'reset' },
  { name: 'Reset with a node selected, after steps', before: ['step', { select: firstNode }, 'step', 'step'], idle: 3, click: 'reset' },
];

test('Step Back from pass 0 and Reset show the start of a fresh session, and make no simulation on the click', () => {
  for (const file of FILES)
    for (const c of cases) {
      const where = `${c.name} (${file.split('/').pop()})`;
      const a = opened(file);
      a.idle(1);
      for (const b of c.before) act(a.session, b, file, where);
      a.idle(c.idle);
      assert.notEqual(a.session.shown.pass, null, `${where}: not at the start before the click`);
      const before = { ...a.made };
      act(a.session, c.click === 'back' ? 'back' : 'reset', file, where);
      assert.deepEqual(a.made, before, `${where}: no simulation made on the click`);
      assert.equal(a.session.shown.pass, null, `${where}: at the start`);
      // the controllers the views do not read are restored in idle time (viewsFirst), unless the selection's why or machine read
      // them: a pod's or a ReplicaSet's (a node's asks neither the ReplicaSet controller nor the binder)
      const readsThem = /^(Pod|ReplicaSet)\//.test(a.session.selected ?? '');
      assert.equal(a.session.sim.partDone, !readsThem, `${where}: the restore's rest left for idle time`);

      const fresh = opened(file);
      const selected = a.session.selected;
      if (selected) fresh.session.selectObject(selected);
      assert.equal(shown(a.store), shown(fresh.store), `${where}: what the panel shows`);
      assert.equal(state(a.session), state(fresh.session), `${where}: the shown simulation`);
      // the run forward from there, as the fresh session's, with and without idle time between the clicks
      stepsLikeFresh(a, fresh, [0, 'all', 2], file, where);
    }
});

test('Reset at the start restores nothing and sends the start again', () => {
  for (const file of FILES) {
    const a = opened(file);
    a.idle('all');
    assert.equal(a.session.shownPending, false);
    const sim = a.session.sim;
    const before = { ...a.made };
    assert.equal(a.session.reset().ok, true);
    assert.deepEqual(a.made, before, `${file}: no simulation made`);
    assert.equal(a.session.sim, sim, `${file}: the same simulation shown`);
    const fresh = opened(file);
    assert.equal(shown(a.store), shown(fresh.store), `${file}: what the panel shows`);
  }
});

test('after Step Back from pass 0 the run-ahead goes back to its own start: no simulation made in idle time, and the Step after is a swap', () => {
  for (const file of FILES)
    for (const before of [['step'], ['step', 'step', 'back'], [{ goTo: 4 }, 'back', 'back', 'back', 'back']] as Before[][]) {
      const where = `${JSON.stringify(before)} (${file.split('/').pop()})`;
      const a = opened(file);
      for (const b of before) {
        a.idle('all');
        act(a.session, b, file, where);
      }
      a.idle('all');
      assert.equal(a.session.shown.pass, 0, where);
      const ahead = a.session.ahead.sim;
      assert.ok(ahead, `${where}: a run-ahead before the click`);
      const made = { ...a.made };
      act(a.session, 'back', file, where);
      a.idle('all');
      assert.deepEqual(a.made, made, `${where}: no simulation made after the click`);
      assert.equal(a.session.ahead.sim, ahead, `${where}: the same ahead simulation`);
      assert.equal(ahead.pass, 0, `${where}: on pass 0 again`);
      act(a.session, 'step', file, where);
      assert.equal(a.session.sim, ahead, `${where}: the Step is a swap onto it`);
      const fresh = opened(file);
      act(fresh.session, 'step', file, where);
      assert.equal(shown(a.store), shown(fresh.store), `${where}: what the panel shows on pass 0`);
      assert.equal(state(a.session), state(fresh.session), `${where}: pass 0`);
    }
});
