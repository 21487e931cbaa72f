/**
 * `explain FILE --object REF`: why something happened (each decision about
 * the object with its chain of causes back to the world events) and why
 * something did not (the check that holds it back, and when it would fire).
 */
import { formatCheck, formatWhyNot, type Explanation } from '../../engine';
import { withWholeLists, type WhyNot } from '../../engine/trace/whyNot';
import { escapeControl, formatOffset, timesAsOffsets } from '../../engine/trace/text';
import { podLineage, type PodLineage } from '../../engine/trace/lineage';
import type { ParsedArgs } from '../args';
import { UsageError } from '../args';
import type { CliIo } from '../io';
import { openInput, reportProblems } from '../open';
import { defaultHorizon, parseUntil } from '../horizon';
import { Guards } from '../guards';
import { OBJECT_REF_FORMS, refShapeOk, resolveObjectRef, similarName } from '../objectRef';

export async function explain(args: ParsedArgs, io: CliIo): Promise<number> {
  if (args.files.length !== 1) throw new UsageError('explain takes exactly one FILE');
  if (!args.object) throw new UsageError('explain needs --object, e.g. --object Pod/default/web-1 or --object Node/node-a1');
  if (!refShapeOk(args.object)) throw new UsageError(`--object is ${OBJECT_REF_FORMS}, not "${args.object}"`);
  const guards = new Guards(args, io);
  const opened = openInput(args.files[0], args, io, guards);
  if (!opened.ok) return opened.code;
  const { sim, scenario } = opened;
  const until = args.until !== undefined ? parseUntil(args.until, sim.startTime) : defaultHorizon(scenario, sim.startTime);
  // stopped by a guard, the explanation is as of where the run stopped (and stderr says so)
  const reported = sim.problems.length;
  const finished = await guards.drive(sim, () => sim.runUntil(until), undefined, until);
  // kubectl's forms and short names are looked up in the clusters before and after the run
  const resolved = resolveObjectRef(args.object, [scenario.snapshot.cluster, sim.cluster]);
  if ('error' in resolved) {
    io.err(`explain: ${resolved.error}\n`);
    return 2;
  }
  const object = resolved.ref;
  const ex = sim.explain(object);
  if (ex.neverExisted && finished) {
    // a name that matches nothing is most often a typo: exit 2 (bad usage), as the spec's exit codes ask, so a script notices
    const hint = similarName(
      object,
      [scenario.snapshot.cluster, sim.cluster],
      sim.zones().map((z) => z.zone),
    );
    io.err(
      `explain: ${object} never existed up to ${formatOffset(sim.now / 1000 - sim.startTime / 1000)}: it is not in the snapshot and nothing in the timeline created it${hint ? ` (did you mean ${hint}?)` : ''}\n`,
    );
    return 2;
  }
  if (args.format === 'json' || args.format === 'yaml') io.out(`${JSON.stringify(ex)}\n`);
  else {
    const shown = args.lists ? { ...ex, whyNot: ex.whyNot.map(withWholeLists) } : ex;
    io.out(formatExplanation(shown, sim.trace.length ? sim.trace.at(-1)!.time : '', podLineage(sim.trace, object), sim.startTime / 1000));
  }
  // what the run itself found, after the output, as replay says it
  reportProblems(io, sim.problems.slice(reported));
  return finished ? 0 : guards.report(sim);
}

/**
 * `startMs`: the scenario's start; then times read as offsets from it, as scenarios are written (a decision's
 * time alone, a time inside a message or a value with the clock time in brackets).
 */
export function formatExplanation(ex: Explanation, asOf: string, lineage?: PodLineage, startMs = NaN): string {
  const at = (t: string) => (Number.isNaN(startMs) || Number.isNaN(Date.parse(t)) ? t : formatOffset(Date.parse(t) - startMs));
  const lines: string[] = [`${ex.object}${ex.exists ? '' : ' (does not exist now)'}${asOf ? `, as of ${timesAsOffsets(asOf, startMs)}` : ''}`];
  // a replacement pod's own decisions start at its binding: where it came from is the ReplicaSet's PodsCreated
  if (lineage?.created) {
    const c = lineage.created;
    lines.push('', `Created by ${lineage.replicaSet}: ${at(c.time)}  #${c.seq} ${c.action}: ${timesAsOffsets(c.summary, startMs)}`);
    for (const a of lineage.answers) lines.push(`    replacing  ${at(a.time)}  #${a.seq} ${a.action} ${a.object}: ${timesAsOffsets(a.summary, startMs)}`);
  }
  if (!ex.happened.length) lines.push('', 'Nothing was decided about it.');
  for (const { decision, chain } of ex.happened) {
    lines.push('', `${at(decision.time)}  #${decision.seq} ${decision.action} (${decision.controller}): ${timesAsOffsets(decision.summary, startMs)}`);
    for (const c of decision.because) lines.push(`    because ${timesAsOffsets(formatCheck(c), startMs)}`);
    if (decision.machine) lines.push(`    machine ${decision.machine.id}: ${decision.machine.from} -> ${decision.machine.to} on ${decision.machine.event}`);
    lines.push(`    source  ${decision.source}`);
    if (chain.length) {
      lines.push('    caused by:');
      for (const c of chain) lines.push(`      ${at(c.time)}  #${c.seq} ${c.action} ${c.object}: ${timesAsOffsets(c.summary, startMs)}`);
    }
  }
  if (ex.whyNot.length) {
    lines.push('', 'Why not (yet):');
    for (const w of ex.whyNot) lines.push(`  ${timesAsOffsets(formatWhyNot(w), startMs)}`);
    if (ex.whyNot.some(cutLists)) lines.push('', 'Lists above cut at 20 entries ("and N more"): --lists prints every one.');
  }
  // Names and messages come from the input: a terminal must not obey control characters in them.
  return `${lines.map(escapeControl).join('\n')}\n`;
}

/** Whether a why-not (or one it chains to) shows a list cut short: its `lists` holds more than its values show. */
function cutLists(w: WhyNot): boolean {
  const values = { ...w.check.values, ...w.blocking?.values };
  return (
    Object.entries(w.lists ?? {}).some(([k, v]) => Array.isArray(values[k]) && (values[k] as unknown[]).length < v.length) || (w.via ? cutLists(w.via) : false)
  );
}
