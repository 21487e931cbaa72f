/**
 * Which controllers run (spec 1.3 "Which controllers run") and in which order
 * they are woken within one instant (controllers/controller.ts): node-lifecycle,
 * taint-eviction, replicaset, scheduler.
 *
 * - node-lifecycle: `nodelifecycle` in --controllers.
 * - taint-eviction: from 1.29 its own controller `taint-eviction-controller`;
 *   before, part of nodelifecycle, running when --enable-taint-manager is true
 *   (the flag is gone from 1.27: then it always runs with nodelifecycle).
 * - replicaset: `replicaset` in --controllers.
 * - scheduler: the simplified binder (not a kube-controller-manager
 *   controller), unless the scenario says `binder: none`.
 */
import type { ControllerConfig } from '../config/types';
import type { VersionBehaviour } from '../versions/types';
import type { ControllerName } from '../trace/decision';
import type { SimController } from '../controllers/controller';
import type { ControllerHost } from '../controllers/controllerHost';
import { taintManagerRuns } from '../controllers/taintEviction/behaviour';
import type { SimulationChecks } from './checks';

export type SimControllerName = Exclude<ControllerName, 'world'>;

export const CONTROLLER_ORDER: readonly SimControllerName[] = ['node-lifecycle', 'taint-eviction', 'replicaset', 'scheduler'];

export interface ControllerPlan {
  name: SimControllerName;
  enabled: boolean;
  /** why it runs or does not, in words (explain shows it) */
  reason: string;
}

export function planControllers(config: ControllerConfig, b: VersionBehaviour, binder: 'simplified' | 'none'): ControllerPlan[] {
  const on = (n: string) => config.controllers.has(n);
  const nlc = on('nodelifecycle');
  // the taint manager's own rule (controllers/taintEviction/behaviour.ts), so explain and the controller agree
  const runs = taintManagerRuns({ behaviour: b, config });
  const te: ControllerPlan = { name: 'taint-eviction', enabled: runs.runs, reason: runs.check.rule };
  return [
    nlc
      ? { name: 'node-lifecycle', enabled: true, reason: 'nodelifecycle is in --controllers' }
      : { name: 'node-lifecycle', enabled: false, reason: 'nodelifecycle is disabled by --controllers' },
    te,
    on('replicaset')
      ? { name: 'replicaset', enabled: true, reason: 'replicaset is in --controllers' }
      : { name: 'replicaset', enabled: false, reason: 'replicaset is disabled by --controllers' },
    binder === 'none'
      ? { name: 'scheduler', enabled: false, reason: 'the scenario says binder: none' }
      : { name: 'scheduler', enabled: true, reason: 'binder: simplified (a simplification of kube-scheduler)' },
  ];
}

export interface ControllerFactoryContext {
  config: ControllerConfig;
  behaviour: VersionBehaviour;
  binder: 'simplified' | 'none';
  /** checking mode (SimulationOptions.checkInvariants): a machine that refuses its controller's event throws */
  strictMachines?: boolean;
  /** checking modes (SimulationOptions.checks): the controllers read those of restored indexes */
  checks?: SimulationChecks;
}

/** Builds a new instance of one controller (new instances have empty memory). */
export type ControllerFactory = (name: SimControllerName, ctx: ControllerFactoryContext) => SimController | undefined;

/** The enabled controllers, newly constructed, in wake order. */
export function buildControllers(plan: readonly ControllerPlan[], factory: ControllerFactory, ctx: ControllerFactoryContext): SimController[] {
  const out: SimController[] = [];
  for (const name of CONTROLLER_ORDER) {
    if (!plan.find((p) => p.name === name)?.enabled) continue;
    const c = factory(name, ctx);
    if (c) out.push(c);
  }
  return out;
}

/** The controllers' start, each in pieces of about `perPiece` records where it can (SimController.startInPieces), with a yield after each. */
export function* startInPieces(
  controllers: readonly SimController[],
  host: ControllerHost,
  memory: 'reconstructed' | 'fresh',
  perPiece: number,
): Generator<void, void, void> {
  for (const c of controllers) {
    if (c.startInPieces) yield* c.startInPieces(host, memory, perPiece);
    else c.start(host, memory);
    yield;
  }
}
