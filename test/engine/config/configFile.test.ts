/**
 * The configuration as upstream writes it. KubeControllerManagerConfiguration and its sections have no json tags
 * (kubernetes staging/src/k8s.io/kube-controller-manager/config/v1alpha1/types.go), so their fields are written with
 * the Go names (`NodeLifecycleController`, `NodeMonitorGracePeriod`), which is what kube-controller-manager's /configz
 * prints, under its group's name (`ConfigzName`, cmd/kube-controller-manager/app/controllermanager.go; "componentconfig"
 * before 1.12), and Go's decoder matches a name whatever its case. All of these were read as unknown fields, and
 * nothing they set was applied.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readControllerManagerConfigFile } from '../../../src/engine/config/configFile';
import { detectDocumentKind } from '../../../src/engine/lint';
import { resolveConfig } from '../../../src/engine/config/resolve';
import { kubeVersion } from '../../../src/engine/versions/table';
import { seconds } from '../../../src/engine/model/time';

// the shape of a 1.31 /configz answer (abridged: sections the simulation does not read are kept, to show they pass quietly)
const CONFIGZ =
  '{"kubecontrollermanager.config.k8s.io":{"Generic":{"Port":0,"Address":"0.0.0.0","MinResyncPeriod":"12h0m0s",' +
  '"ClientConnection":{"Kubeconfig":"","QPS":20,"Burst":30},"ControllerStartInterval":"0s","LeaderElection":{"LeaderElect":true,' +
  '"LeaseDuration":"15s","RenewDeadline":"10s","RetryPeriod":"2s","ResourceLock":"leases","ResourceName":"kube-controller-manager",' +
  '"ResourceNamespace":"kube-system"},"Controllers":["*","-nodeipam"],"Debugging":{"EnableProfiling":true},"LeaderMigrationEnabled":false},' +
  '"KubeCloudShared":{"NodeMonitorPeriod":"5s","ClusterName":"kubernetes","CloudProvider":{"Name":""}},' +
  '"HPAController":{"HorizontalPodAutoscalerSyncPeriod":"15s"},"StatefulSetController":{"ConcurrentStatefulSetSyncs":5},' +
  '"NodeLifecycleController":{"NodeEvictionRate":0.1,"SecondaryNodeEvictionRate":0.01,"NodeStartupGracePeriod":"1m0s",' +
  '"NodeMonitorGracePeriod":"50s","LargeClusterSizeThreshold":50,"UnhealthyZoneThreshold":0.55},' +
  '"ReplicaSetController":{"ConcurrentRSSyncs":7}}}\n';

const cases: { name: string; text: string; settings: Record<string, unknown>; controllers?: unknown; problems?: string[] }[] = [
  {
    name: "/configz's answer (JSON, the Go names, under kubecontrollermanager.config.k8s.io)",
    text: CONFIGZ,
    settings: {
      leaderElectLeaseDuration: '15s',
      nodeMonitorPeriod: '5s',
      nodeEvictionRate: 0.1,
      secondaryNodeEvictionRate: 0.01,
      nodeStartupGracePeriod: '1m0s',
      nodeMonitorGracePeriod: '50s',
      largeClusterSizeThreshold: 50,
      unhealthyZoneThreshold: 0.55,
      concurrentReplicaSetSyncs: 7,
    },
    controllers: ['*', '-nodeipam'],
  },
  {
    name: 'a 1.11 /configz answer as YAML (componentconfig)',
    text: 'componentconfig:\n  NodeLifecycleController:\n    EnableTaintManager: false\n    PodEvictionTimeout: 2m0s\n',
    settings: { enableTaintManager: false, podEvictionTimeout: '2m0s' },
  },
  {
    name: 'a document with kind and the Go names',
    text: 'apiVersion: kubecontrollermanager.config.k8s.io/v1alpha1\nkind: KubeControllerManagerConfiguration\nNodeLifecycleController:\n  NodeMonitorGracePeriod: 30s\nGeneric:\n  Controllers: ["*"]\n',
    settings: { nodeMonitorGracePeriod: '30s' },
    controllers: ['*'],
  },
  {
    name: 'any case, as Go decodes it',
    text: 'kind: KubeControllerManagerConfiguration\nnodelifecyclecontroller:\n  NODEMONITORGRACEPERIOD: 30s\nkubeCloudShared:\n  nodeMonitorPeriod: 2s\n',
    settings: { nodeMonitorGracePeriod: '30s', nodeMonitorPeriod: '2s' },
  },
  {
    name: 'an unknown field in the Go spelling is still reported, by its place, with the hint in the Go spelling (the quick fix writes it)',
    text: 'kind: KubeControllerManagerConfiguration\nNodeLifecycleController:\n  NodeMonitorGracePeriods: 30s\nNodeLifecycleControler:\n  NodeEvictionRate: 0.2\n',
    settings: {},
    problems: [
      'unknown-field unknown field nodeLifecycleController.NodeMonitorGracePeriods (did you mean nodeLifecycleController.NodeMonitorGracePeriod?); ignored',
      'unknown-field unknown field NodeLifecycleControler (did you mean NodeLifecycleController?); ignored',
    ],
  },
  {
    name: "kube-scheduler's /configz (componentconfig too, before 1.12) is not kube-controller-manager's",
    text: '{"componentconfig":{"SchedulerName":"default-scheduler","HardPodAffinitySymmetricWeight":1}}\n',
    settings: {},
    problems: ['bad-config-file expected a KubeControllerManagerConfiguration or the kube-controller-manager static Pod manifest (kind: Pod)'],
  },
  {
    name: 'a map with one key that is not a /configz group is no configuration',
    text: '{"kubescheduler.config.k8s.io":{"Parallelism":16}}\n',
    settings: {},
    problems: ['bad-config-file expected a KubeControllerManagerConfiguration or the kube-controller-manager static Pod manifest (kind: Pod)'],
  },
];

for (const c of cases)
  test(`a kube-controller-manager configuration: ${c.name}`, () => {
    const r = readControllerManagerConfigFile('kcm.json', c.text);
    assert.deepEqual(
      r.problems.map((p) => `${p.code} ${p.message}`),
      c.problems ?? [],
    );
    assert.deepEqual(Object.fromEntries(Object.entries(r.settings).map(([k, v]) => [k, v.value])), c.settings);
    assert.deepEqual(r.controllers?.value, c.controllers);
  });

test("a value in /configz's one line keeps its column", () => {
  const r = readControllerManagerConfigFile('configz.json', CONFIGZ);
  const p = r.settings.nodeMonitorGracePeriod.position!;
  assert.equal(CONFIGZ.slice(p.offset!, p.endOffset), '"50s"');
  assert.deepEqual([p.line, p.column], [1, CONFIGZ.indexOf('"50s"') + 1]);
});

test('/configz answers are told from snapshots, as JSON and as YAML', () => {
  assert.equal(detectDocumentKind(CONFIGZ), 'kcm-config');
  assert.equal(detectDocumentKind('componentconfig:\n  NodeLifecycleController: {}\n'), 'kcm-config');
  assert.equal(detectDocumentKind('{"kind":"NodeList","items":[]}'), 'snapshot');
});

test('the configuration /configz reports is the one simulated: its grace period and the controllers it runs', () => {
  const r = resolveConfig({ settings: {}, featureGates: {}, flags: [], configFile: { path: 'configz.json', text: CONFIGZ } }, {}, kubeVersion(31));
  assert.deepEqual(
    r.problems.filter((p) => p.severity !== 'info').map((p) => p.code),
    [],
  );
  assert.equal(r.config.nodeMonitorGracePeriod, seconds(50));
  assert.equal(r.origins.nodeMonitorGracePeriod.origin, 'config-file');
  assert.equal(r.config.concurrentReplicaSetSyncs, 7);
  // "-replicaset" in its Controllers: the ReplicaSet controller is not run
  const off = resolveConfig(
    { settings: {}, featureGates: {}, flags: [], configFile: { path: 'configz.json', text: CONFIGZ.replace('-nodeipam', '-replicaset') } },
    {},
    kubeVersion(31),
  );
  assert.deepEqual([...off.config.controllers].sort(), ['nodelifecycle', 'taint-eviction-controller']);
  assert.equal(off.origins.controllers.origin, 'config-file');
});
