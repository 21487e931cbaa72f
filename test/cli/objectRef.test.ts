/**
 * `explain --object` as a kubectl user types it: kubectl's kinds and short names, a pod or ReplicaSet
 * without its namespace, a bare name; each must name exactly one object, else exit 2 with the candidates.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSnapshot } from '../../src/engine/snapshot/load';
import { refShapeOk, resolveObjectRef } from '../../src/cli/objectRef';
import { runCli } from '../helpers/cliRun';

const snap = loadSnapshot({
  file: 'c.yaml',
  text: `apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Node, metadata: {name: node-a1}}
- {apiVersion: v1, kind: Node, metadata: {name: web}}
- {apiVersion: v1, kind: Pod, metadata: {name: web, namespace: default}, spec: {nodeName: node-a1}}
- {apiVersion: v1, kind: Pod, metadata: {name: api-1, namespace: shop}, spec: {nodeName: node-a1}}
- {apiVersion: v1, kind: Pod, metadata: {name: twin, namespace: a}, spec: {nodeName: node-a1}}
- {apiVersion: v1, kind: Pod, metadata: {name: twin, namespace: b}, spec: {nodeName: node-a1}}
- {apiVersion: apps/v1, kind: ReplicaSet, metadata: {name: api, namespace: shop}, spec: {replicas: 1, selector: {matchLabels: {app: api}}}}
`,
}).cluster;

test('kubectl forms, short names and bare names resolve to the one object they name', () => {
  const cases: [input: string, want: string][] = [
    ['Node/node-a1', 'ref Node/node-a1'],
    ['node/node-a1', 'ref Node/node-a1'],
    ['NO/node-a1', 'ref Node/node-a1'],
    ['node-a1', 'ref Node/node-a1'],
    ['Pod/shop/api-1', 'ref Pod/shop/api-1'],
    ['po/api-1', 'ref Pod/shop/api-1'],
    ['pods/shop/api-1', 'ref Pod/shop/api-1'],
    ['api-1', 'ref Pod/shop/api-1'],
    ['rs/api', 'ref ReplicaSet/shop/api'],
    ['replicasets/shop/api', 'ref ReplicaSet/shop/api'],
    ['api', 'ref ReplicaSet/shop/api'],
    ['zone/us-east-1/us-east-1a', 'ref Zone/us-east-1/us-east-1a'],
    // none of that name: the default namespace, as kubectl (explain then says it never existed, with a likely name)
    ['pod/nope', 'ref Pod/default/nope'],
    // more than one: each named, none chosen
    ['pod/twin', 'error pod/twin names 2 objects: Pod/a/twin, Pod/b/twin; give one of them'],
    ['twin', 'error twin names 2 objects: Pod/a/twin, Pod/b/twin; give one of them'],
    ['web', 'error web names 2 objects: Node/web, Pod/default/web; give one of them'],
    ['node-a2', 'error no Node, Pod or ReplicaSet is named node-a2 (did you mean node-a1?)'],
  ];
  for (const [input, want] of cases) {
    assert.ok(refShapeOk(input), input);
    const r = resolveObjectRef(input, [snap]);
    const got = 'ref' in r ? `ref ${r.ref}` : `error ${r.error}`;
    assert.ok(got.startsWith(want), `${input}: ${got}`);
  }
});

test('shapes that name no object kind are usage errors before anything is loaded', () => {
  for (const bad of ['deployment/web', 'pod/a/b/c', 'node/a/b', 'pod/', 'node a1', '']) assert.equal(refShapeOk(bad), false, JSON.stringify(bad));
});

test('explain --object node-a1 and po/toleration-sixty explain the objects they name', async () => {
  const EX = 'examples/one-node-stops.yaml';
  const a = await runCli('explain', EX, '--object', 'node-a1', '--until', '1m30s');
  assert.equal(a.code, 0, a.err);
  assert.match(a.out, /^Node\/node-a1, as of \+1m30s/);
  const b = await runCli('explain', EX, '--object', 'po/toleration-sixty', '--until', '1m30s');
  assert.equal(b.code, 0, b.err);
  assert.match(b.out, /^Pod\/default\/toleration-sixty, as of \+1m30s[\s\S]*PodEvictionScheduled/);
  const c = await runCli('explain', EX, '--object', 'node-a9', '--until', '1m30s');
  assert.equal(c.code, 2);
  assert.match(c.err, /^explain: no Node, Pod or ReplicaSet is named node-a9 \(did you mean node-a1\?\)/);
});

test('a zone is named by its key, or by its zone label alone when one zone has it, as a scenario names it', () => {
  const node = (name: string, region: string, zone: string) =>
    `- {apiVersion: v1, kind: Node, metadata: {name: ${name}, labels: {topology.kubernetes.io/region: ${region}, topology.kubernetes.io/zone: ${zone}}}}\n`;
  const zones = loadSnapshot({
    file: 'z.yaml',
    text: `apiVersion: v1\nkind: List\nitems:\n${node('n1', 'r1', 'a')}${node('n2', 'r1', 'b')}${node('n3', 'r2', 'b')}`,
  }).cluster;
  const cases: [input: string, want: string][] = [
    ['Zone/r1/a', 'ref Zone/r1/a'],
    ['zone/a', 'ref Zone/r1/a'],
    ['Zone/b', 'error Zone/b names 2 zones: Zone/r1/b, Zone/r2/b; give one of them'],
    // none: as written (explain then says it never existed, with a likely zone)
    ['Zone/c', 'ref Zone/c'],
  ];
  for (const [input, want] of cases) {
    const r = resolveObjectRef(input, [zones]);
    assert.equal('ref' in r ? `ref ${r.ref}` : `error ${r.error}`, want, input);
  }
});

test('explain --object with a zone label explains its zone, and a misspelt one is named', async () => {
  const EX = 'examples/rs-zone-outage.yaml';
  const a = await runCli('explain', EX, '--object', 'zone/us-east-1b', '--until', '2m');
  assert.equal(a.code, 0, a.err);
  assert.match(a.out, /^Zone\/us-east-1\/us-east-1b, as of \+2m00s/);
  const b = await runCli('explain', EX, '--object', 'Zone/us-east-1q', '--until', '2m');
  assert.equal(b.code, 2);
  assert.match(b.err, /never existed up to \+2m00s: .* \(did you mean Zone\/us-east-1a\?\)/);
});
