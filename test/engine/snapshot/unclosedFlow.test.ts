import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAllDocuments } from 'yaml';
import { placeYamlError } from '../../../src/engine/snapshot/unclosedFlow';
import { LineIndex } from '../../../src/engine/snapshot/positions';
import { parseScenario } from '../../../src/engine/snapshot/scenario';
import { loadSnapshot } from '../../../src/engine/snapshot/load';
import { MemoryFs } from '../../../src/engine/snapshot/source';
import { readControllerManagerConfigFile } from '../../../src/engine/config/configFile';
import { importEvidence } from '../../../src/engine/import/index';
import type { Problem } from '../../../src/engine/problems';

/** Each yaml error of `text` placed as the loaders place it: line:column and whether the message names an opener. */
function placed(text: string): string[] {
  const lines = new LineIndex(text);
  const out: string[] = [];
  for (const doc of parseAllDocuments(text, { prettyErrors: false })) {
    for (const e of doc.errors) {
      const p = placeYamlError(text, doc.range?.[0] ?? 0, e.pos, e.message, (o) => lines.lineCol(o));
      const at = lines.lineCol(p.start);
      const opened = /^the flow (map|sequence) opened here with "([{[])" is not closed by line (\d+), column (\d+)/.exec(p.message);
      out.push(`${at.line}:${at.column} ${opened ? `${opened[2]} open, stopped at ${opened[3]}:${opened[4]}` : 'as yaml says'}`);
    }
  }
  return out;
}

const cases: { name: string; text: string; want: string[] }[] = [
  { name: 'a flow map never closed, the next key below it', text: 'a: {x: 1\nb: 3\n', want: ['1:4 { open, stopped at 2:1'] },
  { name: 'a flow sequence never closed', text: 'a: [1, 2\nb: 3\n', want: ['1:4 [ open, stopped at 2:1'] },
  { name: 'a flow map closed on a line indented too little', text: 'a: {x: 1,\ny: 2}\nb: 3\n', want: ['1:4 { open, stopped at 2:1'] },
  {
    name: "a scenario event's map left open, the next event closing its own",
    text: 'events:\n  - {at: 30s, kubelet: stop, node: a1\n  - {at: 2m, kubelet: start, node: a1}\n',
    want: ['2:5 { open, stopped at 3:3'],
  },
  {
    name: 'a sequence closed with "}" inside a map never closed: each at its own opener',
    text: 'a: {x: [1, 2}\n',
    want: ['1:8 [ open, stopped at 1:13', '1:4 { open, stopped at 1:14'],
  },
  { name: 'the second document: its own line numbers and opener', text: 'a: 1\n---\nb: {c: 2\nd: 3\n', want: ['3:4 { open, stopped at 4:1'] },
  { name: 'another error (a tab as indentation) keeps the yaml package’s place', text: 'a:\n\tb: 1\n', want: ['2:1 as yaml says'] },
  { name: 'a duplicate key keeps the yaml package’s place', text: 'a: 1\na: 2\n', want: ['2:1 as yaml says'] },
];

for (const c of cases) {
  test(`unclosed flow collections: ${c.name}`, () => {
    assert.deepEqual(placed(c.text), c.want);
  });
}

test('unclosed flow collections: past 1 MiB before the error the yaml package’s place is kept (no second parse of a big export)', () => {
  const text = `a: {x: 1\n${'#'.repeat(1 << 20)}\nb: 3\n`;
  const [only] = placed(text);
  assert.match(only, /as yaml says$/);
});

// where the user meets it: each loader's problem, at the opener, saying where the parser stopped
const at = (p: Problem) => `${p.position!.line}:${p.position!.column} ${p.code}`;
const scenarioText = [
  'apiVersion: controllerstepper.io/v1alpha1',
  'kind: Scenario',
  'events:',
  '  - {at: 30s, kubelet: stop, node: node-a1',
  '  - {at: 2m, kubelet: start, node: node-a1}',
  '',
].join('\n');

test('a scenario: the event whose "{" is not closed is where the problem is', () => {
  const { problems } = parseScenario(scenarioText, 'typo.yaml', new MemoryFs());
  const syntax = problems.filter((p) => p.code === 'yaml-syntax');
  assert.deepEqual(syntax.map(at), ['4:5 yaml-syntax']);
  assert.match(syntax[0].message, /^the flow map opened here with "\{" is not closed by line 5, column 3: end it with "\}"/);
});

test('a snapshot document: the problem at its open "[" and "{", the document left out, the others loaded', () => {
  const text = 'apiVersion: v1\nkind: Node\nmetadata: {name: ok1}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: [broken}\n';
  const snap = loadSnapshot({ file: 'bad.yaml', text });
  assert.deepEqual(snap.problems.map(at), ['7:11 yaml-syntax', '7:18 yaml-syntax']);
  for (const p of snap.problems) assert.match(p.message, /is not closed by line 7, column 2[56]: .*; this document is left out$/);
  assert.deepEqual([...snap.cluster.nodes.keys()], ['ok1']);
});

test('a kube-controller-manager config file: the problem at the open "["', () => {
  const r = readControllerManagerConfigFile('c.yaml', 'kind: KubeControllerManagerConfiguration\nnodeMonitorGracePeriod: [40s\nnodeStartupGracePeriod: 1m\n');
  assert.deepEqual(
    r.problems.map((p) => `${p.position!.line}:${p.position!.column} ${p.code}`),
    ['2:25 yaml-syntax'],
  );
  assert.match(r.problems[0].message, /^the flow sequence opened here with "\[" is not closed by line 3, column 1/);
});

test('kubectl get events (evidence): the warning at the open "[", its line the file’s', () => {
  const r = importEvidence([
    {
      name: 'events.yaml',
      chunks: ['apiVersion: v1\nkind: EventList\nitems:\n- involvedObject: {kind: Node, name: n1}\n  reason: NodeNotReady\n  message: [unclosed\n'],
    },
  ]);
  const syntax = r.problems.filter((p) => p.code === 'yaml-syntax');
  assert.deepEqual(
    syntax.map((p) => `${p.position!.line}:${p.position!.column}`),
    ['6:12'],
  );
  assert.match(syntax[0].message, /^the flow sequence opened here with "\[" is not closed by line 7, column 1: .*; the rest is read$/);
});
