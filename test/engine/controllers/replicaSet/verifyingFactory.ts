/**
 * The simulation's real controllers, with the ReplicaSet controller checking its running counts,
 * kept look-ups and kept machine views against a full read at every use (its `verifyTallies`).
 */
import type { ControllerFactory } from '../../../../src/engine/simulation/controllerPlan';
import { defaultControllerFactory } from '../../../../src/engine/simulation/wiring';
import { createReplicaSetController } from '../../../../src/engine/controllers/replicaSet';

export const verifyingFactory: ControllerFactory = (name, ctx) =>
  name === 'replicaset' ? createReplicaSetController({ verifyTallies: true }) : defaultControllerFactory(name, ctx);
