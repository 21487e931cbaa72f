/** `kubectl get events` pasted as a table: columns by the header, ages back from --at. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importEvidence } from '../../../src/engine/import/index';
import { parseAge } from '../../../src/engine/import/eventsTable';
import { formatTime, parseTimestamp, seconds } from '../../../src/engine/model/time';

const at = parseTimestamp('2026-01-01T01:00:00Z')!;
const read = (text: string, anchor: number | null = at) =>
  importEvidence([{ name: 'events.txt', chunks: [text] }], { anchor: anchor ?? undefined, anchorGiven: anchor !== null });

describe('kubectl get events as a table', () => {
  const ages: [string, number | undefined][] = [
    ['45s', 45],
    ['7m24s', 444],
    ['49m', 2940],
    ['3h5m', 11100],
    ['2d', 172800],
    ['5d3h', 442800],
    ['<unknown>', undefined],
    ['', undefined],
  ];
  for (const [text, s] of ages)
    it(`the age ${JSON.stringify(text)} is ${s === undefined ? 'not an age' : `${s}s`}`, () =>
      assert.equal(parseAge(text), s === undefined ? undefined : seconds(s)));

  it("with -A: the namespace column names the pod's namespace; times are --at minus the age", () => {
    const r = read(
      'NAMESPACE   LAST SEEN   TYPE     REASON                 OBJECT          MESSAGE\ndefault     2m25s       Normal   TaintManagerEviction   pod/web-1       Marking for deletion Pod default/web-1\n',
    );
    assert.deepEqual(
      r.decisions.map((d) => `${formatTime(d.time)} ${d.action} ${d.object}`),
      ['2026-01-01T00:57:35.000Z PodEvicted Pod/default/web-1'],
    );
  });
  it('without -A: no namespace, and node events still read', () => {
    const r = read(
      'kubectl get events\nLAST SEEN   TYPE     REASON           OBJECT      MESSAGE\n49m         Normal   RegisteredNode   node/n1     Node n1 event: Registered Node n1 in Controller\n',
    );
    assert.deepEqual(
      r.decisions.map((d) => `${formatTime(d.time)} ${d.action} ${d.object}`),
      ['2026-01-01T00:11:00.000Z NodeRegistered Node/n1'],
    );
    assert.deepEqual(
      r.problems.map((p) => p.code),
      ['coarse-ages'],
    );
  });
  it('a row cut short is a positioned warning; the others import', () => {
    const r = read(
      'LAST SEEN   TYPE     REASON           OBJECT      MESSAGE\n5s          Normal   RegisteredNode   node/n1     m\n5s          Normal   Regis\n',
    );
    assert.equal(r.decisions.length, 1);
    assert.deepEqual(
      r.problems.map((p) => `${p.code} ${p.position?.line}`),
      ['cut-line 3'],
    );
  });
  const badRows: [name: string, row: string, want: string, says: RegExp][] = [
    [
      'an age kubectl never prints',
      'xx          Normal   RegisteredNode   node/n2     m',
      'bad-age 3:1',
      /^LAST SEEN "xx" is not an age as kubectl prints one/,
    ],
    ['<unknown> (an event without a time)', '<unknown>   Normal   RegisteredNode   node/n2     m', 'bad-age 3:1', /"<unknown>"/],
    ['a row without its object and message', '5s          Normal   Regis', 'cut-line 3:1', /columns missing/],
  ];
  for (const [name, row, want, says] of badRows) {
    it(`a row whose age cannot be read is said so, not called cut: ${name}`, () => {
      const r = read(`LAST SEEN   TYPE     REASON           OBJECT      MESSAGE\n5s          Normal   RegisteredNode   node/n1     m\n${row}\n`);
      assert.equal(r.decisions.length, 1);
      assert.deepEqual(
        r.problems.map((p) => `${p.code} ${p.position?.line}:${p.position?.column}`),
        [want],
      );
      assert.match(r.problems[0].message, says);
    });
  }
  it('without an anchor, ages cannot be placed, and that is a warning', () => {
    const r = read('LAST SEEN   TYPE     REASON           OBJECT      MESSAGE\n5s          Normal   RegisteredNode   node/n1     m\n', null);
    assert.deepEqual(r.decisions, []);
    assert.deepEqual(
      r.problems.map((p) => p.code),
      ['no-anchor'],
    );
  });
});

describe("kubectl get events as a table, anchored by the import's own clock", () => {
  it('reads the ages back from it, and warns that --at was not given', () => {
    const r = importEvidence(
      [{ name: 'e.txt', chunks: ['LAST SEEN   TYPE     REASON           OBJECT      MESSAGE\n5s          Normal   RegisteredNode   node/n1     m\n'] }],
      { anchor: at, anchorGiven: false },
    );
    assert.equal(r.decisions.length, 1);
    assert.deepEqual(
      r.problems.map((p) => p.code),
      ['anchor-assumed'],
    );
  });
});
