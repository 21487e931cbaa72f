/**
 * Output to a closed pipe (`controller-stepper … | head -2`) ends quietly:
 * no stack trace, no message, for every command and format (spec 4). When
 * the reader leaves before the end, the command stops at once with the
 * status a shell gives a command stopped by SIGPIPE (141), so a pipeline
 * never reports an unfinished run as a success.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runBinIntoHead } from '../helpers/binRun';

const EX = 'examples/one-node-stops.yaml';

// `big`: far more than a pipe's buffer (64 KiB), so the reader is surely gone before the end.
const cases: { name: string; argv: string[]; big: boolean }[] = [
  { name: 'replay, text', argv: ['replay', EX, '--until', '1h', '--ticks'], big: true },
  { name: 'replay, JSON Lines', argv: ['replay', EX, '--until', '1h', '--format', 'json'], big: true },
  { name: 'replay, YAML', argv: ['replay', EX, '--until', '1h', '--format', 'yaml'], big: true },
  // one line of ~500 KB: head reads it all to find two newlines
  { name: 'replay, state and trace as one JSON object', argv: ['replay', EX, '--until', '1h', '--output', 'both', '--format', 'json'], big: false },
  { name: 'replay, state and trace as text', argv: ['replay', EX, '--until', '1h', '--output', 'both', '--ticks'], big: true },
  { name: 'replay, state as text', argv: ['replay', EX, '--output', 'state'], big: false },
  { name: 'explain, text', argv: ['explain', 'examples/rs-zone-outage.yaml', '--object', 'Zone/us-east-1/us-east-1a'], big: false },
  { name: 'explain, JSON', argv: ['explain', EX, '--object', 'Node/node-a1', '--format', 'json'], big: false },
  { name: 'test', argv: ['test', EX, 'examples/rs-zone-outage.yaml'], big: false },
  { name: 'validate', argv: ['validate', EX, 'examples/rs-zone-outage.yaml'], big: false },
  { name: 'generate, JSON', argv: ['generate', '--nodes', '60', '--pods-per-node', '3'], big: true },
  { name: 'generate, YAML', argv: ['generate', '--nodes', '60', '--pods-per-node', '3', '--format', 'yaml'], big: true },
  { name: 'version', argv: ['version'], big: false },
  { name: '--help', argv: ['--help'], big: false },
];

for (const c of cases) {
  test(`${c.name} into a pipe closed after two lines ends quietly`, () => {
    const r = runBinIntoHead(c.argv, 2);
    assert.equal(r.err, '', 'nothing on stderr: no stack trace, no EPIPE message');
    assert.ok(r.shown.split('\n').filter(Boolean).length <= 2);
    if (c.big) assert.equal(r.code, 141, 'stopped by the closed pipe');
    else assert.ok(r.code === 0 || r.code === 141, `exit ${r.code}`);
  });
}
