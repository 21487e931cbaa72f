/**
 * The real controllers, by name: the composition root of the engine's
 * controllers. The simulation builds a new instance at every (re)start of
 * kube-controller-manager (new instances have empty memory).
 */
import type { ControllerFactory } from './controllerPlan';
import { createNodeLifecycleController } from '../controllers/nodeLifecycle';
import { createTaintEvictionController } from '../controllers/taintEviction';
import { createReplicaSetController } from '../controllers/replicaSet';
import { createSimplifiedBinder } from '../controllers/scheduler';

export const defaultControllerFactory: ControllerFactory = (name, ctx) => {
  switch (name) {
    case 'node-lifecycle':
      return createNodeLifecycleController({ strictMachines: ctx.strictMachines });
    case 'taint-eviction':
      return createTaintEvictionController({ strictMachines: ctx.strictMachines });
    case 'replicaset':
      return createReplicaSetController({ strictMachines: ctx.strictMachines });
    case 'scheduler':
      return createSimplifiedBinder();
  }
};
