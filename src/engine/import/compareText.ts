/** The comparison for people (aligned text) and for programs (one JSON object). */
import { formatDuration, formatTime } from '../model/time';
import { formatCheck } from '../trace/text';
import type { CompareReport, SimUnit } from './compare';

const hms = (t: number) => formatTime(t).slice(11, 23);
const signed = (d: number) => `${d >= 0 ? '+' : '-'}${formatDuration(Math.abs(d))}`;

function why(s: SimUnit): string {
  const first = s.decision.because[0];
  return first ? formatCheck(first) : s.decision.summary;
}

export function formatCompareText(r: CompareReport, title: string): string {
  let out = `${title}\n`;
  out += `evidence span: ${formatTime(r.window.from)} .. ${formatTime(r.window.to)} (tolerance ${formatDuration(r.tolerance)})\n`;
  const label = (u: { action: string; object: string; detail?: string }) => `${u.action.padEnd(22)} ${u.object}${u.detail ? `  ${u.detail}` : ''}`;
  out += `\nmatched (${r.matched.length})\n`;
  for (const m of r.matched) {
    out += `  ${hms(m.real.time)}  ${label(m.real)}   simulated ${signed(m.delta)}\n`;
    if (m.real.entry.evidence) out += `      real: ${m.real.entry.evidence}\n`;
    out += `      simulated why: ${why(m.sim)}\n`;
  }
  out += `\nonly real (${r.onlyReal.length})\n`;
  for (const o of r.onlyReal) {
    out += `  ${hms(o.real.time)}  ${label(o.real)}\n`;
    if (o.real.entry.evidence) out += `      real: ${o.real.entry.evidence}\n`;
    for (const reason of o.reasons) out += `      likely: ${reason}\n`;
  }
  out += `\nonly simulated (${r.onlySimulated.length})\n`;
  for (const o of r.onlySimulated) {
    out += `  ${hms(o.sim.time)}  ${label(o.sim)}   (seq ${o.sim.decision.seq})\n`;
    out += `      simulated why: ${why(o.sim)}\n`;
    for (const reason of o.reasons) out += `      likely: ${reason}\n`;
  }
  const nc = Object.entries(r.notCompared).sort(([a], [b]) => a.localeCompare(b));
  if (nc.length) out += `\nnot compared (the evidence shows no decisions of these kinds): ${nc.map(([a, n]) => `${n} ${a}`).join(', ')}\n`;
  if (r.afterEvidence) out += `not compared: ${r.afterEvidence} simulated after the evidence ends\n`;
  out += `\n${r.agree ? 'AGREE' : 'DIFFER'}: ${r.matched.length} matched, ${r.onlyReal.length} only real, ${r.onlySimulated.length} only simulated\n`;
  return out;
}

export function compareToJson(r: CompareReport): unknown {
  return {
    agree: r.agree,
    tolerance: formatDuration(r.tolerance),
    window: { from: formatTime(r.window.from), to: formatTime(r.window.to) },
    matched: r.matched.map((m) => ({
      time: formatTime(m.real.time),
      action: m.real.action,
      object: m.real.object,
      detail: m.real.detail,
      delta: signed(m.delta),
      seq: m.sim.decision.seq,
      evidence: m.real.entry.evidence,
    })),
    onlyReal: r.onlyReal.map((o) => ({
      time: formatTime(o.real.time),
      action: o.real.action,
      object: o.real.object,
      detail: o.real.detail,
      evidence: o.real.entry.evidence,
      reasons: o.reasons,
    })),
    onlySimulated: r.onlySimulated.map((o) => ({
      time: formatTime(o.sim.time),
      action: o.sim.action,
      object: o.sim.object,
      detail: o.sim.detail,
      seq: o.sim.decision.seq,
      why: o.sim.decision.because,
      reasons: o.reasons,
    })),
    notCompared: r.notCompared,
    afterEvidence: r.afterEvidence,
  };
}
