/**
 * The clicks that read the start while its simulation is made in idle slices (swapAtOpen.ts): Reset on the start, a
 * node, pod or decision selected (the why), Explain, Show state, the object pick, a node's pods in the Cluster tree,
 * the page restarted, the What-if command's keys, a what-if re-run, the moves (Go to pass, Next decision, Run Until, a
 * reality mark) while the host slices. None makes the start's simulation on the click: Reset, the init message and the
 * what-if answer from what is shown, the others wait for the making in slices with the host's events between them
 * (Session.started, Session.long), the panel told so meanwhile. Their answers, and what the panel shows once they
 * came, equal a fresh session's at the start; so does the run forward from there.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Session, SessionResult } from '../../src/extension/session';
import { explainShown, objectPickOf, stateShown } from '../../src/extension/afterStart';
import { podsOf } from '../../src/extension/treeData';
import { openedWithStore, shownStore as shown, shownState as state, startScenarios } from '../helpers/shownState';

const { files: FILES, load } = startScenarios('cs-pending-start-');

/** The zone outage example with a `reality:` of two entries: node-b1's NoExecute taint (matched) and node-a1's, only real. */
function withReality(): string {
  const example = FILES[0];
  const dir = dirname(FILES[2]);
  const file = resolve(dir, 'rs-zone-outage-reality.yaml');
  // a scenario reads only its own folder's files: the snapshot goes beside it
  mkdirSync(resolve(dir, 'clusters'), { recursive: true });
  copyFileSync(resolve(dirname(example), 'clusters/three-zones.yaml'), resolve(dir, 'clusters/three-zones.yaml'));
  const text = readFileSync(example, 'utf8');
  const reality = [
    'reality:',
    '  - at: 2026-01-01T00:01:10Z',
    '    action: TaintAdded',
    '    object: Node/node-b1',
    '    detail: node.kubernetes.io/unreachable:NoExecute',
    '  - at: 2026-01-01T00:01:31Z',
    '    action: TaintAdded',
    '    object: Node/node-a1',
    '    detail: node.kubernetes.io/unreachable:NoSchedule',
  ];
  writeFileSync(file, `${text}\n${reality.join('\n')}\n`);
  return file;
}

/** Opened with a clock of its own, 7 ms a read: the making waited for is cut in several slices of the session's 100 ms. */
function opened(file: string) {
  let t = 0;
  return openedWithStore(load(file), () => (t += 7));
}

const refs = (file: string) => {
  const c = load(file).scenario.snapshot.cluster;
  const node = [...c.nodes.keys()][0];
  const pod = [...c.pods.values()].find((p) => p.nodeName === node)!;
  return { node: `Node/${node}`, nodeName: node, pod: `Pod/${pod.meta.namespace}/${pod.meta.name}` };
};

/**
 * A click, and its answer once given (`answer`: awaited after the click; undefined for what only the panel shows).
 * `sync`: the click answers without waiting (the panel shows the answer at once).
 */
type Click = {
  name: string;
  sync?: true;
  /** the panel says "loading" until answered (a restarted page) */
  loading?: true;
  /** simulations the click makes of its own, at once (a what-if's) */
  makes?: number;
  click: (s: Session, file: string) => unknown;
  answer?: (s: Session, file: string, clicked: unknown) => Promise<unknown>;
};

const TOKEN = { isCancellationRequested: false };

/** A move clicked as the panel's host runs it (ctx.run): sliced, finished by finishLong. */
function move(name: string, call: (s: Session) => SessionResult): Click {
  return {
    name,
    click: (s) => (s.slices.begin(TOKEN), call(s)),
    answer: async (s, _f, r) => {
      const done = (r as SessionResult).ok && (r as { pending?: true }).pending ? await s.finishLong(TOKEN) : r;
      s.slices.end();
      return done;
    },
  };
}

const clicks: Click[] = [
  { name: 'Reset on the start', sync: true, click: (s) => assert.equal(s.reset().ok, true) },
  { name: 'Step Back on the start', sync: true, click: (s) => assert.equal(s.stepBack().ok, false) },
  { name: 'a node selected in the panel', click: (s, f) => s.selectObject(refs(f).node) },
  { name: 'a pod selected in the panel', click: (s, f) => s.selectObject(refs(f).pod) },
  { name: 'a decision of the start selected', click: (s) => s.selectDecision(s.shown.trace.at(-1)?.seq ?? 1) },
  {
    name: 'a node selected, then Reset on the start',
    click: (s, f) => (s.selectObject(refs(f).node), assert.equal(s.reset().ok, true)),
  },
  { name: 'Explain a pod', click: (s, f) => explainShown(s, refs(f).pod), answer: (_s, _f, p) => p as Promise<unknown> },
  { name: 'Show state', click: (s) => stateShown(s), answer: (_s, _f, p) => p as Promise<unknown> },
  { name: 'the object pick', click: (s) => objectPickOf(s), answer: (_s, _f, p) => p as Promise<unknown> },
  { name: "a node's pods in the Cluster tree", click: (s, f) => podsOf(s, refs(f).nodeName), answer: (_s, _f, p) => Promise.resolve(p) },
  { name: 'the page restarted', loading: true, click: (s) => s.sendAll() },
  { name: "the What-if command's keys (the init message)", sync: true, click: (s) => s.initMessage(), answer: (_s, _f, m) => Promise.resolve(m) },
  {
    name: 'a what-if re-run',
    sync: true,
    makes: 1,
    click: (s) => s.whatIf('nodeMonitorGracePeriod', '50s'),
    answer: (s, _f, r) => Promise.resolve({ r, comparison: s.lastComparison }),
  },
  move('Go to pass 1', (s) => s.goToPass(1)),
  move('Next decision', (s) => s.nextDecision()),
  move('Run Until 1m10s', (s) => s.runUntil('1m10s')),
  move('Previous decision', (s) => s.previousDecision()),
];

/** The reality lane's marks, a matched one and one only real (the scenario withReality). */
const realityClicks: Click[] = [move('a matched reality mark', (s) => s.selectReality(0)), move('a reality mark only real', (s) => s.selectReality(1))];

/** The same click's answer in a fresh session at the start (made at the open, nothing pending). */
async function freshAnswer(c: Click, file: string): Promise<{ store: string; state: string; answer: string | undefined }> {
  const fresh = opened(file);
  assert.equal(fresh.session.shownPending, false);
  const clicked = c.click(fresh.session, file);
  const answer = c.answer ? JSON.stringify(await c.answer(fresh.session, file, clicked)) : undefined;
  await fresh.session.started();
  return { store: shown(fresh.store), state: state(fresh.session), answer };
}

/** Each click at four moments of the pending start, against a fresh session's answer. */
async function clickedWhilePending(files: string[], clicks: Click[]): Promise<void> {
  for (const file of files) {
    // every moment the start is pending: after the open's first turn, until the idle work has made it
    const probe = opened(file);
    probe.idle(1);
    let pendingMoments = 0;
    while (probe.session.shownPending && probe.advance()) pendingMoments++;
    assert.ok(pendingMoments >= 2, `${file}: ${pendingMoments} moments with the start pending`);
    for (const c of clicks) {
      const want = await freshAnswer(c, file);
      for (const k of new Set([0, 1, Math.floor(pendingMoments / 2), pendingMoments - 1])) {
        const where = `${c.name}, ${file.split('/').pop()}, ${k} moments after the open's first turn`;
        const a = opened(file);
        a.idle(1 + k);
        assert.equal(a.session.shownPending, true, `${where}: the start pending before the click`);
        const before = { ...a.made };
        const clicked = c.click(a.session, file);
        assert.equal(a.session.shownPending, true, `${where}: the start not made on the click`);
        assert.deepEqual(a.made, { ...before, atOnce: before.atOnce + (c.makes ?? 0) }, `${where}: no simulation made on the click`);
        if (c.sync) assert.equal(shown(a.store), want.store, `${where}: what the panel shows at once`);
        else if (c.loading) assert.ok(a.store.loading, `${where}: the panel says it is loading`);
        else if (!c.answer) assert.equal(a.store.waiting, true, `${where}: the panel says the why waits`);
        const answer = c.answer ? JSON.stringify(await c.answer(a.session, file, clicked)) : undefined;
        assert.equal(await a.session.started(), true, `${where}: the start made`);
        assert.equal(a.session.shownPending, false, `${where}: the start made once waited for`);
        assert.equal(answer, want.answer, `${where}: the answer`);
        assert.equal(shown(a.store), want.store, `${where}: what the panel shows once answered`);
        assert.equal(state(a.session), want.state, `${where}: the shown simulation`);
        // and the run forward, as a fresh session's after the same click
        const fresh = opened(file);
        const freshClicked = c.click(fresh.session, file);
        if (c.answer) await c.answer(fresh.session, file, freshClicked);
        for (const moments of [0, 2]) {
          a.idle(moments);
          fresh.idle(moments);
          for (const s of [a.session, fresh.session]) assert.equal(s.step().ok, true, where);
          assert.equal(shown(a.store), shown(fresh.store), `${where}: what the panel shows after a step`);
          assert.equal(state(a.session), state(fresh.session), `${where}: the shown simulation after a step`);
        }
      }
    }
  }
}

test('the clicks on a start still being made make no simulation on the click, and answer as a fresh session', async () => {
  await clickedWhilePending(FILES, clicks);
});

test('a reality mark selected on a start still being made makes no simulation on the click, and answers as a fresh session', async () => {
  await clickedWhilePending([withReality()], realityClicks);
});

test('a Step while the why waits for the start takes the making over, and the why is answered on pass 0', async () => {
  for (const file of FILES) {
    const a = opened(file);
    a.idle(2);
    assert.equal(a.session.shownPending, true);
    a.session.selectObject(refs(file).node);
    assert.equal(a.store.waiting, true);
    assert.equal(a.session.step().ok, true);
    assert.equal(a.session.shownPending, false, `${file}: the step shows a simulation`);
    assert.equal(await a.session.started(), true);
    const fresh = opened(file);
    fresh.session.selectObject(refs(file).node);
    assert.equal(fresh.session.step().ok, true);
    assert.equal(shown(a.store), shown(fresh.store), `${file}: what the panel shows on pass 0`);
    assert.equal(state(a.session), state(fresh.session), `${file}: pass 0`);
  }
});

test('a session closed (another scenario opened) makes nothing more of its start and answers nothing', async () => {
  const file = FILES[2];
  const a = opened(file);
  a.idle(1);
  a.session.selectObject(refs(file).node);
  const made = { ...a.made };
  a.session.close();
  assert.equal(await a.session.started(), false);
  assert.equal(await explainShown(a.session, refs(file).node), undefined);
  assert.equal(a.session.shownPending, true, 'the start not made');
  assert.deepEqual(a.made, made);
  assert.equal(a.store.waiting, true, 'no selection sent after the close');
});
