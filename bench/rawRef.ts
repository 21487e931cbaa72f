/**
 * Issue 16's ceiling for a `raw` kept as text or as a file reference (bench/rawRefProto.ts), against
 * the bench's own `fullParse` (the baseline of the ≤ 1.5× target), today's `fullLoad` and the lean
 * file's `load` (the baseline of the memory target), in rounds whose order rotates and reverses, one
 * child process per measurement under the bench lock (taken per child):
 *
 *   node --import tsx bench/rawRef.ts --inputs DIR [--rounds 3] [--modes offset,bytes,...] [--no-load]
 *
 * DIR is what `npm run bench -- --full-detail --keep` leaves. Printed per child: CPU (user + system,
 * all threads), wall, peak RSS above the process's start; per round, each ÷ fullParse of that round
 * (time) and ÷ the lean load (memory); then the medians.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { timedRunner } from './benchLock';
import { median } from './median';
import { RAW_MODES } from './rawRefProto';
import { arg, bundleChild, runMain } from './cli';

const root = resolve(__dirname, '..');

type Row = { cpu: number; wall: number; rss: number; load: number; extra: string };

async function main(): Promise<number> {
  const inputs = arg('--inputs');
  if (!inputs) {
    process.stderr.write('usage: node --import tsx bench/rawRef.ts --inputs DIR [--rounds N] [--modes a,b] [--no-load]\n');
    return 2;
  }
  const rounds = Number(arg('--rounds', '3'));
  const modes = (arg('--modes') ?? RAW_MODES.join(',')).split(',');
  const dir = join(tmpdir(), `controller-stepper-rawref-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const entry = join(dir, 'child.js');
  await bundleChild(root, join('bench', 'child.ts'), entry);
  const base = {
    snapshot: join(inputs, 'cluster.json'),
    scenario: join(inputs, 'outage.yaml'),
    healthy: join(inputs, 'healthy.yaml'),
    durationS: 3600,
    steps: 10,
    backPasses: 100,
    full: {
      json: join(inputs, 'cluster-full.json'),
      lengths: join(inputs, 'cluster-full.lengths.json'),
      headChars: '{\n    "apiVersion": "v1",\n    "items": [\n'.length,
    },
  };
  const jobs: { name: string; task: string; args: object }[] = [
    { name: 'fullParse', task: 'fullParse', args: base },
    ...(process.argv.includes('--no-load') ? [] : [{ name: 'fullLoad', task: 'fullLoad', args: base }]),
    { name: 'load(lean)', task: 'load', args: base },
    ...modes.map((m) => ({ name: `raw=${m}`, task: 'fullRaw', args: { ...base, rawMode: m } })),
  ];
  const runner = timedRunner(!process.argv.includes('--no-lock'));
  process.stdout.write(`bench lock: ${runner.locked ? 'taken per child' : runner.heldAlready ? 'held by this run already' : 'not taken'}\n`);
  const got = new Map<string, Row[]>(jobs.map((j) => [j.name, []]));
  for (let r = 0; r < rounds; r++) {
    const order = jobs.map((_, i) => jobs[(i + r) % jobs.length]);
    if (r % 2 === 1) order.reverse();
    for (const j of order) {
      const res = runner.run([
        process.execPath,
        '--expose-gc',
        '--max-old-space-size=16384',
        '--max-semi-space-size=64',
        entry,
        j.task,
        JSON.stringify(j.args),
      ]);
      const line = res.stdout.trim().split('\n').pop() ?? '';
      if (!line) throw new Error(`${j.name}: no report (exit ${res.status}): ${res.stderr}`);
      const o = JSON.parse(line) as Record<string, number> & { ok: boolean; error?: string };
      if (!o.ok) throw new Error(`${j.name}: ${o.error}`);
      const cpu = o.parseCpuMs ?? o.loadCpuMs ?? o.protoCpuMs;
      const wall = o.parseMs ?? o.loadMs ?? o.protoMs;
      const extra =
        o.protoMs !== undefined
          ? `, ${o.records} records, kept ${(o.keptBytes / 2 ** 20).toFixed(0)} MiB of text, heap kept ${(o.heapUsed / 2 ** 20).toFixed(0)} MiB, reading every raw back ${o.readBackCpuMs.toFixed(0)} ms CPU`
          : o.heapUsed !== undefined
            ? `, heap kept ${(o.heapUsed / 2 ** 20).toFixed(0)} MiB`
            : '';
      const row = { cpu, wall, rss: o.peakRss - o.baseRss, load: loadavg()[0], extra };
      got.get(j.name)!.push(row);
      process.stdout.write(
        `round ${r + 1} ${j.name}: CPU ${cpu.toFixed(0)} ms, wall ${wall.toFixed(0)} ms, peak RSS above start ${(row.rss / 2 ** 20).toFixed(0)} MiB${extra} (load average ${row.load.toFixed(1)})\n`,
      );
    }
  }
  const parse = got.get('fullParse')!;
  const lean = got.get('load(lean)')!;
  process.stdout.write('\nmedians of the per-round ratios (÷ fullParse of the round by CPU and wall; peak RSS ÷ the lean load of the round):\n');
  for (const j of jobs) {
    const rows = got.get(j.name)!;
    const cpu = median(rows.map((x, i) => x.cpu / parse[i].cpu));
    const wall = median(rows.map((x, i) => x.wall / parse[i].wall));
    const mem = median(rows.map((x, i) => x.rss / lean[i].rss));
    const cpuMedian = median(rows.map((x) => x.cpu));
    // the rounds' baselines move with the machine's load: the ratio of the medians beside the median of the ratios
    const ofMedians = cpuMedian / median(parse.map((x) => x.cpu));
    process.stdout.write(
      `  ${j.name.padEnd(12)} CPU ${cpuMedian.toFixed(0)} ms (${cpu.toFixed(2)}x; of the medians ${ofMedians.toFixed(2)}x), wall ${median(rows.map((x) => x.wall)).toFixed(0)} ms (${wall.toFixed(2)}x), peak RSS ${(median(rows.map((x) => x.rss)) / 2 ** 20).toFixed(0)} MiB (${mem.toFixed(2)}x); load ${Math.min(...rows.map((x) => x.load)).toFixed(1)}–${Math.max(...rows.map((x) => x.load)).toFixed(1)}\n`,
    );
  }
  return 0;
}

runMain(main);
