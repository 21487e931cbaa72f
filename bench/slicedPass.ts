/**
 * The outage's passes run as the panel's idle slices run them (goToPass cut by shouldStop and
 * shouldYield every N ms) beside one uncut call, on two simulations of the same scenario: the
 * sliced total, how many calls, and the longest blocks (a click in the host waits for one).
 *
 *   flock /tmp/cs-bench.lock node --max-old-space-size=16000 --import tsx bench/slicedPass.ts SCENARIO [SLICE_MS] [FROM] [TO]
 */
import { loadScenario } from '../src/engine/snapshot/scenario';
import { createSimulation } from '../src/engine/simulation/simulation';
import { nodeFs } from '../src/platform/nodeFs';

const [file, sliceArg, fromArg, toArg] = process.argv.slice(2);
const SLICE = Number(sliceArg ?? 10);
const FROM = Number(fromArg ?? 17);
const TO = Number(toArg ?? 22);
const scenario = loadScenario(file, nodeFs(), { maxFileBytes: Number.MAX_SAFE_INTEGER });
let until = Infinity;
const over = () => performance.now() >= until;
const whole = createSimulation(scenario);
const cut = createSimulation(scenario, { shouldStop: over, shouldYield: over });
for (const s of [whole, cut]) s.goToPass(FROM - 1, { interactive: true });
for (let p = FROM; p <= TO; p++) {
  const t0 = performance.now();
  whole.goToPass(p, { interactive: true });
  const wholeMs = performance.now() - t0;
  const calls: number[] = [];
  const c0 = performance.now();
  for (;;) {
    const s0 = performance.now();
    until = s0 + SLICE;
    cut.goToPass(p, { interactive: true });
    calls.push(performance.now() - s0);
    if (cut.pass === p && !cut.partDone) break;
    if (calls.length > 100_000) throw new Error(`pass ${p} does not end`);
  }
  until = Infinity;
  const cutMs = performance.now() - c0;
  const longest = [...calls].sort((a, b) => b - a).slice(0, 5);
  process.stdout.write(
    `pass ${p}: whole ${wholeMs.toFixed(0)} ms (${whole.trace.length} decisions); sliced ${cutMs.toFixed(0)} ms in ${calls.length} calls, longest ${longest.map((x) => x.toFixed(0)).join(', ')} ms; same trace length ${cut.trace.length === whole.trace.length}\n`,
  );
}
