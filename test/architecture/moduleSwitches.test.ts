import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { sourceFiles } from './importGraph';

// Checking modes and switches are options of one simulation (SimulationOptions.checks, the
// controllers' and kubelets' options), never module state a test flips: tests that run side by
// side, or one that fails before it flips a switch back, would see each other's modes.
const root = resolve(__dirname, '../..');

const SWITCH_PATTERNS: readonly { what: string; re: RegExp }[] = [
  { what: 'a module-level object of checks or switches', re: /^export\s+const\s+\w*(Checks|Switches|Switch)\s*(:[^=]*)?=/m },
  { what: 'a module-level let', re: /^export\s+let\s/m },
  { what: 'a module-level object of flags', re: /^export\s+const\s+\w+\s*(:[^=]*)?=\s*\{\s*\w+\s*:\s*(true|false)\b/m },
];

/** What a file exports that a test could flip, one line per kind found. */
export function moduleSwitches(text: string): string[] {
  return SWITCH_PATTERNS.filter((p) => p.re.test(text)).map((p) => `${p.what}: ${p.re.exec(text)![0].trim()}`);
}

describe('no module-level test switches in the engine', () => {
  const cases: { name: string; text: string; flagged: boolean }[] = [
    { name: 'an exported object of checks', text: 'export const kubeletChecks = { due: false };\n', flagged: true },
    { name: 'an exported object of switches, typed', text: 'export const traceSwitches: Record<string, boolean> = {};\n', flagged: true },
    { name: 'an exported let', text: 'export let verifyTallies = false;\n', flagged: true },
    { name: 'an exported object of flags under another name', text: 'export const nodeIndexRebuild = { on: false };\n', flagged: true },
    { name: 'an interface of checks (an option type)', text: 'export interface SimulationChecks {\n  kubeletDue?: boolean;\n}\n', flagged: false },
    { name: 'an exported constant', text: 'export const MAX_ROUNDS = 100;\n', flagged: false },
    { name: 'a frozen table of numbers', text: 'export const LIMITS = { nodes: 5000 };\n', flagged: false },
    { name: 'a let inside a function', text: 'export function f(): number {\n  let n = 0;\n  return n;\n}\n', flagged: false },
  ];
  for (const c of cases) it(c.name, () => assert.equal(moduleSwitches(c.text).length > 0, c.flagged));

  it('no file in src/engine exports a switch, a checks object or a let', () => {
    const found = sourceFiles(join(root, 'src/engine')).flatMap((p) =>
      moduleSwitches(readFileSync(p, 'utf8')).map((s) => `${relative(root, p).split('\\').join('/')}: ${s}`),
    );
    assert.deepEqual(found, []);
  });
});
