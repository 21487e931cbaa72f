import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { openScenario } from '../../src/extension/openScenario';
import { Session } from '../../src/extension/session';
import { objectPickItems } from '../../src/extension/objectPick';

// "Explain which object?" over the real session: each kind in the natural order of its names, whatever order the view's items were made in.
function session(example: string, until: string): Session {
  const o = openScenario(resolve(__dirname, '../../examples', example), '');
  const s = new Session({ make: o.make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: () => {} });
  assert.equal(s.runUntil(until).ok, true);
  return s;
}

const kindOf = (label: string) => label.split('/')[0];

test('the quick pick lists zones, nodes, pods and ReplicaSets, each kind naturally sorted: a replacement pod among its siblings, node-a9 before node-a10', () => {
  const rows: [string, string, (labels: string[]) => void][] = [
    [
      'rs-zone-outage.yaml',
      '6m20s',
      (labels) => {
        const pods = labels.filter((l) => l.startsWith('Pod/'));
        const i = pods.indexOf('Pod/default/web-7d9f-pxwsk');
        assert.ok(i >= 0 && i < pods.length - 1, `the replacement pod is not listed last but among the others (${i} of ${pods.length})`);
      },
    ],
    [
      'zone-large-partial.yaml',
      '1m',
      (labels) => {
        const nodes = labels.filter((l) => l.startsWith('Node/node-a'));
        assert.deepEqual(nodes.slice(8, 11), ['Node/node-a9', 'Node/node-a10', 'Node/node-a11']);
      },
    ],
  ];
  for (const [example, until, check] of rows) {
    const s = session(example, until);
    const labels = objectPickItems(
      s.sim.zones(() => false),
      s.clusterView,
    ).map((i) => i.label);
    const view = s.clusterView;
    assert.equal(labels.length, s.sim.zones(() => false).length + view.nodes.size + view.pods.size + view.replicaSets.size, `${example}: every object once`);
    // kinds in blocks: Zone, Node, Pod, ReplicaSet
    const kinds = labels.map(kindOf).filter((k, i, all) => i === 0 || all[i - 1] !== k);
    assert.deepEqual(kinds, ['Zone', 'Node', 'Pod', 'ReplicaSet'], example);
    for (const kind of kinds) {
      const block = labels.filter((l) => kindOf(l) === kind);
      const sorted = [...block].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
      assert.deepEqual(block, sorted, `${example}: ${kind}s in natural order`);
    }
    check(labels);
  }
});
