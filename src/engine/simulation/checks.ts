/**
 * The checking modes of a simulation (tests: SimulationOptions.checks). Each compares what a fast
 * path assumes with the slow path it stands for, and throws on a difference. They are options of
 * one simulation, handed to the parts that read them when those are made, so that tests running
 * side by side never see each other's modes.
 */
import type { CheckpointChecks } from './checkpoint';

export interface SimulationChecks extends CheckpointChecks {
  /** KubeletSettings.checkDue: a kubelet materialise passes over has nothing due */
  kubeletDue?: boolean;
  /** ReplicaSetControllerOptions.checkRestoredIndexes: the ReplicaSet indexes taken over on a restore equal rebuilt ones */
  restoreIndexRebuild?: boolean;
  /** ReplicaSetControllerOptions.checkSavedEntries: a ReplicaSet entry a checkpoint shares with the previous one is unchanged since */
  replicaSetEntries?: boolean;
  /** ReplicaSetControllerOptions.checkEchoes: the sync of a status write's echo, dropped unsynced, decides nothing */
  replicaSetEchoes?: boolean;
  /** SimplifiedBinderOptions.checkRestoredIndex: the node index taken over on a restore equals one made anew */
  nodeIndexRebuild?: boolean;
  /** NodeLifecycleOptions.verifyTracks: what the monitor pass's heartbeat shortcuts kept of a node is still the node's when it is evaluated */
  nodeTracks?: boolean;
  /** NodeLifecycleOptions.verifyDeadlines: every Ready node's grace deadline is armed, in the heap or a renewal cohort */
  graceDeadlines?: boolean;
}
