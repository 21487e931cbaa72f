/**
 * Where the time goes: runs one bench measurement (bench/child.ts) under
 * V8's CPU profiler and prints the functions with the most self time, and
 * the source files they live in.
 *
 *   node --import tsx bench/profile.ts TASK [--nodes N] [--pods-per-node N] [--top N] [--inputs DIR] [--node-flags S]
 *
 * TASK is one of bench/child.ts's: parse, load, simulate, steady, goback.
 * The .cpuprofile is kept (its path is printed) for Chrome DevTools or VS Code. --inputs DIR
 * profiles the cluster and scenarios in DIR (what `npm run bench -- --keep` leaves) instead of
 * generating them; --node-flags adds node options to the child (e.g. --max-semi-space-size=64).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { generateClusterStream, listChunks, renderObject } from '../src/engine/generate/index';

const root = resolve(__dirname, '..');

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

function main(): number {
  const argv = process.argv.slice(2);
  const task = argv[0];
  const opt = (name: string, def: number) => {
    const i = argv.indexOf(name);
    return i >= 0 ? Number(argv[i + 1]) : def;
  };
  if (!task || task.startsWith('--')) {
    process.stderr.write('usage: node --import tsx bench/profile.ts parse|load|simulate|steady|goback [--nodes N] [--pods-per-node N] [--top N]\n');
    return 2;
  }
  const nodes = opt('--nodes', 500),
    podsPerNode = opt('--pods-per-node', 30),
    top = opt('--top', 30);
  const inputsAt = argv.indexOf('--inputs');
  const flagsAt = argv.indexOf('--node-flags');
  const nodeFlags = flagsAt >= 0 ? argv[flagsAt + 1].split(' ').filter(Boolean) : [];
  const dir = inputsAt >= 0 ? resolve(argv[inputsAt + 1]) : join(tmpdir(), 'controller-stepper-profile', `${nodes}x${podsPerNode}`);
  if (inputsAt < 0) {
    mkdirSync(dir, { recursive: true });
    const stream = generateClusterStream({
      nodes,
      podsPerNode,
      zones: 3,
      detail: 'lean',
      timeline: { name: 'profile-zone-outage', zoneOutage: { zone: 1, at: '60s', recoverAt: '30m' } },
    });
    let text = '';
    for (const chunk of listChunks(stream.items, 'json', 0)) text += chunk;
    writeFileSync(join(dir, 'cluster.json'), text);
    writeFileSync(join(dir, 'outage.yaml'), renderObject(stream.scenario!, 'yaml'));
    writeFileSync(join(dir, 'healthy.yaml'), renderObject({ ...stream.scenario!, events: [] }, 'yaml'));
  }
  const profDir = join(dir, `prof-${task}-${Date.now()}`);
  const args = {
    snapshot: join(dir, 'cluster.json'),
    scenario: join(dir, 'outage.yaml'),
    healthy: join(dir, 'healthy.yaml'),
    durationS: 3600,
    steps: 10,
    backPasses: 100,
  };
  const r = spawnSync(
    process.execPath,
    [
      '--expose-gc',
      '--max-old-space-size=16384',
      ...nodeFlags,
      '--cpu-prof',
      `--cpu-prof-dir=${profDir}`,
      '--import',
      'tsx',
      join(root, 'bench', 'child.ts'),
      task,
      JSON.stringify(args),
    ],
    { cwd: root, encoding: 'utf8' },
  );
  process.stdout.write(
    r.stdout
      .split('\n')
      .map((l) => (l.length > 600 ? `${l.slice(0, 600)}...` : l))
      .join('\n'),
  );
  if (r.status !== 0) process.stderr.write(r.stderr);
  const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) return 1;
  const profile = JSON.parse(readFileSync(join(profDir, file), 'utf8')) as { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] };
  // A measurement that reports its timed window (e.g. simulate's runUntil) is profiled
  // over that window only, so loading and start-up do not drown it.
  const reported = (() => {
    try {
      return JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as { window?: [number, number] };
    } catch {
      return {};
    }
  })();
  const [from, to] = reported.window ?? [-Infinity, Infinity];
  const byNode = new Map<number, number>();
  let at = profile.startTime,
    total = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    at += dt;
    if (at < from || at > to) return;
    total += dt;
    byNode.set(id, (byNode.get(id) ?? 0) + dt);
  });
  // Inclusive time: a function's own samples plus its callees' (counted once per stack).
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const nodeById = new Map(profile.nodes.map((n) => [n.id, n]));
  const keyOf = (n: ProfileNode): string => {
    const url = n.callFrame.url.replace(/^file:\/\//, '');
    return `${n.callFrame.functionName || '(anonymous)'}  ${url ? relative(root, url) : '(native)'}`;
  };
  const inclusive = new Map<string, number>();
  for (const [id, t] of byNode) {
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const k = keyOf(nodeById.get(n)!);
      if (seen.has(k)) continue;
      seen.add(k);
      inclusive.set(k, (inclusive.get(k) ?? 0) + t);
    }
  }
  const self = new Map<string, number>();
  const perFile = new Map<string, number>();
  for (const n of profile.nodes) {
    const t = byNode.get(n.id) ?? 0;
    if (!t) continue;
    const url = n.callFrame.url.replace(/^file:\/\//, '');
    const where = url ? `${relative(root, url)}:${n.callFrame.lineNumber + 1}` : '(native)';
    const key = `${n.callFrame.functionName || '(anonymous)'}  ${where}`;
    self.set(key, (self.get(key) ?? 0) + t);
    const f = url ? relative(root, url) : `(${n.callFrame.functionName || 'native'})`;
    perFile.set(f, (perFile.get(f) ?? 0) + t);
  }
  const print = (title: string, m: Map<string, number>) => {
    process.stdout.write(`\n${title}\n`);
    for (const [k, t] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      process.stdout.write(`${(t / 1000).toFixed(0).padStart(8)} ms ${((100 * t) / total).toFixed(1).padStart(5)}%  ${k}\n`);
    }
  };
  const scope = reported.window ? "the measurement's timed window only" : 'all of the child process incl. startup';
  print(`self time by function (total ${(total / 1e6).toFixed(2)} s, ${scope})`, self);
  print('inclusive time by function (self + callees)', inclusive);
  print('self time by file', perFile);
  process.stdout.write(`\nprofile: ${join(profDir, file)}\n`);
  return 0;
}

process.exitCode = main();
