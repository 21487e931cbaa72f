/** The scenario's `events:` as the timeline marks them: when, and a one-line description. */
import { formatTime, type Micros } from '../engine/model/time';
import type { NodeTarget, ScenarioEvent } from '../engine/snapshot/types';
import type { ScenarioEventMark } from '../protocol/webview';

function target(t: NodeTarget): string {
  if (t.nodes?.length) return t.nodes.length > 3 ? `${t.nodes.slice(0, 3).join(', ')} and ${t.nodes.length - 3} more` : t.nodes.join(', ');
  if (t.zone !== undefined) return `zone ${t.zone}`;
  return 'nodes by selector';
}

function describe(e: ScenarioEvent): string {
  switch (e.kind) {
    case 'kubelet':
      return `kubelet ${e.action}${e.only ? ` (${e.only} only)` : ''}: ${target(e.target)}`;
    case 'condition':
      return `condition ${e.condition.type}=${e.condition.status}: ${target(e.target)}`;
    case 'taint':
      return `taint ${e.taint.key}:${e.taint.effect}: ${target(e.target)}`;
    case 'untaint':
      return `untaint ${e.taint.key}${e.taint.effect ? `:${e.taint.effect}` : ''}: ${target(e.target)}`;
    case 'apply':
      return `apply ${String(e.object.kind ?? '')}/${String((e.object.metadata as { name?: unknown } | undefined)?.name ?? '')}`;
    case 'patch':
      return `patch ${e.ref}`;
    case 'delete':
      return `delete ${e.ref}`;
    case 'pod':
      return `pod ${e.pod}${e.phase ? ` phase ${e.phase}` : ''}${e.ready !== undefined ? ` ready ${e.ready}` : ''}`;
    case 'scale':
      return `scale ${e.replicaSet} to ${e.replicas}`;
    case 'fail':
      return `fail the next ${e.count} ${e.verb} ${e.resource}`;
    case 'restartControllerManager':
      return e.failover ? 'controller manager failover' : 'controller manager restart';
  }
}

export function scenarioEventMarks(events: readonly ScenarioEvent[] | undefined, start: Micros): ScenarioEventMark[] {
  return (events ?? []).map((e) => ({ at: formatTime('offset' in e.at ? start + e.at.offset : e.at.time), text: describe(e) }));
}
