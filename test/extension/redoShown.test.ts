/**
 * Back over the outage and on again, then back onto the start and on, as a user comparing the passes: the steps on
 * take pass 0 and heavy passes from what the simulations ran before (redo.ts), and what the panel holds (the webview's own Store fed
 * with every message) and the shown simulation (records, trace, problems, the why and machines of a node and a pod,
 * zones) are at every click a fresh session's on that pass, with and without idle time between the clicks.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Session } from '../../src/extension/session';
import type { SimulationImpl } from '../../src/engine/simulation/simulation';
import { openedWithStore, shownStore as shown, shownState as state, startScenarios } from '../helpers/shownState';

const { files: FILES, load } = startScenarios('cs-redo-shown-');
const opened = (file: string) => openedWithStore(load(file));

/** the pass in which the scenario's first Ready=Unknown pods are marked not ready (a fresh session's) */
function outagePass(file: string): number {
  const s = opened(file).session;
  for (let n = 0; n < 120; n++) {
    s.goToPass(n);
    if (s.sim.trace.some((d) => d.pass === n && d.action === 'PodsMarkedNotReady')) return n;
  }
  throw new Error(`${file}: no pass marks pods not ready`);
}

type Idle = number | 'all';
const rounds: { name: string; idle: (i: number) => Idle }[] = [
  { name: 'at once', idle: () => 0 },
  { name: 'after the idle work', idle: () => 'all' },
  { name: 'varied', idle: (i) => ([0, 'all', 2, 1, 'all', 0] as Idle[])[i % 6] },
];

for (const file of FILES)
  for (const r of rounds)
    test(`back over the outage and on again, ${r.name} (${file.split('/').pop()}): the panel and the simulation are a fresh session's`, () => {
      const p = outagePass(file);
      const a = opened(file);
      a.idle('all');
      assert.equal(a.session.goToPass(p + 2).ok, true);
      a.idle('all');
      const fresh = new Map<number, { panel: string; sim: string }>();
      const want = (n: number | null) => {
        const key = n ?? -1;
        if (!fresh.has(key)) {
          const f = opened(file);
          f.idle('all');
          if (n !== null) f.session.goToPass(n);
          f.idle('all');
          fresh.set(key, { panel: shown(f.store), sim: state(f.session) });
        }
        return fresh.get(key)!;
      };
      // the session's two simulations trade places at each swap: every one seen, and the passes each took so
      const sims = new Set<SimulationImpl>();
      const redone = () => {
        for (const s of [a.session.sim, a.session.ahead.sim]) if (s) sims.add(s as SimulationImpl);
        return [...sims].reduce((n, s) => n + s.redoneCount, 0);
      };
      const first = redone();
      const clicks: ((s: Session) => unknown)[] = [
        (s) => s.stepBack(),
        (s) => s.stepBack(),
        (s) => s.stepBack(),
        (s) => s.step(),
        (s) => s.step(),
        (s) => s.step(),
        (s) => s.stepBack(),
        (s) => s.step(),
        // back onto the start and on: pass 0 (every node registered, every ReplicaSet synced) is taken from the run before
        (s) => s.goToPass(1),
        (s) => s.stepBack(),
        (s) => s.stepBack(),
        (s) => s.step(),
      ];
      clicks.forEach((click, i) => {
        a.idle(r.idle(i));
        redone();
        assert.equal((click(a.session) as { ok: boolean }).ok, true);
        const n = a.session.shown.pass;
        const where = `click ${i} onto pass ${n}`;
        assert.equal(shown(a.store), want(n).panel, `${where}: what the panel shows`);
        assert.equal(state(a.session), want(n).sim, `${where}: the shown simulation`);
      });
      // pass 0 at least is taken again, not stepped (by the shown simulation, or by the ahead one in idle time); a quiet pass is stepped
      assert.ok(redone() > first, 'no pass taken from the run before');
    });
