import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  FITS,
  fitted,
  isActive,
  LABEL_CHAR,
  LABEL_LINE,
  layout,
  matchesTransition,
  placeTransitions,
  wrapLabel,
  type Fit,
} from '../../src/webview/views/machine';
import { machineGraph, took } from '../../src/extension/machineGraph';
import { monitorMachine, nodeHealthMachine, zoneMachine } from '../../src/engine/controllers/nodeLifecycle/machines';
import { replicaSetMachine } from '../../src/engine/controllers/replicaSet/machine';
import { claimPodsMachine } from '../../src/engine/controllers/replicaSet/claimPodsMachine';
import { updateReplicaSetStatusMachine } from '../../src/engine/controllers/replicaSet/updateReplicaSetStatusMachine';
import { podEvictionMachine } from '../../src/engine/controllers/taintEviction/machine';
import { processTaintBaseEvictionMachine } from '../../src/engine/controllers/nodeLifecycle/processTaintBaseEviction';
import { markPodsNotReadyMachine } from '../../src/engine/controllers/nodeLifecycle/controllerUtilsMachines';
import { filterDecisions, NOISE } from '../../src/webview/views/decisionLog';
import { decisionLine } from '../../src/protocol/lists';
import { formatMs } from '../../src/webview/state';
import { NOISE_ACTIONS, type Decision } from '../../src/engine/trace/decision';
import { nodeMachine } from '../extension/fakeSimulation';

test('the statechart is read from xstate’s own definition: states nested, transitions with their guards', () => {
  const m = machineGraph(nodeMachine.definition);
  assert.deepEqual(
    m.root.children.map((s) => s.path),
    ['ready', 'unknown'],
  );
  assert.equal(m.root.type, 'compound');
  assert.equal(m.root.initial, 'ready');
  assert.deepEqual(
    m.root.children[1].children.map((s) => s.path),
    ['unknown.observed', 'unknown.queued', 'unknown.tainted'],
  );
  assert.equal(m.root.children[1].initial, 'unknown.observed');
  assert.deepEqual(
    m.transitions.map((t) => [t.source, t.event, t.target, t.guard ?? '']),
    [
      ['ready', 'PROBE_EXPIRED', 'unknown', 'graceElapsed'],
      ['unknown', 'HEARTBEAT', 'ready', ''],
      ['unknown.observed', 'QUEUE', 'unknown.queued', ''],
      ['unknown.queued', 'TAINT_PASS', 'unknown.tainted', 'queueReleased'],
    ],
  );
  assert.equal(m.transitions[0].description, 'no heartbeat for nodeMonitorGracePeriod');
});

test('the statechart also reads a plain config with relative targets', () => {
  const m = machineGraph({
    id: 'zone',
    states: { Normal: { on: { DISRUPTED: 'PartialDisruption' } }, PartialDisruption: { on: { ALL: { target: '#zone.FullDisruption' } } }, FullDisruption: {} },
  });
  assert.deepEqual(
    m.transitions.map((t) => `${t.source}-${t.event}->${t.target}`),
    ['Normal-DISRUPTED->PartialDisruption', 'PartialDisruption-ALL->FullDisruption'],
  );
});

test('the engine’s parallel node machine has its two regions side by side, and guarded transitions per target', () => {
  const m = machineGraph(nodeHealthMachine.definition);
  assert.equal(m.root.type, 'parallel');
  assert.deepEqual(
    m.root.children.map((s) => s.path),
    ['ready', 'eviction'],
  );
  const box = layout(m.root, m.transitions);
  const [ready, eviction] = box.children;
  assert.equal(ready.y, eviction.y, 'regions share a row');
  assert.ok(eviction.x >= ready.x + ready.w, 'and do not overlap');
  const observed = m.transitions.filter((t) => t.event === 'READY_OBSERVED');
  // in the sub-states they are taken from: an observation of the state the region is in is no transition
  assert.deepEqual(
    observed.filter((t) => t.source === 'ready.NotObserved').map((t) => [t.target, t.guard]),
    [
      ['ready.True', 'readyIsTrue'],
      ['ready.False', 'readyIsFalse'],
      ['ready.Unknown', 'readyIsUnknown'],
    ],
  );
  assert.deepEqual(
    observed.filter((t) => t.source === 'ready.True').map((t) => [t.target, t.guard]),
    [
      ['ready.False', 'readyIsFalse'],
      ['ready.Unknown', 'readyIsUnknown'],
    ],
  );
  for (const kid of ready.children.slice(1)) assert.ok(kid.y >= ready.children[0].y + ready.children[0].h, 'a compound state’s children are stacked');
});

test('a recorded transition is matched to the declared one it took, not to its siblings with other guards', () => {
  const m = machineGraph(nodeHealthMachine.definition);
  const rec = { from: 'ready.NotObserved,eviction.idle', to: 'ready.True,eviction.idle', event: 'READY_OBSERVED' };
  assert.deepEqual(
    m.transitions.filter((t) => took(t, { id: 'node/a', ...rec })).map((t) => t.target),
    ['ready.True'],
  );
  assert.deepEqual(
    m.transitions.filter((t) => matchesTransition(t, rec)).map((t) => t.target),
    ['ready.True'],
    'the webview marks the same one',
  );
});

test('a state is active when the current state is it or inside it', () => {
  assert.equal(isActive('unknown', 'unknown.queued'), true);
  assert.equal(isActive('unknown.queued', 'unknown.queued'), true);
  assert.equal(isActive('unknown.q', 'unknown.queued'), false);
  assert.equal(isActive('ready', 'unknown.queued'), false);
  assert.equal(isActive('', 'unknown.queued'), true, 'the root is always active');
});

test('the webview’s noise list is the engine’s', () => {
  assert.deepEqual([...NOISE].sort(), [...NOISE_ACTIONS].sort());
});

test('the decision log filters by controller, action, object and text', () => {
  const ds = [
    { seq: 1, controller: 'world', action: 'KubeletStopped', object: 'Node/a', summary: 'stopped', because: [] },
    { seq: 2, controller: 'node-lifecycle', action: 'TaintAdded', object: 'Node/a', summary: 'tainted', because: [{ rule: 'Ready is Unknown' }] },
    { seq: 3, controller: 'node-lifecycle', action: 'TaintAdded', object: 'Node/b', summary: 'tainted', because: [] },
  ] as unknown as Decision[];
  const f = { controller: '', action: '', object: '', search: '' };
  // the log holds one-line entries; the checks' rules of those held whole (asked for when a search is typed)
  const lines = ds.map(decisionLine);
  const whole = new Map(ds.map((d) => [d.seq, d]));
  const cases: { filter: Partial<typeof f>; details: ReadonlyMap<number, Decision>; seqs: number[] }[] = [
    { filter: { controller: 'world' }, details: whole, seqs: [1] },
    { filter: { action: 'TaintAdded', object: 'node/b' }, details: whole, seqs: [3] },
    { filter: { search: 'unknown' }, details: whole, seqs: [2] },
    { filter: { search: 'tainted' }, details: new Map(), seqs: [2, 3] },
    // a rule is read only once its decision came whole
    { filter: { search: 'unknown' }, details: new Map(), seqs: [] },
  ];
  for (const c of cases)
    assert.deepEqual(
      filterDecisions(lines, { ...f, ...c.filter }, c.details).map((d) => d.seq),
      c.seqs,
      JSON.stringify(c.filter),
    );
});

test('countdowns read as Go-style durations', () => {
  assert.equal(formatMs(299_900), '4m59.9s');
  assert.equal(formatMs(3_600_000), '1h0m0s');
  assert.equal(formatMs(500), '0.5s');
});

test('in a parallel machine a state is active when one of the regions is in it', () => {
  assert.equal(isActive('ready.Unknown', 'ready.Unknown,eviction.idle'), true);
  assert.equal(isActive('eviction', 'ready.Unknown,eviction.idle'), true);
  assert.equal(isActive('eviction.queued', 'ready.Unknown,eviction.idle'), false);
});

test('a long label wraps at its words (camelCase, `_`), never past the width', () => {
  const cases: [string, number, string[]][] = [
    ['ZONE_HEALTH', 40, ['ZONE_HEALTH']],
    ['[unhealthyRatioAtLeastThreshold]', 18, ['[unhealthyRatioAt', 'LeastThreshold]']],
    ['ALL_ZONES_FULLY_DISRUPTED', 12, ['ALL_ZONES_', 'FULLY_', 'DISRUPTED']],
    ['averyveryverylongword', 8, ['averyver', 'yverylon', 'gword']],
  ];
  for (const [text, wrap, lines] of cases) assert.deepEqual(wrapLabel(text, wrap), lines, text);
});

test('the statechart takes the first fit its column holds: labels wrapped, then regions stacked', () => {
  const m = machineGraph(nodeHealthMachine.definition);
  const cases: [number, Fit][] = [
    [2000, FITS[0]],
    [420, FITS[2]],
    [100, FITS[FITS.length - 1]],
  ];
  for (const [width, fit] of cases) {
    const got = fitted(m.root, m.transitions, width);
    assert.deepEqual(got.fit, fit, `${width} px`);
    if (width >= 420) assert.ok(got.root.w + 20 <= width, `${width} px: ${got.root.w}`);
  }
});

// every machine the panel draws: two labels never share a line (the ReplicaSet's expectations region has eleven arrows
// into two states, self-loops among them: a self-loop's label sat 5 px off its neighbours', across them)
const DRAWN = {
  nodeHealth: nodeHealthMachine,
  zone: zoneMachine,
  monitor: monitorMachine,
  replicaSet: replicaSetMachine,
  claimPods: claimPodsMachine,
  updateReplicaSetStatus: updateReplicaSetStatusMachine,
  podEviction: podEvictionMachine,
  processTaintBaseEviction: processTaintBaseEvictionMachine,
  markPodsNotReady: markPodsNotReadyMachine,
};
for (const [name, machine] of Object.entries(DRAWN))
  for (const fit of FITS)
    test(`${name}, labels wrapped at ${fit.wrap}${fit.stack ? ', regions stacked' : ''}: no two arrow labels overlap`, () => {
      const g = machineGraph(machine.definition);
      const placed = placeTransitions(layout(g.root, g.transitions, fit), g.transitions, fit);
      assert.equal(placed.length, g.transitions.length, 'every transition is drawn');
      const lines = placed.flatMap((p) => p.lines.map((text, i) => ({ x: p.labelX, y: p.labelY + i * LABEL_LINE, text, of: p.t.id })));
      for (let i = 0; i < lines.length; i++)
        for (let j = i + 1; j < lines.length; j++) {
          const [a, b] = [lines[i], lines[j]];
          if (a.x !== b.x) continue;
          assert.ok(Math.abs(a.y - b.y) >= LABEL_LINE - 0.5, `"${a.text}" (${a.of}) at y ${a.y} and "${b.text}" (${b.of}) at y ${b.y}: closer than a line`);
        }
    });

test('an action-only transition declared on a compound state is drawn in its own lane, beside its title, not in a lane of its own beside the chart', () => {
  const g = machineGraph(replicaSetMachine.definition);
  const own = g.transitions.filter((t) => t.source === 'queue' && t.target === '');
  assert.deepEqual(
    own.map((t) => t.event),
    ['ENQUEUE_AFTER', 'RESYNC_DUE'],
  );
  for (const fit of FITS) {
    const root = layout(g.root, g.transitions, fit);
    const queue = root.children.find((c) => c.state.path === 'queue')!;
    for (const p of placeTransitions(root, g.transitions, fit).filter((x) => own.includes(x.t))) {
      const right = p.labelX + Math.max(...p.lines.map((l) => l.length)) * LABEL_CHAR;
      assert.ok(
        p.labelX > queue.x && right <= queue.x + queue.w + 0.5,
        `${fit.wrap}/${fit.stack}: ${p.t.event}'s label inside the queue region (${p.labelX}-${right} in ${queue.x}-${queue.x + queue.w})`,
      );
      const first = queue.children[0];
      assert.ok(
        p.labelY > queue.y && p.labelY + (p.lines.length - 1) * LABEL_LINE < first.y,
        `${fit.wrap}/${fit.stack}: ${p.t.event}'s label above the region's first state`,
      );
    }
    // stacked, the regions are the chart's width: nothing beside them (a 1280×800 window's Why column is about 330 px:
    // the narrowest fit was 417 px wide, drawn at three quarters of its size)
    if (fit.stack) assert.equal(root.w, Math.max(...root.children.map((c) => c.w)) + 16, `${fit.wrap}: no lane beside the stacked regions`);
  }
  assert.ok(layout(g.root, g.transitions, FITS[FITS.length - 1]).w + 20 <= 330, 'the narrowest fit is drawn whole in a 330 px column');
});
