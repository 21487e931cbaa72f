/**
 * The imported scenario as YAML a person can read and edit: comments say
 * where every inferred event came from and what was assumed, and the real
 * decisions go under `reality:` for `compare`.
 */
import { stringify } from 'yaml';
import { formatTime } from '../model/time';
import { SCENARIO_API_VERSION } from '../snapshot/scenarioHeader';
import type { ImportResult } from './types';
import { cite, type ScenarioPlan } from './infer';

export interface RenderOptions {
  name: string;
  /** `snapshot:` paths as the user gave them */
  snapshots: string[];
  /** the inputs, as the user named them */
  inputs: ImportResult['inputs'];
}

const comment = (text: string, indent = ''): string => `${indent}# ${text.replace(/\s*\n\s*/g, ' ')}\n`;

export function renderScenario(plan: ScenarioPlan, opts: RenderOptions): string {
  let out = comment('Imported by `controller-stepper import` from:');
  for (const i of opts.inputs) out += comment(`  ${i.file} (${i.format}, ${i.lines} lines)`);
  out += comment('Edit it and re-run: `controller-stepper compare` replays it and lines the simulated decisions up with `reality:`.');
  for (const a of plan.assumptions) out += comment(`assumed: ${a}`);
  out += `apiVersion: ${SCENARIO_API_VERSION}\nkind: Scenario\nmetadata:\n  name: ${JSON.stringify(opts.name)}\n`;
  out += comment(plan.versionWhy);
  out += `kubernetesVersion: "${plan.version}"\n`;
  out += comment(`start: ${plan.startWhy}`);
  out += `startTime: "${formatTime(plan.startTime)}"\n`;
  if (opts.snapshots.length) {
    out += comment("a relative path is read from this file's folder");
    out += `snapshot: ${opts.snapshots.length === 1 ? JSON.stringify(opts.snapshots[0]) : `[${opts.snapshots.map((s) => JSON.stringify(s)).join(', ')}]`}\n`;
  }
  if (plan.objects.length) {
    out += comment('objects the evidence names that no snapshot holds (made up: see the assumptions above)');
    out += 'objects:\n' + indent(stringify(plan.objects, { lineWidth: 0 }), '  ');
  }
  if (plan.events.length) {
    out += 'events:\n';
    for (const e of plan.events) {
      for (const w of e.why) out += comment(w, '  ');
      out += indent(stringify([{ at: formatTime(e.at), ...e.fields }], { lineWidth: 0 }), '  ');
    }
  } else {
    out += comment('no world event could be inferred from the evidence');
    out += 'events: []\n';
  }
  out += comment('what the real controllers did, from the evidence: `compare` lines these up with the simulation');
  if (!plan.reality.length) return out + 'reality: []\n';
  out += 'reality:\n';
  for (const d of plan.reality) {
    const entry: Record<string, unknown> = { at: formatTime(d.time), action: d.action, object: d.object };
    if (d.detail) entry.detail = d.detail;
    entry.controller = d.controller;
    entry.evidence = cite(d.evidence);
    if (d.also?.length) entry.alsoIn = d.also.map(cite).join(' | ');
    out += indent(stringify([entry], { lineWidth: 0 }), '  ');
  }
  return out;
}

function indent(text: string, by: string): string {
  return text
    .split('\n')
    .map((l) => (l ? by + l : l))
    .join('\n')
    .replace(/\n*$/, '\n');
}
