/**
 * How long the extension host is held at a time during a long run: the Session (as the extension
 * runs it, with its slices) on a scenario that scales a ReplicaSet, with the real clock; prints the
 * longest and the median slice (the time between two turns the host's events get), for as long as
 * asked. Issue 17 asks that the host never freezes during a 100,000-replica scale-up.
 *
 *   node --import tsx scripts/measure-host-slices.ts [--replicas 100000] [--seconds 60]
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openScenario } from '../src/extension/openScenario';
import { Session } from '../src/extension/session';

const arg = (name: string, d: number): number => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : d;
};
const replicas = arg('--replicas', 100_000);
const seconds = arg('--seconds', 60);
const root = resolve(__dirname, '..');
const dir = mkdtempSync(join(tmpdir(), 'cs-host-slices-'));
const file = join(dir, 'scale.yaml');
writeFileSync(
  file,
  readFileSync(join(root, 'examples/rs-slow-start.yaml'), 'utf8')
    .replace('./clusters/three-zones.yaml', join(root, 'examples/clusters/three-zones.yaml'))
    .replace('scale: {replicaSet: default/api, replicas: 10}', `scale: {replicaSet: default/api, replicas: ${replicas}}`),
);

async function main(): Promise<void> {
  const held: number[] = [];
  let last = performance.now();
  const started = last;
  const token = { isCancellationRequested: false };
  const o = openScenario(file, '');
  const session = new Session({
    make: o.make,
    options: o.options,
    settings: { collapseNoise: true, playSpeed: 2 },
    post: () => {},
    yieldNow: () =>
      new Promise((r) =>
        setTimeout(() => {
          const now = performance.now();
          if (now - started > seconds * 1000) token.isCancellationRequested = true;
          last = now;
          r();
        }, 0),
      ),
  });
  session.slices.begin(token);
  const first = performance.now();
  session.runUntil('10m');
  held.push(performance.now() - first);
  const r = await session.finishLong(token, () => held.push(performance.now() - last));
  session.slices.end();
  held.sort((a, b) => a - b);
  const q = (p: number) => held[Math.min(held.length - 1, Math.floor(p * held.length))].toFixed(0);
  process.stdout.write(
    `scale to ${replicas}: ${held.length} slices in ${((performance.now() - started) / 1000).toFixed(1)} s, ` +
      `simulated up to ${session.sim.now - session.sim.startTime} µs after the start, ${session.sim.trace.length} decisions; ` +
      `host held median ${q(0.5)} ms, p99 ${q(0.99)} ms, longest ${held[held.length - 1].toFixed(0)} ms; ${r.ok ? 'finished' : r.message}\n`,
  );
}
void main();
