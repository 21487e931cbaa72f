/**
 * The layout of a generated cluster, decided before any object is written:
 * which nodes exist in which zone, which DaemonSets and ReplicaSets exist, and
 * which node each pod runs on. Objects (objects.ts) are then built from the
 * plan one at a time, so a 150,000-pod cluster can be streamed to a file
 * without holding every object in memory.
 *
 * Spreading: nodes are dealt to zones round-robin (node i is in zone i mod Z),
 * and a ReplicaSet's replicas take consecutive pod slots, where slot s is on
 * node s mod N: so the replicas of one ReplicaSet land on different nodes and
 * are spread evenly over the zones, as the default scheduler's topology
 * spreading would place them.
 */
import type { Micros } from '../model/time';
import { MICROS_PER_SECOND } from '../model/time';
import { Random } from './random';

export interface ResolvedOptions {
  nodes: number;
  podsPerNode: number;
  zones: number;
  seed: number | string;
  controlPlaneNodes: number;
  daemonSets: number;
  kubernetesMinor: number;
  now: Micros;
  region: string;
  zoneNames: string[];
  managedFieldsFraction: number;
  /** leave out what only adds bulk: managedFields, node images, container IDs, service-account token volumes */
  lean: boolean;
}

export interface NodePlan {
  index: number;
  name: string;
  uid: string;
  /** index into zoneNames; -1 when the cluster has no zone labels */
  zone: number;
  controlPlane: boolean;
  internalIP: string;
  podCIDRPrefix: string;
  created: Micros;
  /** when the kubelet last posted its conditions (Ready's lastHeartbeatTime) */
  heartbeat: Micros;
  /** when the kubelet last renewed its Lease (1.13+) */
  leaseRenewed: Micros;
  /** pods placed on the node so far (gives each pod its IP) */
  podCount: number;
}

/** How a ReplicaSet's pods tolerate the not-ready / unreachable taints. */
export type TolerationStyle = 'default' | 'zero' | 'sixty' | 'infinite' | 'none' | 'control-plane';

export interface ReplicaSetPlan {
  namespace: string;
  deployment: string;
  deploymentUID: string;
  name: string;
  uid: string;
  templateHash: string;
  replicas: number;
  /** the owning Deployment's spec.replicas (the desired-replicas annotation) */
  deploymentReplicas: number;
  revision: number;
  created: Micros;
  tolerations: TolerationStyle;
  system: boolean;
  image: string;
  sidecar: boolean;
  automountToken: boolean;
  /** slots (node indexes) of its pods, in creation order */
  nodes: number[];
}

export interface DaemonSetPlan {
  namespace: string;
  name: string;
  uid: string;
  image: string;
  templateHash: string;
  created: Micros;
  hostNetwork: boolean;
  /** the template's own tolerations, before the DaemonSet controller adds its own */
  tolerations: Record<string, unknown>[];
  priorityClassName: string;
}

export interface PodPlan {
  namespace: string;
  name: string;
  node: number;
  owner: { kind: 'ReplicaSet'; index: number } | { kind: 'DaemonSet'; index: number };
}

export interface ClusterPlan {
  options: ResolvedOptions;
  nodes: NodePlan[];
  daemonSets: DaemonSetPlan[];
  replicaSets: ReplicaSetPlan[];
  /** sorted by namespace, then name, as kubectl lists them */
  pods: PodPlan[];
  random: Random;
}

const DAY = 86_400 * MICROS_PER_SECOND;
const HOUR = 3_600 * MICROS_PER_SECOND;

const TEAM_NAMESPACES = ['default', 'shop', 'payments', 'search', 'identity', 'media', 'analytics', 'notifications', 'catalog', 'platform'];
const PREFIXES = [
  'web',
  'api',
  'checkout',
  'cart',
  'orders',
  'search',
  'auth',
  'profile',
  'billing',
  'inventory',
  'pricing',
  'thumbnails',
  'feed',
  'mailer',
  'reports',
  'gateway',
  'recommender',
  'sessions',
  'ledger',
  'indexer',
];
const SUFFIXES = ['frontend', 'backend', 'worker', 'consumer', 'server', 'cache', 'proxy', 'scheduler', 'sync', 'exporter'];
const IMAGES = [
  'nginx:1.27.3',
  'nginxinc/nginx-unprivileged:1.27-alpine',
  'ghcr.io/example/api:2.14.1',
  'ghcr.io/example/worker:2.14.1',
  'redis:7.4.1-alpine',
  'envoyproxy/envoy:v1.32.1',
  'python:3.12-slim',
  'node:20-alpine',
  'golang:1.23-alpine',
  'registry.k8s.io/e2e-test-images/agnhost:2.52',
  'busybox:1.36.1',
  'httpd:2.4.62',
];
const SYSTEM_DEPLOYMENTS: [string, string, string][] = [
  ['kube-system', 'coredns', 'registry.k8s.io/coredns/coredns:v1.11.3'],
  ['kube-system', 'metrics-server', 'registry.k8s.io/metrics-server/metrics-server:v0.7.2'],
  ['kube-system', 'ebs-csi-controller', 'public.ecr.aws/ebs-csi-driver/aws-ebs-csi-driver:v1.37.0'],
  ['kube-system', 'cluster-autoscaler', 'registry.k8s.io/autoscaling/cluster-autoscaler:v1.31.0'],
  ['kube-system', 'aws-load-balancer-controller', 'public.ecr.aws/eks/aws-load-balancer-controller:v2.10.1'],
];
const REPLICA_COUNTS: [number, number][] = [
  [1, 10],
  [2, 15],
  [3, 25],
  [5, 15],
  [8, 8],
  [10, 10],
  [20, 8],
  [50, 6],
  [100, 2],
  [300, 1],
];
const TOLERATION_STYLES: [TolerationStyle, number][] = [
  ['default', 80],
  ['zero', 5],
  ['sixty', 5],
  ['infinite', 5],
  ['none', 5],
];

/** The DaemonSets a generated cluster can have, in the order they are added. */
const DAEMON_SETS: Omit<DaemonSetPlan, 'uid' | 'templateHash' | 'created'>[] = [
  {
    namespace: 'kube-system',
    name: 'kube-proxy',
    image: 'registry.k8s.io/kube-proxy:v1.$MINOR.2',
    hostNetwork: true,
    tolerations: [{ key: 'CriticalAddonsOnly', operator: 'Exists' }, { operator: 'Exists' }],
    priorityClassName: 'system-node-critical',
  },
  {
    namespace: 'logging',
    name: 'fluent-bit',
    image: 'cr.fluentbit.io/fluent/fluent-bit:3.2.2',
    hostNetwork: false,
    tolerations: [{ effect: 'NoSchedule', operator: 'Exists' }],
    priorityClassName: 'system-node-critical',
  },
  {
    namespace: 'monitoring',
    name: 'node-exporter',
    image: 'quay.io/prometheus/node-exporter:v1.8.2',
    hostNetwork: true,
    tolerations: [{ operator: 'Exists' }],
    priorityClassName: 'system-node-critical',
  },
];
export const MAX_DAEMON_SETS = DAEMON_SETS.length;

export function planCluster(o: ResolvedOptions): ClusterPlan {
  const random = new Random(o.seed);
  const clusterCreated = o.now - 90 * DAY;
  const zoneCount = Math.max(o.zones, 1);

  // Nodes: control-plane first (one per zone in turn), then workers; each zone numbers its own nodes.
  const perZone = new Array<number>(zoneCount).fill(0);
  const nodes: NodePlan[] = [];
  for (let i = 0; i < o.nodes; i++) {
    const zi = i % zoneCount;
    const k = perZone[zi]++;
    const ip = `10.${zi}.${Math.floor(k / 250)}.${(k % 250) + 4}`;
    const controlPlane = i < o.controlPlaneNodes;
    nodes.push({
      index: i,
      name: `ip-${ip.replace(/\./g, '-')}.ec2.internal`,
      uid: random.uuid(),
      zone: o.zones > 0 ? zi : -1,
      controlPlane,
      internalIP: ip,
      podCIDRPrefix: `10.${128 + Math.floor(i / 256)}.${i % 256}`,
      created: controlPlane ? clusterCreated : clusterCreated + random.int(1, 60 * 24) * HOUR,
      // From 1.13 the kubelet renews its Lease every 10s and re-posts unchanged conditions only
      // every nodeStatusReportFrequency (5m); before, it posted them every 10s.
      heartbeat: o.now - random.int(0, o.kubernetesMinor >= 13 ? 299 : 9) * MICROS_PER_SECOND,
      leaseRenewed: o.now - random.int(1_000, 9_999_999),
      podCount: 0,
    });
  }

  const daemonSets: DaemonSetPlan[] = DAEMON_SETS.slice(0, Math.min(o.daemonSets, o.podsPerNode)).map((d) => ({
    ...d,
    image: d.image.replace('$MINOR', String(o.kubernetesMinor)),
    uid: random.uuid(),
    templateHash: random.nameSuffix(10),
    created: clusterCreated + random.int(60, 600) * MICROS_PER_SECOND,
  }));

  const replicaSets: ReplicaSetPlan[] = [];
  const taken = new Set<string>();
  const deploymentName = (namespace: string, base: string): string => {
    let name = base;
    for (let n = 2; taken.has(`${namespace}/${name}`); n++) name = `${base}-${n}`;
    taken.add(`${namespace}/${name}`);
    return name;
  };
  const addDeployment = (namespace: string, name: string, image: string, replicas: number, system: boolean, slots: () => number): void => {
    const deploymentUID = random.uuid();
    const created = clusterCreated + random.int(1, 80 * 24) * HOUR;
    const tolerations: TolerationStyle = system ? 'control-plane' : random.weighted(TOLERATION_STYLES);
    const base = {
      namespace,
      deployment: name,
      deploymentUID,
      tolerations,
      system,
      image,
      sidecar: !system && random.chance(0.15),
      automountToken: system || random.chance(0.8),
    };
    // A third of the Deployments were rolled out once more: the old ReplicaSet is kept, scaled to 0.
    let revision = 1;
    if (random.chance(1 / 3)) {
      replicaSets.push({
        ...base,
        name: '',
        uid: random.uuid(),
        templateHash: random.nameSuffix(10),
        replicas: 0,
        deploymentReplicas: replicas,
        revision,
        created,
        nodes: [],
      });
      revision = 2;
    }
    const rs: ReplicaSetPlan = {
      ...base,
      name: '',
      uid: random.uuid(),
      templateHash: random.nameSuffix(10),
      replicas,
      deploymentReplicas: replicas,
      revision,
      created: revision === 1 ? created : created + random.int(1, 7 * 24) * HOUR,
      nodes: [],
    };
    for (let r = 0; r < replicas; r++) rs.nodes.push(slots());
    replicaSets.push(rs);
  };

  const rsSlotsPerNode = o.podsPerNode - daemonSets.length;
  const controlPlane = nodes.filter((n) => n.controlPlane);
  const workers = nodes.filter((n) => !n.controlPlane);
  // Control-plane nodes run the system Deployments (they tolerate the control-plane taint).
  // Without control-plane nodes, the system Deployments run on the workers like the rest.
  const pools: { nodes: NodePlan[]; total: number; next: number }[] = [];
  if (controlPlane.length) pools.push({ nodes: controlPlane, total: controlPlane.length * rsSlotsPerNode, next: 0 });
  pools.push({ nodes: workers, total: workers.length * rsSlotsPerNode, next: 0 });
  const systemPool = pools[0];
  const appPool = pools[pools.length - 1];
  const take = (pool: (typeof pools)[number]) => () => pool.nodes[pool.next++ % pool.nodes.length].index;

  if (systemPool !== appPool) {
    for (let sys = 0; systemPool.next < systemPool.total; sys++) {
      const [ns, base, image] = SYSTEM_DEPLOYMENTS[sys % SYSTEM_DEPLOYMENTS.length];
      const want = sys < SYSTEM_DEPLOYMENTS.length ? Math.max(2, Math.ceil(systemPool.nodes.length / 2)) : random.weighted(REPLICA_COUNTS);
      addDeployment(ns, deploymentName(ns, base), image, Math.min(systemPool.total - systemPool.next, want), true, take(systemPool));
    }
  } else {
    for (const [ns, base, image] of SYSTEM_DEPLOYMENTS) {
      if (appPool.next >= appPool.total) break;
      addDeployment(ns, deploymentName(ns, base), image, Math.min(appPool.total - appPool.next, 2), true, take(appPool));
    }
  }
  while (appPool.next < appPool.total) {
    const ns = random.pick(TEAM_NAMESPACES);
    const base = `${random.pick(PREFIXES)}-${random.pick(SUFFIXES)}`;
    const replicas = Math.min(appPool.total - appPool.next, random.weighted(REPLICA_COUNTS));
    addDeployment(ns, deploymentName(ns, base), random.pick(IMAGES), replicas, false, take(appPool));
  }
  for (const rs of replicaSets) rs.name = `${rs.deployment}-${rs.templateHash}`;
  replicaSets.sort(byNamespaceAndName);

  // Pod names: `<owner>-<5 random characters>`, unique within their owner.
  const pods: PodPlan[] = [];
  replicaSets.forEach((rs, index) => {
    const used = new Set<string>();
    for (const node of rs.nodes) {
      let name: string;
      do name = `${rs.name}-${random.nameSuffix(5)}`;
      while (used.has(name));
      used.add(name);
      pods.push({ namespace: rs.namespace, name, node, owner: { kind: 'ReplicaSet', index } });
    }
  });
  daemonSets.forEach((ds, index) => {
    const used = new Set<string>();
    for (const node of nodes) {
      let name: string;
      do name = `${ds.name}-${random.nameSuffix(5)}`;
      while (used.has(name));
      used.add(name);
      pods.push({ namespace: ds.namespace, name, node: node.index, owner: { kind: 'DaemonSet', index } });
    }
  });
  pods.sort(byNamespaceAndName);
  return { options: o, nodes, daemonSets, replicaSets, pods, random };
}

function byNamespaceAndName(a: { namespace: string; name: string }, b: { namespace: string; name: string }): number {
  if (a.namespace !== b.namespace) return a.namespace < b.namespace ? -1 : 1;
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
