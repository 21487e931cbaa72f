/**
 * The loader's `namespace/name` keys are flat strings, not ropes (unitObjects.ts): the keys are
 * kept for the whole run and compared (podsOn's key order, sorts), and the first comparison of a
 * rope makes a flat copy beside it. Whether a string is a rope is V8's to say: a rope has the map
 * of `'…' + x` (ConsString), so each key's map is compared with one (`%HaveSameMap`, natives
 * syntax switched on for this file's one function).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { parse } from 'yaml';
import { loadSnapshot } from '../../../src/engine/snapshot/load';
import { nodeFs } from '../../../src/platform/nodeFs';

setFlagsFromString('--allow-natives-syntax');
const haveSameMap = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: string, b: string) => boolean;
/** a rope made as a template literal makes one (longer than V8's 13-character minimum) */
const rope = (s: string): string => `${s}/${String(Math.random())}`;
const isRope = (s: string): boolean => haveSameMap(s, rope('a-namespace'));

const yamlPath = new URL('../../../examples/clusters/three-zones.yaml', import.meta.url).pathname;

const cases: { name: string; file: (dir: string) => string }[] = [
  { name: 'a kubectl YAML List (the bundled three-zones cluster)', file: () => yamlPath },
  {
    name: 'the same List as compact JSON (kubectl ... -o json | jq -c .)',
    file: (dir) => {
      const p = join(dir, 'cluster.json');
      writeFileSync(p, JSON.stringify(parse(readFileSync(yamlPath, 'utf8'))));
      return p;
    },
  },
  {
    name: 'the same List as kubectl prints JSON (4-space indent)',
    file: (dir) => {
      const p = join(dir, 'cluster-indented.json');
      writeFileSync(p, JSON.stringify(parse(readFileSync(yamlPath, 'utf8')), null, 4));
      return p;
    },
  },
];

test('the check tells a rope from a flat string', () => {
  assert.equal(isRope(rope('default')), true);
  assert.equal(isRope(['default', 'web-7d4b9c-abcde'].join('/')), false);
});

for (const c of cases) {
  test(`the loader's namespaced keys are flat strings: ${c.name}`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'flat-keys-'));
    try {
      const { cluster } = loadSnapshot(c.file(dir), nodeFs());
      const indexed = [...cluster.podsByNode.values()].flatMap((s) => [...s]);
      const keys = { pods: [...cluster.pods.keys()], indexed, replicaSets: [...cluster.replicaSets.keys()] };
      assert.ok(keys.pods.length > 20 && keys.indexed.length > 20 && keys.replicaSets.length > 0, 'the cluster has pods and ReplicaSets');
      for (const [where, list] of Object.entries(keys)) {
        assert.deepEqual(
          list.filter((k) => k.length >= 13 && isRope(k)),
          [],
          `${where}: ropes`,
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
