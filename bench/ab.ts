/**
 * An A/B comparison of one bench measurement between two checkouts, in interleaved pairs whose
 * order alternates (A B, B A, A B, …), so that a machine whose load swings (other processes) and
 * the page cache the first of a pair warms weigh on both sides alike:
 *
 *   node --import tsx bench/ab.ts --ref ../wt-ref --inputs DIR [--task simulate|goback|steady|load|fullLoad|fullParse|yamlLoad] [--pairs 5]
 *        [--a-flags "--max-semi-space-size=64"] [--b-flags "..."] [--yaml FILE] [--v8-defaults] [--no-lock] [--no-parse] [--gc]
 *
 * A is the checkout given by --ref, B this one; each is bundled as bench/run.ts bundles the
 * child (bench/child.ts), and run on the same inputs: DIR holds cluster.json, outage.yaml and
 * healthy.yaml (`npm run bench -- --keep` leaves them), and for fullLoad and fullParse the full-detail
 * export and its lengths (`--full-detail --keep`: cluster-full.json, cluster-full.lengths.json), for yamlLoad the YAML export
 * (cluster-full.yaml, or --yaml FILE: any YAML snapshot the loader reads without a problem). --a-flags and --b-flags are extra node
 * options for that side's child (e.g. to measure a V8 flag on one checkout against itself), after the
 * command line's own (bin/node-options.json, which both sides take, as bench/run.ts's children do;
 * --v8-defaults: none, as the extension host runs the engine).
 * Printed: each pair's CPU time (user + system, all threads) and second figure (for simulate the
 * main thread's CPU time, which an idle machine's wall time would be; else wall time) of the
 * task's timed part and B ÷ A, then the medians: CPU times are the figures to judge by on a busy machine.
 * `load` (the lean List of DIR/cluster.json given to loadSnapshot as text) also runs one `parse` child
 * per pair, after its two sides (JSON.parse of the same text: the same on both sides, so once a pair),
 * and prints each side's load ÷ that parse, the issue-18 ratio `npm run bench` reports; --no-parse
 * leaves it out. Beside CPU and wall, `load` prints the main thread's CPU time. --gc runs every child
 * with --trace-gc and prints the mark-compacts and scavenges of its timed part (bench/gcTrace.ts).
 * Each child runs under the bench lock, taken here per child (bench/benchLock.ts) unless this run
 * holds it already (`flock /tmp/cs-bench.lock node … ab.ts` still works); `--no-lock` runs them without.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pairOrder, timedRunner } from './benchLock';
import { median } from './median';
import { arg, bundleChild, childNodeOptions, runMain } from './cli';
import { describeGc, gcInTimedPart } from './gcTrace';

const root = resolve(__dirname, '..');

const bundle = (checkout: string, out: string): Promise<string> => bundleChild(checkout, join('bench', 'child.ts'), out);

/** the timed figures of each task: [CPU ms, wall ms] */
const FIGURES: Record<string, (o: Record<string, number>) => [number, number]> = {
  simulate: (o) => [o.runCpuMs, o.runMainCpuMs ?? o.runMs],
  goback: (o) => [o.backCpuMs ?? Number.NaN, o.backMs],
  steady: (o) => [Number.NaN, o.passMs],
  load: (o) => [o.loadCpuMs, o.loadMs],
  fullLoad: (o) => [o.loadCpuMs, o.loadMs],
  fullParse: (o) => [o.parseCpuMs, o.parseMs],
  yamlLoad: (o) => [o.loadCpuMs, o.loadMs],
};

async function main(): Promise<number> {
  const ref = arg('--ref');
  const inputs = arg('--inputs');
  if (!ref || !inputs) {
    process.stderr.write(
      'usage: node --import tsx bench/ab.ts --ref CHECKOUT --inputs DIR [--task simulate|goback|steady|load|fullLoad|fullParse|yamlLoad] [--pairs N] [--a-flags S] [--b-flags S] [--yaml FILE] [--no-lock] [--no-parse] [--gc]\n',
    );
    return 2;
  }
  const task = arg('--task', 'simulate')!;
  const pairs = Number(arg('--pairs', '5'));
  const flags = (s: string | undefined) => (s ? s.split(' ').filter(Boolean) : []);
  const dir = join(tmpdir(), `controller-stepper-ab-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  // the two bundles are this run's alone: gone with it, however it ends
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  const gcTrace = process.argv.includes('--gc');
  const baseOptions = [...(process.argv.includes('--v8-defaults') ? [] : childNodeOptions()), ...(gcTrace ? ['--trace-gc'] : [])];
  const sides = [
    { name: 'A', entry: await bundle(resolve(ref), join(dir, 'a.js')), flags: flags(arg('--a-flags')) },
    { name: 'B', entry: await bundle(root, join(dir, 'b.js')), flags: flags(arg('--b-flags')) },
  ];
  const args = JSON.stringify({
    snapshot: join(inputs, 'cluster.json'),
    scenario: join(inputs, 'outage.yaml'),
    healthy: join(inputs, 'healthy.yaml'),
    durationS: Number(arg('--duration', '3600')),
    steps: 10,
    backPasses: 100,
    full: {
      json: join(inputs, 'cluster-full.json'),
      lengths: join(inputs, 'cluster-full.lengths.json'),
      headChars: '{\n    "apiVersion": "v1",\n    "items": [\n'.length,
      yaml: resolve(arg('--yaml', join(inputs, 'cluster-full.yaml'))!),
    },
  });
  const figure = FIGURES[task];
  const runner = timedRunner(!process.argv.includes('--no-lock'));
  process.stdout.write(
    `bench lock: ${runner.locked ? 'taken per child' : runner.heldAlready ? 'held by this run already' : 'not taken'}; pairs alternate A B, B A\n`,
  );
  const withParse = task === 'load' && !process.argv.includes('--no-parse');
  const rows: { a: [number, number]; b: [number, number]; load: number; parseMs?: number; main?: [number, number] }[] = [];
  for (let i = 0; i < pairs; i++) {
    const got: [number, number][] = [];
    const main: [number, number] = [Number.NaN, Number.NaN];
    const loads: number[] = [];
    const order = pairOrder(i);
    for (const side of order) {
      const s = sides[side];
      const r = runner.run([process.execPath, '--expose-gc', '--max-old-space-size=16384', ...baseOptions, ...s.flags, s.entry, task, args]);
      loads.push(loadavg()[0]);
      const line = r.stdout.trim().split('\n').pop() ?? '';
      if (!line) throw new Error(`${s.name}: no report (exit ${r.status}): ${r.stderr}`);
      const out = JSON.parse(line) as Record<string, number> & { ok: boolean; error?: string; decisions?: number };
      if (!out.ok) throw new Error(`${s.name}: ${out.error}`);
      got[side] = figure(out);
      if (task === 'load') main[side] = out.loadMainCpuMs ?? Number.NaN;
      if (task === 'goback')
        process.stdout.write(`pair ${i + 1} ${s.name}: CPU ms: far step back ${out.farBackCpuMs?.toFixed(0)}, one back ${out.oneBackCpuMs?.toFixed(0)}\n`);
      process.stdout.write(
        `pair ${i + 1} ${s.name}: CPU ${got[side][0].toFixed(0)} ms, ${task === 'simulate' ? 'main thread' : 'wall'} ${got[side][1].toFixed(0)} ms${task === 'load' ? `, main thread ${main[side].toFixed(0)} ms` : ''}${task === 'simulate' && out.createMs !== undefined ? `, createSimulation ${out.createMs.toFixed(0)} ms wall` : ''}${out.decisions !== undefined ? `, ${out.decisions} decisions` : ''}${out.peakRss !== undefined ? `, peak RSS ${(out.peakRss / 2 ** 20).toFixed(0)} MiB` : ''}${gcTrace ? `; ${describeGc(gcInTimedPart(r.stdout))}` : ''} (load average ${loads[loads.length - 1].toFixed(1)})\n`,
      );
    }
    let parseMs: number | undefined;
    if (withParse) {
      // the baseline does not depend on the checkout: A's bundle runs it
      const r = runner.run([process.execPath, '--expose-gc', '--max-old-space-size=16384', ...baseOptions, sides[0].entry, 'parse', args]);
      loads.push(loadavg()[0]);
      const out = JSON.parse(r.stdout.trim().split('\n').pop() || '{}') as {
        ok?: boolean;
        error?: string;
        parseMs: number;
        parseCpuMs: number;
        parseMainCpuMs?: number;
      };
      if (!out.ok) throw new Error(`parse: ${out.error ?? `no report (exit ${r.status}): ${r.stderr}`}`);
      parseMs = out.parseMs;
      process.stdout.write(
        `pair ${i + 1} parse: CPU ${out.parseCpuMs.toFixed(0)} ms, wall ${parseMs.toFixed(0)} ms, main thread ${(out.parseMainCpuMs ?? Number.NaN).toFixed(0)} ms${gcTrace ? `; ${describeGc(gcInTimedPart(r.stdout))}` : ''}; load ÷ parse (wall): A ${(got[0][1] / parseMs).toFixed(3)}, B ${(got[1][1] / parseMs).toFixed(3)} (load average ${loads[loads.length - 1].toFixed(1)})\n`,
      );
    }
    const load = Math.max(...loads);
    rows.push({ a: got[0], b: got[1], load, parseMs, main });
    process.stdout.write(
      `pair ${i + 1} (${order.map((k) => sides[k].name).join(' ')}): B ÷ A CPU ${(got[1][0] / got[0][0]).toFixed(3)}, ${task === 'simulate' ? 'main thread' : 'wall'} ${(got[1][1] / got[0][1]).toFixed(3)} (load average ${load.toFixed(1)})\n`,
    );
  }
  const cpu = median(rows.map((r) => r.b[0] / r.a[0])),
    wall = median(rows.map((r) => r.b[1] / r.a[1]));
  process.stdout.write(
    `\n${task}, ${pairs} pairs: A CPU median ${median(rows.map((r) => r.a[0])).toFixed(0)} ms, B ${median(rows.map((r) => r.b[0])).toFixed(0)} ms; ` +
      `median of B ÷ A per pair: CPU ${cpu.toFixed(3)}, ${task === 'simulate' ? 'main thread' : 'wall'} ${wall.toFixed(3)}; load average ${Math.min(...rows.map((r) => r.load)).toFixed(1)}–${Math.max(...rows.map((r) => r.load)).toFixed(1)}\n`,
  );
  if (task === 'load')
    process.stdout.write(
      `main thread CPU: A median ${median(rows.map((r) => r.main![0])).toFixed(0)} ms, B ${median(rows.map((r) => r.main![1])).toFixed(0)} ms; median of B ÷ A per pair ${median(rows.map((r) => r.main![1] / r.main![0])).toFixed(3)}\n`,
    );
  if (withParse)
    process.stdout.write(
      `load ÷ parse (wall), median of the pairs: A ${median(rows.map((r) => r.a[1] / r.parseMs!)).toFixed(3)}, B ${median(rows.map((r) => r.b[1] / r.parseMs!)).toFixed(3)}\n`,
    );
  return 0;
}

runMain(main);
