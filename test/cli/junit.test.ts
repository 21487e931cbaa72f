/** `test --format junit|json`: what CI systems read, through the real command; XML safe for any name a snapshot holds. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { junitReport, xmlText } from '../../src/cli/commands/junit';
import { runBin } from '../helpers/binRun';

const F = 'test/fixtures/cli';
const EXAMPLE = 'examples/one-node-stops.yaml';

/**
 * A strict reader of the XML this command writes (elements, attributes, character data,
 * the five entities and &#N;): throws on anything not well formed. Enough to hold the
 * writer to XML's rules without an XML dependency.
 */
interface El {
  name: string;
  attrs: Record<string, string>;
  children: El[];
  text: string;
}
function unescape(s: string): string {
  if (/&(?!(amp|lt|gt|quot|apos|#\d+);)/.test(s)) throw new Error(`a bare & in ${JSON.stringify(s)}`);
  if (/[<]/.test(s)) throw new Error(`a raw < in ${JSON.stringify(s)}`);
  // eslint-disable-next-line no-control-regex -- the characters XML 1.0 forbids, which must never be written
  if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(s)) throw new Error(`a character XML forbids in ${JSON.stringify(s)}`);
  return s.replace(/&(amp|lt|gt|quot|apos|#\d+);/g, (_, e: string) =>
    e[0] === '#' ? String.fromCodePoint(Number(e.slice(1))) : ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[e],
  );
}
function parseXml(xml: string): El {
  const decl = /^<\?xml version="1\.0" encoding="UTF-8"\?>\n/.exec(xml);
  if (!decl) throw new Error('no XML declaration');
  let i = decl[0].length;
  const root: El = { name: '#doc', attrs: {}, children: [], text: '' };
  const stack = [root];
  const tag = /<(\/?)([A-Za-z][\w-]*)((?:\s+[A-Za-z][\w-]*="[^"]*")*)\s*(\/?)>/y;
  while (i < xml.length) {
    const lt = xml.indexOf('<', i);
    const text = xml.slice(i, lt === -1 ? xml.length : lt);
    stack[stack.length - 1].text += unescape(text);
    if (lt === -1) break;
    tag.lastIndex = lt;
    const m = tag.exec(xml);
    if (!m) throw new Error(`not a tag at ${lt}: ${JSON.stringify(xml.slice(lt, lt + 40))}`);
    i = tag.lastIndex;
    if (m[1]) {
      const open = stack.pop()!;
      if (open.name !== m[2]) throw new Error(`</${m[2]}> closes <${open.name}>`);
      continue;
    }
    const attrs: Record<string, string> = {};
    for (const a of m[3].matchAll(/([A-Za-z][\w-]*)="([^"]*)"/g)) {
      if (a[1] in attrs) throw new Error(`attribute ${a[1]} twice`);
      attrs[a[1]] = unescape(a[2]);
    }
    const el: El = { name: m[2], attrs, children: [], text: '' };
    stack[stack.length - 1].children.push(el);
    if (!m[4]) stack.push(el);
  }
  if (stack.length !== 1) throw new Error(`<${stack[stack.length - 1].name}> not closed`);
  if (root.children.length !== 1 || root.text.trim()) throw new Error('not one root element');
  return root.children[0];
}

const xmlCases: { name: string; s: string; attr: string; data: string }[] = [
  { name: 'plain', s: 'Pod/default/web-1', attr: 'Pod/default/web-1', data: 'Pod/default/web-1' },
  {
    name: 'markup',
    s: '<script>alert("x")</script> & \'q\'',
    attr: "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; 'q'",
    data: "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; 'q'",
  },
  { name: 'line breaks and tabs', s: 'a\nb\tc\r', attr: 'a&#10;b\tc\r', data: 'a\nb\tc\r' },
  { name: 'control characters XML forbids', s: 'a\u0000b\u001bc\u000bd', attr: 'a\uFFFDb\uFFFDc\uFFFDd', data: 'a\uFFFDb\uFFFDc\uFFFDd' },
  { name: 'lone surrogates replaced, a pair kept', s: 'x\uD800y\uDC00z\uD83D\uDE00', attr: 'x\uFFFDy\uFFFDz\uD83D\uDE00', data: 'x\uFFFDy\uFFFDz\uD83D\uDE00' },
  { name: 'U+FFFE and U+FFFF', s: '\uFFFE\uFFFF', attr: '\uFFFD\uFFFD', data: '\uFFFD\uFFFD' },
];
for (const c of xmlCases) {
  test(`xmlText: ${c.name}`, () => {
    assert.equal(xmlText(c.s), c.attr);
    assert.equal(xmlText(c.s, false), c.data);
  });
}

test('junitReport: a hostile name from a snapshot stays data, and the report reads back as it was written', () => {
  const hostile = 'Pod/default/</testcase><x a="1">&\u0007\uD800';
  const xml = junitReport(
    [
      {
        file: 'a&b.yaml',
        version: '1.31',
        seconds: 0.5,
        finished: false,
        results: [
          {
            index: 0,
            at: '2026-01-01T00:01:00.000Z',
            description: `at 2026-01-01T00:01:00.000Z: ${hostile} is deleted`,
            ok: false,
            actual: 'it exists on "n<1>"',
            object: hostile,
          },
          { index: 1, at: '2026-01-01T00:01:00.000Z', description: 'ok one', ok: true },
        ],
      },
    ],
    (_f, r) => `explain --object ${r.object}`,
  );
  const root = parseXml(xml);
  assert.equal(root.name, 'testsuites');
  assert.deepEqual(root.attrs.tests, '2');
  assert.deepEqual(root.attrs.failures, '1');
  const suite = root.children[0];
  assert.equal(suite.attrs.name, 'a&b.yaml');
  const [bad, good] = suite.children.filter((c) => c.name === 'testcase');
  assert.equal(bad.attrs.name, 'at 2026-01-01T00:01:00.000Z: Pod/default/</testcase><x a="1">&\uFFFD\uFFFD is deleted');
  assert.equal(bad.children[0].name, 'failure');
  assert.equal(bad.children[0].attrs.message, 'found: it exists on "n<1>"');
  assert.equal(bad.children[0].text, 'found: it exists on "n<1>"\nwhy: explain --object Pod/default/</testcase><x a="1">&\uFFFD\uFFFD');
  assert.equal(good.children.length, 0);
  assert.match(suite.children.find((c) => c.name === 'system-err')!.text, /the run was stopped/);
});

test('test --format junit through the command: exit 1, one testcase per expectation, the failure with its finding, place and why', () => {
  const r = runBin(['test', `${F}/expect-too-early.yaml`, EXAMPLE, '--format', 'junit']);
  assert.equal(r.code, 1, r.err);
  const root = parseXml(r.out);
  assert.equal(root.attrs.tests, '15');
  assert.equal(root.attrs.failures, '1');
  const [early, example] = root.children;
  assert.equal(early.attrs.name, `${F}/expect-too-early.yaml`);
  assert.equal(example.attrs.failures, '0');
  const failure = early.children.find((c) => c.name === 'testcase')!.children[0];
  assert.equal(failure.attrs.message, 'found: it exists on node-a1');
  assert.equal(
    failure.text,
    `found: it exists on node-a1\nat: ${F}/expect-too-early.yaml:11:5\nwhy: controller-stepper explain ${F}/expect-too-early.yaml --object Pod/default/toleration-sixty --until 2026-01-01T00:02:09.000Z`,
  );
  assert.equal(example.children.filter((c) => c.name === 'testcase').length, 14);
});

test('test --format json through the command: one object with every result, exit 1 on a failure, 0 when all pass', () => {
  const r = runBin(['test', `${F}/expect-too-early.yaml`, '--format', 'json']);
  assert.equal(r.code, 1, r.err);
  const o = JSON.parse(r.out) as {
    passed: number;
    failed: number;
    finished: boolean;
    files: { file: string; results: { ok: boolean; actual?: string; why?: string }[] }[];
  };
  assert.deepEqual([o.passed, o.failed, o.finished], [0, 1, true]);
  assert.equal(o.files[0].results[0].actual, 'it exists on node-a1');
  assert.match(o.files[0].results[0].why!, /^controller-stepper explain .* --until 2026-01-01T00:02:09\.000Z$/);
  const ok = runBin(['test', EXAMPLE, '--format', 'json']);
  assert.equal(ok.code, 0, ok.err);
  assert.equal((JSON.parse(ok.out) as { failed: number }).failed, 0);
});

test('--format junit is for test only; test refuses yaml', () => {
  const replay = runBin(['replay', EXAMPLE, '--format', 'junit']);
  assert.equal(replay.code, 2);
  assert.match(replay.err, /replay: --format junit is for test only/);
  const yaml = runBin(['test', EXAMPLE, '--format', 'yaml']);
  assert.equal(yaml.code, 2);
  assert.match(yaml.err, /test prints text, json or junit, not yaml/);
});
