import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, dirname, resolve } from 'node:path';

// The layering of design/house-style.md: engine imports nothing of ours and no
// vscode / node:* / DOM; webview imports only protocol and engine types;
// server, extension and cli import engine, protocol and platform (node adapters).
const root = resolve(__dirname, '../..');
const src = join(root, 'src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(n) ? [p] : [];
  });
}

const IMPORT = /(?:import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]\s*\)|import\(\s*['"]([^'"]+)['"]\s*\)/g;

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
  webview: ['webview', 'protocol', 'engine(types)'],
};

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
        const ok = allowed[layer]?.includes(target) || (target === 'engine' && typeOnly && allowed[layer]?.includes('engine(types)'));
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
