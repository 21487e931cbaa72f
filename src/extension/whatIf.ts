/**
 * Change Setting and Re-run: the same scenario with one setting changed, the
 * two traces compared. Decisions are matched by (controller, action, object)
 * in order of occurrence; MonitorPass noise is ignored.
 */
import type { Decision } from '../engine/trace/decision';
import type { DecisionList } from '../engine/trace/decisionLog';
import type { ComparedDecision, WhatIfComparison } from '../protocol/webview';

const keyOf = (d: Decision) => `${d.controller} ${d.action} ${d.object}`;
const brief = (d: Decision): ComparedDecision => ({ action: d.action, object: d.object, time: d.time, summary: d.summary });

export function compareTraces(
  original: DecisionList,
  changed: DecisionList,
  info: { setting: string; value: string; until: string },
  isNoise: (d: Decision) => boolean,
): WhatIfComparison {
  const a = original.filter((d) => !isNoise(d));
  const b = changed.filter((d) => !isNoise(d));
  // the n-th occurrence of a key in one run is paired with the n-th in the other
  const queues = new Map<string, Decision[]>();
  for (const d of b) {
    const q = queues.get(keyOf(d));
    if (q) q.push(d);
    else queues.set(keyOf(d), [d]);
  }
  const result: WhatIfComparison = { ...info, onlyOriginal: [], onlyChanged: [], moved: [], same: 0 };
  const paired = new Set<Decision>();
  for (const d of a) {
    const match = queues.get(keyOf(d))?.shift();
    if (!match) {
      result.onlyOriginal.push(brief(d));
      continue;
    }
    paired.add(match);
    if (match.time === d.time) result.same++;
    else result.moved.push({ action: d.action, object: d.object, original: d.time, changed: match.time });
  }
  for (const d of b) if (!paired.has(d)) result.onlyChanged.push(brief(d));
  // first difference in time order
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x && y && keyOf(x) === keyOf(y) && x.time === y.time) continue;
    result.firstDifference = !x
      ? `only with ${info.setting}=${info.value}: ${y.time} ${y.action} ${y.object}`
      : !y
        ? `only originally: ${x.time} ${x.action} ${x.object}`
        : `originally ${x.time} ${x.action} ${x.object}; with ${info.setting}=${info.value}: ${y.time} ${y.action} ${y.object}`;
    break;
  }
  return result;
}
