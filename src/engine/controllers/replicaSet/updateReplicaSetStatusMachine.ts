/**
 * The machine of updateReplicaSetStatus's one write (pkg/controller/replicaset/replica_set_utils.go):
 * asked with the status calculateStatus made beside the one the ReplicaSet has, its guards are
 * upstream's short cut, field by field in its order ("if rs.Status.Replicas == newStatus.Replicas &&
 * ... && reflect.DeepEqual(rs.Status.Conditions, newStatus.Conditions) { return rs, nil }"): the first
 * field that differs takes the transition to `updated`, as Go's && stops at the first difference.
 * No transition: nothing to write. Like the node lifecycle's single writes
 * (nodeLifecycle/doNodeProcessingPassMachines.ts) it keeps no state per ReplicaSet (the status is
 * the state): each answer starts from `observed`, memoised per the guards' answers.
 */
import { setup } from 'xstate';
import { MachineTable, type TableStep } from '../../machines/table';
import { attachGuards, guardChecks, type GuardRules } from '../../machines/guardChecks';
import type { Check, MachineTransition } from '../../trace/decision';
import type { ReplicaSetRecord, ReplicaSetStatus } from '../../model/types';

type Pair<T> = { from: T; to: T };

export type UpdateStatusEvent = {
  type: 'UPDATE_STATUS';
  replicas: Pair<number>;
  fullyLabeledReplicas: Pair<number>;
  readyReplicas: Pair<number>;
  availableReplicas: Pair<number>;
  terminatingReplicas: Pair<number | undefined>;
  /** metadata.generation and status.observedGeneration */
  generation: { generation: number; observedGeneration: number };
  /** the conditions as text: reflect.DeepEqual of two lists of plain fields */
  conditions: Pair<string>;
};

const differs = (p: Pair<unknown>): boolean => p.from !== p.to;

/** The guards in upstream's order: the order of the transitions below. */
const FIELDS = ['replicas', 'fullyLabeledReplicas', 'readyReplicas', 'availableReplicas', 'terminatingReplicas'] as const;

/** Conditions in a check: type=status (reason) each, not the text compared. */
const showConditions = (v: unknown): unknown => {
  const p = v as Pair<string>;
  const brief = (text: string) => (JSON.parse(text) as ReplicaSetStatus['conditions']).map((c) => `${c.type}=${c.status}${c.reason ? ` (${c.reason})` : ''}`);
  return { from: brief(p.from), to: brief(p.to) };
};

export const updateReplicaSetStatusGuardRules: GuardRules = {
  replicasDiffer: { rule: 'updateReplicaSetStatus: status.replicas differs from the one calculated', reads: ['replicas'] },
  fullyLabeledReplicasDiffer: { rule: 'updateReplicaSetStatus: status.fullyLabeledReplicas differs', reads: ['fullyLabeledReplicas'] },
  readyReplicasDiffer: { rule: 'updateReplicaSetStatus: status.readyReplicas differs', reads: ['readyReplicas'] },
  availableReplicasDiffer: { rule: 'updateReplicaSetStatus: status.availableReplicas differs', reads: ['availableReplicas'] },
  terminatingReplicasDiffer: {
    rule: 'updateReplicaSetStatus: status.terminatingReplicas differs (DeploymentReplicaSetTerminatingReplicas)',
    reads: ['terminatingReplicas'],
  },
  generationNotObserved: { rule: 'updateReplicaSetStatus: metadata.generation is not status.observedGeneration', reads: ['generation'] },
  conditionsDiffer: {
    rule: 'updateReplicaSetStatus: status.conditions differ (reflect.DeepEqual)',
    reads: ['conditions'],
    show: { conditions: showConditions },
  },
};

export const updateReplicaSetStatusMachine = setup({
  types: { events: {} as UpdateStatusEvent },
  guards: {
    replicasDiffer: ({ event }) => differs(event.replicas),
    fullyLabeledReplicasDiffer: ({ event }) => differs(event.fullyLabeledReplicas),
    readyReplicasDiffer: ({ event }) => differs(event.readyReplicas),
    availableReplicasDiffer: ({ event }) => differs(event.availableReplicas),
    terminatingReplicasDiffer: ({ event }) => differs(event.terminatingReplicas),
    generationNotObserved: ({ event }) => event.generation.generation !== event.generation.observedGeneration,
    conditionsDiffer: ({ event }) => differs(event.conditions),
  },
}).createMachine({
  id: 'replicaSetStatus',
  description: "updateReplicaSetStatus: the ReplicaSet's status against the one calculateStatus made.",
  initial: 'observed',
  states: {
    observed: {
      on: {
        UPDATE_STATUS: [
          ...FIELDS.map((f) => ({
            guard: `${f}Differ` as const,
            target: 'updated' as const,
            description: `UpdateStatus writes the new status (${f} changed).`,
          })),
          { guard: 'generationNotObserved', target: 'updated', description: 'UpdateStatus writes the new status (observedGeneration = metadata.generation).' },
          {
            guard: 'conditionsDiffer',
            target: 'updated',
            description: 'UpdateStatus writes the new status (its conditions changed: ReplicaFailure set or cleared).',
          },
        ],
      },
    },
    updated: { type: 'final' },
  },
});

/** The question for a ReplicaSet and the status calculated for it. */
export function updateStatusEvent(rs: ReplicaSetRecord, next: ReplicaSetStatus): UpdateStatusEvent {
  return statusEvent(rs.status, next, rs.meta.generation ?? 0);
}

/** The question for the status `s` a ReplicaSet of metadata.generation `generation` has, and `next` */
function statusEvent(s: ReplicaSetStatus, next: ReplicaSetStatus, generation: number): UpdateStatusEvent {
  return {
    type: 'UPDATE_STATUS',
    replicas: { from: s.replicas, to: next.replicas },
    fullyLabeledReplicas: { from: s.fullyLabeledReplicas, to: next.fullyLabeledReplicas },
    readyReplicas: { from: s.readyReplicas, to: next.readyReplicas },
    availableReplicas: { from: s.availableReplicas, to: next.availableReplicas },
    terminatingReplicas: { from: s.terminatingReplicas, to: next.terminatingReplicas },
    generation: { generation, observedGeneration: s.observedGeneration },
    conditions: { from: conditionsText(s.conditions), to: conditionsText(next.conditions) },
  };
}

/** JSON.stringify of a status's conditions; most have none, and every sync that writes asks (9,373 in one pass at 5,000 nodes) */
const conditionsText = (c: ReplicaSetStatus['conditions']): string => (c.length === 0 ? '[]' : JSON.stringify(c));

/**
 * Which guards hold, as bits in the transitions' order: the table's key. A number, so that an
 * answer is found by index (`answers`) without a key string made and hashed per question.
 */
function differences(x: UpdateStatusEvent): number {
  let bits = 0;
  for (let i = 0; i < FIELDS.length; i++) if (differs(x[FIELDS[i]])) bits |= 1 << i;
  if (x.generation.generation !== x.generation.observedGeneration) bits |= 1 << FIELDS.length;
  if (differs(x.conditions)) bits |= 1 << (FIELDS.length + 1);
  return bits;
}

let table: MachineTable<typeof updateReplicaSetStatusMachine> | undefined;
/** the table's answer for each `differences` (undefined: not asked yet); the answer is the table's own, kept by index */
const answers: (TableStep | null | undefined)[] = new Array<undefined>(1 << (FIELDS.length + 2)).fill(undefined);

/** The transition updateReplicaSetStatus's machine takes for the ReplicaSet `ref` (`NS/NAME`): null, nothing to write; its guards attached. */
export function askUpdateReplicaSetStatus(key: string, e: UpdateStatusEvent): MachineTransition | null {
  const step = stepFor(e);
  return step ? attachGuards(transitionOf(key, step), guardChecks(step.guards, e, updateReplicaSetStatusGuardRules)) : null;
}

/** The transition both questions answer with, before its guards are attached */
const transitionOf = (key: string, step: TableStep) => statusTransition(statusTransitionId(key), step);

function stepFor(e: UpdateStatusEvent): TableStep | null {
  table ??= new MachineTable(updateReplicaSetStatusMachine, (x) => String(differences(x)));
  const bits = differences(e);
  let step = answers[bits];
  if (step === undefined) step = answers[bits] = table.step('observed', e);
  return step;
}

/**
 * The machine's answer for the status `next` of a ReplicaSet whose status is `rs.status` (null:
 * nothing to write), for a write whose guard checks are made when first read (`statusGuardChecks`).
 */
export function statusStep(rs: ReplicaSetRecord, next: ReplicaSetStatus): TableStep | null {
  // the answer is found by `differences` of the question, read here from the two statuses: the
  // question itself (eight objects) is made only for the table's first answer of its kind
  const s = rs.status;
  const generation = rs.meta.generation ?? 0;
  let bits = 0;
  for (let i = 0; i < FIELDS.length; i++) if (s[FIELDS[i]] !== next[FIELDS[i]]) bits |= 1 << i;
  if (generation !== s.observedGeneration) bits |= 1 << FIELDS.length;
  if (conditionsText(s.conditions) !== conditionsText(next.conditions)) bits |= 1 << (FIELDS.length + 1);
  const step = answers[bits];
  return step !== undefined ? step : stepFor(statusEvent(s, next, generation));
}

/**
 * The checks of the guards `step` evaluated, asked again from `prev` (the status the ReplicaSet had:
 * never changed in place, a write replaces it), `next` and the generation, which the caller must not
 * have changed since `statusStep` in any field the question reads.
 */
export function statusGuardChecks(step: TableStep, prev: ReplicaSetStatus, next: ReplicaSetStatus, generation: number): readonly Check[] {
  return guardChecks(step.guards, statusEvent(prev, next, generation), updateReplicaSetStatusGuardRules);
}

/** The transition `statusStep`'s answer takes; `id`: `replicaSetStatus/NS/NAME` (statusTransitionId) */
export const statusTransition = (id: string, step: TableStep): MachineTransition => ({ id, from: 'observed', to: step.text, event: 'UPDATE_STATUS' });

export const statusTransitionId = (key: string): string => `replicaSetStatus/${key}`;
