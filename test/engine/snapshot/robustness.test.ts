import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadSnapshot } from '../../../src/engine/snapshot/load';
import { parseScenario } from '../../../src/engine/snapshot/scenario';
import { MemoryFs } from '../../../src/engine/snapshot/source';
import type { Problem } from '../../../src/engine/problems';

// Bad input never throws and never hangs: every real fixture, cut short at many
// places and with bytes flipped, still loads to problems with sane positions.

const REAL = resolve(__dirname, '../../../../shared/fixtures/real');
const SCENARIO = resolve(__dirname, '../../fixtures/loader/scenario/zone-a-outage.yaml');

function files(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? files(p) : /\.(json|ya?ml)$/.test(n) ? [p] : [];
    });
}

/** A deterministic pseudo-random sequence (mulberry32). */
function rng(seed: number) {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function checkPositions(problems: Problem[], text: string) {
  const lines = text.split('\n').length;
  for (const p of problems) {
    if (!p.position) continue;
    assert.ok(p.position.line >= 1 && p.position.line <= lines + 1, `${p.code} at line ${p.position.line} of ${lines}`);
    assert.ok(p.position.column >= 1, `${p.code} at column ${p.position.column}`);
  }
}

test('every real fixture cut short at 20 places loads to problems, never an exception', () => {
  for (const file of files(REAL)) {
    const text = readFileSync(file, 'utf8');
    for (let i = 1; i <= 20; i++) {
      const cut = text.slice(0, Math.floor((text.length * i) / 21));
      const snap = loadSnapshot({ file, text: cut });
      checkPositions(snap.problems, cut);
    }
  }
});

test('every real fixture with random characters replaced loads to problems, never an exception', () => {
  const next = rng(42);
  const junk = ['{', '}', '[', ']', ':', ',', '"', '\n', '-', ' ', '\t', '\\', 'x', '0', '&', '*', '!', '\u0000'];
  for (const file of files(REAL)) {
    const text = readFileSync(file, 'utf8');
    for (let round = 0; round < 12; round++) {
      const chars = text.split('');
      for (let k = 0; k < 5; k++) chars[Math.floor(next() * chars.length)] = junk[Math.floor(next() * junk.length)];
      const mutated = chars.join('');
      const snap = loadSnapshot({ file, text: mutated });
      checkPositions(snap.problems, mutated);
    }
  }
});

test('a scenario cut short or mangled is reported, never an exception', () => {
  const text = readFileSync(SCENARIO, 'utf8');
  const fs = new MemoryFs({ '/s/cluster.yaml': readFileSync(resolve(SCENARIO, '../cluster.yaml'), 'utf8') });
  const next = rng(7);
  for (let i = 1; i <= 30; i++) {
    const cut = text.slice(0, Math.floor((text.length * i) / 31));
    const r = parseScenario(cut, '/s/scenario.yaml', fs);
    checkPositions(
      r.problems.filter((p) => p.position?.file === '/s/scenario.yaml'),
      cut,
    );
    const chars = text.split('');
    for (let k = 0; k < 4; k++) chars[Math.floor(next() * chars.length)] = '{}[]:,"\n- 0'[Math.floor(next() * 11)];
    const mangled = chars.join('');
    const m = parseScenario(mangled, '/s/scenario.yaml', fs);
    checkPositions(
      m.problems.filter((p) => p.position?.file === '/s/scenario.yaml'),
      mangled,
    );
  }
});

test('pathological inputs finish quickly: long runs of brackets, quotes, spaces and aliases', () => {
  const inputs = [
    '{'.repeat(50_000),
    '"'.repeat(50_000),
    '[' + ' '.repeat(200_000),
    '\n{' + ' '.repeat(100_000) + 'x'.repeat(10),
    'a: &a [' + '1,'.repeat(1000) + '1]\nb: [' + '*a,'.repeat(2000) + '*a]\n',
    'x'.repeat(300_000),
    '- ' + '- '.repeat(5000) + 'deep',
  ];
  for (const text of inputs) {
    const started = Date.now();
    const snap = loadSnapshot({ file: 'p.txt', text });
    assert.ok(snap.problems.length >= 1 && snap.problems.length <= 51, `${snap.problems.length} problems: syntax errors are capped per file`);
    assert.ok(Date.now() - started < 20_000, `took ${Date.now() - started} ms on ${JSON.stringify(text.slice(0, 20))}`);
  }
});
