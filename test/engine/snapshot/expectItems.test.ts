/** The expect: entries an editor lists as tests, found in the text alone (no snapshot read). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expectItems } from '../../../src/engine/snapshot/expectItems';
import { parseScenario } from '../../../src/engine/snapshot/scenario';
import { MemoryFs } from '../../../src/engine/snapshot/source';

const HEAD = 'apiVersion: controllerstepper.io/v1alpha1\nkind: Scenario\nkubernetesVersion: "1.31"\nsnapshot: ./cluster.yaml\n';

const cases: { name: string; text: string; want: { index: number; label: string; text: string }[] | undefined }[] = [
  { name: 'not a scenario (a snapshot)', text: 'apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nexpect: [{at: 1m}]\n', want: undefined },
  { name: 'a scenario without expect:', text: HEAD, want: undefined },
  { name: 'expect: not a list', text: `${HEAD}expect: {at: 1m}\n`, want: undefined },
  {
    name: 'block entries, labels on one line, the text without its trailing blank lines',
    text: `${HEAD}expect:\n  - at: 1m5s\n    node: node-a1\n    ready: Unknown\n\n  - at: 2m\n    pod: default/web-1\n    deleted: true\n# end\n`,
    want: [
      { index: 0, label: 'at: 1m5s, node: node-a1, ready: Unknown', text: 'at: 1m5s\n    node: node-a1\n    ready: Unknown' },
      { index: 1, label: 'at: 2m, pod: default/web-1, deleted: true', text: 'at: 2m\n    pod: default/web-1\n    deleted: true' },
    ],
  },
  {
    name: 'flow entries, a nested value squeezed',
    text: `${HEAD}expect:\n- {at: 1m, zone: us-east-1a, state: Normal}\n- {at: 10m, decision: {action: PodEvicted, count: 3}}\n`,
    want: [
      { index: 0, label: 'at: 1m, zone: us-east-1a, state: Normal', text: '{at: 1m, zone: us-east-1a, state: Normal}' },
      { index: 1, label: 'at: 10m, decision: {action: PodEvicted, count: 3}', text: '{at: 10m, decision: {action: PodEvicted, count: 3}}' },
    ],
  },
];

for (const c of cases) {
  test(`expect items: ${c.name}`, () => {
    const got = expectItems(c.text);
    assert.deepEqual(
      got?.map((i) => ({ index: i.index, label: i.label, text: c.text.slice(i.start, i.end) })),
      c.want,
    );
  });
}

test("expect items: each entry's index is the one the scenario parser gives its expectation (how a result finds its entry)", () => {
  const text = `${HEAD.replace('snapshot: ./cluster.yaml\n', '')}objects: []\nexpect:\n- {at: 2m, node: n1, ready: Unknown}\n- {at: 1m, node: n1, ready: "True"}\n- {at: 30s, node: n2, exists: false}\n`;
  const parsed = parseScenario(text, '/s/scenario.yaml', new MemoryFs({}));
  const items = expectItems(text)!;
  // the parser sorts by time; the index is still the written one, and its position the item's start
  for (const e of parsed.scenario.expect) {
    const item = items.find((i) => i.index === e.index)!;
    assert.ok(item, `entry ${e.index}`);
    const line = text.slice(0, item.start).split('\n').length;
    assert.equal(e.position?.line, line, `entry ${e.index}'s line`);
  }
  assert.deepEqual(
    parsed.scenario.expect.map((e) => e.index),
    [2, 1, 0],
  );
});
