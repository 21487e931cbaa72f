/**
 * A restart read from the node lifecycle controller's own events. The controller records RegisteredNode for a node the
 * first time one of its monitor passes sees it (`knownNodeSet`, pkg/controller/nodelifecycle/node_lifecycle_controller.go
 * monitorNodeHealth), and forgets it only with RemovingNode. That memory lives in the process: a node registered again
 * without RemovingNode between was registered by a new controller (kube-controller-manager restarted, or another
 * instance became leader). Events keep that even where no log or Lease of the restart is given.
 */
import type { Micros } from '../model/time';
import type { Evidence, RealDecision } from './types';

/** A scenario event (infer.ts InferredEvent): the restart, with the evidence and the inference as comments. */
export interface Restart {
  at: Micros;
  fields: { restartControllerManager: true };
  why: string[];
}

/**
 * The restarts the registrations imply, beyond `known` (restarts the evidence shows otherwise, as times): one per new
 * controller, at its first registration again (a simulated controller's first pass comes at its start), and never at
 * or before `after` (the scenario's start).
 */
export function restartsFromRegistrations(
  reality: readonly Pick<RealDecision, 'action' | 'object' | 'time' | 'evidence'>[],
  known: readonly Micros[],
  after: Micros,
  cite: (e: Evidence) => string,
): Restart[] {
  const restarts = [...known].sort((a, b) => a - b);
  const out: Restart[] = [];
  let registered = new Set<string>();
  let next = 0;
  for (const d of [...reality].sort((a, b) => a.time - b.time)) {
    if (d.action !== 'NodeRegistered' && d.action !== 'NodeRemoved') continue;
    // a restart the evidence shows: what is registered after it, the new controller registered
    while (next < restarts.length && restarts[next] <= d.time) {
      registered = new Set();
      next++;
    }
    if (d.action === 'NodeRemoved') {
      registered.delete(d.object);
      continue;
    }
    if (registered.has(d.object)) {
      const at = Math.max(after + 1000, d.time);
      out.push({
        at,
        fields: { restartControllerManager: true },
        why: [
          `evidence: ${cite(d.evidence)}`,
          `inferred: ${d.object} registered again with no RemovingNode between: a new node lifecycle controller (kube-controller-manager restarted, or another became leader) registers every node it finds`,
        ],
      });
      registered = new Set();
    }
    registered.add(d.object);
  }
  return out;
}
