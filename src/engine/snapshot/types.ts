/**
 * A loaded input: a snapshot (objects) and, for scenario files, the
 * controller settings, the timeline and the expectations. Produced by the
 * loader (snapshot/load.ts); consumed by the simulation, the CLI, the
 * language server and the extension.
 */
import type { ClusterState } from '../model/cluster';
import type { KObject, LabelSelector, Taint } from '../model/types';
import type { Duration, Micros } from '../model/time';
import type { Problem, SourcePosition } from '../problems';
import type { RealityEntry } from '../import/reality';

/** An object as found in the input, with where it was found. */
export interface LoadedObject {
  object: KObject;
  kind: string;
  /** `namespace/name` or `name` */
  name: string;
  position?: SourcePosition;
}

export interface LoadedSnapshot {
  objects: LoadedObject[];
  cluster: ClusterState;
  /** the latest timestamp found in the snapshot (the default start time) */
  latestTimestamp?: Micros;
  /** files read, in order */
  files: string[];
  problems: Problem[];
  /** true when some input could not be read and was left out */
  partial: boolean;
  /**
   * true when some objects came from an export (a file, a folder, an open document), not only
   * from a scenario's inline `objects:`: what `missingLeases` defaults on (spec 1.4)
   */
  exported?: boolean;
}

/** `at:` is an offset from startTime or an absolute time. */
export type TimeSpec = { offset: Duration } | { time: Micros };

export interface NodeTarget {
  nodes?: string[];
  zone?: string;
  selector?: LabelSelector;
}

interface EventBase {
  at: TimeSpec;
  /** index in the file's events list */
  index: number;
  position?: SourcePosition;
}

export type ScenarioEvent =
  | (EventBase & { kind: 'kubelet'; action: 'start' | 'stop'; only?: 'status' | 'lease'; target: NodeTarget; conditions?: Record<string, string> })
  | (EventBase & { kind: 'condition'; target: NodeTarget; condition: { type: string; status: string; reason?: string; message?: string } })
  | (EventBase & { kind: 'taint'; target: NodeTarget; taint: Taint })
  | (EventBase & { kind: 'untaint'; target: NodeTarget; taint: { key: string; effect?: Taint['effect'] } })
  | (EventBase & { kind: 'apply'; object: KObject })
  | (EventBase & { kind: 'patch'; ref: string; merge: KObject })
  | (EventBase & { kind: 'delete'; ref: string })
  | (EventBase & { kind: 'pod'; pod: string; phase?: string; ready?: boolean })
  | (EventBase & { kind: 'scale'; replicaSet: string; replicas: number })
  | (EventBase & { kind: 'fail'; verb: 'create' | 'delete' | 'update' | 'patch'; resource: 'pods' | 'nodes' | 'replicasets'; count: number })
  | (EventBase & { kind: 'restartControllerManager'; failover: boolean });

/** One `expect:` entry; `controller-stepper test` checks it at its time. */
export interface Expectation {
  at: TimeSpec;
  index: number;
  position?: SourcePosition;
  node?: string;
  pod?: string;
  zone?: string;
  replicaSet?: string;
  /** `key:Effect` or `key` */
  hasTaint?: string;
  lacksTaint?: string;
  deleted?: boolean;
  exists?: boolean;
  /** node Ready status, e.g. "Unknown" */
  ready?: string;
  /** zone state: Initial | Normal | PartialDisruption | FullDisruption */
  state?: string;
  /** replica counts of a ReplicaSet */
  replicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  /** the pod is bound to this node */
  boundTo?: string;
  /** a decision with this action on this object has happened by `at` */
  decision?: { action: string; object?: string; count?: number };
}

export interface Scenario {
  name: string;
  /** the scenario file, or the snapshot's when there is no scenario */
  file: string;
  /** true when the input was a plain snapshot */
  plainSnapshot: boolean;
  kubernetesVersion: string;
  startTime?: Micros;
  controllerMemory: 'reconstructed' | 'fresh';
  /**
   * `missingLeases:` as written (spec 1.4): `assumed` takes Ready nodes of a snapshot without any
   * Lease as renewed at the start time, `absent` reads a missing Lease as missing. Undefined when
   * not written: `assumed` for an export, `absent` for inline objects (kubelet/missingLeases.ts).
   */
  missingLeases?: 'assumed' | 'absent';
  binder: 'simplified' | 'none';
  snapshot: LoadedSnapshot;
  /** settings as written (scenario keys, flags, config file), resolved by config/resolve.ts */
  controllerManager: ControllerManagerInput;
  kubelet: Record<string, { value: unknown; position?: SourcePosition }>;
  events: ScenarioEvent[];
  expect: Expectation[];
  /** `reality:`: the real controllers' decisions, for `compare` (import/reality.ts) */
  reality?: RealityEntry[];
  problems: Problem[];
}

export interface ControllerManagerInput {
  /** scenario `controllerManager:` keys other than flags/configFile/featureGates */
  settings: Record<string, { value: unknown; position?: SourcePosition }>;
  featureGates: Record<string, { value: unknown; position?: SourcePosition }>;
  flags: { text: string; position?: SourcePosition }[];
  /** the text of a configFile (KubeControllerManagerConfiguration or a static Pod manifest) */
  configFile?: { path: string; text: string };
}
