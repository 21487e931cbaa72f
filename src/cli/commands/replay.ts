/**
 * `replay FILE`: run the scenario and print the trace, the final state, or
 * both, as text for people or JSON/YAML for machines.
 */
import { stringify } from 'yaml';
import { formatTime } from '../../engine/model/time';
import { renderTraceText, escapeControl } from '../../engine/trace/text';
import { orderedDecision, traceToJsonLines } from '../../engine';
import type { ParsedArgs } from '../args';
import { UsageError } from '../args';
import type { CliIo } from '../io';
import { openInput } from '../open';
import { defaultHorizon, parseUntil } from '../horizon';
import { formatStateText } from '../stateText';

export function replay(args: ParsedArgs, io: CliIo): number {
  if (args.files.length !== 1) throw new UsageError('replay takes exactly one FILE');
  if (args.steps !== undefined && args.until !== undefined) throw new UsageError('give --until or --steps, not both');
  const opened = openInput(args.files[0], args, io);
  if (!opened.ok) return opened.code;
  const { sim, scenario } = opened;
  if (args.steps !== undefined) {
    for (let i = 0; i < args.steps; i++) sim.step();
  } else {
    sim.runUntil(args.until !== undefined ? parseUntil(args.until, sim.startTime) : defaultHorizon(scenario, sim.startTime));
  }
  const wantTrace = args.output !== 'state';
  const wantState = args.output !== 'trace';
  if (args.format === 'json') {
    if (args.output === 'trace') io.out(traceToJsonLines(sim.trace));
    else if (args.output === 'state') io.out(`${JSON.stringify(sim.state())}\n`);
    else io.out(`${JSON.stringify({ state: sim.state(), trace: sim.trace.map(orderedDecision) })}\n`);
    return 0;
  }
  if (args.format === 'yaml') {
    const doc = args.output === 'trace' ? sim.trace.map(orderedDecision) : args.output === 'state' ? sim.state() : { state: sim.state(), trace: sim.trace.map(orderedDecision) };
    io.out(stringify(doc, { lineWidth: 0 }));
    return 0;
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
  return 0;
}
