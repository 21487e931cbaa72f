/**
 * The machines that keep no state of their own (the node lifecycle's doNodeProcessingPassMachines.ts,
 * doFixDeprecatedTaintKeyPassMachine.ts and controllerUtilsMachines.ts, the ReplicaSet controller's
 * updateReplicaSetStatusMachine.ts), as the machine view draws them. Each answer starts from `observed` and ends in a final state; an instance
 * (`noScheduleTaints/NODE`, `deletePods/NS/NAME`, `replicaSetStatus/NS/NAME`) is what its machine
 * answered for one object. The controller keeps no copy of these answers (at 150,000 pods a
 * map of them would weigh on every checkpoint): the decision that recorded an answer holds it, so an
 * instance is drawn in the state its last recorded answer reached, found in the trace.
 */
import type { AnyStateMachine } from 'xstate';
import type { Decision } from '../trace/decision';
import type { DecisionList } from '../trace/decisionLog';
import type { MachineView } from '../trace/views';
import { deletePodsPodMachine, markPodsNotReadyMachine } from './nodeLifecycle/controllerUtilsMachines';
import { nodeLabelsMachine, noScheduleTaintsMachine } from './nodeLifecycle/doNodeProcessingPassMachines';
import { updateReplicaSetStatusMachine } from './replicaSet/updateReplicaSetStatusMachine';
import { claimPodsMachine } from './replicaSet/claimPodsMachine';
import { fixDeprecatedTaintKeyMachine } from './nodeLifecycle/doFixDeprecatedTaintKeyPassMachine';

export interface StatelessMachine {
  /** the instances' id prefix: `PREFIX/NAME` for a node, `PREFIX/NS/NAME` for a pod or a ReplicaSet */
  prefix: string;
  /** the kind of object an instance answers about */
  kind: 'Node' | 'Pod' | 'ReplicaSet';
  machine: AnyStateMachine;
}

export const STATELESS_MACHINES: readonly StatelessMachine[] = [
  { prefix: 'noScheduleTaints', kind: 'Node', machine: noScheduleTaintsMachine },
  { prefix: 'nodeLabels', kind: 'Node', machine: nodeLabelsMachine },
  { prefix: 'fixDeprecatedTaintKey', kind: 'Node', machine: fixDeprecatedTaintKeyMachine },
  { prefix: 'markPodsNotReady', kind: 'Node', machine: markPodsNotReadyMachine },
  { prefix: 'deletePods', kind: 'Pod', machine: deletePodsPodMachine },
  { prefix: 'claimPods', kind: 'ReplicaSet', machine: claimPodsMachine },
  { prefix: 'replicaSetStatus', kind: 'ReplicaSet', machine: updateReplicaSetStatusMachine },
];

const byPrefix = new Map(STATELESS_MACHINES.map((m) => [m.prefix, m]));

/** The stateless machine an instance id names, or undefined for any other id. */
export function statelessMachineOf(id: string): StatelessMachine | undefined {
  const slash = id.indexOf('/');
  return slash > 0 ? byPrefix.get(id.slice(0, slash)) : undefined;
}

/** The ids of the stateless machines that may answer about an object (`Node/NAME`, `Pod/NS/NAME`, `ReplicaSet/NS/NAME`). */
export function statelessMachineIds(ref: string): string[] {
  const slash = ref.indexOf('/');
  const kind = ref.slice(0, slash);
  const name = ref.slice(slash + 1);
  return STATELESS_MACHINES.filter((m) => m.kind === kind).map((m) => `${m.prefix}/${name}`);
}

/**
 * An instance's view: its machine's definition, in the state its last answer in `trace` reached
 * (`observed`, its initial state, before any), with that answer as the last transition. Undefined
 * for an id that is not a stateless machine's. `seqs`: the seqs of the decisions whose machine is `id`
 * (SimHost.byMachine), read instead of the whole trace.
 */
export function statelessMachineView(id: string, trace: DecisionList, seqs?: readonly number[]): MachineView | undefined {
  const m = statelessMachineOf(id);
  if (!m) return undefined;
  const d = lastOfMachine(id, trace, seqs);
  if (d?.machine) return { id, state: d.machine.to, definition: m.machine.definition, lastTransition: { ...d.machine, seq: d.seq } };
  return { id, state: String(m.machine.config.initial), definition: m.machine.definition };
}

/**
 * The newest decision whose machine is `id`, a failed write (ApiCallFailed) left out: it records the
 * answer it was for, which was not carried out. From `seqs` (that machine's decisions) when given.
 */
export function lastOfMachine(id: string, trace: DecisionList, seqs?: readonly number[]): Decision | undefined {
  if (seqs) {
    for (let i = seqs.length - 1; i >= 0; i--) {
      const d = trace.at(seqs[i]! - 1)!;
      if (d.action !== 'ApiCallFailed') return d;
    }
    return undefined;
  }
  for (let i = trace.length - 1; i >= 0; i--) {
    const d = trace.at(i)!;
    if (d.machine?.id === id && d.action !== 'ApiCallFailed') return d;
  }
  return undefined;
}
