/**
 * The text trace for people (spec 4; issue 13 §5, issue 17): times relative
 * to the start, lines cut to a terminal's width, the hidden monitor-pass
 * ticks counted, and control characters from the input shown escaped.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Decision } from '../../../src/engine/trace/decision';
import { countNoise, escapeControl, formatOffset, renderTraceText } from '../../../src/engine/trace/text';

const d = (seq: number, time: string, over: Partial<Decision> = {}): Decision =>
  ({
    seq,
    time,
    pass: 0,
    controller: 'node-lifecycle',
    action: 'TaintAdded',
    object: `Node/n${seq}`,
    summary: `summary ${seq}`,
    because: [{ rule: 'rule', values: { a: 1 } }],
    causes: [],
    machine: null,
    source: 'src',
    ...over,
  }) as Decision;

describe('relative times', () => {
  const table: [number, string][] = [
    [0, '+0s'],
    [100, '+0.1s'],
    [45_000, '+45s'],
    [65_000, '+1m05s'],
    [70_100, '+1m10.1s'],
    [600_000, '+10m00s'],
    [3_605_000, '+1h00m05s'],
    [-5_000, '-5s'],
  ];
  for (const [ms, text] of table) it(`${ms} ms after the start reads ${text}`, () => assert.equal(formatOffset(ms), text));

  it('the time column is relative to the start when the start is given, aligned to the right', () => {
    const text = renderTraceText([d(1, '2026-01-01T00:00:05.000Z'), d(2, '2026-01-01T00:01:05.000Z')], { start: '2026-01-01T00:00:00.000Z' }).text;
    const [a, b] = text.trimEnd().split('\n');
    assert.match(a, /^1 {5}\+5s {2}0 {2}node-lifecycle/);
    assert.match(b, /^2 {2}\+1m05s {2}0 {2}node-lifecycle/);
    assert.ok(!text.includes('2026-'), 'no absolute time on the lines');
  });

  it('without a start the absolute time is shown, as before', () => {
    assert.match(renderTraceText([d(1, '2026-01-01T00:00:05.000Z')]).text, /2026-01-01T00:00:05\.000Z/);
  });
});

describe('monitor-pass ticks', () => {
  const trace = [
    d(1, '2026-01-01T00:00:00.000Z', { action: 'MonitorPass' }),
    d(2, '2026-01-01T00:00:05.000Z', { action: 'MonitorPass' }),
    d(3, '2026-01-01T00:00:05.000Z'),
  ];
  it('are hidden and counted', () => {
    const r = renderTraceText(trace);
    assert.equal(r.hidden, 2);
    assert.equal(countNoise(trace), 2);
    assert.equal(r.text.trimEnd().split('\n').length, 1);
  });
  it('are shown when asked', () => {
    const r = renderTraceText(trace, { includeNoise: true });
    assert.equal(r.hidden, 0);
    assert.equal(r.text.trimEnd().split('\n').length, 3);
  });
});

describe("a terminal's width", () => {
  const long = d(1, '2026-01-01T00:00:00.000Z', { summary: 'S'.repeat(80), because: [{ rule: 'R'.repeat(80) }] });
  const cases: { name: string; width?: number; color?: boolean; cut: number }[] = [
    { name: 'a line longer than the width is cut to it, ending in …', width: 60, cut: 1 },
    { name: 'with colour, the visible text is cut the same', width: 60, color: true, cut: 1 },
    { name: 'without a width (not a terminal) nothing is cut', cut: 0 },
    { name: 'a width wider than the line cuts nothing', width: 500, cut: 0 },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const r = renderTraceText([long], { width: c.width, color: c.color, start: '2026-01-01T00:00:00.000Z' });
      assert.equal(r.cut, c.cut);
      // eslint-disable-next-line no-control-regex
      const visible = r.text.trimEnd().replace(/\x1b\[[0-9;]*m/g, '');
      if (c.cut) {
        assert.equal(visible.length, c.width);
        assert.ok(visible.endsWith('…'));
      } else {
        assert.ok(visible.endsWith('R'.repeat(80)));
      }
    });
  }
});

describe('control characters from the input', () => {
  const table: [string, string][] = [
    ['evil\x1b[2Jnode', 'evil\\x1b[2Jnode'],
    ['bell\x07', 'bell\\x07'],
    ['two\nlines', 'two\\nlines'],
    ['tab\there', 'tab\\there'],
    ['c1\x9bcsi', 'c1\\x9bcsi'],
    ['bidi\u202eoverride', 'bidi\\u202eoverride'],
    ['plain, ünïcode and emoji 🚀', 'plain, ünïcode and emoji 🚀'],
  ];
  for (const [raw, shown] of table) it(`${JSON.stringify(raw)} is shown as ${JSON.stringify(shown)}`, () => assert.equal(escapeControl(raw), shown));

  it('are escaped in the object, the summary and the because of a trace line, which stays one line', () => {
    const text = renderTraceText([
      d(1, '2026-01-01T00:00:00.000Z', { object: 'Node/a\x1b]0;t\x07', summary: 'x\ny', because: [{ rule: 'r', values: { reason: '\x1b[31m' } }] }),
    ]).text;
    assert.equal(text.split('\n').length, 2);
    // eslint-disable-next-line no-control-regex
    assert.ok(!/[\x00-\x08\x0b-\x1f\x7f]/.test(text), JSON.stringify(text));
    assert.ok(text.includes('Node/a\\x1b]0;t\\x07') && text.includes('x\\ny') && text.includes('reason=\\x1b[31m'));
  });
});
