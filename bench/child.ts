/**
 * One measurement, in a process of its own (so that one measurement's heap
 * does not inflate the next one's peak memory). bench/run.ts starts it as
 *   node --expose-gc --max-old-space-size=N --import tsx bench/child.ts TASK JSON-ARGS
 * and reads one JSON line from stdout: `{ ok: true, ... }`, or
 * `{ ok: false, unavailable?: true, error }`.
 *
 * Tasks:
 *   parse     JSON.parse of the snapshot text (the baseline)
 *   load      loadSnapshot of the same text into the engine
 *   simulate  the outage scenario: load, createSimulation, runUntil(start + duration)
 *   steady    the healthy cluster: one monitor pass with nothing changing, and the
 *             extension host's per-step webview data (Session.updateMessage)
 *   goback    the outage scenario: step N passes; one step forward there (step(true)) and back;
 *             three step backs in a row from there; goToPass(N - 100); then three step backs in a row
 * With --full-detail (args.full):
 *   fullParse the full-detail, kubectl-indented export read in pieces (nodeFs.ts readChunks), each item's text cut out
 *             (where the generator wrote it) and given to JSON.parse: the baseline
 *   fullLoad  loadSnapshot of that file through nodeFs (streamed item by item)
 *   yamlLoad  loadSnapshot of the same cluster as multi-document YAML (streamed document by document)
 *   fullRaw   issue 16's ceiling: fullParse's items made into records, raw kept as args.rawMode says (bench/rawRefProto.ts)
 */
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { median } from './median';
import CLI_NODE_OPTIONS from '../bin/node-options.json';
import { setRunOptions } from '../src/cli/runOptions';

type Args = {
  snapshot: string;
  scenario: string;
  healthy: string;
  durationS: number;
  steps: number;
  backPasses: number;
  /** --full-detail: the kubectl-indented export, its item lengths (chunks as written: head or ",\n" + item), and the YAML stream */
  full?: { json: string; lengths: string; headChars: number; yaml?: string };
  keep?: boolean;
  /** fullRaw: what an object's raw is kept as (bench/rawRefProto.ts) */
  rawMode?: string;
};
type Out = Record<string, unknown>;

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();
const ms = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;
const now = (): bigint => process.hrtime.bigint();
/** CPU time (user + system, all threads) since `c0`, in ms: less disturbed than wall time when the machine is busy. */
const cpuMs = (c0: NodeJS.CpuUsage): number => {
  const d = process.cpuUsage(c0);
  return (d.user + d.system) / 1000;
};
/**
 * CPU time of the main thread alone (Linux: /proc/self/task/PID/stat), in ms; NaN elsewhere. The
 * engine runs on the main thread: this is what its wall time would be on an idle machine, while
 * process.cpuUsage adds the collector's helper threads. Resolution: the kernel's clock tick (10 ms).
 */
const mainThreadCpuMs = (): number => {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
};
const peakRss = (): number => process.resourceUsage().maxRSS * 1024;
const heapUsed = (): number => {
  gc();
  return process.memoryUsage().heapUsed;
};

class Unavailable extends Error {}

/**
 * The engine's pieces are imported lazily: a piece not written yet is reported as "not available
 * yet". The paths are literals so that esbuild can bundle this file (bench/run.ts measures the
 * engine bundled as the command line and the extension ship it; --tsx runs these sources instead).
 */
async function engine() {
  const need = async <T>(load: () => Promise<Record<string, unknown>>, path: string, name: string): Promise<T> => {
    let mod: Record<string, unknown>;
    try {
      mod = await load();
    } catch (e) {
      throw new Unavailable(`${path}: ${(e as Error).message.split('\n')[0]}`);
    }
    if (typeof mod[name] !== 'function') throw new Unavailable(`${path} has no ${name}`);
    return mod[name] as T;
  };
  return {
    loadSnapshot: () =>
      need<typeof import('../src/engine/snapshot/load').loadSnapshot>(() => import('../src/engine/snapshot/load'), 'src/engine/snapshot/load', 'loadSnapshot'),
    loadScenario: () =>
      need<typeof import('../src/engine/snapshot/scenario').loadScenario>(
        () => import('../src/engine/snapshot/scenario'),
        'src/engine/snapshot/scenario',
        'loadScenario',
      ),
    createSimulation: () =>
      need<typeof import('../src/engine/simulation/simulation').createSimulation>(
        () => import('../src/engine/simulation/simulation'),
        'src/engine/simulation/simulation',
        'createSimulation',
      ),
    nodeFs: () => need<typeof import('../src/platform/nodeFs').nodeFs>(() => import('../src/platform/nodeFs'), 'src/platform/nodeFs', 'nodeFs'),
    Session: async () => {
      const mod = (await import('../src/extension/session').catch((e: Error) => {
        throw new Unavailable(`src/extension/session: ${e.message.split('\n')[0]}`);
      })) as typeof import('../src/extension/session');
      return mod.Session;
    },
  };
}

function countActions(trace: Iterable<{ action: string }>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const d of trace) out[d.action] = (out[d.action] ?? 0) + 1;
  return out;
}

async function openScenario(path: string) {
  const e = await engine();
  const [loadScenario, nodeFs, createSimulation] = await Promise.all([e.loadScenario(), e.nodeFs(), e.createSimulation()]);
  let t0 = now();
  const scenario = loadScenario(path, nodeFs(), { maxFileBytes: Number.MAX_SAFE_INTEGER });
  const loadMs = ms(t0);
  const serious = scenario.problems.filter((p) => p.severity === 'error');
  t0 = now();
  const sim = createSimulation(scenario);
  const createMs = ms(t0);
  const simErrors = sim.problems.filter((p) => p.severity === 'error');
  if (serious.length || simErrors.length) {
    throw new Error(
      `the scenario has errors: ${[...serious, ...simErrors]
        .slice(0, 3)
        .map((p) => `${p.code}: ${p.message}`)
        .join('; ')}`,
    );
  }
  // as the command line does once its input is loaded (src/cli/open.ts), when this child runs with its
  // node options (bench/cli.ts childNodeOptions: all but --semi-space 0, the extension host's way)
  const named = (o: string) => o.split('=')[0];
  if (CLI_NODE_OPTIONS.every((o) => process.execArgv.some((x) => named(x) === named(o))))
    setRunOptions(setFlagsFromString, process.execArgv, process.env.NODE_OPTIONS);
  return { sim, loadMs, createMs, problems: sim.problems.length };
}

const tasks: Record<string, (a: Args) => Promise<Out>> = {
  async parse(a) {
    const t0 = now();
    const text = readFileSync(a.snapshot, 'utf8');
    const readMs = ms(t0);
    gc();
    const c1 = process.cpuUsage();
    const m1 = mainThreadCpuMs();
    const t1 = now();
    const value = JSON.parse(text) as { items: unknown[] };
    const parseMs = ms(t1);
    const parseCpuMs = cpuMs(c1);
    const parseMainCpuMs = mainThreadCpuMs() - m1;
    return { readMs, parseMs, parseCpuMs, parseMainCpuMs, items: value.items.length, peakRss: peakRss(), heapUsed: heapUsed() };
  },

  async load(a) {
    const loadSnapshot = await (await engine()).loadSnapshot();
    const t0 = now();
    const text = readFileSync(a.snapshot, 'utf8');
    const readMs = ms(t0);
    gc();
    const c1 = process.cpuUsage();
    const m1 = mainThreadCpuMs();
    const t1 = now();
    const loaded = loadSnapshot({ file: a.snapshot, text });
    const loadMs = ms(t1);
    const loadCpuMs = cpuMs(c1);
    const loadMainCpuMs = mainThreadCpuMs() - m1;
    const problems = loaded.problems.filter((p) => p.severity !== 'info');
    if (problems.length) throw new Error(`the loader reported ${problems.length} problems, e.g. ${problems[0].code}: ${problems[0].message}`);
    return {
      readMs,
      loadMs,
      loadCpuMs,
      loadMainCpuMs,
      nodes: loaded.cluster.nodes.size,
      pods: loaded.cluster.pods.size,
      peakRss: peakRss(),
      heapUsed: heapUsed(),
    };
  },

  /** as fullParse, keeping every item (as the lean baseline keeps its tree): the garbage collector's share of keeping a model */
  async fullParseKeep(a) {
    return tasks.fullParse({ ...a, keep: true });
  },

  /** issue 16's ceiling of a raw kept as text or a file reference (bench/rawRefProto.ts) */
  async fullRaw(a) {
    const { fullRawProto, RAW_MODES } = await import('./rawRefProto');
    const mode = a.rawMode as (typeof RAW_MODES)[number];
    if (!RAW_MODES.includes(mode)) throw new Error(`rawMode must be one of ${RAW_MODES.join(', ')}`);
    return { ...fullRawProto(a.full!, mode, gc) };
  },

  async fullParse(a) {
    const { readChunks } = await import('../src/platform/nodeFs');
    const kept: unknown[] | undefined = a.keep ? [] : undefined;
    const lengths = JSON.parse(readFileSync(a.full!.lengths, 'utf8')) as number[];
    gc();
    const c0 = process.cpuUsage();
    const t0 = now();
    let rest = '';
    let k = 0;
    let items = 0;
    // the last chunk written is the List's tail, not an item
    for (const chunk of readChunks(a.full!.json)) {
      rest += chunk;
      let p = 0;
      while (k < lengths.length - 1 && rest.length - p >= lengths[k]) {
        const skip = k === 0 ? a.full!.headChars : 2;
        const item = JSON.parse(rest.slice(p + skip, p + lengths[k])) as unknown;
        kept?.push(item);
        p += lengths[k];
        k++;
        items++;
      }
      rest = rest.slice(p);
    }
    const parseMs = ms(t0),
      parseCpuMs = cpuMs(c0);
    return { parseMs, parseCpuMs, items, kept: kept?.length ?? 0, peakRss: peakRss() };
  },

  async fullLoad(a) {
    const e = await engine();
    const [loadSnapshot, nodeFs] = await Promise.all([e.loadSnapshot(), e.nodeFs()]);
    gc();
    const c0 = process.cpuUsage();
    const t0 = now();
    const loaded = loadSnapshot(a.full!.json, nodeFs(), { streamFilesAbove: 0 });
    const loadMs = ms(t0);
    const loadCpuMs = cpuMs(c0);
    const problems = loaded.problems.filter((p) => p.severity !== 'info');
    if (problems.length) throw new Error(`the loader reported ${problems.length} problems, e.g. ${problems[0].code}: ${problems[0].message}`);
    return { loadMs, loadCpuMs, nodes: loaded.cluster.nodes.size, pods: loaded.cluster.pods.size, peakRss: peakRss(), heapUsed: heapUsed() };
  },

  async yamlLoad(a) {
    const e = await engine();
    const [loadSnapshot, nodeFs] = await Promise.all([e.loadSnapshot(), e.nodeFs()]);
    gc();
    const c0 = process.cpuUsage();
    const t0 = now();
    const loaded = loadSnapshot(a.full!.yaml!, nodeFs(), { streamFilesAbove: 0 });
    const loadMs = ms(t0);
    const loadCpuMs = cpuMs(c0);
    const problems = loaded.problems.filter((p) => p.severity !== 'info');
    if (problems.length) throw new Error(`the loader reported ${problems.length} problems, e.g. ${problems[0].code}: ${problems[0].message}`);
    return { loadMs, loadCpuMs, nodes: loaded.cluster.nodes.size, pods: loaded.cluster.pods.size, peakRss: peakRss(), heapUsed: heapUsed() };
  },

  async simulate(a) {
    const { sim, loadMs, createMs, problems } = await openScenario(a.scenario);
    gc();
    const c0 = process.cpuUsage();
    const m0 = mainThreadCpuMs();
    const t0 = now();
    sim.runUntil(sim.startTime + a.durationS * 1_000_000);
    const runMs = ms(t0);
    const runMainCpuMs = mainThreadCpuMs() - m0;
    // For bench/profile.ts: the monotonic window of runUntil, in µs (V8's profiler uses the same clock).
    const window = [Number(t0 / 1000n), Number(now() / 1000n)];
    const runCpuMs = cpuMs(c0);
    return {
      loadMs,
      createMs,
      runMs,
      runCpuMs,
      runMainCpuMs,
      problems,
      window,
      simulatedS: a.durationS,
      passes: sim.pass,
      decisions: sim.trace.length,
      actions: countActions(sim.trace),
      peakRss: peakRss(),
      heapUsed: heapUsed(),
    };
  },

  async steady(a) {
    const { sim, loadMs, createMs } = await openScenario(a.healthy);
    const Session = await (await engine()).Session();
    // Warm up: the first passes register every node, and the JIT settles.
    for (let i = 0; i < 12; i++) sim.step();
    const passMs: number[] = [];
    // Every kubelet renews its Lease every 10 s, on one grid: every other 5 s pass takes all of the
    // cluster's renewals. Those passes are timed apart from the others (the count is taken outside the timing).
    const withLeases: number[] = [],
      withoutLeases: number[] = [];
    const renewTimes = () => [...sim.cluster.leases.values()].map((l) => l.renewTime);
    const decisionsBefore = sim.trace.length;
    for (let i = 0; i < a.steps; i++) {
      const before = renewTimes();
      const t0 = now();
      sim.step();
      const t = ms(t0);
      passMs.push(t);
      const after = renewTimes();
      (after.some((r, j) => r !== before[j]) ? withLeases : withoutLeases).push(t);
    }
    const quietDecisions = sim.trace.length - decisionsBefore;
    const session = new Session({ make: () => sim, settings: { collapseNoise: true, playSpeed: 4 }, post: () => {} });
    session.updateMessage(true);
    // The extension host's work per step: the update message (what changed) and its
    // serialisation, as postMessage sends it.
    const stepMs: number[] = [],
      dataMs: number[] = [],
      bytes: number[] = [];
    for (let i = 0; i < a.steps; i++) {
      const t0 = now();
      sim.step();
      const t1 = now();
      const text = JSON.stringify(session.updateMessage(false));
      dataMs.push(ms(t1));
      stepMs.push(ms(t0));
      bytes.push(text.length);
    }
    return {
      loadMs,
      createMs,
      passMs: median(passMs),
      passMsAll: passMs,
      quietDecisions,
      passWithLeasesMs: withLeases.length ? median(withLeases) : null,
      passesWithLeases: withLeases.length,
      passWithoutLeasesMs: withoutLeases.length ? median(withoutLeases) : null,
      webviewStepMs: median(dataMs),
      webviewBytes: median(bytes),
      stepMs: median(stepMs),
      peakRss: peakRss(),
    };
  },

  async goback(a) {
    const { sim } = await openScenario(a.scenario);
    const target = a.backPasses + 20;
    while ((sim.pass ?? -1) < target) sim.step();
    const from = sim.pass as number;
    const fwdMs: number[] = [];
    // One forward step at the far end, from the same position each time.
    for (let i = 0; i < 3; i++) {
      sim.goToPass(from);
      const t0 = now();
      sim.step();
      fwdMs.push(ms(t0));
    }
    // The panel's step back at the far end, deep in the outage (the zone's nodes Unknown and
    // tainted, their pods evicted and replaced): the user has stepped there (step(true) keeps a
    // checkpoint at most FINE_CHECKPOINT_EVERY passes behind), then steps back one pass at a time.
    sim.goToPass(from);
    sim.step(true);
    sim.goToPass(from);
    // For bench/profile.ts: the window of the three step backs timed below, one pass each, in a row (from-1, from-2, from-3).
    const windowFrom = Number(now() / 1000n);
    const farBackMs: number[] = [],
      farBackCpuMs: number[] = [];
    for (let i = 1; i <= 3; i++) {
      const c1 = process.cpuUsage();
      const t1 = now();
      sim.goToPass(from - i);
      farBackMs.push(ms(t1));
      farBackCpuMs.push(cpuMs(c1));
    }
    const farTo = Number(now() / 1000n);
    // The jump back is timed once: a step back leaves finer checkpoints behind it (see
    // FINE_CHECKPOINT_EVERY), so a second jump to the same pass would find one there.
    sim.goToPass(from);
    const jumpFrom = Number(now() / 1000n);
    const c0 = process.cpuUsage();
    const t0 = now();
    sim.goToPass(from - a.backPasses);
    const backMs = ms(t0);
    const jumpTo = Number(now() / 1000n);
    const backCpuMs = cpuMs(c0);
    if (sim.pass !== from - a.backPasses) throw new Error(`goToPass(${from - a.backPasses}) left the simulation at pass ${sim.pass}`);
    // Then the panel's "step back", one pass at a time, from there.
    const oneBackMs: number[] = [],
      oneBackCpuMs: number[] = [];
    for (let i = 1; i <= 3; i++) {
      const c1 = process.cpuUsage();
      const t1 = now();
      sim.goToPass(from - a.backPasses - i);
      oneBackMs.push(ms(t1));
      oneBackCpuMs.push(cpuMs(c1));
    }
    // BENCH_WINDOW=jump: bench/profile.ts reports the goToPass 100 back alone; far: the three step backs at the far end
    const which = process.env.BENCH_WINDOW;
    const window = which === 'jump' ? [jumpFrom, jumpTo] : which === 'far' ? [windowFrom, farTo] : [windowFrom, Number(now() / 1000n)];
    return {
      from,
      window,
      back: a.backPasses,
      backMs,
      backCpuMs,
      forwardMs: median(fwdMs),
      oneBackMs: median(oneBackMs),
      oneBackCpuMs: median(oneBackCpuMs),
      oneBackMsAll: oneBackMs,
      farBackMs: median(farBackMs),
      farBackCpuMs: median(farBackCpuMs),
      farBackMsAll: farBackMs,
      forwardMsAll: fwdMs,
      peakRss: peakRss(),
    };
  },
};

async function main(): Promise<void> {
  const [task, json] = process.argv.slice(2);
  // What the process holds before the measurement (node, tsx when run through it, the engine's modules): reported so
  // that peak memory can be read both with and without it.
  await engine()
    .then((e) => Promise.all([e.loadSnapshot(), e.loadScenario(), e.createSimulation(), e.nodeFs(), e.Session()]))
    .catch(() => undefined);
  gc();
  const baseRss = process.memoryUsage().rss;
  const fn = tasks[task];
  if (!fn) {
    process.stdout.write(`${JSON.stringify({ ok: false, error: `unknown task ${task}` })}\n`);
    process.exitCode = 2;
    return;
  }
  try {
    const out = await fn(JSON.parse(json) as Args);
    process.stdout.write(`${JSON.stringify({ ok: true, baseRss, ...out })}\n`);
  } catch (e) {
    const unavailable = e instanceof Unavailable;
    process.stdout.write(`${JSON.stringify({ ok: false, unavailable, error: unavailable ? e.message : ((e as Error).stack ?? String(e)) })}\n`);
    process.exitCode = unavailable ? 0 : 1;
  }
}

void main();
