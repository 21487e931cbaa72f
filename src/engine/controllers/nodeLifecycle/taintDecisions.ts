/**
 * The trace of one taint patch: a TaintAdded per added or refreshed taint (remembered as the
 * taint's fact, so that later decisions about it cite it) and a TaintRemoved per removed one.
 * Every NoSchedule and NoExecute pass writes its patch through here.
 */
import type { ControllerHost } from '../controllerHost';
import type { ObjectRef, Taint } from '../../model/types';
import type { Check, MachineTransition } from '../../trace/decision';
import type { NodeLifecycleState } from './state';
import type { SwapResult } from './taints';

export interface TaintPatchTrace {
  because: Check[];
  /** the decisions behind the patch; a removal also cites the decision that added the taint */
  cause?: number[];
  machine?: MachineTransition | null;
  source: string;
  summary(t: Taint, change: 'added' | 'refreshed' | 'removed'): string;
}

export function recordTaintPatch(nlc: NodeLifecycleState, host: ControllerHost, ref: ObjectRef, r: SwapResult, p: TaintPatchTrace): void {
  const add = (t: Taint, change: 'added' | 'refreshed') => {
    const seq = nlc.decide(host, {
      action: 'TaintAdded',
      object: ref,
      summary: p.summary(t, change),
      because: p.because,
      causes: p.cause,
      machine: p.machine,
      source: p.source,
    });
    host.remember(ref, `taint:${t.key}:${t.effect}`, seq);
  };
  for (const t of r.added) add(t, 'added');
  for (const t of r.refreshed) add(t, 'refreshed');
  for (const t of r.removed) {
    const causes = p.cause && nlc.causes(...p.cause, host.recall(ref, `taint:${t.key}:${t.effect}`));
    nlc.decide(host, {
      action: 'TaintRemoved',
      object: ref,
      summary: p.summary(t, 'removed'),
      because: p.because,
      causes,
      machine: p.machine,
      source: p.source,
    });
  }
}
