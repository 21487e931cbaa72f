import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { ReplicaSetWindow, sortRefs } from '../../src/extension/replicaSetWindow';
import { diffItems, sameReplicaSet } from '../../src/extension/viewModel';
import { Store } from '../../src/webview/state';
import { Session } from '../../src/extension/session';
import { openScenario } from '../../src/extension/openScenario';
import { FIRST_REPLICASET_ROWS, parseWebviewMessage, type HostMessage, type ReplicaSetItem, type UpdateMessage } from '../../src/protocol/webview';
import { emptyUpdate } from '../helpers/updateMessage';

const rs = (n: number, ready = 3): ReplicaSetItem => ({ ref: `ReplicaSet/ns/rs-${n}`, desired: 3, current: 3, ready });
const ref = (n: number) => `ReplicaSet/ns/rs-${n}`;

/**
 * A host (ReplicaSetWindow over a map of items) and a panel (the webview's Store) joined by two ordered channels, as
 * VS Code joins them: each side's messages arrive in order, but a request and the updates may cross.
 */
class Channel {
  items = new Map<string, ReplicaSetItem>();
  private prev = new Map<string, ReplicaSetItem>();
  readonly host = new ReplicaSetWindow();
  readonly store = new Store();
  toPanel: HostMessage[] = [];
  toHost: string[][] = [];
  sizes: { keys: number; items: number }[] = [];

  set(...items: ReplicaSetItem[]): void {
    for (const i of items) this.items.set(i.ref, i);
  }
  remove(...refs: string[]): void {
    for (const r of refs) this.items.delete(r);
  }
  /** The host's update (its delta against the items of the update before, as the kept view gives it). */
  update(full = false): void {
    const delta = diffItems(full ? undefined : this.prev, this.items, sameReplicaSet);
    this.prev = new Map(this.items);
    const replicaSets = this.host.update(this.items, delta, full);
    this.sizes.push({ keys: replicaSets.keys?.length ?? -1, items: replicaSets.items.length });
    const m = emptyUpdate({ full, replicaSets });
    this.toPanel.push(JSON.parse(JSON.stringify(m)));
  }
  /** The panel asks for a window (delivered to the host later: `hostReads`). */
  ask(refs: string[]): void {
    this.toHost.push(refs);
  }
  hostReads(): void {
    for (const refs of this.toHost.splice(0)) {
      const parsed = parseWebviewMessage({ type: 'replicaSetWindow', refs });
      assert.ok(parsed && parsed.type === 'replicaSetWindow');
      this.toPanel.push(JSON.parse(JSON.stringify(this.host.window(parsed.refs, this.prev))));
    }
  }
  panelReads(): void {
    for (const m of this.toPanel.splice(0)) this.store.apply(m);
  }
  /** What the panel holds is what the host has now, for every row it holds; and it holds `window`. */
  check(what: string, window?: string[]): void {
    for (const [r, item] of this.store.replicaSets) assert.deepEqual(item, this.prev.get(r), `${what}: ${r} as the host has it`);
    if (window) assert.deepEqual([...this.store.replicaSets.keys()].sort(), [...window].sort(), `${what}: the rows held`);
    assert.deepEqual(this.store.replicaSetKeys, sortRefs(this.prev.keys()), `${what}: the keys in natural order`);
  }
}

const many = (n: number) => Array.from({ length: n }, (_, i) => rs(i));

test('keys go when the set changes, items for the window only; a window is answered with what the panel does not hold', () => {
  const c = new Channel();
  c.set(...many(200));
  c.update(true);
  c.panelReads();
  assert.deepEqual(c.sizes.at(-1), { keys: 200, items: FIRST_REPLICASET_ROWS });
  const first = sortRefs(c.items.keys()).slice(0, FIRST_REPLICASET_ROWS);
  c.check('open', first);
  assert.deepEqual(sortRefs([ref(10), ref(9), ref(100)]), [ref(9), ref(10), ref(100)], 'natural order');

  // every ReplicaSet's status changes (the pass where a zone's nodes go Unknown): only the window's items cross
  c.set(...many(200).map((r) => ({ ...r, ready: 1 })));
  c.update();
  c.panelReads();
  assert.deepEqual(c.sizes.at(-1), { keys: -1, items: FIRST_REPLICASET_ROWS });
  c.check('all changed', first);

  // nothing changed: nothing crosses
  c.update();
  assert.deepEqual(c.sizes.at(-1), { keys: -1, items: 0 });

  // the panel scrolls to rows it was not sent; the answer names the window and brings only the rows it lacked
  const window = [...first.slice(-10), ...sortRefs(c.items.keys()).slice(FIRST_REPLICASET_ROWS, 100)];
  c.ask(window);
  c.hostReads();
  const answer = c.toPanel.at(-1);
  assert.ok(answer?.type === 'replicaSets');
  assert.equal(answer.items.length, 100 - FIRST_REPLICASET_ROWS);
  c.panelReads();
  c.check('scrolled', window);

  // a row out of the window changes: nothing crosses; one in it does: it alone
  const outside = sortRefs(c.items.keys())[150];
  c.set({ ...c.items.get(outside)!, ready: 2 });
  c.update();
  assert.deepEqual(c.sizes.at(-1), { keys: -1, items: 0 });
  c.set({ ...c.items.get(window[0])!, ready: 3 });
  c.update();
  assert.deepEqual(c.sizes.at(-1), { keys: -1, items: 1 });
  c.panelReads();
  c.check('one changed', window);

  // a ReplicaSet appears and one of the window goes: the keys again, the gone one leaves the window on both sides
  c.set(rs(1000));
  c.remove(window[1]);
  c.update();
  assert.equal(c.sizes.at(-1)?.keys, 200);
  c.panelReads();
  c.check(
    'set changed',
    window.filter((r) => r !== window[1]),
  );
});

// Each case: the order in which the two sides read while the panel scrolls and the host steps, and changes of the
// items between; the panel must end holding the host's items of its window, never an older position's.
const crossings: { name: string; script: (c: Channel) => void }[] = [
  {
    name: 'a window asked for crosses an update',
    script: (c) => {
      c.ask([ref(150), ref(151)]);
      c.set(rs(150, 0), rs(0, 0));
      c.update();
      c.hostReads();
    },
  },
  {
    name: 'a window crosses a full update (Reset)',
    script: (c) => {
      c.ask([ref(150), ref(151), ref(0)]);
      c.set(rs(150, 0), rs(1, 0));
      c.update(true);
      c.hostReads();
      c.set(rs(151, 0), rs(1, 2), rs(2, 0));
      c.update();
    },
  },
  {
    name: 'two windows in flight, the items changing between them',
    script: (c) => {
      c.ask([ref(100), ref(101)]);
      c.ask([ref(120), ref(121), ref(1)]);
      c.set(rs(100, 0), rs(120, 0), rs(1, 0));
      c.update();
      c.hostReads();
      c.set(rs(121, 0), rs(1, 1));
      c.update();
    },
  },
  {
    name: 'a window naming a ReplicaSet that went meanwhile',
    script: (c) => {
      c.ask([ref(130), ref(131)]);
      c.remove(ref(130));
      c.update();
      c.hostReads();
      c.set(rs(131, 0));
      c.update();
    },
  },
  {
    name: 'the panel reads an update before the answer to its window, and the window again after',
    script: (c) => {
      c.ask([ref(140)]);
      c.set(rs(2, 0));
      c.update();
      c.panelReads();
      c.hostReads();
      c.panelReads();
      c.set(rs(140, 0), rs(2, 2));
      c.update();
    },
  },
];

for (const { name, script } of crossings) {
  test(`crossing messages: ${name}`, () => {
    const c = new Channel();
    c.set(...many(200));
    c.update(true);
    c.panelReads();
    script(c);
    c.hostReads();
    c.panelReads();
    c.check(name);
    // the same again from here: one more update brings nothing the panel does not hold already
    c.update();
    assert.deepEqual(c.sizes.at(-1)?.items, 0, `${name}: nothing left to send`);
  });
}

test('a session over the real engine: the keys only when the set changed, the window answered from the position shown', () => {
  const o = openScenario(resolve(__dirname, '../../examples/rs-zone-outage.yaml'), '');
  const posted: HostMessage[] = [];
  const s = new Session({ make: o.make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: (m) => posted.push(m) });
  s.sendAll();
  const updates = () => posted.filter((m): m is UpdateMessage => m.type === 'update');
  const open = updates().at(-1)!;
  const all = [...s.clusterView.replicaSets.values()];
  assert.ok(all.length > 0);
  assert.deepEqual(open.replicaSets.keys, sortRefs(all.map((r) => r.ref)));
  assert.deepEqual(
    open.replicaSets.items.map((i) => i.ref),
    open.replicaSets.keys!.slice(0, FIRST_REPLICASET_ROWS),
  );
  for (let i = 0; i < 40; i++) s.step();
  for (const u of updates().slice(1)) assert.equal(u.replicaSets.keys, undefined, `pass ${u.pass}: the set is the same`);
  // the items that crossed are the view's at each position: the last one holds what the view holds now
  const store = new Store();
  for (const m of posted) store.apply(m);
  for (const [r, item] of store.replicaSets) assert.deepEqual(item, s.clusterView.replicaSets.get(r));
  // an empty window, then the first row again: its item comes back
  const first = open.replicaSets.keys![0];
  assert.equal(s.handle({ type: 'replicaSetWindow', refs: [] }, { play() {}, pause() {} }).ok, true);
  s.replicaSetWindow([first, 'ReplicaSet/ns/no-such']);
  const answer = posted.at(-1);
  assert.ok(answer?.type === 'replicaSets');
  assert.deepEqual(answer.refs, [first], 'a ref the host does not list is not in the window');
  assert.deepEqual(answer.items, [s.clusterView.replicaSets.get(first)]);
});

test('the edge check refuses a window that is not a list of refs, or too long', () => {
  const cases: [unknown, boolean][] = [
    [{ type: 'replicaSetWindow', refs: [ref(1)] }, true],
    [{ type: 'replicaSetWindow', refs: [] }, true],
    [{ type: 'replicaSetWindow', refs: 'x' }, false],
    [{ type: 'replicaSetWindow', refs: [1] }, false],
    [{ type: 'replicaSetWindow', refs: [''] }, false],
    [{ type: 'replicaSetWindow', refs: Array.from({ length: 2001 }, (_, i) => ref(i)) }, false],
  ];
  for (const [m, ok] of cases) assert.equal(parseWebviewMessage(m) !== undefined, ok, JSON.stringify(m).slice(0, 80));
});
