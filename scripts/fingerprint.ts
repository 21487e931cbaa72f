/**
 * Fingerprints of what the engine decides, for performance work: a change
 * that only makes the engine faster must leave every fingerprint unchanged.
 *
 *   node --import tsx scripts/fingerprint.ts --save FILE   # record (before the change)
 *   node --import tsx scripts/fingerprint.ts --check FILE  # compare (after); exit 1 on any difference
 *
 * For every bundled example and for generated zone outages (1.12 with and
 * without taint-based evictions, 1.31, 1.35, the newest version (1.37), a
 * scale-down and a scale-up): the trace (JSON lines), the final state, the machines' states,
 * and the same again after stepping back to the middle and forward to the
 * end (checkpoint restore).
 *
 * `traceDecisions` (and `midTraceDecisions`) hash the trace without the fields a change may
 * deliberately rewrite while every decision stays the same (`because`, the words and values
 * that explain it): a change to the explanations shows as `trace` differing with
 * `traceDecisions` identical, i.e. kind, object, time, causes and machine transition unchanged.
 * `traceCore` leaves out the machine transition too: for a change that makes decisions go through
 * a machine, every other field stays as it was.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createSimulation } from '../src/engine/simulation/simulation';
import { loadScenario } from '../src/engine/snapshot/scenario';
import { orderedDecision, traceToJsonLines } from '../src/engine/trace/serialize';
import { generateClusterStream, listChunks, renderObject, type TimelineOptions } from '../src/engine/generate/index';
import { defaultHorizon } from '../src/cli/horizon';
import { nodeFs } from '../src/platform/nodeFs';
import type { DecisionList } from '../src/engine/trace/decisionLog';

const root = resolve(__dirname, '..');
const sha = (s: string): string => createHash('sha256').update(s).digest('hex').slice(0, 16);

/** Fields left out of `traceDecisions`: what explains a decision, not what it is. */
const EXPLANATION_FIELDS = ['because'] as const;
/** Fields left out of `traceCore` as well: the machine transition a decision records, for a change that gives decisions one. */
const CORE_LEFT_OUT = ['because', 'machine'] as const;

function decisionsOnly(trace: DecisionList, leftOut: readonly string[] = EXPLANATION_FIELDS): string {
  let out = '';
  for (const d of trace) {
    const o = orderedDecision(d);
    for (const f of leftOut) delete o[f];
    out += `${JSON.stringify(o)}\n`;
  }
  return out;
}

function fingerprint(path: string, until?: (start: number) => number): Record<string, string | number> {
  const scenario = loadScenario(path, nodeFs());
  const sim = createSimulation(scenario);
  // a case the tools would refuse fingerprints nothing real: stop, as the command line would
  const errors = sim.problems.filter((p) => p.severity === 'error');
  if (errors.length) throw new Error(`${path}: ${errors.map((p) => `${p.code}: ${p.message}`).join('; ')}`);
  const end = until ? until(sim.startTime) : defaultHorizon(scenario, sim.startTime);
  sim.runUntil(end);
  const out: Record<string, string | number> = {
    decisions: sim.trace.length,
    passes: sim.pass ?? -1,
    trace: sha(traceToJsonLines(sim.trace)),
    traceDecisions: sha(decisionsOnly(sim.trace)),
    traceCore: sha(decisionsOnly(sim.trace, CORE_LEFT_OUT)),
    state: sha(JSON.stringify(sim.state())),
    machines: sha(JSON.stringify(sim.machines().map((m) => [m.id, m.state, m.lastTransition ?? null]))),
  };
  const pass = sim.pass ?? 0;
  if (pass > 2) {
    const mid = Math.floor(pass / 2);
    sim.goToPass(mid);
    out.midTrace = sha(traceToJsonLines(sim.trace));
    out.midTraceDecisions = sha(decisionsOnly(sim.trace));
    out.midState = sha(JSON.stringify(sim.state()));
    sim.runUntil(end);
    out.againSame = String(sha(traceToJsonLines(sim.trace)) === out.trace && sha(JSON.stringify(sim.state())) === out.state);
  }
  return out;
}

function generated(dir: string, name: string, version: string, timeline: TimelineOptions, extra: Record<string, unknown> = {}, nodes = 90): string {
  const stream = generateClusterStream({ nodes, podsPerNode: nodes > 90 ? 6 : 12, zones: 3, detail: 'lean', kubernetesVersion: version, seed: name, timeline });
  let text = '';
  for (const chunk of listChunks(stream.items, 'json', 0)) text += chunk;
  writeFileSync(join(dir, `${name}.json`), text);
  const base = stream.scenario! as Record<string, unknown>;
  // the case's settings are added to the generated scenario's own, not put in their place
  const controllerManager = { ...(base.controllerManager as object | undefined), ...(extra.controllerManager as object | undefined) };
  const scenario = { ...base, ...extra, ...(Object.keys(controllerManager).length ? { controllerManager } : {}) } as Record<string, unknown>;
  (scenario as { snapshot?: string }).snapshot = `${name}.json`;
  const path = join(dir, `${name}.yaml`);
  writeFileSync(path, renderObject(scenario as never, 'yaml'));
  return path;
}

function main(): number {
  const argv = process.argv.slice(2);
  const save = argv.indexOf('--save') >= 0 ? argv[argv.indexOf('--save') + 1] : undefined;
  const check = argv.indexOf('--check') >= 0 ? argv[argv.indexOf('--check') + 1] : undefined;
  const results: Record<string, Record<string, string | number>> = {};
  const examples = join(root, 'examples');
  for (const f of readdirSync(examples)
    .filter((f) => f.endsWith('.yaml'))
    .sort()) {
    results[`examples/${f}`] = fingerprint(join(examples, f));
  }
  const dir = mkdtempSync(join(tmpdir(), 'cs-fingerprint-'));
  try {
    const outage: TimelineOptions = { zoneOutage: { zone: 1, at: '60s', recoverAt: '30m' } };
    const hour = (start: number) => start + 3600 * 1_000_000;
    const cases: [string, string, TimelineOptions, Record<string, unknown>?, number?][] = [
      ['gen-1.12', 'v1.12.10', outage],
      ['gen-1.12-tbe', 'v1.12.10', outage, { controllerManager: { featureGates: { TaintBasedEvictions: true } } }],
      ['gen-1.31', 'v1.31.4', outage],
      ['gen-1.35', 'v1.35.0', outage],
      // zones larger than largeClusterThreshold (50 nodes): the rate-limited queue at work
      ['gen-1.35-large', 'v1.35.0', outage, {}, 210],
      ['gen-1.12-large', 'v1.12.10', outage, {}, 210],
      ['gen-1.35-lease-only', 'v1.35.0', { zoneOutage: { zone: 0, at: '30s', recoverAt: '20m', only: 'lease' } }],
      // the newest version; a baseline saved before it existed has no such key, and --check skips it
      ['gen-1.37', 'v1.37.0', outage],
    ];
    for (const [name, version, timeline, extra, nodes] of cases) results[name] = fingerprint(generated(dir, name, version, timeline, extra, nodes), hour);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const text = `${JSON.stringify(results, null, 1)}\n`;
  if (save) writeFileSync(save, text);
  if (check) {
    const before = JSON.parse(readFileSync(check, 'utf8')) as typeof results;
    let bad = 0;
    for (const [k, v] of Object.entries(before)) {
      for (const [f, x] of Object.entries(v)) {
        if (results[k]?.[f] !== x) {
          bad++;
          process.stdout.write(`DIFFERS ${k} ${f}: was ${x}, now ${results[k]?.[f]}\n`);
        }
      }
    }
    process.stdout.write(bad ? `${bad} fingerprint(s) differ\n` : `all ${Object.keys(before).length} fingerprints identical\n`);
    // what a change of explanations alone looks like: the traces differ, the decisions in them do not
    const cases = Object.entries(before).filter(([, v]) => v.traceDecisions !== undefined);
    const same = cases.filter(([k, v]) => results[k]?.traceDecisions === v.traceDecisions && results[k]?.midTraceDecisions === v.midTraceDecisions);
    if (bad && cases.length)
      process.stdout.write(
        `decisions without ${EXPLANATION_FIELDS.join(', ')} (traceDecisions, midTraceDecisions): ${same.length} of ${cases.length} identical\n`,
      );
    const cores = Object.entries(before).filter(([, v]) => v.traceCore !== undefined);
    if (bad && cores.length)
      process.stdout.write(
        `decisions without ${CORE_LEFT_OUT.join(', ')} (traceCore): ${cores.filter(([k, v]) => results[k]?.traceCore === v.traceCore).length} of ${cores.length} identical\n`,
      );
    return bad ? 1 : 0;
  }
  if (!save) process.stdout.write(text);
  return 0;
}

process.exitCode = main();
