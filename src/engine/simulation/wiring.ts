/**
 * The real controllers, by name: the composition root of the engine's
 * controllers. The simulation builds a new instance at every (re)start of
 * kube-controller-manager.
 */
import type { ControllerFactory } from './controllers';

export const defaultControllerFactory: ControllerFactory = () => undefined;
