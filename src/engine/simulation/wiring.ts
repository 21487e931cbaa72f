/**
 * The real controllers, by name: the composition root of the engine's
 * controllers. The simulation builds a new instance at every (re)start of
 * kube-controller-manager (new instances have empty memory).
 */
import type { ControllerFactory } from './controllerPlan';
import type { SimulationChecks } from './checks';
import { createNodeLifecycleController } from '../controllers/nodeLifecycle';
import { createTaintEvictionController } from '../controllers/taintEviction';
import { createReplicaSetController } from '../controllers/replicaSet';
import { createSimplifiedBinder } from '../controllers/scheduler';

export const defaultControllerFactory: ControllerFactory = (name, ctx) => {
  switch (name) {
    case 'node-lifecycle':
      return createNodeLifecycleController({
        strictMachines: ctx.strictMachines,
        verifyTracks: ctx.checks?.nodeTracks,
        verifyDeadlines: ctx.checks?.graceDeadlines,
      });
    case 'taint-eviction':
      return createTaintEvictionController({ strictMachines: ctx.strictMachines });
    case 'replicaset':
      return createReplicaSetController({
        strictMachines: ctx.strictMachines,
        checkRestoredIndexes: ctx.checks?.restoreIndexRebuild,
        checkSavedEntries: ctx.checks?.replicaSetEntries,
        checkEchoes: ctx.checks?.replicaSetEchoes,
      });
    case 'scheduler':
      return createSimplifiedBinder({ checkRestoredIndex: ctx.checks?.nodeIndexRebuild });
  }
};

/**
 * The factory, given the simulation's checks in its context (ControllerFactoryContext.checks), so
 * that a test's factory that hands some controllers to the default one keeps the modes for them.
 */
export function withChecks(factory: ControllerFactory, checks: SimulationChecks | undefined): ControllerFactory {
  return checks === undefined ? factory : (name, ctx) => factory(name, { ...ctx, checks });
}
