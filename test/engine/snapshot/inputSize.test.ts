/**
 * inputBytes: how many bytes a load of a path reads, from stats and a scenario's own text, for the panel's
 * choice of how to show the wait (a notification only for a big load). Sizes are given to MemoryFs as a
 * big export's would be, so the cases read as the files they stand for.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryFs } from '../../../src/engine/snapshot/source';
import { inputBytes } from '../../../src/engine/snapshot/inputSize';

const MiB = 1024 * 1024;
const scenario = (body: string) => `apiVersion: controllerstepper.io/v1alpha1\nkind: Scenario\n${body}`;

function fs(): MemoryFs {
  return new MemoryFs()
    .write('/w/big/cluster.json', '{}', 400 * MiB)
    .write('/w/big/scenario.yaml', scenario('snapshot: cluster.json\n'))
    .write('/w/two/scenario.yaml', scenario('snapshot:\n  - ../big/cluster.json\n  - nodes\n  - ../big/cluster.json\n'))
    .write('/w/two/nodes/a.json', '{}', 3 * MiB)
    .write('/w/two/nodes/b.yaml', 'x', 5 * MiB)
    .write('/w/inline/scenario.yaml', scenario('objects:\n  - kind: Node\n    metadata: {name: a}\n'))
    .write('/w/missing/scenario.yaml', scenario('snapshot: gone.json\n'))
    .write('/w/plain.json', '{"kind":"List","items":[]}', 12 * MiB);
}

const own = (path: string) => fs().readText(path).length;

const cases: { name: string; path: string; text?: string; bytes: number }[] = [
  { name: 'a scenario counts its snapshot', path: '/w/big/scenario.yaml', bytes: own('/w/big/scenario.yaml') + 400 * MiB },
  {
    name: 'a scenario with a list of snapshots counts each once, a folder by its files',
    path: '/w/two/scenario.yaml',
    bytes: own('/w/two/scenario.yaml') + 400 * MiB + 8 * MiB,
  },
  { name: 'a scenario with its objects inline is its own size', path: '/w/inline/scenario.yaml', bytes: own('/w/inline/scenario.yaml') },
  { name: 'a snapshot that is not there counts nothing (the loader reports it)', path: '/w/missing/scenario.yaml', bytes: own('/w/missing/scenario.yaml') },
  { name: 'a plain snapshot file is its size', path: '/w/plain.json', bytes: 12 * MiB },
  { name: 'a folder is its files', path: '/w/two/nodes', bytes: 8 * MiB },
  { name: 'a path that is not there is nothing', path: '/w/nothing.yaml', bytes: 0 },
  {
    name: "a scenario's text without a file (an imported one) counts the snapshots beside where it is taken to live",
    path: '/w/big/imported.yaml',
    text: scenario('snapshot: cluster.json\n'),
    bytes: scenario('snapshot: cluster.json\n').length + 400 * MiB,
  },
];

for (const c of cases) {
  test(`inputBytes: ${c.name}`, () => {
    assert.equal(inputBytes(c.path, fs(), c.text), c.bytes);
  });
}
