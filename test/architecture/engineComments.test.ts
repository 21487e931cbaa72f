import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { sourceFiles } from './importGraph';
import { commentsOf } from './comments';

// The engine's comments say why in the engine's terms; how the JavaScript runtime (V8) makes
// that so belongs in bench/README.md, beside the measurements, where it can be checked again
// when the runtime changes.
const root = resolve(__dirname, '../..');
const RUNTIME_WORDS =
  /\bV8\b|hidden class|\b(?:mega|mono|poly)morphic\b|inline cache|semi-?space|scaveng|\bTurboFan\b|\bMaglev\b|\bSparkplug\b|\bIgnition\b|deopt|\bSMI\b|HeapNumber|SlicedString|old space|young generation|dictionary mode|elements kind/i;

/**
 * Comments in files that other work in progress is rewriting; their owners reword them (the
 * notes are in bench/README.md already) and the lead empties this list after merging.
 */
const RUNTIME_WORDS_IN_OTHER_AREAS: readonly string[] = ['src/engine/snapshot/listParse.ts'];

/** The comments of a file that talk about the runtime's internals, as `file:line: words`. */
export function runtimeTalk(file: string, text: string): string[] {
  return commentsOf(file, text).flatMap((c) => {
    const m = RUNTIME_WORDS.exec(c.text);
    return m ? [`${file}:${c.line + c.text.slice(0, m.index).split('\n').length - 1}: ${m[0]}`] : [];
  });
}

describe('comments in the engine', () => {
  const cases: { name: string; text: string; found: number }[] = [
    { name: "a reason in the engine's terms passes", text: '// in place: a new object per renewal would be garbage at once\nlet x = 1;\n', found: 0 },
    { name: 'V8 by name is found', text: '/** so that V8 keeps the field a plain double */\nlet x = 1;\n', found: 1 },
    { name: 'a hidden class is found', text: 'let x = 1; // one hidden class for all\n', found: 1 },
    { name: 'the word in a string is not a comment', text: "const s = 'V8';\n", found: 0 },
  ];
  for (const c of cases) it(c.name, () => assert.equal(runtimeTalk('x.ts', c.text).length, c.found));

  const files = sourceFiles(join(root, 'src/engine')).map((p) => relative(root, p).split('\\').join('/'));

  it("no comment in src/engine talks about V8's internals (bench/README.md does)", () => {
    const found = files.filter((f) => !RUNTIME_WORDS_IN_OTHER_AREAS.includes(f)).flatMap((f) => runtimeTalk(f, readFileSync(join(root, f), 'utf8')));
    assert.deepEqual(found, []);
  });

  it('every file in RUNTIME_WORDS_IN_OTHER_AREAS still has such a comment (else take it off)', () => {
    const clean = RUNTIME_WORDS_IN_OTHER_AREAS.filter((f) => !files.includes(f) || runtimeTalk(f, readFileSync(join(root, f), 'utf8')).length === 0);
    assert.deepEqual(clean, []);
  });
});
