import type { SimulationChecks } from '../../src/engine/simulation/checks';

/** Every checking mode on (the fuzzer and the all-checks tests): a new mode added to SimulationChecks must be added here. */
export const EVERY_CHECK: Required<SimulationChecks> = {
  heartbeats: true,
  pods: true,
  index: true,
  facts: true,
  podOrder: true,
  replicaSetStatus: true,
  kubeletDue: true,
  restoreIndexRebuild: true,
  replicaSetEntries: true,
  replicaSetEchoes: true,
  nodeIndexRebuild: true,
  nodeTracks: true,
  graceDeadlines: true,
};
