/**
 * `npm run bench [-- options]`: builds a big generated cluster into a temp
 * folder and measures the engine on it, each figure a median over several
 * runs, each measurement in a child process of its own (bench/child.ts), and
 * every figure that has a target as a ratio of two things measured in this
 * same run (so a faster or slower machine moves both sides).
 *
 * Options:
 *   --nodes N            nodes (default 5000)
 *   --pods-per-node N    pods per node, DaemonSet pods included (default 30)
 *   --zones N            zones (default 3); zone b fails at 60 s and recovers at 30 min
 *   --runs N             runs per measurement (default 3)
 *   --sim-runs N         runs of the simulation measurements (simulate, steady, goback; default --runs)
 *   --steps N            quiet passes and webview steps timed in one steady run (default 10)
 *   --quick              a small cluster (60 nodes x 10 pods), for CI: proves the bench works
 *   --seed S             generator seed (default 1)
 *   --kubernetes-version V  the version the cluster is generated as and the scenario runs
 *                        (default: the newest the engine models, or with --inputs the version of
 *                        DIR's outage.yaml; 1.12 runs the pod-eviction path)
 *   --detail lean|full   generator detail (default lean: a full 150,000-pod export does not fit in one JS string)
 *   --duration S         simulated seconds of the outage run (default 3600)
 *   --only a,b           only these measurements: load, simulate, steady, goback
 *   --timeout S          per child process (default 1800, quick 300)
 *   --keep               keep the generated files (printed)
 *   --inputs DIR         measure the files a --keep run left in DIR instead of generating them (DIR is
 *                        only read); with --full-detail, DIR's cluster-full.json and its lengths file,
 *                        and cluster-full.yaml if it is there (else the YAML load is left out)
 *   --report FILE        print the table of an earlier results file (bench/results/*.json) again
 *   --webview            the panel instead: click-to-paint of the real webview bundle in chromium, fed by the
 *                        real extension Session (bench/webview.ts); with --scenario FILE on an existing scenario
 *   --read-ms N          with --webview: the outage steps again, each clicked after N ms of reading (the host's
 *                        idle time: its preparation and run-ahead), reported beside the quick clicks
 *   --no-run-ahead       with --webview: the session without run-ahead (the setting off), for its memory
 *   --first-read-ms N    with --webview: the first step (pass 0) clicked N ms after the open's paint (default: at once)
 *   --no-ahead-at-open   with --webview: the open leaves the run-ahead's first pass to idle time (not made in slices after its messages)
 *   --full-detail        also the same cluster at full detail as kubectl prints it (-o json, 4-space
 *                        indent: about 1.3 GB) and as multi-document YAML, both loaded as streams;
 *                        adds several minutes (writing and reading 2 GB)
 *   --tsx                run the measurements on the TypeScript sources through tsx instead of
 *                        on the engine bundled by esbuild as the command line and extension ship it
 *   --semi-space MIB     the children's young generation (--max-semi-space-size; default 64, as
 *                        bin/controller-stepper.js starts the command line; 0: V8's defaults for every
 *                        option, as the extension host runs the engine). The children take the
 *                        command line's other V8 options (bin/node-options.json) too, unless 0, and
 *                        after a scenario's load its run options (src/cli/runOptions.ts)
 *
 * Exit code: 0 when every measurement ran (a missed target is printed, not an
 * error; a piece of the engine that does not exist yet is "not available yet"),
 * 1 when a measurement failed or timed out, 2 on bad options.
 */
import { spawn, execFileSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { cpus, freemem, loadavg, platform, arch, release, tmpdir, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { generateClusterStream, listChunks, renderObject, yamlDocumentChunks } from '../src/engine/generate/index';
import { MAX_MINOR, MIN_MINOR, parseKubeVersion } from '../src/engine/versions/table';
import { median } from './median';
import { childNodeOptions, runMain } from './cli';
import { RUN_OPTIONS } from '../src/cli/runOptions';
import { comparablePrevious, type PreviousRun } from './previousRun';

const root = resolve(__dirname, '..');

interface Options {
  nodes: number;
  podsPerNode: number;
  zones: number;
  runs: number;
  simRuns?: number;
  steps: number;
  quick: boolean;
  seed: string;
  /** "1.12".."1.35": what the generator writes and the scenarios run */
  kubernetesVersion: string;
  detail: 'lean' | 'full';
  durationS: number;
  only: Set<string>;
  timeoutS: number;
  keep: boolean;
  /** kept inputs to measure instead of generating them */
  inputsDir?: string;
  /** run the child on the sources through tsx instead of on an esbuild bundle */
  tsx: boolean;
  /** also measure the full-detail kubectl-indented export and the YAML stream (streamed loads) */
  fullDetail: boolean;
  /** re-print the table of a results file instead of measuring */
  report?: string;
  /** measure the webview's click-to-paint instead (bench/webviewRun.ts) */
  webview: boolean;
  /** with --webview: each outage step clicked again after this many ms of reading */
  readMs?: number;
  /** with --webview: the session without run-ahead */
  noRunAhead?: boolean;
  firstReadMs?: number;
  noAheadAtOpen?: boolean;
  /** with --webview: this scenario instead of a generated one */
  scenarioFile?: string;
  /** the children's --max-semi-space-size in MiB (0: V8's default) */
  semiSpaceMib: number;
}

const MEASUREMENTS = ['load', 'simulate', 'steady', 'goback'];

function parseArgs(argv: string[]): Options {
  const o: Options = {
    nodes: 5000,
    podsPerNode: 30,
    zones: 3,
    runs: 3,
    steps: 10,
    quick: false,
    seed: '1',
    kubernetesVersion: `1.${MAX_MINOR}`,
    detail: 'lean',
    durationS: 3600,
    only: new Set(MEASUREMENTS),
    timeoutS: 1800,
    keep: false,
    tsx: false,
    webview: false,
    fullDetail: false,
    semiSpaceMib: 64,
  };
  const given = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    const int = (min: number): number => {
      const v = Number(value());
      if (!Number.isInteger(v) || v < min) throw new Error(`${flag} must be a whole number >= ${min}`);
      return v;
    };
    given.add(flag);
    switch (flag) {
      case '--nodes':
        o.nodes = int(1);
        break;
      case '--pods-per-node':
        o.podsPerNode = int(1);
        break;
      case '--zones':
        o.zones = int(1);
        break;
      case '--runs':
        o.runs = int(1);
        break;
      case '--sim-runs':
        o.simRuns = int(1);
        break;
      case '--steps':
        o.steps = int(1);
        break;
      case '--seed':
        o.seed = value();
        break;
      case '--kubernetes-version': {
        const v = value();
        const parsed = parseKubeVersion(v);
        if (!parsed) throw new Error(`--kubernetes-version must be 1.${MIN_MINOR} to 1.${MAX_MINOR}, not ${v}`);
        o.kubernetesVersion = `1.${parsed.minor}`;
        break;
      }
      case '--duration':
        o.durationS = int(1);
        break;
      case '--timeout':
        o.timeoutS = int(1);
        break;
      case '--quick':
        o.quick = true;
        break;
      case '--keep':
        o.keep = true;
        break;
      case '--inputs':
        o.inputsDir = resolve(value());
        break;
      case '--tsx':
        o.tsx = true;
        break;
      case '--full-detail':
        o.fullDetail = true;
        break;
      case '--report':
        o.report = value();
        break;
      case '--webview':
        o.webview = true;
        break;
      case '--read-ms':
        o.readMs = int(0);
        break;
      case '--no-run-ahead':
        o.noRunAhead = true;
        break;
      case '--first-read-ms':
        o.firstReadMs = int(0);
        break;
      case '--no-ahead-at-open':
        o.noAheadAtOpen = true;
        break;
      case '--scenario':
        o.scenarioFile = resolve(value());
        break;
      case '--semi-space':
        o.semiSpaceMib = int(0);
        break;
      case '--detail': {
        const v = value();
        if (v !== 'lean' && v !== 'full') throw new Error('--detail must be lean or full');
        o.detail = v;
        break;
      }
      case '--only': {
        const names = value()
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        for (const n of names) if (!MEASUREMENTS.includes(n)) throw new Error(`--only: unknown measurement ${n} (known: ${MEASUREMENTS.join(', ')})`);
        o.only = new Set(names);
        break;
      }
      default:
        throw new Error(`unknown option ${argv[i]}`);
    }
  }
  // Kept inputs were generated as some version: name the run by it (results are matched by size and
  // version), not by today's newest.
  if (o.inputsDir && !given.has('--kubernetes-version')) o.kubernetesVersion = keptVersion(join(o.inputsDir, 'outage.yaml')) ?? o.kubernetesVersion;
  // a given scenario runs as the version it names, whatever --kubernetes-version says
  if (o.scenarioFile) o.kubernetesVersion = keptVersion(o.scenarioFile) ?? o.kubernetesVersion;
  if (o.quick) {
    if (!given.has('--nodes')) o.nodes = 60;
    if (!given.has('--pods-per-node')) o.podsPerNode = 10;
    if (!given.has('--timeout')) o.timeoutS = 300;
  }
  return o;
}

/** The `kubernetesVersion` a scenario file (a kept folder's outage.yaml) names, as "1.N" (undefined when it names none). */
function keptVersion(path: string): string | undefined {
  if (!existsSync(path)) return undefined;
  const m = /^kubernetesVersion:\s*["']?([^"'\s]+)/m.exec(readFileSync(path, 'utf8'));
  const v = m ? parseKubeVersion(m[1]) : undefined;
  return v && `1.${v.minor}`;
}

// -- generating the inputs ---------------------------------------------------

interface Inputs {
  dir: string;
  snapshot: string;
  scenario: string;
  healthy: string;
  bytes: number;
  generateMs: number;
  counts: Record<string, unknown>;
  full?: FullInputs;
  /** given with --inputs: never written to nor removed */
  given?: boolean;
}

interface FullInputs {
  json: string;
  /** chars of each chunk the List writer gave (head or ",\n", then one item; the last is the tail) */
  lengths: string;
  headChars: number;
  /** absent when --inputs gave a folder without it */
  yaml?: string;
  jsonBytes: number;
  yamlBytes: number;
  generateMs: number;
}

/** Writes chunks to a file through a 4 MB buffer; their lengths when asked. */
function writeChunked(path: string, chunks: Iterable<string>, lengths?: number[]): void {
  const fd = openSync(path, 'w');
  let buffer = '';
  for (const chunk of chunks) {
    lengths?.push(chunk.length);
    buffer += chunk;
    if (buffer.length > 4_000_000) {
      writeSync(fd, buffer);
      buffer = '';
    }
  }
  writeSync(fd, buffer);
  closeSync(fd);
}

/**
 * The same cluster (same seed) at full detail, as `kubectl get ... -o json` prints it (4-space
 * indent) and as a multi-document YAML stream: each larger than one string can hold.
 */
function generateFull(o: Options, dir: string): FullInputs {
  const t0 = performance.now();
  const seed = /^\d+$/.test(o.seed) ? Number(o.seed) : o.seed;
  const options = { nodes: o.nodes, podsPerNode: o.podsPerNode, zones: o.zones, seed, detail: 'full' as const, kubernetesVersion: o.kubernetesVersion };
  const json = join(dir, 'cluster-full.json');
  const lengths: number[] = [];
  writeChunked(json, listChunks(generateClusterStream(options).items, 'json', 4), lengths);
  const lengthsFile = join(dir, 'cluster-full.lengths.json');
  writeFileSync(lengthsFile, JSON.stringify(lengths));
  const yaml = join(dir, 'cluster-full.yaml');
  writeChunked(yaml, yamlDocumentChunks(generateClusterStream(options).items));
  return {
    json,
    lengths: lengthsFile,
    headChars: '{\n    "apiVersion": "v1",\n    "items": [\n'.length,
    yaml,
    jsonBytes: statSync(json).size,
    yamlBytes: statSync(yaml).size,
    generateMs: performance.now() - t0,
  };
}

/** what names a run's results: its size and version (an earlier run of the same is printed beside it) */
function sizeKey(o: Pick<Options, 'nodes' | 'podsPerNode' | 'zones' | 'kubernetesVersion'>): string {
  return `${o.nodes}x${o.podsPerNode}x${o.zones}-v${o.kubernetesVersion}`;
}

function generate(o: Options): Inputs {
  const dir = join(tmpdir(), 'controller-stepper-bench', `${sizeKey(o)}-seed${o.seed}-${o.detail}-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  const snapshot = join(dir, 'cluster.json');
  const seed = /^\d+$/.test(o.seed) ? Number(o.seed) : o.seed;
  const t0 = performance.now();
  const stream = generateClusterStream({
    nodes: o.nodes,
    podsPerNode: o.podsPerNode,
    zones: o.zones,
    seed,
    detail: o.detail,
    kubernetesVersion: o.kubernetesVersion,
    timeline: { name: 'bench-zone-outage', zoneOutage: { zone: Math.min(1, o.zones - 1), at: '60s', recoverAt: '30m' } },
  });
  // Compact JSON, as `kubectl get nodes,pods,replicasets,daemonsets,leases -A -o json | jq -c .`
  const fd = openSync(snapshot, 'w');
  let buffer = '';
  for (const chunk of listChunks(stream.items, 'json', 0)) {
    buffer += chunk;
    if (buffer.length > 4_000_000) {
      writeSync(fd, buffer);
      buffer = '';
    }
  }
  writeSync(fd, buffer);
  closeSync(fd);
  const generateMs = performance.now() - t0;
  const scenario = join(dir, 'outage.yaml');
  writeFileSync(scenario, renderObject(stream.scenario!, 'yaml'));
  const healthy = join(dir, 'healthy.yaml');
  writeFileSync(healthy, renderObject({ ...stream.scenario!, metadata: { name: 'bench-healthy' }, events: [] }, 'yaml'));
  return { dir, snapshot, scenario, healthy, bytes: statSync(snapshot).size, generateMs, counts: stream.counts as unknown as Record<string, unknown> };
}

/** What a --keep run left in a folder, as generate() and generateFull() name it. */
function keptInputs(o: Options, dir: string): Inputs {
  const file = (name: string, needed = true): string | undefined => {
    const path = join(dir, name);
    if (existsSync(path)) return path;
    if (needed) throw new Error(`--inputs: ${path} is missing`);
    return undefined;
  };
  const snapshot = file('cluster.json')!;
  const inputs: Inputs = {
    dir,
    snapshot,
    scenario: file('outage.yaml')!,
    healthy: file('healthy.yaml')!,
    bytes: statSync(snapshot).size,
    generateMs: 0,
    counts: {},
    given: true,
  };
  if (o.fullDetail) {
    const json = file('cluster-full.json')!;
    const yaml = file('cluster-full.yaml', false);
    inputs.full = {
      json,
      lengths: file('cluster-full.lengths.json')!,
      headChars: '{\n    "apiVersion": "v1",\n    "items": [\n'.length,
      yaml,
      jsonBytes: statSync(json).size,
      yamlBytes: yaml ? statSync(yaml).size : 0,
      generateMs: 0,
    };
  }
  return inputs;
}

// -- child processes -----------------------------------------------------------

type ChildResult = { status: 'ok'; out: Record<string, any> } | { status: 'unavailable'; reason: string } | { status: 'failed'; reason: string };

function heapLimitMb(): number {
  return Math.max(2048, Math.min(16_384, Math.floor((totalmem() / 1024 / 1024) * 0.8)));
}

/**
 * The measured engine is the one users run: bench/child.ts bundled by esbuild with the options
 * scripts/build.mjs gives the command line and the extension (node20, CommonJS, no keepNames).
 * Running the sources through tsx instead (--tsx) adds its transform's helpers (keepNames wraps
 * every closure the engine makes) and measured about 5 % slower at 5,000 nodes.
 */
async function buildChild(dir: string): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = join(dir, 'bench-child.js');
  await build({
    absWorkingDir: root,
    entryPoints: [join('bench', 'child.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
  return outfile;
}

/** how a child is started: the bundle, or the sources through tsx */
let childEntry: string[] = ['--import', 'tsx', join(root, 'bench', 'child.ts')];

/**
 * The young generation's semi-space, in MiB, as bin/controller-stepper.js starts the command line
 * (0: V8's default, as the extension host runs the engine): see bench/README.md, "The young generation".
 */
let semiSpaceMib = 64;

function runChild(task: string, args: Record<string, unknown>, timeoutS: number): Promise<ChildResult> {
  return new Promise((resolveResult) => {
    const child = spawn(
      process.execPath,
      ['--expose-gc', `--max-old-space-size=${heapLimitMb()}`, ...childNodeOptions(semiSpaceMib), ...childEntry, task, JSON.stringify(args)],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stdout = '',
      stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutS * 1000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const line = stdout.trim().split('\n').pop() ?? '';
      let parsed: Record<string, any> | undefined;
      try {
        parsed = JSON.parse(line) as Record<string, any>;
      } catch {
        parsed = undefined;
      }
      if (signal === 'SIGKILL') resolveResult({ status: 'failed', reason: `timed out after ${timeoutS} s` });
      else if (parsed?.ok) resolveResult({ status: 'ok', out: parsed });
      else if (parsed?.unavailable) resolveResult({ status: 'unavailable', reason: String(parsed.error) });
      else
        resolveResult({
          status: 'failed',
          reason: parsed?.error ? String(parsed.error) : `exit ${code ?? signal}: ${(stderr || stdout).trim().split('\n').slice(-5).join(' | ')}`,
        });
    });
  });
}

// -- figures -------------------------------------------------------------------

interface Metric {
  key: string;
  label: string;
  unit: string;
  /** per run */
  values: number[];
  median?: number;
  target?: { op: '<=' | '>='; value: number };
  met?: boolean;
  /** why there is no figure */
  note?: string;
  detail?: string;
}

function finish(m: Metric): Metric {
  if (m.values.length) {
    m.median = median(m.values);
    if (m.target) m.met = m.target.op === '<=' ? m.median <= m.target.value : m.median >= m.target.value;
  }
  return m;
}

function fmt(n: number | undefined, unit: string): string {
  if (n === undefined) return '-';
  const digits = Math.abs(n) >= 100 ? 0 : Math.abs(n) >= 10 ? 1 : Math.abs(n) >= 1 ? 2 : 3;
  return `${n.toFixed(digits)}${unit === 'x' ? '×' : unit ? ` ${unit}` : ''}`;
}

const MB = 1024 * 1024;

/** The same ratio by CPU time, when both sides have it: steadier than wall time on a busy machine. */
function cpuRatio(a: Record<string, any>[], b: Record<string, any>[], ka: string, kb: string): string {
  const n = Math.min(a.length, b.length);
  const xs: number[] = [];
  for (let i = 0; i < n; i++) if (typeof a[i][ka] === 'number' && typeof b[i][kb] === 'number') xs.push(a[i][ka] / b[i][kb]);
  return xs.length ? `; by CPU time ${fmt(median(xs), 'x')}` : '';
}

type Results = Record<string, Record<string, any>[]>;

function summarise(o: Options, results: Results, bytes: number, unavailable: Map<string, string>, steps: number): Metric[] {
  // The worse of loading and of the whole outage run (load + simulation): the runs of whichever
  // has the higher median.
  const peakRatios = (withBase: boolean): number[] => {
    const of = (rs: Record<string, any>[]) => rs.map((x) => (x.peakRss - (withBase ? 0 : x.baseRss)) / bytes);
    const load = of(results.load),
      sim = of(results.simulate);
    if (!load.length || !sim.length) return load.length ? load : sim;
    return median(sim) >= median(load) ? sim : load;
  };
  // Ratios per run (run i's load over run i's parse), then the median of the ratios.
  const pair = <T>(a: T[], b: T[]) => a.slice(0, Math.min(a.length, b.length)).map((x, i) => [x, b[i]] as const);
  const unavailableNote = (task: string) =>
    unavailable.has(task)
      ? `not available yet: ${unavailable.get(task)}`
      : !o.only.has(task === 'parse' ? 'load' : task)
        ? 'not measured (--only)'
        : 'no successful run';
  const measured: Metric[] = [
    {
      key: 'loadRatio',
      label: 'load into engine ÷ bare JSON.parse',
      unit: 'x',
      target: { op: '<=', value: 1.5 },
      values: pair(results.load, results.parse).map(([l, p]) => l.loadMs / p.parseMs),
      detail:
        results.load.length && results.parse.length
          ? `load ${fmt(median(results.load.map((x) => x.loadMs)), 'ms')}, JSON.parse ${fmt(median(results.parse.map((x) => x.parseMs)), 'ms')} (file read ${fmt(median(results.parse.map((x) => x.readMs)), 'ms')}, not counted)${cpuRatio(results.load, results.parse, 'loadCpuMs', 'parseCpuMs')}`
          : undefined,
      note: results.load.length ? undefined : unavailableNote('load'),
    },
    ...fullDetailMetrics(o, results),
    {
      key: 'simSpeed',
      label: `simulated s ÷ wall s (${o.durationS / 60} min, zone outage)`,
      unit: 'x',
      target: { op: '>=', value: 2000 },
      values: results.simulate.map((s) => s.simulatedS / (s.runMs / 1000)),
      detail: results.simulate.length
        ? (() => {
            const s = results.simulate[0];
            const a = s.actions as Record<string, number>;
            const main = results.simulate.map((x) => x.runMainCpuMs).filter((x): x is number => typeof x === 'number' && !Number.isNaN(x));
            const idle = main.length
              ? `, of it the main thread ${fmt(median(main), 'ms')} (the wall time an idle machine would show: ${fmt(median(results.simulate.filter((x) => typeof x.runMainCpuMs === 'number').map((x) => x.simulatedS / (x.runMainCpuMs / 1000))), 'x')})`
              : '';
            return `runUntil ${fmt(median(results.simulate.map((x) => x.runMs)), 'ms')} wall, ${fmt(median(results.simulate.map((x) => x.runCpuMs)), 'ms')} CPU${idle}; setup: loadScenario ${fmt(median(results.simulate.map((x) => x.loadMs)), 'ms')}, createSimulation ${fmt(median(results.simulate.map((x) => x.createMs)), 'ms')}; ${s.decisions} decisions (TaintAdded ${a.TaintAdded ?? 0}, PodEvicted ${a.PodEvicted ?? 0}, PodsCreated ${a.PodsCreated ?? 0}, PodBound ${a.PodBound ?? 0})`;
          })()
        : undefined,
      note: results.simulate.length ? undefined : unavailableNote('simulate'),
    },
    {
      // CPU time counts every thread (the collector's too): it does not flatter, and a busy machine disturbs it less than wall time
      key: 'simSpeedCpu',
      label: `simulated s ÷ CPU s (${o.durationS / 60} min, zone outage)`,
      unit: 'x',
      target: { op: '>=', value: 1000 },
      values: results.simulate.filter((s) => typeof s.runCpuMs === 'number').map((s) => s.simulatedS / (s.runCpuMs / 1000)),
      note: results.simulate.length ? undefined : unavailableNote('simulate'),
    },
    {
      key: 'monitorPassMs',
      label: 'one monitor pass, nothing changing',
      unit: 'ms',
      values: results.steady.map((s) => s.passMs),
      detail: results.steady.length
        ? (() => {
            const st = results.steady as {
              quietDecisions: number;
              passWithLeasesMs?: number | null;
              passWithoutLeasesMs?: number | null;
              passesWithLeases?: number;
            }[];
            const w = st.map((x) => x.passWithLeasesMs).filter((x): x is number => typeof x === 'number');
            const wo = st.map((x) => x.passWithoutLeasesMs).filter((x): x is number => typeof x === 'number');
            const split =
              w.length && wo.length
                ? `; the passes that take every kubelet's Lease renewal (every other pass) ${fmt(median(w), 'ms')}, the others ${fmt(median(wo), 'ms')}`
                : '';
            return `${st[0].quietDecisions} decisions in ${steps} quiet passes${split}`;
          })()
        : undefined,
      note: results.steady.length ? undefined : unavailableNote('steady'),
    },
    {
      key: 'webviewStepMs',
      label: "one step's webview data (update message + JSON)",
      unit: 'ms',
      values: results.steady.map((s) => s.webviewStepMs),
      detail: results.steady.length ? `${fmt(median(results.steady.map((s) => s.webviewBytes)) / 1024, 'KiB')} per step` : undefined,
      note: results.steady.length ? undefined : unavailableNote('steady'),
    },
    {
      key: 'peakMemoryRatio',
      label: 'peak memory ÷ snapshot file size',
      unit: 'x',
      target: { op: '<=', value: 3 },
      // The worse of loading and of the whole outage run (load + simulation), per run; the
      // process's own memory before the measurement (node, tsx, modules: baseRss) is not counted.
      values: peakRatios(false),
      detail: [
        results.parse.length ? `JSON.parse alone ${fmt(median(results.parse.map((x) => (x.peakRss - x.baseRss) / bytes)), 'x')}` : '',
        results.load.length
          ? `load ${fmt(median(results.load.map((x) => (x.peakRss - x.baseRss) / bytes)), 'x')} (heap kept ${fmt(median(results.load.map((x) => x.heapUsed)) / MB, 'MiB')})`
          : '',
        results.simulate.length
          ? `outage run ${fmt(median(results.simulate.map((x) => (x.peakRss - x.baseRss) / bytes)), 'x')} (heap kept ${fmt(median(results.simulate.map((x) => x.heapUsed)) / MB, 'MiB')})`
          : '',
        `peak RSS above what the process held at start (${fmt(median([...results.load, ...results.simulate].map((x) => x.baseRss)) / MB, 'MiB')}); counting that too ${fmt(median(peakRatios(true)), 'x')}; file ${fmt(bytes / MB, 'MiB')}`,
      ]
        .filter(Boolean)
        .join('; '),
      note: results.load.length || results.simulate.length ? undefined : unavailableNote('load'),
    },
    {
      key: 'stepBackMs',
      label: 'goToPass 100 passes back (during the outage)',
      unit: 'ms',
      target: { op: '<=', value: 200 },
      values: results.goback.map((g) => g.backMs),
      detail: results.goback.length
        ? `from pass ${results.goback[0].from} to ${results.goback[0].from - 100}${results.goback.every((g) => typeof g.backCpuMs === 'number') ? `; CPU ${fmt(median(results.goback.map((g) => g.backCpuMs)), 'ms')}` : ''}`
        : undefined,
      note: results.goback.length ? undefined : unavailableNote('goback'),
    },
    {
      key: 'farStepBackMs',
      label: 'one step back during the outage (the far end)',
      unit: 'ms',
      target: { op: '<=', value: 200 },
      values: results.goback.map((g) => g.farBackMs).filter((x): x is number => typeof x === 'number'),
      detail:
        results.goback.length && typeof results.goback[0].farBackMs === 'number'
          ? `from pass ${results.goback[0].from}, after one step(true) there, three steps back one pass each (median); CPU ${fmt(median(results.goback.map((g) => g.farBackCpuMs)), 'ms')}`
          : undefined,
      note: results.goback.length ? undefined : unavailableNote('goback'),
    },
    {
      key: 'oneStepBackMs',
      label: 'one step back after the 100 back (each of the next 3)',
      unit: 'ms',
      target: { op: '<=', value: 200 },
      values: results.goback.map((g) => g.oneBackMs).filter((x): x is number => typeof x === 'number'),
      detail:
        results.goback.length && typeof results.goback[0].oneBackCpuMs === 'number'
          ? `from pass ${results.goback[0].from - 100}, the zone's nodes about to go Unknown; CPU ${fmt(median(results.goback.map((g) => g.oneBackCpuMs)), 'ms')}`
          : undefined,
      note: results.goback.length ? undefined : unavailableNote('goback'),
    },
    {
      key: 'forwardStepMs',
      label: 'one forward step (same passes)',
      unit: 'ms',
      values: results.goback.map((g) => g.forwardMs),
      note: results.goback.length ? undefined : unavailableNote('goback'),
    },
    {
      key: 'stepBackRatio',
      label: 'step back 100 passes ÷ one forward step',
      unit: 'x',
      values: results.goback.map((g) => g.backMs / g.forwardMs),
      detail: results.goback.length ? `from pass ${results.goback[0].from} to ${results.goback[0].from - 100}` : undefined,
      note: results.goback.length ? undefined : unavailableNote('goback'),
    },
  ];
  return measured.map(finish);
}

/**
 * The full-detail export (streamed): its load beside JSON.parse of the same items one by one,
 * and its peak memory beside the lean file's load (the same cluster) in this run.
 */
function fullDetailMetrics(o: Options, results: Results): Metric[] {
  if (!o.fullDetail) return [];
  const full = results.fullLoad,
    parse = results.fullParse,
    keep = results.fullParseKeep ?? [],
    lean = results.load,
    yaml = results.yamlLoad;
  const pair = <T>(a: T[], b: T[]) => a.slice(0, Math.min(a.length, b.length)).map((x, i) => [x, b[i]] as const);
  const above = (x: Record<string, any>) => x.peakRss - x.baseRss;
  return [
    {
      key: 'fullLoadRatio',
      label: 'full-detail indented export, streamed load ÷ JSON.parse of its items one by one',
      unit: 'x',
      target: { op: '<=', value: 1.5 },
      values: pair(full, parse).map(([l, p]) => l.loadMs / p.parseMs),
      detail:
        full.length && parse.length
          ? `load ${fmt(median(full.map((x) => x.loadMs)), 'ms')}, JSON.parse of the ${parse[0].items} items ${fmt(median(parse.map((x) => x.parseMs)), 'ms')} (each let go; both read the file in the same pieces (nodeFs.ts readChunks): reading and decoding counted on both sides)${cpuRatio(full, parse, 'loadCpuMs', 'parseCpuMs')}${keep.length ? `; against JSON.parse keeping every item (${fmt(median(keep.map((x) => x.parseMs)), 'ms')}) ${fmt(median(pair(full, keep).map(([l, p]) => l.loadMs / p.parseMs)), 'x')}${cpuRatio(full, keep, 'loadCpuMs', 'parseCpuMs')}` : ''}`
          : undefined,
      note: full.length && parse.length ? undefined : 'no successful run',
    },
    {
      key: 'fullPeakRatio',
      label: 'full-detail streamed load, peak memory ÷ lean file load peak',
      unit: 'x',
      target: { op: '<=', value: 1.2 },
      values: pair(full, lean).map(([f, l]) => above(f) / above(l)),
      detail:
        full.length && lean.length
          ? `peak RSS above the process's start: full-detail streamed ${fmt(median(full.map(above)) / MB, 'MiB')} (heap kept ${fmt(median(full.map((x) => x.heapUsed)) / MB, 'MiB')}), lean file read whole and loaded ${fmt(median(lean.map(above)) / MB, 'MiB')} (heap kept ${fmt(median(lean.map((x) => x.heapUsed)) / MB, 'MiB')})`
          : undefined,
      note: full.length && lean.length ? undefined : 'needs the load measurement too (--only load)',
    },
    {
      key: 'yamlLoadMs',
      label: 'full-detail multi-document YAML, streamed load',
      unit: 'ms',
      values: yaml.map((x) => x.loadMs),
      detail: yaml.length ? `peak RSS above start ${fmt(median(yaml.map(above)) / MB, 'MiB')}; ${yaml[0].pods} pods` : undefined,
      note: yaml.length ? undefined : 'no successful run',
    },
  ];
}

/** The table, the details and the missed targets. */
function printReport(
  o: Options,
  metrics: Metric[],
  results: Results,
  previous: { date: string; metrics: Metric[] } | undefined,
  log: (s: string) => void,
): void {
  const prevOf = (key: string) => previous?.metrics.find((m) => m.key === key)?.median;
  const rows = metrics.map((m) => [
    m.label,
    m.median !== undefined ? fmt(m.median, m.unit) : 'n/a',
    m.target ? `${m.target.op} ${fmt(m.target.value, m.unit)}` : '',
    m.median === undefined ? '' : m.target ? (o.quick ? 'full size only' : m.met ? 'met' : 'NOT MET') : '',
    previous ? fmt(prevOf(m.key), m.unit) : '',
  ]);
  const head = [
    'measurement',
    o.simRuns !== undefined && o.simRuns !== o.runs ? `median (${o.runs} / ${o.simRuns} runs)` : `median of ${o.runs}`,
    'target',
    '',
    previous ? `previous (${previous.date.slice(0, 16)})` : '',
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  log('');
  log(line(head));
  log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of rows) log(line(r));
  log('');
  for (const m of metrics) {
    if (m.note) log(`- ${m.label}: ${m.note}`);
    else if (m.detail) log(`- ${m.label}: ${m.detail}`);
  }
  const sim = results.simulate[0];
  if (sim && !((sim.actions as Record<string, number>).TaintAdded || (sim.actions as Record<string, number>).PodEvicted)) {
    log('');
    log(`NOTE: the outage run made no TaintAdded or PodEvicted decisions (${JSON.stringify(sim.actions)}): its speed does not include eviction work yet.`);
  }
  // The targets are set for the 5,000-node cluster; a quick run's small cluster is not judged by them.
  if (o.quick) {
    log('');
    log('Targets apply at the full size (npm run bench); this quick run only proves that every measurement works.');
    return;
  }
  const missed = metrics.filter((m) => m.met === false);
  if (missed.length) {
    log('');
    for (const m of missed) log(`TARGET MISSED: ${m.label} is ${fmt(m.median, m.unit)}, target ${m.target!.op} ${fmt(m.target!.value, m.unit)}`);
  }
}

async function main(): Promise<number> {
  let o: Options;
  try {
    o = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`bench: ${(e as Error).message}\n`);
    return 2;
  }
  const log = (s: string) => process.stdout.write(`${s}\n`);
  if (o.report) {
    const rec = JSON.parse(readFileSync(o.report, 'utf8')) as {
      date: string;
      options: Options & { only: string[] };
      raw: Results;
      snapshot: { bytes: number };
      unavailable: Record<string, string>;
    };
    const ro: Options = { ...rec.options, only: new Set(rec.options.only) };
    log(`# ${o.report} (${rec.date}): ${ro.nodes} nodes × ${ro.podsPerNode} pods, ${ro.zones} zones, Kubernetes ${ro.kubernetesVersion ?? '1.31'}`);
    printReport(ro, summarise(ro, rec.raw, rec.snapshot.bytes, new Map(Object.entries(rec.unavailable)), ro.steps ?? 10), rec.raw, undefined, log);
    return 0;
  }
  const loadAtStart = loadavg();
  if (loadAtStart[0] > cpus().length) {
    log(
      `NOTE: the machine is busy (load average ${loadAtStart.map((x) => x.toFixed(1)).join(' ')} on ${cpus().length} CPUs): wall times will be slow and noisy; the ratios and CPU times less so.`,
    );
  }
  log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, ${Math.round(totalmem() / MB / 1024)} GiB, Node ${process.version}; load average at start ${loadAtStart.map((x) => x.toFixed(1)).join(' ')}`,
  );
  log(
    `# Controller Stepper benchmark: ${o.nodes} nodes × ${o.podsPerNode} pods, ${o.zones} zones, Kubernetes ${o.kubernetesVersion}, ${o.runs} runs${o.simRuns !== undefined ? ` (${o.simRuns} of the simulation)` : ''}${o.quick ? ' (quick)' : ''}`,
  );
  if (o.webview) {
    const { runWebviewBench } = await import('./webviewRun');
    const inputs = o.scenarioFile ? undefined : generate(o);
    if (inputs) log(`generated ${inputs.snapshot}: ${(inputs.bytes / MB).toFixed(1)} MiB in ${(inputs.generateMs / 1000).toFixed(1)} s`);
    const code = await runWebviewBench(
      {
        scenario: o.scenarioFile ?? inputs!.scenario,
        runs: o.runs,
        steps: o.steps,
        timeoutS: o.timeoutS,
        sizeKey: o.scenarioFile ? 'scenario' : sizeKey(o),
        heapLimitMb: heapLimitMb(),
        quick: o.quick && !o.scenarioFile,
        readMs: o.readMs,
        noRunAhead: o.noRunAhead,
        firstReadMs: o.firstReadMs,
        noAheadAtOpen: o.noAheadAtOpen,
      },
      log,
    );
    if (inputs && !o.keep) rmSync(inputs.dir, { recursive: true, force: true });
    return code;
  }
  if (o.scenarioFile) {
    process.stderr.write('bench: --scenario is for --webview\n');
    return 2;
  }
  let inputs: Inputs;
  try {
    inputs = o.inputsDir ? keptInputs(o, o.inputsDir) : generate(o);
  } catch (e) {
    process.stderr.write(`bench: ${(e as Error).message}\n`);
    return 2;
  }
  semiSpaceMib = o.semiSpaceMib;
  // the bundle goes beside generated inputs; a given folder is only read
  const childDir = inputs.given ? join(tmpdir(), `controller-stepper-bench-child-${process.pid}`) : inputs.dir;
  mkdirSync(childDir, { recursive: true });
  if (!o.tsx) childEntry = [await buildChild(childDir)];
  log(
    `measuring ${o.tsx ? 'the TypeScript sources through tsx (--tsx)' : 'the engine as esbuild bundles it for the command line and the extension'}, ${o.semiSpaceMib > 0 ? `with the command line's V8 options (${childNodeOptions(o.semiSpaceMib).join(' ')}; after the load ${RUN_OPTIONS.join(' ')})` : "with V8's defaults (as the extension host runs it)"}`,
  );
  if (inputs.given) log(`kept inputs: ${inputs.snapshot}, ${(inputs.bytes / MB).toFixed(1)} MiB`);
  else
    log(`generated ${inputs.snapshot}: ${(inputs.bytes / MB).toFixed(1)} MiB, ${JSON.stringify(inputs.counts)} in ${(inputs.generateMs / 1000).toFixed(1)} s`);
  if (inputs.full)
    log(
      `kept inputs: ${inputs.full.json}, ${(inputs.full.jsonBytes / MB).toFixed(1)} MiB${inputs.full.yaml ? `; ${inputs.full.yaml}` : '; no cluster-full.yaml: the YAML load is left out'}`,
    );
  else if (o.fullDetail) {
    inputs.full = generateFull(o, inputs.dir);
    log(
      `generated ${inputs.full.json}: ${(inputs.full.jsonBytes / MB).toFixed(1)} MiB (full detail, 4-space indent) and ${inputs.full.yaml}: ${(inputs.full.yamlBytes / MB).toFixed(1)} MiB (multi-document YAML) in ${(inputs.full.generateMs / 1000).toFixed(1)} s`,
    );
  }

  const args = {
    snapshot: inputs.snapshot,
    scenario: inputs.scenario,
    healthy: inputs.healthy,
    durationS: o.durationS,
    steps: o.steps,
    backPasses: 100,
    full: inputs.full && { json: inputs.full.json, lengths: inputs.full.lengths, headChars: inputs.full.headChars, yaml: inputs.full.yaml },
  };
  const failures: string[] = [];
  const unavailable = new Map<string, string>();
  const results: Results = { parse: [], load: [], simulate: [], steady: [], goback: [], fullParse: [], fullLoad: [], fullParseKeep: [], yamlLoad: [] };
  const run = async (task: string, i: number): Promise<void> => {
    const t0 = performance.now();
    const r = await runChild(task, args, o.timeoutS);
    const took = ((performance.now() - t0) / 1000).toFixed(1);
    if (r.status === 'ok') {
      results[task].push(r.out);
      log(`  ${task} run ${i + 1}: done in ${took} s`);
    } else if (r.status === 'unavailable') {
      unavailable.set(task, r.reason);
      log(`  ${task} run ${i + 1}: not available yet (${r.reason})`);
    } else {
      failures.push(`${task} run ${i + 1}: ${r.reason}`);
      log(`  ${task} run ${i + 1}: FAILED: ${r.reason}`);
    }
  };
  for (let i = 0; i < o.runs; i++) {
    if (o.only.has('load')) {
      await run('parse', i);
      await run('load', i);
      if (o.fullDetail) {
        await run('fullParse', i);
        await run('fullLoad', i);
        await run('fullParseKeep', i);
      }
    }
  }
  if (o.only.has('load'))
    execFileSync(
      process.execPath,
      [
        '--expose-gc',
        '--import',
        'tsx',
        join(root, 'bench', 'importRate.ts'),
        '--nodes',
        String(o.nodes),
        '--minutes',
        o.quick ? '1' : '10',
        '--runs',
        String(o.runs),
        // the YAML events export: the yaml package reads a few MB/s
        '--events-mib',
        o.quick ? '1' : '64',
      ],
      { cwd: root, stdio: 'inherit', timeout: o.timeoutS * 1000 },
    );
  // the YAML stream once: the yaml package parses it at a few MB/s
  if (o.fullDetail && o.only.has('load') && inputs.full?.yaml) await run('yamlLoad', 0);
  for (const task of ['simulate', 'steady', 'goback']) {
    if (!o.only.has(task)) continue;
    for (let i = 0; i < (o.simRuns ?? o.runs) && !unavailable.has(task); i++) await run(task, i);
  }

  const metrics = summarise(o, results, inputs.bytes, unavailable, args.steps);

  const resultsDir = join(root, 'bench', 'results');
  const latestPath = join(resultsDir, `latest-${sizeKey(o)}.json`);
  const nodeOptions = childNodeOptions(o.semiSpaceMib);
  const last = existsSync(latestPath) ? (JSON.parse(readFileSync(latestPath, 'utf8')) as PreviousRun<Metric>) : undefined;
  const { previous, note } = comparablePrevious(last, nodeOptions);
  printReport(o, metrics, results, previous, log);
  if (note) log(note);

  // -- the record ------------------------------------------------------------------
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    // bin/: the command line's V8 options, which the children take
    if (execFileSync('git', ['status', '--porcelain', '--', 'src', 'bin'], { cwd: root, encoding: 'utf8' }).trim()) commit += '+uncommitted';
  } catch {
    /* not a git checkout */
  }
  const record = {
    date: new Date().toISOString(),
    commit,
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      totalMemoryMiB: Math.round(totalmem() / MB),
      freeMemoryMiB: Math.round(freemem() / MB),
      node: process.version,
      v8: process.versions.v8,
      platform: platform(),
      arch: arch(),
      release: release(),
      childHeapLimitMiB: heapLimitMb(),
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: loadavg(),
    },
    options: { ...o, only: [...o.only] },
    nodeOptions,
    snapshot: { bytes: inputs.bytes, generateMs: Math.round(inputs.generateMs), counts: inputs.counts, format: 'compact JSON List' },
    ...(inputs.full
      ? {
          fullDetail: {
            jsonBytes: inputs.full.jsonBytes,
            yamlBytes: inputs.full.yamlBytes,
            generateMs: Math.round(inputs.full.generateMs),
            format: 'kubectl -o json (4-space indent), full detail; multi-document YAML',
          },
        }
      : {}),
    metrics,
    raw: results,
    failures,
    unavailable: Object.fromEntries(unavailable),
  };
  mkdirSync(resultsDir, { recursive: true });
  const file = join(resultsDir, `${record.date.replace(/[:.]/g, '-')}-${sizeKey(o)}.json`);
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  if (!failures.length) writeFileSync(latestPath, `${JSON.stringify(record, null, 2)}\n`);
  log('');
  log(`results: ${file}`);

  if (inputs.given) rmSync(childDir, { recursive: true, force: true });
  else if (o.keep) log(`inputs kept in ${inputs.dir}`);
  else rmSync(inputs.dir, { recursive: true, force: true });

  if (failures.length) {
    log('');
    for (const f of failures) log(`FAILED: ${f}`);
    return 1;
  }
  return 0;
}

runMain(main, 'bench: ');
