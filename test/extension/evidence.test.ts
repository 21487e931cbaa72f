/** Import Evidence's questions (--at, --version), asked through a Prompter: no vscode needed. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SET_TIME, SET_VERSION, askImportOptions, assumptionsToSettle, importEvidenceFiles, validateAt, type Prompter } from '../../src/extension/evidence';
import { parseTimestamp } from '../../src/engine/model/time';
import { MAX_MINOR } from '../../src/engine/versions/table';
import { nodeFs, readChunks } from '../../src/platform/nodeFs';

const NOW = parseTimestamp('2026-12-02T00:00:00Z')!;
const sample = 'test/fixtures/real-evidence/describe-pod-1.29-trident-node-shutdown.txt';
/** Answers given in turn; what was asked is kept. */
function answers(...given: (string | undefined)[]): Prompter & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    pick: async (title, items) => {
      asked.push(`${title} [${items.map((i) => i.label).join(', ')}]`);
      const a = given.shift();
      return items.find((i) => i.label === a)?.value;
    },
    input: async (title, _placeholder, validate) => {
      const a = given.shift();
      asked.push(`${title}${a !== undefined && validate(a) ? ' (refused)' : ''}`);
      return a !== undefined && !validate(a) ? a : undefined;
    },
  };
}

describe('Import Evidence asks for what the evidence left open', () => {
  it('an import that assumed the time and the version offers both', () => {
    const outcome = importEvidenceFiles([sample], { fs: nodeFs(), readChunks }, NOW);
    assert.deepEqual(assumptionsToSettle(outcome, NOW)?.buttons, [SET_TIME, SET_VERSION]);
    assert.match(assumptionsToSettle(outcome, NOW)?.message ?? '', /read from the times it prints/);
    const settled = importEvidenceFiles([sample], { fs: nodeFs(), readChunks }, NOW, { at: parseTimestamp('2025-03-21T01:41:04Z'), version: '1.29' });
    assert.equal(assumptionsToSettle(settled, NOW), undefined);
  });
  const cases: [name: string, button: string, given: (string | undefined)[], want: object | undefined][] = [
    ['the time, typed as RFC 3339', SET_TIME, ['2025-03-21T01:41:04Z'], { version: '1.28', at: parseTimestamp('2025-03-21T01:41:04Z') }],
    ['the time, cancelled', SET_TIME, [undefined], undefined],
    ['a version picked', SET_VERSION, ['1.29'], { version: '1.29' }],
    ['the version back to "from the evidence"', SET_VERSION, ['From the evidence'], { version: undefined }],
    ['the version, cancelled', SET_VERSION, [undefined], undefined],
  ];
  for (const [name, button, given, want] of cases) {
    it(name, async () => assert.deepEqual(await askImportOptions(answers(...given), button, { version: '1.28' }), want));
  }
  it('a time that is not RFC 3339 is refused as typed, with what is wanted', () => {
    assert.match(validateAt('yesterday') ?? '', /RFC 3339 time such as/);
    assert.equal(validateAt(' 2026-06-17T13:00:00Z '), undefined);
  });
  it('the version list runs from the newest to 1.12', async () => {
    const p = answers(undefined);
    await askImportOptions(p, SET_VERSION);
    assert.match(p.asked[0], new RegExp(`\\[From the evidence, 1\\.${MAX_MINOR}, 1\\.${MAX_MINOR - 1}, .*, 1\\.12\\]$`));
  });
});
