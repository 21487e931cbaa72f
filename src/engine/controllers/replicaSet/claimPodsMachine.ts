/**
 * The machine of claimPods' writes (controller_ref_manager.go ClaimPods: ClaimObject for each pod):
 * asked, before the PATCHes, with how many matching orphans it adopts and how many pods that no
 * longer match it releases (neither while the ReplicaSet is being deleted); its guards say whether
 * there is anything to patch. No transition: the claim is a read. Like updateReplicaSetStatusMachine.ts
 * it keeps no state per ReplicaSet (the pods' owner references are the state).
 */
import { setup } from 'xstate';
import { MachineTable } from '../../machines/table';
import { attachGuards, guardChecks, type GuardRules } from '../../machines/guardChecks';
import type { MachineTransition } from '../../trace/decision';

export type ClaimPodsEvent = { type: 'CLAIM_PODS'; orphansToAdopt: number; podsToRelease: number };

export const claimPodsGuardRules: GuardRules = {
  hasOrphansToAdopt: {
    rule: 'ClaimObject: an orphan pod (no controller ownerReference) matches the selector and is not being deleted: AdoptPod patches it',
    reads: ['orphansToAdopt'],
  },
  hasPodsToRelease: {
    rule: 'ClaimObject: a pod this ReplicaSet controls no longer matches the selector: ReleasePod patches its ownerReference away',
    reads: ['podsToRelease'],
  },
};

export const claimPodsMachine = setup({
  types: { events: {} as ClaimPodsEvent },
  guards: {
    hasOrphansToAdopt: ({ event }) => event.orphansToAdopt > 0,
    hasPodsToRelease: ({ event }) => event.podsToRelease > 0,
  },
}).createMachine({
  id: 'claimPods',
  description: "claimPods: the pods the ReplicaSet's selector matches against their controller ownerReferences.",
  initial: 'observed',
  states: {
    observed: {
      on: {
        CLAIM_PODS: [
          {
            guard: 'hasOrphansToAdopt',
            target: 'patched',
            description: 'AdoptPod adds the controller ownerReference to each orphan (and ReleasePod removes it from the others).',
          },
          { guard: 'hasPodsToRelease', target: 'patched', description: 'ReleasePod removes the ownerReference of each pod that no longer matches.' },
        ],
      },
    },
    patched: { type: 'final' },
  },
});

let table: MachineTable<typeof claimPodsMachine> | undefined;

/** The transition claimPods' machine takes for the ReplicaSet `key` (`NS/NAME`): null, nothing to patch; its guards attached. */
export function askClaimPods(key: string, e: ClaimPodsEvent): MachineTransition | null {
  table ??= new MachineTable(claimPodsMachine, (x) => `${x.orphansToAdopt > 0}|${x.podsToRelease > 0}`);
  const step = table.step('observed', e);
  return step
    ? attachGuards({ id: `claimPods/${key}`, from: 'observed', to: step.text, event: e.type }, guardChecks(step.guards, e, claimPodsGuardRules))
    : null;
}
