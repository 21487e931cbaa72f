/**
 * Injected API faults (the scenario's `fail:` events), as the host answers a controller's API call:
 * the next calls of a kind fail, each recording ApiCallFailed, until the count is used up.
 */
import type { ApiResource, ApiVerb } from '../controllers/controllerHost';
import type { ObjectRef } from '../model/types';
import type { ControllerName, DecisionInput, MachineTransition } from '../trace/decision';
import { becauseWithGuards } from '../machines/guardChecks';

export interface Fault {
  remaining: number;
  /** the FaultInjected decision */
  seq: number;
}

export function armFault(faults: Map<string, Fault>, verb: ApiVerb, resource: ApiResource, count: number, seq: number): void {
  const key = `${verb} ${resource}`;
  const f = faults.get(key);
  faults.set(key, { remaining: (f?.remaining ?? 0) + count, seq });
}

export function faultsMayFail(faults: ReadonlyMap<string, Fault>): boolean {
  // a fault used up fails nothing more: the why-nots read the retry that follows it as certain
  for (const f of faults.values()) if (f.remaining > 0) return true;
  return false;
}

/** ControllerHost.apiCall against `faults`: false (and ApiCallFailed decided) when a fault of the call's kind is left. */
export function apiCallThrough(
  faults: ReadonlyMap<string, Fault>,
  host: { decide(d: DecisionInput): number },
  controller: ControllerName,
  verb: ApiVerb,
  resource: ApiResource,
  object: ObjectRef,
  machine?: MachineTransition | null,
): boolean {
  // most scenarios inject no fault: no key string per call then (100,000 calls in an outage hour at 5,000 nodes)
  if (faults.size === 0) return true;
  const f = faults.get(`${verb} ${resource}`);
  if (!f || f.remaining <= 0) return true;
  f.remaining--;
  host.decide({
    controller,
    action: 'ApiCallFailed',
    object,
    summary: `${verb} ${resource} ${object} failed: injected fault (${f.remaining} more to fail)`,
    because: becauseWithGuards(
      [{ rule: 'a fail: event makes the next API calls of this kind fail', values: { verb, resource, remaining: f.remaining } }],
      machine,
    ),
    causes: [f.seq],
    machine: machine ?? null,
    source: 'scenario: fail',
  });
  return false;
}
