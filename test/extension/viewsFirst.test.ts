/**
 * A Step Back (onto a pass with a checkpoint of its own) and Reset restore the records and the controllers the views
 * read, answer the click, and leave the other controllers' restore (the ReplicaSet controller's, the binder's) for idle
 * time or the next call that reads them (GoToPassOptions.viewsFirst): a third of a Reset at 5,000 nodes. What the panel
 * shows right after the click, the shown simulation once whole, and the run forward from there are a fresh session's.
 * A Step at once after them that redoes its pass (the engine's redo.ts: pass 0 here) takes that rest into its hand-off
 * (takeOwed): the ReplicaSet controller is restored once in the clicks at once, not for the Step Back and again for the Step.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stepsLikeFresh, click, shownStore as shown, shownState as state, startScenarios, type Click } from '../helpers/shownState';
import type { SimController } from '../../src/engine/controllers/controller';

const { files: FILES, load, opened, firstNode } = startScenarios('cs-views-first-');

const first = (kind: 'Pod' | 'ReplicaSet') => (file: string) => {
  const c = load(file).scenario.snapshot.cluster;
  return `${kind}/${[...(kind === 'Pod' ? c.pods : c.replicaSets).keys()][0]}`;
};

/**
 * The clicks before (with the idle work after each), then the ones at once; `later`: the restore's rest is left for idle
 * time (undefined: either, by whether the pass stepped back onto kept a checkpoint of its own); `restores`: the ReplicaSet
 * controller's restores in the clicks at once.
 */
const cases: { name: string; before: Click[]; atOnce: Click[]; later?: boolean; restores?: number }[] = [
  { name: 'a Step Back after steps', before: ['step', 'step', 'step'], atOnce: ['back'], later: true },
  { name: 'two Step Backs at once', before: ['step', 'step', 'step', 'step'], atOnce: ['back', 'back'] },
  { name: 'a Step Back, then a Step at once', before: ['step', 'step', 'step'], atOnce: ['back', 'step'], later: false },
  { name: 'a Step Back after a jump', before: [{ goTo: 6 }], atOnce: ['back'], later: true },
  // a node's why and machine ask none of the controllers left (Explainable.asks); a running pod's why none that would answer
  // about it once restored (SimController whyNotAfterRestore: no scale-down ahead, no start owed); a ReplicaSet's machine is its own
  { name: 'a Step Back with a node selected', before: [{ select: firstNode }, 'step', 'step'], atOnce: ['back'], later: true },
  { name: 'a Step Back with a pod selected', before: [{ select: first('Pod') }, 'step', 'step'], atOnce: ['back'], later: true },
  { name: 'two Step Backs at once with a pod selected', before: [{ select: first('Pod') }, 'step', 'step', 'step'], atOnce: ['back', 'back'], later: true },
  { name: 'a Step Back with a ReplicaSet selected', before: [{ select: first('ReplicaSet') }, 'step', 'step'], atOnce: ['back'], later: false },
  { name: 'two Step Backs at once with a node selected', before: [{ select: firstNode }, 'step', 'step', 'step'], atOnce: ['back', 'back'], later: true },
  { name: 'a Reset, then a Step Back at the start', before: ['step', 'step'], atOnce: ['reset', 'back'], later: true },
  // the Step redoes pass 0: its hand-off restores the ReplicaSet controller and the binder, Reset's rest dropped
  { name: 'a Reset, then a Step at once', before: ['step', 'step'], atOnce: ['reset', 'step'], later: false, restores: 1 },
  { name: 'a Reset, then a Step at once with a node selected', before: [{ select: firstNode }, 'step', 'step'], atOnce: ['reset', 'step'], restores: 1 },
  { name: 'a Reset, then a Step at once with a pod selected', before: [{ select: first('Pod') }, 'step', 'step'], atOnce: ['reset', 'step'], restores: 1 },
  // the Step Backs' rest finished by Reset (it reads the checkpoints), Reset's own taken into the Step's redo
  { name: 'Step Backs onto the start, then a Step at once', before: ['step', 'step'], atOnce: ['back', 'back', 'back', 'step'], later: false, restores: 2 },
  {
    name: 'Step Backs onto the start, then two Steps at once, a node selected',
    before: [{ select: firstNode }, 'step', 'step'],
    atOnce: ['back', 'back', 'back', 'step', 'step'],
    restores: 2,
  },
];

const act = (s: Parameters<typeof click>[0], a: Click, file: string, where: string) => click(s, a, file, where, true);

test('the restore answers once the views can be read, its rest in idle time: what the panel shows is a fresh session’s', () => {
  for (const file of FILES)
    for (const c of cases) {
      const where = `${c.name} (${file.split('/').pop()})`;
      const a = opened(file);
      for (const b of c.before) {
        a.idle('all');
        act(a.session, b, file, where);
      }
      a.idle('all');
      // each restore of the ReplicaSet controller, counted on its class (every restore makes a new one)
      const running = (a.session.sim as unknown as { controllers: readonly SimController[] }).controllers;
      const proto = Object.getPrototypeOf(running.find((x) => x.name === 'replicaset')!) as SimController;
      const own = proto.restoreInPieces!;
      let restores = 0;
      proto.restoreInPieces = function (this: SimController, ...r) {
        restores++;
        return own.apply(this, r);
      };
      try {
        for (const b of c.atOnce) act(a.session, b, file, where);
      } finally {
        proto.restoreInPieces = own;
      }
      if (c.restores !== undefined) assert.equal(restores, c.restores, `${where}: the ReplicaSet controller's restores in the clicks at once`);
      if (c.later !== undefined) assert.equal(a.session.sim.partDone, c.later, `${where}: the restore's rest left for idle time`);

      const fresh = opened(file);
      const selected = a.session.selected;
      if (selected) fresh.session.selectObject(selected);
      const pass = a.session.shown.pass;
      if (pass !== null) act(fresh.session, { goTo: pass }, file, where);
      assert.equal(shown(a.store), shown(fresh.store), `${where}: what the panel shows`);
      a.idle('all');
      assert.equal(a.session.sim.partDone, false, `${where}: restored whole in idle time`);
      assert.equal(state(a.session), state(fresh.session), `${where}: the shown simulation`);
      stepsLikeFresh(a, fresh, [0, 'all'], file, where);
    }
});
