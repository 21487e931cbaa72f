/**
 * Completion of a scenario's `zone:`: an event's is the zone label's value (spec 1.2, "Selectors"), an expectation's
 * the zone's key as the trace writes it (`REGION/ZONE` when the nodes have a region label). Offered from the snapshot
 * the quick analysis read, or from the names a background run gave for a snapshot too big to read on a keystroke.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryFs } from '../../src/engine/snapshot/source';
import { createLanguageService } from '../../src/server/service';
import { TextLines } from '../../src/server/service/text';
import { KeptSnapshot } from '../../src/server/snapshotCache';
import { CLUSTER, CLUSTER_YAML, SCENARIO, caret, scenario } from '../engine/lint/helpers';

const URI = `file://${SCENARIO}`;
/** the helpers' cluster (node-a1, node-a2 in zone-a, no region) with node-a2 moved to region r1, zone zone-b */
const REGIONED = CLUSTER_YAML.replace(
  'name: node-a2\n    labels: {topology.kubernetes.io/zone: zone-a}',
  'name: node-a2\n    labels: {topology.kubernetes.io/zone: zone-b, topology.kubernetes.io/region: r1}',
);

const cases: { name: string; body: string; want: string[] }[] = [
  { name: "an event's zone: offers the zone labels' values", body: 'events:\n  - at: 30s\n    kubelet: stop\n    zone: |\n', want: ['zone-a', 'zone-b'] },
  { name: "an expectation's zone: offers the zones' keys, region and all", body: 'expect:\n  - at: 2m\n    zone: |\n', want: ['r1/zone-b', 'zone-a'] },
];

for (const c of cases) {
  test(`completion: ${c.name}`, () => {
    assert.notEqual(REGIONED, CLUSTER_YAML, 'the fixture was edited');
    const service = createLanguageService({ fs: new MemoryFs({ [CLUSTER]: REGIONED }) });
    const { text, offset } = caret(scenario('1.31', c.body));
    assert.deepEqual(
      service.completion(URI, text, new TextLines(text).positionAt(offset)).map((i) => i.label),
      c.want,
    );
  });

  test(`completion from a big snapshot's names: ${c.name}`, () => {
    const fs = new MemoryFs({ [CLUSTER]: REGIONED });
    const service = createLanguageService({ fs, deferBytes: 100 });
    const { text, offset } = caret(scenario('1.31', c.body));
    const pos = new TextLines(text).positionAt(offset);
    assert.deepEqual(service.completion(URI, text, pos), [], 'nothing before the background run');
    // the names as the server's worker gives them after parsing the snapshot
    const names = new KeptSnapshot(fs).lint({ uri: URI, text }, 'stamp-1').names!;
    assert.deepEqual(names.zones, ['r1/zone-b', 'zone-a']);
    service.setNames(service.deferred(URI, text), names);
    assert.deepEqual(
      service.completion(URI, text, pos).map((i) => i.label),
      c.want,
    );
  });
}
