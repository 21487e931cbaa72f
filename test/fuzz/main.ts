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
import { makeCase, type FuzzCase } from './cases';
import { minimise } from './minimise';
import { Pool, type Outcome } from './pool';

interface Args {
  seed: number;
  count: number;
  ids?: number[];
  seconds: number;
  role?: 'A' | 'B';
  write: boolean;
  corpus: string;
  heapMb: number;
}

function parseArgs(argv: string[]): Args {
  const a: Args = { seed: 1, count: 200, seconds: 10, write: true, corpus: join(__dirname, '..', 'fuzz-corpus'), heapMb: 768 };
  for (let i = 0; i < argv.length; i++) {
    const [k, inline] = argv[i].split('=', 2);
    const v = () => inline ?? argv[++i];
    switch (k) {
      case '--seed':
        a.seed = Number(v());
        break;
      case '--count':
        a.count = Number(v());
        break;
      case '--ids':
        a.ids = v().split(',').map(Number);
        break;
      case '--seconds':
        a.seconds = Number(v());
        break;
      case '--role':
        a.role = v() as 'A' | 'B';
        break;
      case '--no-write':
        a.write = false;
        break;
      case '--corpus':
        a.corpus = v();
        break;
      case '--heap-mb':
        a.heapMb = Number(v());
        break;
      default:
        throw new Error(`unknown argument ${argv[i]} (use --seed S (--count N | --ids I,J,...) --seconds T [--no-write])`);
    }
  }
  for (const [k, n] of [
    ['seed', a.seed],
    ['count', a.count],
    ['seconds', a.seconds],
  ] as const)
    if (!Number.isFinite(n) || n < 0) throw new Error(`--${k} wants a number`);
  if (a.ids?.some((n) => !Number.isInteger(n) || n < 0)) throw new Error('--ids wants case numbers separated by commas (as the report prints them)');
  return a;
}

/** The cases to run: the ids given, else 0 … count-1. */
function caseIds(a: Args): number[] {
  return a.ids ?? Array.from({ length: a.count }, (_, i) => i);
}

/** A child process: runs every case, one JSON line per result on stdout. */
async function runRole(a: Args): Promise<void> {
  const pool = new Pool({ seconds: a.seconds, heapMb: a.heapMb, stackMb: a.role === 'A' ? 4 : 2 });
  for (const id of caseIds(a)) {
    const o = await pool.run({ seed: a.seed, id }, id);
    process.stdout.write(`${JSON.stringify(o)}\n`);
  }
  await pool.close();
}

function child(a: Args, role: 'A' | 'B', onResult: (o: Outcome) => void): Promise<void> {
  const args = [
    '--import',
    'tsx',
    join(__dirname, 'main.ts'),
    '--role',
    role,
    '--seed',
    String(a.seed),
    '--count',
    String(a.count),
    ...(a.ids ? ['--ids', a.ids.join(',')] : []),
    '--seconds',
    String(a.seconds),
    '--heap-mb',
    String(a.heapMb),
  ];
  const p = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  createInterface({ input: p.stdout! }).on('line', (line) => {
    if (line.startsWith('{')) onResult(JSON.parse(line) as Outcome);
  });
  return new Promise((resolve, reject) => p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`fuzz process ${role} exited with ${code}`)))));
}

/** Reproducers minimised and written by one run, at most (each may take minutes). */
const MAX_REPRODUCERS = 20;

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

async function main(): Promise<number> {
  const a = parseArgs(process.argv.slice(2));
  if (a.role) {
    await runRole(a);
    return 0;
  }
  const started = Date.now();
  const ids = caseIds(a);
  const results: Record<'A' | 'B', Map<number, Outcome>> = { A: new Map(), B: new Map() };
  let reported = 0;
  const progress = () => {
    const n = Math.min(results.A.size, results.B.size);
    // a terminal sees the count redrawn; a log gets a line every 500 cases (a long run is otherwise silent for an hour)
    if (process.stderr.isTTY && n - reported >= 50) {
      reported = n;
      process.stderr.write(`\rfuzz: ${n}/${ids.length} cases`);
    } else if (!process.stderr.isTTY && n - reported >= 500) {
      reported = n;
      process.stderr.write(`fuzz: ${n}/${ids.length} cases, ${((Date.now() - started) / 1000).toFixed(0)}s\n`);
    }
  };
  // a finding is said as soon as both processes have run its case: a long run stopped early still tells what it found
  const early = (id: number) => {
    const x = results.A.get(id),
      y = results.B.get(id);
    if (!x || !y) return;
    const k = classify(x, y);
    if (k !== 'clean') process.stderr.write(`fuzz: case ${id} ${k}\n`);
  };
  await Promise.all(
    (['A', 'B'] as const).map((role) =>
      child(a, role, (o) => {
        results[role].set(o.id, o);
        early(o.id);
        progress();
      }),
    ),
  );
  if (process.stderr.isTTY) process.stderr.write('\n');
  const counts: Record<Klass, number> = { clean: 0, crash: 0, hang: 0, memory: 0, nondeterministic: 0, 'step-back': 0, invariant: 0 };
  const failing: { id: number; klass: Klass; detail: string }[] = [];
  let refused = 0,
    ran = 0,
    decisions = 0;
  for (const id of ids) {
    const x = results.A.get(id),
      y = results.B.get(id);
    if (!x) {
      counts.crash++;
      failing.push({ id, klass: 'crash', detail: 'no result' });
      continue;
    }
    const k = classify(x, y);
    counts[k]++;
    if (x.outcome === 'refused') refused++;
    if (x.outcome === 'ran') {
      ran++;
      decisions += x.decisions;
    }
    if (k !== 'clean')
      failing.push({
        id,
        klass: k,
        detail: [x, y]
          .map((o) => (o && 'error' in o && o.error) || (o && 'violations' in o && o.violations[0]) || '')
          .filter(Boolean)
          .join(' / ')
          .slice(0, 300),
      });
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  process.stdout.write(`fuzz seed ${a.seed}: ${ids.length} cases in ${seconds}s (each run in two processes, ${a.seconds}s limit per run)\n`);
  process.stdout.write(`  clean ${counts.clean} (ran ${ran} with ${decisions} decisions, refused with problems as data ${refused})\n`);
  for (const k of ['crash', 'hang', 'memory', 'nondeterministic', 'step-back', 'invariant'] as const) process.stdout.write(`  ${k} ${counts[k]}\n`);
  // every finding is listed before any is minimised: the list is the run's result, the reproducers come after
  const cases = new Map<number, FuzzCase>();
  for (const f of failing) {
    let recipe: string;
    try {
      const c = makeCase(a.seed, f.id);
      cases.set(f.id, c);
      recipe = c.recipe.join(' | ').slice(0, 200);
    } catch (e) {
      recipe = `(the generator failed: ${e instanceof Error ? e.message : String(e)})`;
    }
    process.stdout.write(`  case ${f.id} ${f.klass}: ${recipe}${f.detail ? ` -> ${f.detail}` : ''}\n`);
  }
  if (failing.length && a.write) {
    const pool = new Pool({ seconds: a.seconds, heapMb: a.heapMb, stackMb: 4 });
    for (const f of failing.slice(0, MAX_REPRODUCERS)) {
      const c = cases.get(f.id);
      if (!c) continue;
      const small =
        f.klass === 'nondeterministic'
          ? c
          : await minimise(c, async (k) => classify(await pool.run({ case: k }, k.id), undefined) === f.klass, {
              tries: 40,
              millis: Math.max(120_000, 6_000 * a.seconds),
            });
      mkdirSync(a.corpus, { recursive: true });
      const file = join(a.corpus, `${f.klass}-seed${a.seed}-case${f.id}.json`);
      writeFileSync(
        file,
        `${JSON.stringify({ class: f.klass, seed: a.seed, id: f.id, recipe: c.recipe, entry: small.entry, horizonSeconds: small.horizonSeconds, files: small.files }, null, 1)}\n`,
      );
      process.stdout.write(`  case ${f.id}: reproducer ${file}\n`);
    }
    await pool.close();
  }
  return failing.length ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e) => {
    process.stderr.write(`fuzz: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 2;
  },
);
