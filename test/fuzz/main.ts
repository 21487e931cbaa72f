/**
 * `npm run fuzz -- --seed S --count N --seconds T`: generates N cases from seed S, runs each in
 * two processes (each in a worker thread with a T-second limit and a heap limit, with different
 * stack sizes, so a result that depends on where a stack overflows shows), and classifies them:
 * clean (ran, or refused with problems as data), crash, hang, runaway memory, nondeterministic
 * (the two processes' hashes of problems, trace and state differ), step-back mismatch, and
 * invariant (checking mode). Reproducers are minimised and written to test/fuzz-corpus/
 * (unless --no-write); the exit code is 1 when anything but clean was found.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parse, stringify } from 'yaml';
import { makeCase, type FuzzCase } from './cases';
import { Pool, type Outcome } from './pool';

interface Args { seed: number; count: number; seconds: number; role?: 'A' | 'B'; write: boolean; corpus: string; heapMb: number }

function parseArgs(argv: string[]): Args {
  const a: Args = { seed: 1, count: 200, seconds: 10, write: true, corpus: join(__dirname, '..', 'fuzz-corpus'), heapMb: 768 };
  for (let i = 0; i < argv.length; i++) {
    const [k, inline] = argv[i].split('=', 2);
    const v = () => inline ?? argv[++i];
    switch (k) {
      case '--seed': a.seed = Number(v()); break;
      case '--count': a.count = Number(v()); break;
      case '--seconds': a.seconds = Number(v()); break;
      case '--role': a.role = v() as 'A' | 'B'; break;
      case '--no-write': a.write = false; break;
      case '--corpus': a.corpus = v(); break;
      case '--heap-mb': a.heapMb = Number(v()); break;
      default: throw new Error(`unknown argument ${argv[i]} (use --seed S --count N --seconds T [--no-write])`);
    }
  }
  for (const [k, n] of [['seed', a.seed], ['count', a.count], ['seconds', a.seconds]] as const) if (!Number.isFinite(n) || n < 0) throw new Error(`--${k} wants a number`);
  return a;
}

/** A child process: runs every case, one JSON line per result on stdout. */
async function runRole(a: Args): Promise<void> {
  const pool = new Pool({ seconds: a.seconds, heapMb: a.heapMb, stackMb: a.role === 'A' ? 4 : 2 });
  for (let id = 0; id < a.count; id++) {
    const o = await pool.run({ seed: a.seed, id }, id);
    process.stdout.write(`${JSON.stringify(o)}\n`);
  }
  await pool.close();
}

function child(a: Args, role: 'A' | 'B', onResult: (o: Outcome) => void): Promise<void> {
  const args = ['--import', 'tsx', join(__dirname, 'main.ts'), '--role', role, '--seed', String(a.seed), '--count', String(a.count), '--seconds', String(a.seconds), '--heap-mb', String(a.heapMb)];
  const p = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  createInterface({ input: p.stdout! }).on('line', (line) => { if (line.startsWith('{')) onResult(JSON.parse(line) as Outcome); });
  return new Promise((resolve, reject) => p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`fuzz process ${role} exited with ${code}`)))));
}

type Klass = 'clean' | 'crash' | 'hang' | 'memory' | 'nondeterministic' | 'step-back' | 'invariant';

function classify(x: Outcome, y: Outcome | undefined): Klass {
  for (const o of [x, y]) {
    if (!o) continue;
    if (o.outcome === 'crash') return 'crash';
    if (o.outcome === 'hang') return 'hang';
    if (o.outcome === 'memory') return 'memory';
  }
  if (y && 'hash' in x && 'hash' in y && x.hash !== y.hash) return 'nondeterministic';
  for (const o of [x, y]) {
    if (o && 'stepBack' in o && o.stepBack === 'mismatch') return 'step-back';
    if (o && 'violations' in o && o.violations.length) return 'invariant';
  }
  return 'clean';
}

/** Greedy reduction of a failing case: drop events, expectations, settings and halves of the text while it still fails the same way. */
async function minimise(c: FuzzCase, klass: Klass, pool: Pool, budget = 40): Promise<FuzzCase> {
  let best = c;
  let tries = 0;
  const fails = async (k: FuzzCase) => {
    tries++;
    return classify(await pool.run({ case: k }, k.id), undefined) === klass;
  };
  const withEntry = (k: FuzzCase, text: string): FuzzCase => ({ ...k, files: { ...k.files, [k.entry]: text } });
  // files the entry does not name are dropped first
  const named = Object.fromEntries(Object.entries(best.files).filter(([p]) => p === best.entry || best.files[best.entry].includes(p.replace('/case/', ''))));
  if (Object.keys(named).length < Object.keys(best.files).length && await fails({ ...best, files: named })) best = { ...best, files: named };
  let doc: Record<string, unknown> | undefined;
  try { doc = parse(best.files[best.entry]) as Record<string, unknown>; } catch { doc = undefined; }
  if (doc && typeof doc === 'object') {
    let current: Record<string, unknown> = doc;
    for (const key of ['events', 'expect'] as const) {
      const list = current[key];
      if (!Array.isArray(list)) continue;
      for (let i = list.length - 1; i >= 0 && tries < budget; i--) {
        const shorter: Record<string, unknown> = { ...current, [key]: list.filter((_, j) => j !== i) };
        const k = withEntry(best, stringify(shorter, { lineWidth: 0 }));
        if (await fails(k)) { best = k; current = shorter; list.splice(i, 1); }
      }
    }
  }
  // halves of lines of the biggest file
  for (let size = 2; tries < budget && size < 64; size *= 2) {
    const [path, text] = Object.entries(best.files).sort((x, y) => y[1].length - x[1].length)[0];
    const lines = text.split('\n');
    const chunk = Math.ceil(lines.length / size);
    if (chunk < 1) break;
    for (let s = 0; s < lines.length && tries < budget; s += chunk) {
      const k = { ...best, files: { ...best.files, [path]: [...lines.slice(0, s), ...lines.slice(s + chunk)].join('\n') } };
      if (await fails(k)) { best = k; break; }
    }
  }
  return best;
}

async function main(): Promise<number> {
  const a = parseArgs(process.argv.slice(2));
  if (a.role) { await runRole(a); return 0; }
  const started = Date.now();
  const results: Record<'A' | 'B', Map<number, Outcome>> = { A: new Map(), B: new Map() };
  let reported = 0;
  const progress = () => {
    const n = Math.min(results.A.size, results.B.size);
    if (process.stderr.isTTY && n - reported >= 50) { reported = n; process.stderr.write(`\rfuzz: ${n}/${a.count} cases`); }
  };
  await Promise.all((['A', 'B'] as const).map((role) => child(a, role, (o) => { results[role].set(o.id, o); progress(); })));
  if (process.stderr.isTTY) process.stderr.write('\n');
  const counts: Record<Klass, number> = { clean: 0, crash: 0, hang: 0, memory: 0, nondeterministic: 0, 'step-back': 0, invariant: 0 };
  const failing: { id: number; klass: Klass; detail: string }[] = [];
  let refused = 0, ran = 0, decisions = 0;
  for (let id = 0; id < a.count; id++) {
    const x = results.A.get(id), y = results.B.get(id);
    if (!x) { counts.crash++; failing.push({ id, klass: 'crash', detail: 'no result' }); continue; }
    const k = classify(x, y);
    counts[k]++;
    if (x.outcome === 'refused') refused++;
    if (x.outcome === 'ran') { ran++; decisions += x.decisions; }
    if (k !== 'clean') failing.push({ id, klass: k, detail: [x, y].map((o) => (o && 'error' in o && o.error) || (o && 'violations' in o && o.violations[0]) || '').filter(Boolean).join(' / ').slice(0, 300) });
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  process.stdout.write(`fuzz seed ${a.seed}: ${a.count} cases in ${seconds}s (each run in two processes, ${a.seconds}s limit per run)\n`);
  process.stdout.write(`  clean ${counts.clean} (ran ${ran} with ${decisions} decisions, refused with problems as data ${refused})\n`);
  for (const k of ['crash', 'hang', 'memory', 'nondeterministic', 'step-back', 'invariant'] as const) process.stdout.write(`  ${k} ${counts[k]}\n`);
  if (failing.length) {
    const pool = new Pool({ seconds: a.seconds, heapMb: a.heapMb, stackMb: 4 });
    for (const f of failing.slice(0, 20)) {
      const c = makeCase(a.seed, f.id);
      process.stdout.write(`  case ${f.id} ${f.klass}: ${c.recipe.join(' | ').slice(0, 200)}${f.detail ? ` -> ${f.detail}` : ''}\n`);
      if (!a.write) continue;
      const small = f.klass === 'nondeterministic' ? c : await minimise(c, f.klass, pool);
      mkdirSync(a.corpus, { recursive: true });
      const file = join(a.corpus, `${f.klass}-seed${a.seed}-case${f.id}.json`);
      writeFileSync(file, `${JSON.stringify({ class: f.klass, seed: a.seed, id: f.id, recipe: c.recipe, entry: small.entry, horizonSeconds: small.horizonSeconds, files: small.files }, null, 1)}\n`);
      process.stdout.write(`    reproducer: ${file}\n`);
    }
    await pool.close();
  }
  return failing.length ? 1 : 0;
}

main().then((code) => { process.exitCode = code; }, (e) => { process.stderr.write(`fuzz: ${e instanceof Error ? e.message : String(e)}\n`); process.exitCode = 2; });
