/**
 * What each scenario field means (spec 1.2–1.3), for hover and completion.
 * Settings under `controllerManager:` / `kubelet:` are not here: they come
 * from the settings table (config/settings.ts), with their per-version
 * defaults. test/engine/lint/fieldDocs.test.ts checks that every field here
 * is one the scenario parser accepts, and every field it accepts is here.
 */
import { MAX_MINOR, MIN_MINOR } from '../versions/table';

export interface FieldDoc {
  doc: string;
  /** values the field takes, for completion */
  values?: readonly string[];
}

export const SCENARIO_FIELDS: Readonly<Record<string, FieldDoc>> = {
  apiVersion: { doc: 'Always `controllerstepper.io/v1alpha1`.', values: ['controllerstepper.io/v1alpha1'] },
  kind: { doc: 'Always `Scenario`.', values: ['Scenario'] },
  metadata: { doc: "The scenario's `name`." },
  kubernetesVersion: {
    doc: `Whose kube-controller-manager is simulated, \`"1.${MIN_MINOR}"\` … \`"1.${MAX_MINOR}"\` (quote it: 1.20 is a number in YAML). Defaults and behaviour follow the version.`,
  },
  startTime: { doc: 'When the clock starts, RFC3339 (`2026-01-01T00:00:00Z`). Default: the latest timestamp in the snapshot.' },
  controllerMemory: {
    doc: 'What the controllers remember at the start: `reconstructed` (as if they had run all along: probe and transition times from the snapshot) or `fresh` (just started, every node newly observed).',
    values: ['reconstructed', 'fresh'],
  },
  missingLeases: {
    doc: 'What a snapshot without any node Lease means when the simulated version heartbeats with Leases (the NodeLease gate, on by default from 1.14): `assumed` (default for a `snapshot:` file or folder, or an export opened directly) takes every node whose Ready is True as having renewed its Lease at the start time, since kubelets then refresh lastHeartbeatTime only every few minutes; `absent` (default for inline `objects:`) reads a missing Lease as missing.',
    values: ['assumed', 'absent'],
  },
  binder: {
    doc: 'How pods without a node are placed: `simplified` (the least allocated node that is Ready and schedulable, whose NoSchedule/NoExecute taints the pod tolerates, that matches its nodeSelector and required node affinity and has room for its requests; a simplification of kube-scheduler) or `none` (they stay pending).',
    values: ['simplified', 'none'],
  },
  snapshot: {
    doc: 'The cluster snapshot: a path (or list of paths) relative to this file — kubectl `-o yaml`/`-o json` output, a multi-document stream, a folder, or `kubectl cluster-info dump` output.',
  },
  objects: { doc: 'The snapshot inline: a list of Kubernetes objects (Node, Pod, ReplicaSet, DaemonSet, Lease).' },
  controllerManager: {
    doc: 'kube-controller-manager settings (defaults per version), `featureGates`, `controllers`, `flags: ["--name=value", ...]` or `configFile:` (a KubeControllerManagerConfiguration or the static Pod manifest).',
  },
  kubelet: { doc: "The kubelets' heartbeat settings: `nodeStatusUpdateFrequency`, `nodeStatusReportFrequency`, `leaseRenewInterval`." },
  events: {
    doc: 'The timeline: what happens in the world, each entry with `at:` and one event kind. At one instant world events apply first, in file order; then the controllers.',
  },
  expect: { doc: 'Assertions `controller-stepper test` checks: each with `at:`, a target (`node`, `pod`, `zone`, `replicaSet`) and what must hold.' },
};

/** Event kinds: the key that says what an event does. */
export const EVENT_KINDS: Readonly<Record<string, FieldDoc>> = {
  kubelet: {
    doc: '`start` or `stop` the kubelets of the target nodes. A stopped kubelet posts no status and renews no Lease (the node becomes unreachable); `only: status|lease` stops one of them. `start` posts Ready=True at once unless `conditions:` says otherwise.',
    values: ['start', 'stop'],
  },
  condition: {
    doc: 'The kubelet posts a node condition at that instant: `{type: Ready, status: "False", reason: KubeletNotReady}`; it stays in what it posts afterwards.',
  },
  taint: { doc: 'A user adds a taint to the target nodes: `{key, value?, effect: NoSchedule|PreferNoSchedule|NoExecute}` or `key=value:Effect`.' },
  untaint: { doc: 'A user removes a taint from the target nodes: `{key, effect?}` or `key:Effect`.' },
  apply: { doc: 'Creates or replaces a whole object (a Node, Pod, ReplicaSet, ...). Pods created this way get the DefaultTolerationSeconds tolerations.' },
  patch: { doc: 'A JSON merge patch (RFC 7386): `{object: Kind/ns/name, merge: {...}}`.' },
  delete: {
    doc: "Removes an object: `Pod/namespace/name`, `Node/name`, `ReplicaSet/namespace/name`, `Lease/namespace/name`. Without a namespace, `Kind/name` means namespace `default`, and a node's Lease (`Lease/NODE`) `kube-node-lease`.",
  },
  pod: { doc: "Changes a pod's status as its kubelet would: `pod: namespace/name` with `phase:` and/or `ready:`." },
  scale: { doc: "Sets a ReplicaSet's replicas: `{replicaSet: namespace/name, replicas: N}`." },
  fail: {
    doc: "Makes the controllers' next API calls fail: `{verb: create|delete|update|patch, resource: pods|nodes|replicasets, count: N}`; each failure is an ApiCallFailed decision.",
  },
  restartControllerManager: {
    doc: '`true`: the controllers restart at that instant with empty memory. `{failover: true}`: the old leader vanishes without releasing its lease; nothing is decided for leaderElectLeaseDuration.',
  },
};

/** The other keys of an event. */
export const EVENT_FIELDS: Readonly<Record<string, FieldDoc>> = {
  at: { doc: 'When: an offset from startTime (a Go duration such as `30s`, `1m30s`) or an RFC3339 time.' },
  nodes: { doc: 'The target nodes, by name: `[node-a1, node-a2]`.' },
  node: { doc: 'The target node, by name.' },
  zone: { doc: 'The target nodes: those whose zone label (`topology.kubernetes.io/zone`, else the beta label) has this value.' },
  selector: { doc: 'The target nodes by label: `{matchLabels: {...}, matchExpressions: [...]}`, as in Kubernetes.' },
  only: { doc: 'With `kubelet: stop`/`start`: only the `status` posts or only the `lease` renewals.', values: ['status', 'lease'] },
  conditions: { doc: 'With `kubelet: start`: the conditions it posts, e.g. `{Ready: "False", MemoryPressure: "True"}`.' },
  phase: { doc: "With `pod:`: the pod's new phase.", values: ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'] },
  ready: { doc: "With `pod:`: whether the pod's Ready condition is True.", values: ['true', 'false'] },
};

export const EXPECT_FIELDS: Readonly<Record<string, FieldDoc>> = {
  at: { doc: 'When the assertion is checked: an offset from startTime or an RFC3339 time.' },
  node: { doc: 'The node the assertion is about.' },
  pod: { doc: 'The pod the assertion is about: `namespace/name`.' },
  zone: {
    doc: "The zone the assertion is about: its key as the trace writes it (`REGION/ZONE` when the nodes have a region label, with or without `Zone/`), or the zone label's value, as an event's `zone:`, when one zone has it.",
  },
  replicaSet: { doc: 'The ReplicaSet the assertion is about: `namespace/name`.' },
  hasTaint: { doc: 'The node has this taint: `key:Effect` or `key`.' },
  lacksTaint: { doc: 'The node does not have this taint: `key:Effect` or `key`.' },
  deleted: { doc: 'The object has been deleted.', values: ['true', 'false'] },
  exists: { doc: 'The object exists.', values: ['true', 'false'] },
  ready: { doc: 'The node\'s Ready status: `"True"`, `"False"` or `"Unknown"`.', values: ['"True"', '"False"', '"Unknown"'] },
  state: { doc: "The zone's state.", values: ['Initial', 'Normal', 'PartialDisruption', 'FullDisruption'] },
  replicas: { doc: "The ReplicaSet's status.replicas." },
  readyReplicas: { doc: "The ReplicaSet's status.readyReplicas." },
  availableReplicas: { doc: "The ReplicaSet's status.availableReplicas." },
  boundTo: { doc: 'The pod is bound to this node.' },
  decision: { doc: 'A decision with this `action` (and `object`, `count`) has happened by `at`.' },
};

/** Markdown for a field: `**name** — doc`. */
export function fieldMarkdown(name: string, d: FieldDoc, where: string): string {
  return [`**${name}** (${where})`, '', d.doc, ...(d.values ? ['', `Values: ${d.values.map((v) => `\`${v}\``).join(', ')}`] : [])].join('\n');
}
