/**
 * The README's "Reading the text trace" shows what the quick start's command
 * prints: its header whole and its lines as prefixes (up to their `…`), so the
 * excerpt cannot drift from the command line's output.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { runCli } from '../helpers/cliRun';

const README = readFileSync(resolve(__dirname, '../../README.md'), 'utf8');
const squeeze = (line: string): string => line.trim().replace(/\s+/g, ' ');

/** The fenced block that starts with the quick start example's header. */
function excerpt(): string[] {
  const blocks: string[][] = [];
  let open: string[] | undefined;
  for (const line of README.split('\n')) {
    if (line.startsWith('```')) {
      if (open) blocks.push(open);
      open = open ? undefined : [];
    } else if (open && line !== '') open.push(line);
  }
  const found = blocks.filter((b) => b[0].startsWith('# one-node-stops:'));
  assert.equal(found.length, 1, 'one README block with the one-node-stops trace');
  return found[0];
}

test("the README's text trace excerpt is what `replay examples/one-node-stops.yaml` prints", async () => {
  const lines = excerpt();
  const r = await runCli('replay', 'examples/one-node-stops.yaml');
  assert.equal(r.code, 0, r.err);
  const printed = r.out.split('\n');
  assert.equal(lines[0], printed[0], 'the header, counts included');
  assert.equal(lines[1], printed[1]);
  const rest = printed.slice(2).map(squeeze);
  for (const line of lines.slice(2)) {
    const head = squeeze(line.replace(/…$/, ''));
    assert.ok(
      rest.some((p) => p.startsWith(head)),
      `README line not printed: ${line}`,
    );
  }
});
