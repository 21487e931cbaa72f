/**
 * Every expectation key and value is checked, and `validate`, the language
 * server and `replay`/`test` (the scenario loader) report the same problem at
 * the same line:column — including an expectation about an object that
 * neither the snapshot nor an event creates (issue 13 §1, §5).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintFile } from '../../src/engine/lint';
import { loadScenario } from '../../src/engine/snapshot/scenario';
import { createLanguageService } from '../../src/server/service';
import { SCENARIO, scenario, workspace } from '../engine/lint/helpers';

type Row = { name: string; body: string; want: string[] };

const rows: Row[] = [
  { name: 'deleted: yes is an error at the value', body: 'expect:\n  - {at: 1m, pod: default/web-1, deleted: yes}\n', want: ['7:43 error wrong-type'] },
  {
    name: 'a misspelt key hasTaints: is an error at the key (and the entry checks nothing)',
    body: 'expect:\n  - at: 1m\n    node: node-a1\n    hasTaints: x:NoExecute\n',
    want: ['7:5 error missing-field', '9:5 error unknown-field'],
  },
  { name: 'a state that is not a zone state is an error', body: 'expect:\n  - {at: 1m, zone: zone-a, state: Broken}\n', want: ['7:35 error bad-value'] },
  {
    name: 'replicas that is not a whole number is an error',
    body: 'expect:\n  - {at: 1m, replicaSet: default/web, replicas: two}\n',
    want: ['7:49 error wrong-type'],
  },
  { name: 'a taint with an unknown effect is an error', body: 'expect:\n  - {at: 1m, node: node-a1, hasTaint: "k:NoRun"}\n', want: ['7:39 error bad-taint'] },
  {
    name: 'a pod that neither the snapshot nor an event creates is a warning at the name',
    body: 'expect:\n  - {at: 1m, pod: default/wbe-1, deleted: true}\n',
    want: ['7:19 warning unknown-pod'],
  },
  {
    name: 'a node nothing creates is a warning at the name',
    body: 'expect:\n  - {at: 1m, node: node-b1, ready: "True"}\n',
    want: ['7:20 warning unknown-node'],
  },
  {
    name: 'a ReplicaSet nothing creates is a warning',
    body: 'expect:\n  - {at: 1m, replicaSet: default/api, replicas: 1}\n',
    want: ['7:26 warning unknown-replicaset'],
  },
  {
    name: 'a decision action no decision has is an error (count: 0 would pass whatever happened)',
    body: 'expect:\n  - {at: 1m, decision: {action: TaintAdd, count: 0}}\n',
    want: ['7:33 error bad-value'],
  },
  {
    name: 'a decision object that is not a trace reference is an error',
    body: 'expect:\n  - {at: 1m, decision: {action: TaintAdded, object: node-a1}}\n',
    want: ['7:53 error bad-reference'],
  },
  {
    name: 'a decision object nothing creates is a warning',
    body: 'expect:\n  - {at: 1m, decision: {action: TaintAdded, object: Node/node-z9}}\n',
    want: ['7:53 warning unknown-node'],
  },
  {
    name: 'boundTo a node nothing creates is a warning',
    body: 'expect:\n  - {at: 1m, pod: default/web-1, boundTo: node-z9}\n',
    want: ['7:43 warning unknown-node'],
  },
  {
    name: 'a pod a known ReplicaSet may create (its name and a dash) is not flagged',
    body: 'expect:\n  - {at: 1m, pod: default/web-x7k2p, exists: true}\n',
    want: [],
  },
  {
    name: 'a node an earlier apply creates is not flagged',
    body: 'events:\n  - {at: 10s, apply: {apiVersion: v1, kind: Node, metadata: {name: node-new}}}\nexpect:\n  - {at: 1m, node: node-new, exists: true}\n',
    want: [],
  },
];

const EXPECT_CODES = new Set([
  'wrong-type',
  'missing-field',
  'unknown-field',
  'bad-value',
  'bad-taint',
  'bad-reference',
  'unknown-pod',
  'unknown-node',
  'unknown-replicaset',
]);
const fmt = (p: { severity: string; code: string; position?: { line: number; column: number } }) =>
  `${p.position?.line}:${p.position?.column} ${p.severity} ${p.code}`;

for (const r of rows) {
  test(`${r.name}, the same in validate, the language server and the loader`, () => {
    const text = scenario('1.31', r.body);
    const fs = workspace({ [SCENARIO]: text });
    const validate = lintFile(SCENARIO, fs)
      .filter((p) => EXPECT_CODES.has(p.code))
      .map(fmt)
      .sort();
    const loader = loadScenario(SCENARIO, fs)
      .problems.filter((p) => EXPECT_CODES.has(p.code))
      .map(fmt)
      .sort();
    const severities = ['', 'error', 'warning', 'info'];
    const server = createLanguageService({ fs })
      .diagnostics(`file://${SCENARIO}`, text)
      .filter((d) => EXPECT_CODES.has(String(d.code)))
      .map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${severities[d.severity ?? 0]} ${d.code}`)
      .sort();
    assert.deepEqual(validate, r.want, 'validate');
    assert.deepEqual(loader, r.want, 'replay/test (the loader)');
    assert.deepEqual(server, r.want, 'language server');
  });
}
