/**
 * The node index groups nodes by the text of their shared labels (sharedLabelsText) and keeps that
 * text per labels object for the whole run: it must say the same as before and be one flat string,
 * not a rope of every piece it was made of (a dozen labels made a rope of about 2.3 KB, 11.7 MB kept
 * at 5,000 nodes). Whether a string is a rope is V8's to say: a rope has the map of a template
 * literal's result (ConsString), compared with `%HaveSameMap` (natives syntax on for this file).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { sharedLabelsText } from '../../../../src/engine/controllers/scheduler/nodeAffinity';

setFlagsFromString('--allow-natives-syntax');
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: string, b: string) => boolean;
const rope = (s: string): string => `${s}/${String(Math.random())}`;
const isRope = (s: string): boolean => haveSameMap(s, rope('a-node-label'));

const generatedNode: Record<string, string> = {
  'beta.kubernetes.io/arch': 'amd64',
  'beta.kubernetes.io/instance-type': 'm5.xlarge',
  'beta.kubernetes.io/os': 'linux',
  'kubernetes.io/arch': 'amd64',
  'kubernetes.io/hostname': 'ip-10-1-2-98.ec2.internal',
  'kubernetes.io/os': 'linux',
  'node.kubernetes.io/instance-type': 'm5.xlarge',
  'failure-domain.beta.kubernetes.io/region': 'us-east-1',
  'failure-domain.beta.kubernetes.io/zone': 'us-east-1b',
  'topology.kubernetes.io/region': 'us-east-1',
  'topology.kubernetes.io/zone': 'us-east-1b',
  'node-role.kubernetes.io/worker': '',
};

const cases: { name: string; labels: Record<string, string>; text: string }[] = [
  {
    name: 'a generated node: every label but its hostname, in the object order',
    labels: generatedNode,
    text: Object.entries(generatedNode)
      .filter(([k]) => k !== 'kubernetes.io/hostname')
      .map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)},`)
      .join(''),
  },
  { name: 'one label', labels: { 'topology.kubernetes.io/zone': 'zone-a' }, text: '"topology.kubernetes.io/zone":"zone-a",' },
  { name: 'the hostname alone says nothing shared', labels: { 'kubernetes.io/hostname': 'n1' }, text: '' },
  { name: 'no labels', labels: {}, text: '' },
];

test('the check tells a rope from a flat string', () => {
  assert.equal(isRope(rope('zone')), true);
  assert.equal(isRope(['"topology.kubernetes.io/zone"', ':"zone-a",'].join('')), false);
});

for (const c of cases) {
  test(`the shared labels' text is one flat string: ${c.name}`, () => {
    const text = sharedLabelsText(c.labels);
    assert.equal(text, c.text);
    assert.equal(text.length >= 13 && isRope(text), false, 'a rope');
  });
}
