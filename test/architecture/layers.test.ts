import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative, dirname, resolve } from 'node:path';
import { IMPORT, importCycles, importGraph, sourceFiles as files } from './importGraph';

// The layering of design/house-style.md: engine imports nothing of ours and no
// vscode / node:* / DOM; webview imports only protocol and engine types, and
// the engine's leaf modules (files that import nothing, so that bundling one
// cannot bring the engine into the webview; model/offset.ts is one);
// server, extension and cli import engine, protocol and platform (node adapters).
const root = resolve(__dirname, '../..');
const src = join(root, 'src');

function layerOf(file: string): string {
  return relative(src, file).split(/[\\/]/)[0];
}

const allowed: Record<string, string[]> = {
  engine: ['engine'],
  protocol: ['protocol', 'engine'],
  platform: ['platform', 'engine'],
  server: ['server', 'engine', 'protocol', 'platform'],
  extension: ['extension', 'engine', 'protocol', 'platform'],
  cli: ['cli', 'engine', 'protocol', 'platform'],
  webview: ['webview', 'protocol', 'engine(types)', 'engine(leaf)'],
};

/** A module that imports nothing (the .ts file a relative specifier names). */
function isLeaf(target: string): boolean {
  for (const file of [`${target}.ts`, join(target, 'index.ts')]) {
    try {
      return ![...readFileSync(file, 'utf8').matchAll(IMPORT)].length;
    } catch {
      // not this form
    }
  }
  return false;
}

test('every source file imports only the layers it may', () => {
  const broken: string[] = [];
  for (const file of files(src)) {
    const layer = layerOf(file);
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[2] ?? m[3] ?? m[4];
      const typeOnly = Boolean(m[1]);
      if (!spec) continue;
      if (spec.startsWith('.')) {
        const target = layerOf(resolve(dirname(file), spec));
        const ok =
          allowed[layer]?.includes(target) ||
          (target === 'engine' && typeOnly && allowed[layer]?.includes('engine(types)')) ||
          (target === 'engine' && allowed[layer]?.includes('engine(leaf)') && isLeaf(resolve(dirname(file), spec)));
        if (!ok) broken.push(`${relative(root, file)} imports ${spec} (${layer} -> ${target})`);
      } else if (layer === 'engine' && (spec === 'vscode' || spec.startsWith('node:') || ['fs', 'path', 'os', 'child_process'].includes(spec))) {
        broken.push(`${relative(root, file)} imports ${spec}: the engine is pure`);
      } else if (layer === 'engine' && !['xstate', 'yaml'].includes(spec)) {
        broken.push(`${relative(root, file)} imports ${spec}: the engine may use xstate and yaml only`);
      }
    }
  }
  assert.deepEqual(broken, []);
});

test("outside the engine, machines are reached through the Simulation API only: nothing imports a controller or the engine's machine stepping", () => {
  // (before: extension/machinesAtPosition.ts read nodeLifecycle/statelessMachines.ts itself)
  const reaching: string[] = [];
  for (const file of files(src)) {
    if (layerOf(file) === 'engine') continue;
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = m[2] ?? m[3] ?? m[4];
      if (!spec?.startsWith('.')) continue;
      const target = relative(join(src, 'engine'), resolve(dirname(file), spec)).split(/[\\/]/);
      if (target[0] === 'controllers' || target[0] === 'machines') reaching.push(`${relative(root, file)} imports ${spec}`);
    }
  }
  assert.deepEqual(reaching, []);
});

describe('import cycles', () => {
  // the finder itself, on small graphs, so that the test below can fail
  const cases: { name: string; graph: Record<string, string[]>; cycles: string[][] }[] = [
    { name: 'a chain has no cycle', graph: { a: ['b'], b: ['c'], c: [] }, cycles: [] },
    { name: 'a diamond has no cycle', graph: { a: ['b', 'c'], b: ['d'], c: ['d'], d: [] }, cycles: [] },
    { name: 'two files that import each other are a cycle', graph: { a: ['b'], b: ['a'] }, cycles: [['a', 'b']] },
    { name: 'a file that imports itself is a cycle', graph: { a: ['a'], b: [] }, cycles: [['a']] },
    {
      name: 'a cycle through three files is one cycle, and the file outside it is not in it',
      graph: { api: ['plan'], plan: ['controller'], controller: ['api'], shell: ['api'] },
      cycles: [['api', 'controller', 'plan']],
    },
    {
      name: 'two separate cycles are both found',
      graph: { a: ['b'], b: ['a', 'c'], c: ['d'], d: ['c'] },
      cycles: [
        ['a', 'b'],
        ['c', 'd'],
      ],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(importCycles(new Map(Object.entries(c.graph))), c.cycles));

  it('no file in src/ is part of an import cycle', () => {
    assert.deepEqual(importCycles(importGraph(root, files(src))), []);
  });
});
