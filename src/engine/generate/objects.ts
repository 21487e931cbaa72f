/**
 * Builds each object of a planned cluster (plan.ts) the way
 * `kubectl get nodes,pods,replicasets,daemonsets,leases -A -o json` exports
 * it: the fields the API server, the kubelet and the controllers fill in,
 * keys in the sorted order kubectl prints, empty fields left out.
 *
 * Everything random comes from the plan's seeded Random, drawn in a fixed
 * order, so the same plan gives byte-identical objects.
 */
import type { KObject } from '../model/types';
import { MICROS_PER_SECOND, formatKubeTime, formatMicroTime, type Micros } from '../model/time';
import type { ClusterPlan, DaemonSetPlan, NodePlan, PodPlan, ReplicaSetPlan } from './plan';
import { imageID } from './images';
import { hashString } from './random';
import { fieldSet, keyedConditions } from './managedFields';
import { controlPlaneRoleLabels, controlPlaneTaintKeys, daemonPodTolerations, podTolerations, templateTolerations } from './tolerations';

type J = Record<string, unknown>;
const S = MICROS_PER_SECOND;
const t = formatKubeTime;

export class ObjectBuilder {
  private resourceVersion = 40_000;
  private readonly minor: number;

  constructor(private readonly plan: ClusterPlan) {
    this.minor = plan.options.kubernetesMinor;
  }

  private rv(): string {
    this.resourceVersion += this.plan.random.int(1, 40);
    return String(this.resourceVersion);
  }

  private withManagedFields(): boolean {
    return !this.plan.options.lean && this.minor >= 18 && this.plan.random.chance(this.plan.options.managedFieldsFraction);
  }

  node(n: NodePlan): KObject {
    const { options: o, random: r } = this.plan;
    const minor = this.minor;
    const zone = n.zone >= 0 ? o.zoneNames[n.zone] : undefined;
    const instanceType = n.controlPlane ? 'm5.xlarge' : 'm5.2xlarge';
    const labels: Record<string, string> = {
      'beta.kubernetes.io/arch': 'amd64',
      'beta.kubernetes.io/instance-type': instanceType,
      'beta.kubernetes.io/os': 'linux',
      'kubernetes.io/arch': 'amd64',
      'kubernetes.io/hostname': n.name,
      'kubernetes.io/os': 'linux',
    };
    if (minor >= 17) labels['node.kubernetes.io/instance-type'] = instanceType;
    if (zone) {
      labels['failure-domain.beta.kubernetes.io/region'] = o.region;
      labels['failure-domain.beta.kubernetes.io/zone'] = zone;
      if (minor >= 17) {
        labels['topology.kubernetes.io/region'] = o.region;
        labels['topology.kubernetes.io/zone'] = zone;
      }
    }
    if (n.controlPlane) for (const l of controlPlaneRoleLabels(minor)) labels[l] = '';
    else labels['node-role.kubernetes.io/worker'] = '';

    const readySince = n.created + r.int(15, 60) * S;
    const hb = t(n.heartbeat);
    const kubeletCondition = (type: string, status: string, reason: string, message: string): J => ({
      lastHeartbeatTime: hb,
      lastTransitionTime: t(type === 'Ready' ? readySince : n.created),
      message,
      reason,
      status,
      type,
    });
    const routed = t(n.created + r.int(5, 30) * S);
    const conditions: J[] = [
      {
        lastHeartbeatTime: routed,
        lastTransitionTime: routed,
        message: 'RouteController created a route',
        reason: 'RouteCreated',
        status: 'False',
        type: 'NetworkUnavailable',
      },
      kubeletCondition('MemoryPressure', 'False', 'KubeletHasSufficientMemory', 'kubelet has sufficient memory available'),
      kubeletCondition('DiskPressure', 'False', 'KubeletHasNoDiskPressure', 'kubelet has no disk pressure'),
      kubeletCondition('PIDPressure', 'False', 'KubeletHasSufficientPID', 'kubelet has sufficient PID available'),
      kubeletCondition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status'),
    ];
    const maxPods = o.podsPerNode > 110 ? '250' : '110';
    const cpu = n.controlPlane ? '4' : '8';
    const memory = n.controlPlane ? '15919124Ki' : '32386256Ki';
    const images = [
      ...this.plan.daemonSets.map((d) => d.image),
      'registry.k8s.io/pause:3.10',
      ...(n.controlPlane ? ['registry.k8s.io/coredns/coredns:v1.11.3'] : ['nginx:1.27.3', 'ghcr.io/example/api:2.14.1']),
    ].map((image, i) => ({ names: [imageID(image), image], sizeBytes: 300_000 + ((hashString(image) + i) % 90_000_000) }));

    const spec: J = {
      podCIDR: `${n.podCIDRPrefix}.0/24`,
      podCIDRs: [`${n.podCIDRPrefix}.0/24`],
      providerID: `aws:///${zone ?? o.region}/i-0${r.hex(16)}`,
    };
    if (n.controlPlane) {
      spec.taints = controlPlaneTaintKeys(minor).map((key) => ({ effect: 'NoSchedule', key }));
    }
    const metadata: J = {
      annotations: {
        'alpha.kubernetes.io/provided-node-ip': n.internalIP,
        'node.alpha.kubernetes.io/ttl': '0',
        'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
      },
      creationTimestamp: t(n.created),
      labels,
      name: n.name,
      resourceVersion: this.rv(),
      uid: n.uid,
    };
    if (this.withManagedFields()) {
      metadata.managedFields = [
        {
          apiVersion: 'v1',
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:metadata': {
              'f:annotations': { '.': {}, 'f:volumes.kubernetes.io/controller-managed-attach-detach': {} },
              'f:labels': fieldSet(Object.keys(labels)),
            },
            'f:spec': { 'f:providerID': {} },
          },
          manager: 'kubelet',
          operation: 'Update',
          time: t(n.created),
        },
        {
          apiVersion: 'v1',
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:status': {
              'f:conditions': keyedConditions(['DiskPressure', 'MemoryPressure', 'PIDPressure', 'Ready'], true),
              'f:images': {},
              'f:nodeInfo': { 'f:bootID': {} },
            },
          },
          manager: 'kubelet',
          operation: 'Update',
          subresource: 'status',
          time: hb,
        },
      ];
    }
    return {
      apiVersion: 'v1',
      kind: 'Node',
      metadata,
      spec,
      status: {
        addresses: [
          { address: n.internalIP, type: 'InternalIP' },
          { address: n.name, type: 'InternalDNS' },
          { address: n.name, type: 'Hostname' },
        ],
        allocatable: {
          cpu: n.controlPlane ? '3920m' : '7910m',
          'ephemeral-storage': '95551679124',
          'hugepages-1Gi': '0',
          'hugepages-2Mi': '0',
          memory: n.controlPlane ? '14902292Ki' : '31369424Ki',
          pods: maxPods,
        },
        capacity: { cpu, 'ephemeral-storage': '104845292Ki', 'hugepages-1Gi': '0', 'hugepages-2Mi': '0', memory, pods: maxPods },
        conditions,
        daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
        ...(o.lean ? {} : { images }),
        nodeInfo: {
          architecture: 'amd64',
          bootID: r.uuid(),
          containerRuntimeVersion: 'containerd://1.7.23',
          kernelVersion: '5.10.228-219.884.amzn2.x86_64',
          kubeProxyVersion: `v1.${minor}.2`,
          kubeletVersion: `v1.${minor}.2`,
          machineID: r.hex(32),
          operatingSystem: 'linux',
          osImage: 'Amazon Linux 2',
          systemUUID: `ec2${r.hex(5)}-${r.hex(4)}-${r.hex(4)}-${r.hex(4)}-${r.hex(12)}`,
        },
      },
    };
  }

  lease(n: NodePlan): KObject {
    return {
      apiVersion: this.minor >= 14 ? 'coordination.k8s.io/v1' : 'coordination.k8s.io/v1beta1',
      kind: 'Lease',
      metadata: {
        creationTimestamp: t(n.created),
        name: n.name,
        namespace: 'kube-node-lease',
        ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: n.name, uid: n.uid }],
        resourceVersion: this.rv(),
        uid: this.plan.random.uuid(),
      },
      spec: { holderIdentity: n.name, leaseDurationSeconds: 40, renewTime: formatMicroTime(n.leaseRenewed) },
    };
  }

  private daemonTemplateSpec(ds: DaemonSetPlan): J {
    const spec: J = {
      containers: [
        {
          image: ds.image,
          imagePullPolicy: 'IfNotPresent',
          name: ds.name,
          resources: { requests: { cpu: '100m', memory: '64Mi' } },
          ...(ds.hostNetwork ? { securityContext: { privileged: true } } : {}),
          terminationMessagePath: '/dev/termination-log',
          terminationMessagePolicy: 'File',
          volumeMounts: [{ mountPath: '/lib/modules', name: 'lib-modules', readOnly: true }],
        },
      ],
      dnsPolicy: ds.hostNetwork ? 'ClusterFirstWithHostNet' : 'ClusterFirst',
      priorityClassName: ds.priorityClassName,
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      securityContext: {},
      serviceAccount: ds.name,
      serviceAccountName: ds.name,
      terminationGracePeriodSeconds: 30,
      tolerations: ds.tolerations,
      volumes: [{ hostPath: { path: '/lib/modules', type: '' }, name: 'lib-modules' }],
    };
    if (ds.hostNetwork) spec.hostNetwork = true;
    return spec;
  }

  daemonSet(ds: DaemonSetPlan): KObject {
    const n = this.plan.nodes.length;
    const labels = { 'k8s-app': ds.name };
    return {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: {
        annotations: { 'deprecated.daemonset.template.generation': '1' },
        creationTimestamp: t(ds.created),
        generation: 1,
        labels,
        name: ds.name,
        namespace: ds.namespace,
        resourceVersion: this.rv(),
        uid: ds.uid,
      },
      spec: {
        revisionHistoryLimit: 10,
        selector: { matchLabels: labels },
        template: { metadata: { creationTimestamp: null, labels }, spec: this.daemonTemplateSpec(ds) },
        updateStrategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 1 }, type: 'RollingUpdate' },
      },
      status: {
        currentNumberScheduled: n,
        desiredNumberScheduled: n,
        numberAvailable: n,
        numberMisscheduled: 0,
        numberReady: n,
        observedGeneration: 1,
        updatedNumberScheduled: n,
      },
    };
  }

  private rsLabels(rs: ReplicaSetPlan): Record<string, string> {
    return { app: rs.deployment, 'pod-template-hash': rs.templateHash };
  }

  private rsTemplateSpec(rs: ReplicaSetPlan): J {
    const containers: J[] = [
      {
        image: rs.image,
        imagePullPolicy: 'IfNotPresent',
        name: rs.deployment,
        ports: [{ containerPort: 8080, name: 'http', protocol: 'TCP' }],
        resources: { limits: { memory: '256Mi' }, requests: { cpu: '100m', memory: '128Mi' } },
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
      },
    ];
    if (rs.sidecar) {
      containers.push({
        image: 'envoyproxy/envoy:v1.32.1',
        imagePullPolicy: 'IfNotPresent',
        name: 'envoy',
        resources: { requests: { cpu: '50m', memory: '64Mi' } },
        terminationMessagePath: '/dev/termination-log',
        terminationMessagePolicy: 'File',
      });
    }
    const spec: J = {
      containers,
      dnsPolicy: 'ClusterFirst',
      restartPolicy: 'Always',
      schedulerName: 'default-scheduler',
      securityContext: {},
      terminationGracePeriodSeconds: 30,
    };
    if (!rs.automountToken) spec.automountServiceAccountToken = false;
    if (rs.system) spec.priorityClassName = 'system-cluster-critical';
    const tolerations = templateTolerations(rs.tolerations, this.minor);
    if (tolerations.length) spec.tolerations = tolerations;
    return spec;
  }

  replicaSet(rs: ReplicaSetPlan): KObject {
    const labels = this.rsLabels(rs);
    const metadata: J = {
      annotations: {
        'deployment.kubernetes.io/desired-replicas': String(rs.deploymentReplicas),
        'deployment.kubernetes.io/max-replicas': String(rs.deploymentReplicas + Math.ceil(rs.deploymentReplicas / 4)),
        'deployment.kubernetes.io/revision': String(rs.revision),
      },
      creationTimestamp: t(rs.created),
      generation: rs.replicas === 0 ? 2 : 1,
      labels,
      name: rs.name,
      namespace: rs.namespace,
      ownerReferences: [{ apiVersion: 'apps/v1', blockOwnerDeletion: true, controller: true, kind: 'Deployment', name: rs.deployment, uid: rs.deploymentUID }],
      resourceVersion: this.rv(),
      uid: rs.uid,
    };
    if (this.withManagedFields()) {
      metadata.managedFields = [
        {
          apiVersion: 'apps/v1',
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:metadata': {
              'f:annotations': fieldSet([
                'deployment.kubernetes.io/desired-replicas',
                'deployment.kubernetes.io/max-replicas',
                'deployment.kubernetes.io/revision',
              ]),
              'f:labels': fieldSet(Object.keys(labels)),
              'f:ownerReferences': { '.': {}, [`k:{"uid":"${rs.deploymentUID}"}`]: {} },
            },
            'f:spec': {
              'f:replicas': {},
              'f:selector': {},
              'f:template': {
                'f:metadata': { 'f:labels': fieldSet(Object.keys(labels)) },
                'f:spec': { 'f:containers': {}, 'f:dnsPolicy': {}, 'f:restartPolicy': {} },
              },
            },
          },
          manager: 'kube-controller-manager',
          operation: 'Update',
          time: t(rs.created),
        },
        {
          apiVersion: 'apps/v1',
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:status': fieldSet(
              rs.replicas
                ? ['availableReplicas', 'fullyLabeledReplicas', 'observedGeneration', 'readyReplicas', 'replicas']
                : ['observedGeneration', 'replicas'],
            ),
          },
          manager: 'kube-controller-manager',
          operation: 'Update',
          subresource: 'status',
          time: t(rs.created),
        },
      ];
    }
    const n = rs.replicas;
    return {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata,
      spec: {
        replicas: n,
        selector: { matchLabels: labels },
        template: { metadata: { creationTimestamp: null, labels }, spec: this.rsTemplateSpec(rs) },
      },
      status: n
        ? { availableReplicas: n, fullyLabeledReplicas: n, observedGeneration: 1, readyReplicas: n, replicas: n }
        : { observedGeneration: 2, replicas: 0 },
    };
  }

  pod(p: PodPlan): KObject {
    const { random: r, options: o } = this.plan;
    const node = this.plan.nodes[p.node];
    const minor = this.minor;
    let spec: J,
      labels: Record<string, string>,
      owner: J,
      ownerCreated: Micros,
      hostNetwork = false;
    let annotations: Record<string, string> | undefined;
    if (p.owner.kind === 'ReplicaSet') {
      const rs = this.plan.replicaSets[p.owner.index];
      labels = this.rsLabels(rs);
      owner = { apiVersion: 'apps/v1', blockOwnerDeletion: true, controller: true, kind: 'ReplicaSet', name: rs.name, uid: rs.uid };
      ownerCreated = rs.created;
      spec = { ...this.rsTemplateSpec(rs) };
      spec.enableServiceLinks = true;
      spec.preemptionPolicy = 'PreemptLowerPriority';
      spec.priority = rs.system ? 2_000_000_000 : 0;
      spec.serviceAccount = 'default';
      spec.serviceAccountName = 'default';
      const tolerations = podTolerations(rs.tolerations, minor);
      if (tolerations.length) spec.tolerations = tolerations;
      else delete spec.tolerations;
      if (rs.sidecar) annotations = { 'prometheus.io/port': '9901', 'prometheus.io/scrape': 'true' };
    } else {
      const ds = this.plan.daemonSets[p.owner.index];
      labels = { 'controller-revision-hash': ds.templateHash, 'k8s-app': ds.name, 'pod-template-generation': '1' };
      owner = { apiVersion: 'apps/v1', blockOwnerDeletion: true, controller: true, kind: 'DaemonSet', name: ds.name, uid: ds.uid };
      ownerCreated = ds.created;
      hostNetwork = ds.hostNetwork;
      spec = { ...this.daemonTemplateSpec(ds) };
      spec.affinity = {
        nodeAffinity: {
          requiredDuringSchedulingIgnoredDuringExecution: {
            nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node.name] }] }],
          },
        },
      };
      spec.enableServiceLinks = true;
      spec.preemptionPolicy = 'PreemptLowerPriority';
      spec.priority = 2_000_001_000;
      spec.tolerations = daemonPodTolerations(ds);
    }
    spec.nodeName = node.name;

    const uid = r.uuid();
    const created = Math.min(Math.max(ownerCreated, node.created) + r.int(2, 3_600) * S, o.now - 60 * S);
    const scheduled = created;
    const started = created + r.int(1, 20) * S;
    const ready = started + r.int(1, 30) * S;

    const containers = spec.containers as J[];
    if (spec.automountServiceAccountToken !== false && !o.lean) {
      const volume = `kube-api-access-${r.nameSuffix(5)}`;
      spec.containers = containers.map((c) => ({
        ...c,
        volumeMounts: [
          ...((c.volumeMounts as J[] | undefined) ?? []),
          { mountPath: '/var/run/secrets/kubernetes.io/serviceaccount', name: volume, readOnly: true },
        ],
      }));
      spec.volumes = [
        ...((spec.volumes as J[] | undefined) ?? []),
        {
          name: volume,
          projected: {
            defaultMode: 420,
            sources: [
              { serviceAccountToken: { expirationSeconds: 3607, path: 'token' } },
              { configMap: { items: [{ key: 'ca.crt', path: 'ca.crt' }], name: 'kube-root-ca.crt' } },
              { downwardAPI: { items: [{ fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.namespace' }, path: 'namespace' }] } },
            ],
          },
        },
      ];
    }

    const containerStatuses = containers.map((c) => {
      const restartCount = r.weighted([
        [0, 85],
        [1, 8],
        [2, 3],
        [4, 2],
        [17, 1],
        [143, 1],
      ] as const);
      const image = c.image as string;
      const status: J = {
        ...(o.lean ? {} : { containerID: `containerd://${r.hex(64)}`, imageID: imageID(image) }),
        image,
        lastState: {},
        name: c.name,
        ready: true,
        restartCount,
        started: true,
        state: { running: { startedAt: t(started) } },
      };
      if (restartCount > 0) {
        const lastStart = Math.min(started + r.int(60, 86_400) * S, o.now - 30 * S);
        const finished = Math.min(lastStart + r.int(60, 86_400) * S, o.now - 20 * S);
        const oom = r.chance(0.5);
        status.lastState = {
          terminated: {
            ...(o.lean ? {} : { containerID: `containerd://${r.hex(64)}` }),
            exitCode: oom ? 137 : 1,
            finishedAt: t(finished),
            reason: oom ? 'OOMKilled' : 'Error',
            startedAt: t(lastStart),
          },
        };
        status.state = { running: { startedAt: t(finished + S) } };
      }
      return status;
    });

    const podIP = hostNetwork ? node.internalIP : `${node.podCIDRPrefix}.${++node.podCount + 1}`;
    const condition = (type: string, at: Micros): J => ({ lastProbeTime: null, lastTransitionTime: t(at), status: 'True', type });
    const conditions = [
      ...(minor >= 29 ? [condition('PodReadyToStartContainers', started)] : []),
      condition('Initialized', scheduled),
      condition('Ready', ready),
      condition('ContainersReady', ready),
      condition('PodScheduled', scheduled),
    ];
    const status: J = {
      conditions,
      containerStatuses,
      hostIP: node.internalIP,
      phase: 'Running',
      podIP,
      podIPs: [{ ip: podIP }],
      qosClass: 'Burstable',
      startTime: t(scheduled),
    };
    if (minor >= 28) status.hostIPs = [{ ip: node.internalIP }];

    const metadata: J = {
      creationTimestamp: t(created),
      generateName: p.name.slice(0, p.name.length - 5),
      labels,
      name: p.name,
      namespace: p.namespace,
      ownerReferences: [owner],
      resourceVersion: this.rv(),
      uid,
    };
    if (annotations) metadata.annotations = annotations;
    if (this.withManagedFields()) {
      metadata.managedFields = [
        {
          apiVersion: 'v1',
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:metadata': {
              'f:generateName': {},
              'f:labels': fieldSet(Object.keys(labels)),
              'f:ownerReferences': { '.': {}, [`k:{"uid":"${owner.uid}"}`]: {} },
            },
            'f:spec': {
              'f:containers': Object.fromEntries(
                containers.map((c) => [
                  `k:{"name":"${c.name}"}`,
                  fieldSet(['image', 'imagePullPolicy', 'name', 'resources', 'terminationMessagePath', 'terminationMessagePolicy']),
                ]),
              ),
              'f:dnsPolicy': {},
              'f:enableServiceLinks': {},
              'f:restartPolicy': {},
              'f:schedulerName': {},
              'f:securityContext': {},
              'f:terminationGracePeriodSeconds': {},
            },
          },
          manager: 'kube-controller-manager',
          operation: 'Update',
          time: t(created),
        },
        {
          apiVersion: 'v1',
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:status': {
              'f:conditions': keyedConditions(
                conditions.map((c) => c.type as string),
                false,
              ),
              'f:containerStatuses': {},
              'f:hostIP': {},
              'f:phase': {},
              'f:podIP': {},
              'f:podIPs': { '.': {}, [`k:{"ip":"${podIP}"}`]: { '.': {}, 'f:ip': {} } },
              'f:startTime': {},
            },
          },
          manager: 'kubelet',
          operation: 'Update',
          subresource: 'status',
          time: t(ready),
        },
      ];
    }
    return { apiVersion: 'v1', kind: 'Pod', metadata, spec, status };
  }
}
