/**
 * What the outage hour's decision trace keeps alive, by decision kind (controller/action): the hour
 * run bundled as the command line ships the engine, then each kind's records replaced in the trace
 * by one shared object, largest kind first, and the heap measured after two full collections each
 * time. A kind's bytes are what only its records (and what they alone reach: checks, details,
 * transitions, what a record explained when read keeps to explain itself) hold; an object two kinds
 * reach is counted with the later one. Also counted per kind: records whose checks are made when
 * read (trace/explainLater.ts), and the checks of the others.
 *
 *   node --import tsx bench/traceKept.ts --inputs DIR [--checkout DIR] [--no-lock]
 *
 * What the trace keeps is what the hour's scavenges copy and promote (bench/README.md "engine18",
 * "trace29"): a bound on what any lighter form of the records could save.
 */
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { timedRunner } from './benchLock';
import { hourTool, runMain } from './cli';

const CHILD = (checkout: string) => `
import { loadScenario } from ${JSON.stringify(join(checkout, 'src/engine/snapshot/scenario'))};
import { createSimulation } from ${JSON.stringify(join(checkout, 'src/engine/simulation/simulation'))};
import { nodeFs } from ${JSON.stringify(join(checkout, 'src/platform/nodeFs'))};

const a = JSON.parse(process.argv[2]);
const sim = createSimulation(loadScenario(a.scenario, nodeFs(), { maxFileBytes: Number.MAX_SAFE_INTEGER }));
// reachable to the end: the loops below run optimised, where a local read no more is not kept
(globalThis as any).keptSimulation = sim;
const from = sim.trace.length;
sim.runUntil(sim.startTime + 3600e6);
// the recorder's list: a plain array before the trace was a DecisionLog (trace/decisionLog.ts), else the log's own
const kept = (sim as any).host.trace;
const trace = (Array.isArray(kept) ? kept : kept.records) as any[];
const gc = (globalThis as any).gc as () => void;
const used = () => { gc(); gc(); return process.memoryUsage().heapUsed; };
const kindOf = (d: any) => d.controller + '/' + d.action;
const kinds = new Map<string, { n: number; lazy: number; checks: number }>();
for (let i = from; i < trace.length; i++) {
  const d = trace[i];
  let k = kinds.get(kindOf(d));
  if (!k) kinds.set(kindOf(d), (k = { n: 0, lazy: 0, checks: 0 }));
  k.n++;
  if (Object.getOwnPropertyDescriptor(d, 'because')?.get) k.lazy++;
  else k.checks += d.because.length;
}
const SHARED = {};
const rows: object[] = [];
let last = used();
const heap = last;
for (const [kind, k] of [...kinds].sort((x, y) => y[1].n - x[1].n)) {
  for (let i = from; i < trace.length; i++) if (trace[i] !== SHARED && kindOf(trace[i]) === kind) trace[i] = SHARED;
  const now = used();
  rows.push({ kind, ...k, bytes: last - now });
  last = now;
}
console.log(JSON.stringify({ decisions: trace.length - from, heap, rest: last, rows }));
`;

interface Row {
  kind: string;
  n: number;
  lazy: number;
  checks: number;
  bytes: number;
}

async function main(): Promise<number> {
  const tool = await hourTool('trace-kept', 'node --import tsx bench/traceKept.ts --inputs DIR [--checkout DIR] [--no-lock]', CHILD);
  if (!tool) return 2;
  const { checkout, scenario, entry, node } = tool;
  const r = timedRunner(!process.argv.includes('--no-lock')).run([...node, entry, JSON.stringify({ scenario })]);
  if (r.status !== 0) throw new Error(r.stderr);
  const res = JSON.parse(r.stdout.trim().split('\n').pop()!) as { decisions: number; heap: number; rest: number; rows: Row[] };
  const mb = (b: number) => (b / 1e6).toFixed(2);
  const kept = res.heap - res.rest;
  const out = [
    `${checkout}: ${res.decisions} decisions in the hour keep ${mb(kept)} MB of a ${mb(res.heap)} MB heap after it ` +
      `(${Math.round(kept / res.decisions)} B a decision; load average ${loadavg()[0].toFixed(1)})`,
    `${'kind'.padEnd(42)} ${'decisions'.padStart(9)} ${'read-made'.padStart(9)} ${'checks'.padStart(7)} ${'kept MB'.padStart(8)} ${'B each'.padStart(7)}`,
  ];
  for (const w of res.rows)
    out.push(
      `${w.kind.padEnd(42)} ${String(w.n).padStart(9)} ${String(w.lazy).padStart(9)} ${String(w.checks).padStart(7)} ${mb(w.bytes).padStart(8)} ${String(Math.round(w.bytes / w.n)).padStart(7)}`,
    );
  process.stdout.write(out.join('\n') + '\n');
  return 0;
}

if (require.main === module) runMain(main);
