/**
 * The trace on the wire and for people (spec 2.1, 4): JSON Lines with the
 * spec's field order, the aligned text format, and causal chains.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { Decision } from '../../../src/engine/trace/decision';
import { decisionToJson, parseJsonLines, traceToJsonLines, DECISION_FIELDS } from '../../../src/engine/trace/serialize';
import { formatTraceText, formatCheck } from '../../../src/engine/trace/text';
import { causeChain, rootCauses } from '../../../src/engine/trace/causes';

const d = (seq: number, over: Partial<Decision> = {}): Decision =>
  ({
    // fields deliberately built in a scrambled order: the output order must not depend on it
    details: undefined,
    source: 'src',
    machine: null,
    causes: [],
    because: [{ rule: 'r', values: { a: 1 } }],
    summary: `s${seq}`,
    object: `Node/n${seq}`,
    action: 'TaintAdded',
    controller: 'node-lifecycle',
    pass: 0,
    time: '2026-01-01T00:00:00.000Z',
    seq,
    ...over,
  }) as Decision;

describe('JSON Lines', () => {
  it('writes the fields in the order of spec 2.1 whatever order the record was built in', () => {
    const line = decisionToJson(d(1, { machine: { event: 'E', to: 'b', from: 'a', id: 'node/n1' } as never }));
    assert.deepEqual(Object.keys(JSON.parse(line)), [...DECISION_FIELDS]);
    assert.ok(line.startsWith('{"seq":1,"time":"2026-01-01T00:00:00.000Z","pass":0,"controller":"node-lifecycle","action":"TaintAdded"'));
    assert.ok(line.includes('"machine":{"id":"node/n1","from":"a","to":"b","event":"E"}'));
  });

  it('puts details last, only when present', () => {
    assert.ok(!decisionToJson(d(1)).includes('details'));
    const withDetails = JSON.parse(decisionToJson(d(1, { details: { pods: ['x'] } })));
    assert.deepEqual(Object.keys(withDetails).at(-1), 'details');
  });

  it('writes one decision a line and reads it back', () => {
    const text = traceToJsonLines([d(1), d(2, { pass: null })]);
    assert.equal(text.split('\n').length, 3);
    assert.ok(text.endsWith('\n'));
    assert.deepEqual(
      parseJsonLines(text).map((x) => [x.seq, x.pass]),
      [
        [1, 0],
        [2, null],
      ],
    );
  });
});

describe('text format', () => {
  it('aligns the columns and shows the first because with its values', () => {
    const text = formatTraceText([d(1, { object: 'Node/a' }), d(12, { controller: 'world', action: 'KubeletStopped', object: 'Node/long-name', because: [] })]);
    const lines = text.trimEnd().split('\n');
    assert.equal(lines.length, 2);
    assert.equal(lines[0].indexOf('2026'), lines[1].indexOf('2026'));
    assert.equal(lines[0].indexOf('s1'), lines[1].indexOf('s12'));
    assert.ok(lines[0].endsWith('because r (a=1)'));
    assert.ok(!text.includes('\x1b['));
  });

  it('colours only when asked', () => {
    assert.ok(formatTraceText([d(1)], { color: true }).includes('\x1b['));
  });

  it('leaves out the noise (MonitorPass) unless asked', () => {
    const trace = [d(1, { action: 'MonitorPass' }), d(2)];
    assert.equal(formatTraceText(trace).trimEnd().split('\n').length, 1);
    assert.equal(formatTraceText(trace, { includeNoise: true }).trimEnd().split('\n').length, 2);
  });

  it('formats a check as rule (k=v) with nested values as JSON', () => {
    assert.equal(formatCheck({ rule: 'x', values: { a: '1s', b: [1, 2] } }), 'x (a=1s, b=[1,2])');
    assert.equal(formatCheck({ rule: 'x' }), 'x');
  });
});

describe('causal chains', () => {
  const trace = [
    d(1, { controller: 'world', action: 'KubeletStopped' }),
    d(2, { causes: [1] }),
    d(3, { controller: 'world', action: 'ObjectApplied' }),
    d(4, { causes: [2, 3] }),
    d(5, { causes: [4, 2] }),
  ];
  it('follows causes transitively, oldest first, without duplicates', () => {
    assert.deepEqual(
      causeChain(trace, 5).map((x) => x.seq),
      [1, 2, 3, 4],
    );
  });
  it('ends at the world events', () => {
    assert.deepEqual(
      rootCauses(trace, 5).map((x) => x.seq),
      [1, 3],
    );
  });
  it('skips causes outside the trace (after a truncation)', () => {
    assert.deepEqual(
      causeChain(trace.slice(0, 2).concat([d(3, { causes: [9, 2] })]), 3).map((x) => x.seq),
      [1, 2],
    );
  });
});
