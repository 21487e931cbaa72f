/**
 * What the code-server walk found cut or out of view, at the size VS Code gives
 * the panel there (a 1600×1000 window: the webview about 1250×800), in both
 * themes (screenshots kept): the selected node's pods, the zone queue's
 * positions, the statechart's labels and the decision log's object names.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import type { HostMessage, NodeItem, PodItem, UpdateMessage, ZoneRow } from '../../src/protocol/webview';
import { machineGraph } from '../../src/extension/machineGraph';
import { nodeHealthMachine, zoneMachine } from '../../src/engine/controllers/nodeLifecycle/machines';
import { afterHostAnswer, serveWebview, THEMES, type Served } from './harness/page';
import { assertRowsWhole, measureRows, openPlain, sendAndPaint } from './harness/rowFit';
import { allNodeRows } from './harness/nodeRows';

let served: Served;
before(async () => {
  served = await serveWebview();
});
after(async () => {
  await served?.close();
});

const SCREENSHOTS = process.env.SCREENSHOTS || join(resolve(__dirname, '../..'), 'out', 'screenshots');
const NOW = '2026-01-01T00:05:00.000Z';
const NODE = 'ip-10-1-0-118.us-east-1b.compute.internal';
const TAINTS = ['node.kubernetes.io/unreachable:NoExecute', 'node.kubernetes.io/unreachable:NoSchedule'];
/** a node the outage tainted that also carries its owner's taints, one longer than the column */
const OWNED = 'ip-10-1-0-151.us-east-1b.compute.internal';
const USER_TAINTS = [
  'dedicated.example.com/reserved-for-the-batch-analytics-team-nightly-workloads=batch-analytics-nightly-window:NoSchedule',
  'gpu=true:PreferNoSchedule',
];

function update(): UpdateMessage {
  const nodes: NodeItem[] = Array.from({ length: 300 }, (_, i) => {
    const b = i >= 150;
    const name = b ? `ip-10-1-0-${i}.us-east-1b.compute.internal` : `ip-10-0-0-${i}.us-east-1a.compute.internal`;
    const taints = name === OWNED ? [...USER_TAINTS, ...TAINTS] : b ? TAINTS : [];
    return { ref: `Node/${name}`, name, zone: `Zone/us-east-1${b ? 'b' : 'a'}`, ready: b ? 'Unknown' : 'True', taints, unschedulable: name === OWNED };
  });
  const zone = (z: string, notReady: number): ZoneRow => ({
    zone: `Zone/us-east-1${z}`,
    state: notReady ? 'FullDisruption' : 'Normal',
    nodes: 1667,
    notReady,
    evictionRate: notReady ? 0.01 : 0.1,
    ...(notReady ? { nextTokenAt: '2026-01-01T00:05:10.000Z' } : {}),
    queuedCount: notReady ? 1650 : 0,
    queued: [],
  });
  return {
    type: 'update',
    full: true,
    time: NOW,
    pass: 60,
    lastPass: 60,
    zones: [zone('a', 0), zone('b', 1667), zone('c', 0)],
    nodes: allNodeRows(nodes),
    podCounts: { upsert: nodes.map((n) => ({ ref: n.ref, pods: 30, evicting: n.taints.length ? 28 : 0 })), remove: [] },
    replicaSets: {
      keys: Array.from({ length: 14_121 }, (_, i) => `ReplicaSet/default/rs-${i}`),
      items: Array.from({ length: 60 }, (_, i) => ({ ref: `ReplicaSet/default/rs-${i}`, desired: 10, current: 10, ready: 10 })),
    },
    decisions: [
      {
        seq: 2126,
        time: NOW,
        pass: 60,
        controller: 'node-lifecycle',
        action: 'TaintAdded',
        object: `Node/${NODE}`,
        summary: 'Added taint node.kubernetes.io/unreachable:NoExecute',
        because: [],
        causes: [],
        source: 'nodelifecycle: doNoExecuteTaintingPass',
      } as unknown as UpdateMessage['decisions'][number],
    ],
    passMarks: [{ pass: 60, decisions: 1 }],
  };
}

function selectNode(): HostMessage[] {
  const pods: PodItem[] = Array.from({ length: 30 }, (_, j) => ({
    ref: `Pod/default/web-7d9f-${j}-abcdefghij`,
    node: NODE,
    phase: 'Running',
    ready: false,
    owner: 'ReplicaSet/default/web-7d9f',
    evictionAt: '2026-01-01T00:09:55.000Z',
  }));
  return [
    { type: 'select', object: `Node/${NODE}` },
    { type: 'selection', object: `Node/${NODE}`, nodePods: { node: NODE, pods } },
  ];
}

const open = (theme: keyof typeof THEMES): Promise<Page> => openPlain(served, 1250, 800, theme);
const send = sendAndPaint;

/** How far `e` sticks out of `box` on each side (0 when inside), in px. */
const outside = (e: Locator, box: string) =>
  e.evaluate((x, sel) => {
    const r = x.getBoundingClientRect();
    const b = document.querySelector(sel)!.getBoundingClientRect();
    return Math.max(0, b.left - r.left, r.right - b.right, b.top - r.top, r.bottom - b.bottom);
  }, box);

/** How far line `i` of the open queue's text (its position and name; -1 the last) is outside `box`, and its text. */
const queueLine = (page: Page, i: number, box: string) =>
  page.locator('#zones .queue-names').evaluate(
    (list, [i, sel]) => {
      const node = list.firstChild as Text;
      const lines = node.data.split('\n');
      const k = i < 0 ? lines.length + i : i;
      const start = lines.slice(0, k).reduce((n, l) => n + l.length + 1, 0);
      const range = document.createRange();
      range.setStart(node, start);
      range.setEnd(node, start + lines[k].length);
      const r = range.getBoundingClientRect();
      const b = document.querySelector(sel)!.getBoundingClientRect();
      return { text: lines[k], outside: Math.max(0, b.left - r.left, r.right - b.right, b.top - r.top, r.bottom - b.bottom) };
    },
    [i, box] as const,
  );

for (const theme of ['light', 'dark'] as const) {
  test(`${theme}: the selected node's pods are in view without scrolling, four at least, whole`, async () => {
    const page = await open(theme);
    await send(page, update(), ...selectNode());
    const rows = page.locator('#pod-list .pod');
    await rows.first().waitFor();
    // rows whose whole box shows in the column as it is (the column not scrolled)
    const inView = await page.evaluate(() => {
      const col = document.getElementById('cluster')!.getBoundingClientRect();
      const list = document.getElementById('pod-list')!.getBoundingClientRect();
      const top = Math.max(col.top, list.top),
        bottom = Math.min(col.bottom, list.bottom, window.innerHeight);
      return Array.from(document.querySelectorAll('#pod-list .pod')).filter((p) => {
        const r = p.getBoundingClientRect();
        return r.top >= top - 0.5 && r.bottom <= bottom + 0.5;
      }).length;
    });
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: join(SCREENSHOTS, `fits-pods-${theme}.png`) });
    assert.ok(inView >= 4, `${inView} pods in view`);
    assert.equal(await page.locator('#cluster').evaluate((c) => c.scrollTop), 0);
    assert.ok((await page.locator('#nodes').evaluate((e) => e.clientHeight)) >= 4 * 24, 'and the node list still shows four rows');
    await page.close();
  });

  test(`${theme}: a queue of 1,650 shows every position whole`, async () => {
    const page = await open(theme);
    await send(page, update());
    // the host answers the click with its own zones (the fake's queue is empty): the names are sent after that
    await afterHostAnswer(page, 'zones', () => page.locator('#zones button.queued').click());
    const names = Array.from({ length: 1650 }, (_, i) => `ip-10-1-0-${i}.us-east-1b.compute.internal`);
    await send(page, { type: 'zones', zones: update().zones.map((z) => (z.queuedCount ? { ...z, queued: names } : z)) });
    const list = page.locator('#zones .queue-names');
    await list.evaluate((e) => (e.scrollTop = e.scrollHeight));
    const last = await queueLine(page, -1, '#zones .queue-names');
    assert.match(last.text, /^1,650\.\s+ip-10-1-0-1649/, 'the position is text, whole');
    assert.equal(last.outside, 0);
    assert.ok(await list.evaluate((e) => e.scrollWidth <= e.clientWidth + 1), 'nothing to scroll sideways');
    await page.screenshot({ path: join(SCREENSHOTS, `fits-queue-${theme}.png`) });
    await page.close();
  });

  test(`${theme}: the statecharts' labels are inside the Machine tab, with nothing to scroll sideways`, async () => {
    const page = await open(theme);
    await send(page, update());
    await page.locator('#tab-machine').click();
    for (const [id, def, state] of [
      ['zone/us-east-1b', zoneMachine.definition, 'FullDisruption'],
      [`node/${NODE}`, nodeHealthMachine.definition, 'ready.Unknown,eviction.tainted'],
    ] as const) {
      await send(page, { type: 'selection', object: `Zone/us-east-1b`, machine: { id, state, graph: machineGraph(def) } });
      const labels = page.locator('#machine-body svg.statechart .transition .label');
      await labels.first().waitFor();
      const cut = await labels.evaluateAll((ls) => {
        const body = document.getElementById('machine-body')!.getBoundingClientRect();
        return ls.filter((l) => l.getBoundingClientRect().right > body.right + 0.5).map((l) => l.textContent);
      });
      assert.deepEqual(cut, [], `${id}: labels past the right edge`);
      assert.ok(await page.locator('#machine-body').evaluate((e) => e.scrollWidth <= e.clientWidth + 1), `${id}: nothing to scroll sideways`);
      // not scaled down past reading: the labels' text at least 9 px high on screen
      const h = await labels.first().evaluate((l) => l.getBoundingClientRect().height);
      assert.ok(h >= 9, `${id}: labels ${h} px high`);
      await page.screenshot({ path: join(SCREENSHOTS, `fits-machine-${id.split('/')[0]}-${theme}.png`) });
    }
    await page.close();
  });

  test(`${theme}: every taint of a node is whole, a user's long one too, at two column widths`, async () => {
    const page = await open(theme);
    await send(page, update(), { type: 'select', object: `Node/${OWNED}` });
    for (const width of [1250, 900]) {
      await page.setViewportSize({ width, height: 800 });
      await send(page);
      const row = page.locator(`#nodes .row[data-ref="Node/${OWNED}"]`);
      await row.waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, `fits-taints-${width}-${theme}.png`) });
      const chips = row.locator('.chip');
      assert.deepEqual(
        await chips.allInnerTexts(),
        ['unschedulable', 'unreachable:NoExecute', 'unreachable:NoSchedule', ...USER_TAINTS],
        `${width}: the controllers' taints first, then the user's, each text whole`,
      );
      for (const [i, chip] of (await chips.all()).entries()) {
        // at 900 px the row (its name on two lines) is taller than the list: a chip below is scrolled to, never sideways
        await chip.evaluate((e) => e.scrollIntoView({ block: 'nearest' }));
        assert.equal(await outside(chip, '#nodes'), 0, `${width}: chip ${i} inside the list`);
        assert.equal(await outside(chip, `#nodes .row[data-ref="Node/${OWNED}"]`), 0, `${width}: chip ${i} inside its row`);
        assert.ok(await chip.evaluate((e) => e.scrollWidth <= e.clientWidth + 1), `${width}: chip ${i} not cut inside`);
      }
      // the rows below start under it (its height was measured), and nothing scrolls sideways
      const gap = await row.evaluate((e) => {
        const next = document.querySelector(`#nodes .row[data-ref="Node/ip-10-1-0-152.us-east-1b.compute.internal"]`);
        return next ? next.getBoundingClientRect().top - e.getBoundingClientRect().bottom : NaN;
      });
      assert.ok(gap >= -0.5, `${width}: the next node's row starts ${gap} px after this one ends`);
      assert.ok(await page.locator('#nodes').evaluate((e) => e.scrollWidth <= e.clientWidth + 1), `${width}: nothing to scroll sideways`);
    }
    await page.close();
  });

  test(`${theme}: every node's name is whole at two column widths, and the rows measured to it do not overlap`, async () => {
    const page = await open(theme);
    await send(page, update(), { type: 'select', object: `Node/${OWNED}` });
    for (const width of [1250, 900]) {
      await page.setViewportSize({ width, height: 800 });
      await send(page);
      await page.locator(`#nodes .row[data-ref="Node/${OWNED}"]`).waitFor();
      const rows = await measureRows(page, 'nodes', '.row.node', '.name');
      assert.ok(rows.length >= 5, `${width}: ${rows.length} node rows drawn`);
      await assertRowsWhole(page, 'nodes', rows, 'Node', String(width));
      await page.screenshot({ path: join(SCREENSHOTS, `fits-node-names-${width}-${theme}.png`) });
    }
    await page.close();
  });

  test(`${theme}: every pod's name and facts are whole, long names too, at two column widths, and the rows do not overlap`, async () => {
    const page = await open(theme);
    const long = (j: number) =>
      `Pod/batch-analytics-nightly/reserved-for-the-batch-analytics-team-nightly-workloads-with-a-long-generated-name-${j}-7d9f5c8b6d-x2k9q`;
    const [select, selection] = selectNode();
    const pods = (selection as { nodePods: { pods: PodItem[] } }).nodePods.pods.map((p, j) => (j % 3 === 0 ? { ...p, ref: long(j) } : p));
    await send(page, update(), select, { ...(selection as object), nodePods: { node: NODE, pods } } as HostMessage);
    for (const width of [1250, 900]) {
      await page.setViewportSize({ width, height: 800 });
      await send(page);
      await page.locator('#pod-list .pod').first().waitFor();
      await page.screenshot({ path: join(SCREENSHOTS, `fits-pod-names-${width}-${theme}.png`) });
      const rows = await measureRows(page, 'pod-list', '.row.pod', '.name', ['.facts-line > span']);
      assert.ok(rows.length >= 2, `${width}: ${rows.length} pod rows drawn`);
      assert.ok(
        rows.some((r) => r.ref.includes('nightly')),
        `${width}: a long name among them`,
      );
      await assertRowsWhole(page, 'pod-list', rows, 'Pod', String(width));
    }
    await page.close();
  });

  test(`${theme}: the Run until field shows its whole hint, at three widths`, async () => {
    const page = await open(theme);
    await send(page, update());
    for (const width of [1250, 900, 600]) {
      await page.setViewportSize({ width, height: 800 });
      await send(page);
      const m = await page.evaluate(() => {
        const input = document.getElementById('run-until')!.shadowRoot!.querySelector('input')!;
        const cs = getComputedStyle(input);
        const ctx = document.createElement('canvas').getContext('2d')!;
        ctx.font = `${cs.fontStyle} ${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
        const room = input.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
        return { placeholder: input.placeholder, text: ctx.measureText(input.placeholder).width, room };
      });
      assert.match(m.placeholder, /10m.*next TaintAdded/, `${width}: the hint names a duration and a decision`);
      assert.ok(m.text <= m.room, `${width}: the hint is ${m.text.toFixed(1)} px in a field with ${m.room.toFixed(1)} px of room`);
      await page.screenshot({ path: join(SCREENSHOTS, `fits-run-until-${width}-${theme}.png`), clip: { x: 0, y: 0, width, height: 120 } });
    }
    await page.close();
  });

  test(`${theme}: a decision's object name is whole in the middle column`, async () => {
    const page = await open(theme);
    await send(page, update());
    const obj = page.locator('#decisions li.decision .object').first();
    assert.equal(await obj.innerText(), `Node/${NODE}`);
    assert.ok(await obj.evaluate((e) => e.scrollWidth <= e.clientWidth + 1), 'its own text is not cut');
    assert.equal(await outside(obj, '#decisions'), 0);
    assert.equal(await page.locator('#decisions li.decision .time').first().innerText(), '+5m00s');
    await page.close();
  });
}

/**
 * Code-server at a 1,600 px window gives the webview about 1250×800, and the middle column about 400 px (the
 * audit's "345" was read off a screenshot scaled to 1389 px); the narrower width is a page of 1,080.
 */
/** the walk's pod, its object 45 characters as there (Pod/analytics/api-backend-3-7nlx2wwwpc-gjtvq is 44) */
const POD = 'analytics/api-backend-3-7nlx2wwwpc-gjtvqx';
const SCHEDULED = {
  seq: 2200,
  time: NOW,
  pass: 60,
  controller: 'taint-eviction',
  action: 'PodEvictionScheduled',
  object: `Pod/${POD}`,
  summary: `Pod ${POD} will be deleted at 2026-01-01T00:09:00.000Z (tolerates the NoExecute taints of ${NODE} for 5m0s)`,
  because: [],
  causes: [],
  source: 'tainteviction: processPodOnNode',
} as unknown as UpdateMessage['decisions'][number];

for (const theme of ['light', 'dark'] as const) {
  test(`${theme}: at code-server's width a decision with a 45-character pod name is at most two lines, its object whole, the summary on no line of its own`, async () => {
    assert.equal(`Pod/${POD}`.length, 45);
    const page = await open(theme);
    await send(page, { ...update(), decisions: [...update().decisions, SCHEDULED] });
    for (const width of [1250, 1080]) {
      await page.setViewportSize({ width, height: 800 });
      await send(page);
      const column = await page.locator('#decisions').evaluate((e) => e.getBoundingClientRect().width);
      assert.ok(column <= 410, `${width}: the middle column is ${column} px`);
      const row = page.locator('#decisions li.decision', { hasText: 'PodEvictionScheduled' });
      const m = await row.evaluate((l) => {
        const obj = l.querySelector('.object') as HTMLElement;
        const cs = getComputedStyle(l);
        // a line: the time's box (one line, nowrap)
        const line = (l.querySelector('.time') as HTMLElement).getBoundingClientRect().height;
        const o = obj.getBoundingClientRect(),
          r = l.getBoundingClientRect();
        return {
          height: r.height - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom) - parseFloat(cs.borderBottomWidth),
          line,
          objectHeight: o.height,
          objectCut: obj.scrollWidth > obj.clientWidth + 1,
          objectInside: o.left >= r.left - 0.5 && o.right <= r.right + 0.5 && o.bottom <= r.bottom + 0.5,
          text: obj.innerText,
          title: l.getAttribute('title') ?? '',
        };
      });
      await page.screenshot({ path: join(SCREENSHOTS, `fits-log-${width}-${theme}.png`) });
      // at 1,250 the object fits a line: two lines in all; at 1,080 it wraps (whole) and the summary takes no line of its own
      const objectLines = Math.round(m.objectHeight / m.line);
      if (width === 1250) assert.equal(objectLines, 1, `${width}: the object on one line (${m.objectHeight}px, a line is ${m.line}px)`);
      assert.ok(m.height < (objectLines + 1.5) * m.line, `${width}: ${objectLines + 1} lines at most (${m.height}px, a line is ${m.line}px)`);
      assert.equal(m.text, `Pod/${POD}`, `${width}: the object's whole text`);
      assert.equal(m.objectCut, false, `${width}: the object is not cut`);
      assert.equal(m.objectInside, true, `${width}: the object is inside its row`);
      assert.ok(m.title.includes(`Pod/${POD}: Pod ${POD} will be deleted at +9m00s`), `${width}: the whole text on hover`);
      // opened, the summary is whole: on lines of its own, nothing cut
      await row.click();
      const summary = page.locator('#decisions li.decision.expanded .summary');
      assert.match(await summary.innerText(), /for 5m0s\)$/);
      assert.ok(await summary.evaluate((e) => e.scrollWidth <= e.clientWidth + 1), `${width}: the opened summary is not cut`);
      assert.equal(await outside(summary, '#decisions'), 0);
      await row.click();
    }
    await page.close();
  });

  test(`${theme}: at code-server's width a summary shows a readable part on its line, or none (whole when opened)`, async () => {
    const page = await open(theme);
    // objects of 30 to 52 characters: the last line's room for the summary goes from most of it to nothing
    const entries = Array.from({ length: 23 }, (_, k) => {
      const object = `Pod/analytics/${'api-backend-3-7nlx2wwwpc-gjtvqxyzabcdefghijk'.slice(0, 16 + k)}`;
      return { ...SCHEDULED, seq: 3000 + k, object, summary: `Added taint node.kubernetes.io/unreachable:NoExecute to ${object}` };
    });
    await send(page, { ...update(), decisions: entries, passMarks: [{ pass: 60, decisions: entries.length }] });
    for (const width of [1250, 1080]) {
      await page.setViewportSize({ width, height: 800 });
      await send(page);
      // the log is virtual: the rows drawn at the top, then at the bottom, each once
      const read = (to: 'top' | 'bottom') =>
        page.locator('#decisions').evaluate(async (v, t) => {
          v.scrollTop = t === 'top' ? 0 : v.scrollHeight;
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
          return Array.from(v.querySelectorAll('li.decision')).map((l) => {
            const summary = l.querySelector('.summary') as HTMLElement;
            // the summary's text as drawn: none when hidden
            const range = document.createRange();
            range.selectNodeContents(summary);
            const drawn = Array.from(range.getClientRects()).some((r) => r.width > 0);
            const em = parseFloat(getComputedStyle(summary).fontSize);
            const seq = (l as HTMLElement).dataset.seq as string;
            return { seq, object: (l.querySelector('.object') as HTMLElement).innerText, drawn, room: summary.getBoundingClientRect().width / em, at: t };
          });
        }, to);
      const bySeq = new Map([...(await read('top')), ...(await read('bottom'))].map((r) => [r.seq, r]));
      const rows = [...bySeq.values()];
      assert.equal(rows.length, entries.length);
      const stubs = rows.filter((r) => r.drawn && r.room < 4);
      assert.deepEqual(stubs, [], `${width}: a summary in less than 4em (a stub such as "A…")`);
      assert.ok(
        rows.some((r) => !r.drawn),
        `${width}: some object leaves too little room, and its summary shows none`,
      );
      assert.ok(
        rows.some((r) => r.drawn && r.room >= 4),
        `${width}: others show a part of theirs`,
      );
      // opened, a hidden one is whole
      const hidden = rows.find((r) => !r.drawn)!;
      await read(hidden.at);
      const row = page.locator(`#decisions li.decision[data-seq="${hidden.seq}"]`);
      await row.click();
      const summary = page.locator('#decisions li.decision.expanded .summary');
      assert.match(await summary.innerText(), new RegExp(`NoExecute to ${hidden.object}$`));
      assert.ok(await summary.evaluate((e) => e.scrollWidth <= e.clientWidth + 1), `${width}: the opened summary is not cut`);
      await page.screenshot({ path: join(SCREENSHOTS, `fits-log-stub-${width}-${theme}.png`) });
      await row.click();
    }
    await page.close();
  });

  test(`${theme}: at code-server's size, with a queue of 1,650 open, the node list keeps four rows in view, the queue's first names too`, async () => {
    const page = await open(theme);
    await send(page, update(), ...selectNode());
    // the host answers the click with its own zones (the fake's queue is empty): the names are sent after that
    await afterHostAnswer(page, 'zones', () => page.locator('#zones button.queued').click());
    const names = Array.from({ length: 1650 }, (_, i) => `ip-10-1-0-${i}.us-east-1b.compute.internal`);
    await send(page, { type: 'zones', zones: update().zones.map((z) => (z.queuedCount ? { ...z, queued: names } : z)) });
    await page.locator('#zones .queue-names:not(.hint)').waitFor();
    await page.locator('#nodes .row.node').first().waitFor();
    // the rows whose whole box shows, the column not scrolled
    const inView = await page.evaluate(() => {
      const col = document.getElementById('cluster')!.getBoundingClientRect();
      const list = document.getElementById('nodes')!.getBoundingClientRect();
      const top = Math.max(col.top, list.top),
        bottom = Math.min(col.bottom, list.bottom, window.innerHeight);
      return Array.from(document.querySelectorAll('#nodes .row.node')).filter((p) => {
        const r = p.getBoundingClientRect();
        return r.top >= top - 0.5 && r.bottom <= bottom + 0.5;
      }).length;
    });
    await page.screenshot({ path: join(SCREENSHOTS, `fits-queue-nodes-${theme}.png`) });
    assert.ok(inView >= 4, `${inView} node rows in view`);
    // the opened zone's first names are in view (the zones scrolled to its card, not the column)
    assert.equal((await queueLine(page, 0, '#zones')).outside, 0, 'the first queued name is inside the zones box');
    assert.equal(await page.locator('#cluster').evaluate((c) => c.scrollTop), 0);
    // the queue scrolls on its own to its last name, and the selected node's pods are still in view
    const list = page.locator('#zones .queue-names');
    assert.ok(await list.evaluate((e) => e.scrollHeight > e.clientHeight), 'the queue has its own scroll');
    assert.ok((await page.locator('#pod-list .pod').count()) >= 4, 'four pods drawn');
    await page.close();
  });
}
