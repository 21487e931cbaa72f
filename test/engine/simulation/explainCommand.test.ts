import assert from 'node:assert/strict';
import { test } from 'node:test';
import { execFileSync } from 'node:child_process';
import { shellWord, whyCommand } from '../../../src/engine/simulation/explainCommand';

// The CLI's `test` and VS Code's Testing view print this command: a path with a space or a
// quote must come back from the shell as the same word.
test('shellWord: the shell reads back the same word', () => {
  const cases = ['plain/path.yaml', 'my scenarios/outage.yaml', "it's.yaml", 'a$b`c"d', 'Pod/default/web-1', ''];
  for (const word of cases) {
    const back = execFileSync('sh', ['-c', `printf %s ${shellWord(word)}`], { encoding: 'utf8' });
    assert.equal(back, word, `shellWord(${JSON.stringify(word)}) = ${shellWord(word)}`);
  }
});

test('whyCommand: explain at the expectation time, or nothing when no object is named', () => {
  const cases: { file: string; object?: string; at: string; want: string | undefined }[] = [
    {
      file: '/w/sixty.yaml',
      object: 'Pod/default/toleration-sixty',
      at: '2026-01-01T00:02:09.000Z',
      want: 'controller-stepper explain /w/sixty.yaml --object Pod/default/toleration-sixty --until 2026-01-01T00:02:09.000Z',
    },
    {
      file: '/w/my tests/sixty.yaml',
      object: 'Node/node-a1',
      at: '2026-01-01T00:01:00.000Z',
      want: "controller-stepper explain '/w/my tests/sixty.yaml' --object Node/node-a1 --until 2026-01-01T00:01:00.000Z",
    },
    { file: '/w/zone.yaml', at: '2026-01-01T00:01:00.000Z', want: undefined },
  ];
  for (const c of cases) assert.equal(whyCommand(c.file, c), c.want);
});
