/**
 * `replay FILE`: run the scenario and print the trace, the final state, or
 * both, as text for people or JSON/YAML for machines.
 */
import { stringify } from 'yaml';
import { formatTime } from '../../engine/model/time';
import { renderTraceText, escapeControl } from '../../engine/trace/text';
import { orderedDecision, traceToJsonLines, type Simulation } from '../../engine';
import type { Scenario } from '../../engine/snapshot/types';
import type { ParsedArgs } from '../args';
import { UsageError } from '../args';
import type { CliIo } from '../io';
import { openInput, reportProblems } from '../open';
import { defaultHorizon, parseUntil } from '../horizon';
import { formatStateText } from '../stateText';
import { Guards } from '../guards';

export async function replay(args: ParsedArgs, io: CliIo): Promise<number> {
  if (args.files.length !== 1) throw new UsageError('replay takes exactly one FILE');
  if (args.steps !== undefined && args.until !== undefined) throw new UsageError('give --until or --steps, not both');
  const guards = new Guards(args, io);
  const opened = openInput(args.files[0], args, io, guards);
  if (!opened.ok) return opened.code;
  const { sim, scenario } = opened;
  const reported = sim.problems.length;
  let run: () => void;
  let until: number | undefined;
  if (args.steps !== undefined) {
    let left = args.steps;
    // a step stopped half-way is taken up again where it stopped
    run = () => {
      while (left > 0) {
        sim.step();
        if (sim.stopped) return;
        left--;
      }
    };
  } else {
    const t = args.until !== undefined ? parseUntil(args.until, sim.startTime) : defaultHorizon(scenario, sim.startTime);
    until = t;
    run = () => sim.runUntil(t);
  }
  // JSON Lines go out as they are decided (whole lines), so a long run shows its progress and a stop keeps it.
  const streaming = args.format === 'json' && args.output === 'trace';
  let printed = 0;
  const flush = () => {
    if (streaming && printed < sim.trace.length) {
      io.out(traceToJsonLines(sim.trace.slice(printed)));
      printed = sim.trace.length;
    }
  };
  const finished = await guards.drive(sim, run, flush, until);
  if (!streaming) print(args, io, sim, scenario);
  // what the run itself found (an event's target missing, a pod left to the pod GC that is not
  // simulated, the horizon), after the output as openInput's are before it
  reportProblems(io, sim.problems.slice(reported));
  // the output so far first, then (stderr) why it stops there
  return finished ? 0 : guards.report(sim);
}

/** Everything but streamed JSON Lines, printed once the run ends (or stops). */
function print(args: ParsedArgs, io: CliIo, sim: Simulation, scenario: Scenario): void {
  const wantTrace = args.output !== 'state';
  const wantState = args.output !== 'trace';
  if (args.format === 'json') {
    if (args.output === 'state') io.out(`${JSON.stringify(sim.state())}\n`);
    else io.out(`${JSON.stringify({ state: sim.state(), trace: sim.trace.map(orderedDecision) })}\n`);
    return;
  }
  if (args.format === 'yaml') {
    const doc =
      args.output === 'trace'
        ? sim.trace.map(orderedDecision)
        : args.output === 'state'
          ? sim.state()
          : { state: sim.state(), trace: sim.trace.map(orderedDecision) };
    io.out(stringify(doc, { lineWidth: 0 }));
    return;
  }
  if (wantTrace) {
    const start = formatTime(sim.startTime);
    const t = renderTraceText(sim.trace, { color: io.color, includeNoise: args.ticks, start, width: io.columns });
    const shown = sim.trace.length - t.hidden;
    const hidden = args.ticks ? '' : `; ${t.hidden} monitor-pass tick(s) hidden (--ticks shows them)`;
    io.out(`# ${escapeControl(scenario.name)}: Kubernetes ${sim.behaviour.version.text}, ${shown} decision(s)${hidden}\n`);
    io.out(`# times are relative to the start, ${start}\n`);
    io.out(t.text);
    if (t.cut) io.out(`# ${t.cut} line(s) cut to the terminal's width; --format json has them whole\n`);
  }
  if (wantState) {
    if (wantTrace) io.out('\n');
    io.out(formatStateText(sim.state(), io.color));
  }
}
