import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFlag, shellWords, splitFlagWords } from '../../../src/engine/config/flags';
import { readControllerManagerConfigFile } from '../../../src/engine/config/configFile';

test('a flag word is parsed into name and value, and knows its setting', () => {
  const cases: [text: string, flag: string | undefined, value: string | undefined, setting: string | undefined, ignored: boolean][] = [
    ['--node-monitor-grace-period=20s', '--node-monitor-grace-period', '20s', 'nodeMonitorGracePeriod', false],
    ['--enable-taint-manager', '--enable-taint-manager', undefined, 'enableTaintManager', false],
    ['--feature-gates=A=true,B=false', '--feature-gates', 'A=true,B=false', 'featureGates', false],
    ['--controllers=*,-replicaset', '--controllers', '*,-replicaset', 'controllers', false],
    ['-v=2', '--v', '2', undefined, true],
    ['--kubeconfig=/etc/kubernetes/controller-manager.conf', '--kubeconfig', '/etc/kubernetes/controller-manager.conf', undefined, true],
    ['--made-up=1', '--made-up', '1', undefined, false],
    ['kube-controller-manager', undefined, undefined, undefined, false],
    ['20s', undefined, undefined, undefined, false],
  ];
  for (const [text, flag, value, setting, ignored] of cases) {
    const f = parseFlag(text);
    assert.equal(f?.flag, flag, text);
    assert.equal(f?.value, value, text);
    assert.equal(f?.setting?.key, setting, text);
    if (f) assert.equal(f.ignored, ignored, text);
  }
});

test('the value of --a=b has its own position, for diagnostics on the value', () => {
  const f = parseFlag('--node-monitor-grace-period=20s', { file: 'f', line: 3, column: 7, offset: 40 })!;
  assert.deepEqual(f.valuePosition, { file: 'f', line: 3, column: 35, endLine: 3, endColumn: 38, offset: 68, endOffset: 71 });
});

test('command words are grouped as pflag does: booleans never take the next word', () => {
  const words = [
    '--node-monitor-grace-period',
    '20s',
    '--enable-taint-manager',
    '--leader-elect',
    'extra',
    '--node-eviction-rate 0.2',
    '--v',
    '4',
    '--unhealthy-zone-threshold',
  ].map((text) => ({ text }));
  const r = splitFlagWords(words);
  assert.deepEqual(
    r.flags.map((f) => [f.flag, f.value]),
    [
      ['--node-monitor-grace-period', '20s'],
      ['--enable-taint-manager', undefined],
      ['--leader-elect', undefined],
      ['--node-eviction-rate', '0.2'],
      ['--v', '4'],
      ['--unhealthy-zone-threshold', undefined],
    ],
  );
  assert.deepEqual(
    r.positional.map((w) => w.text),
    ['extra'],
  );
  assert.deepEqual(
    r.missingValue.map((f) => f.flag),
    ['--unhealthy-zone-threshold'],
  );
});

test('a command line string is split into words with quotes respected', () => {
  assert.deepEqual(shellWords(`exec kube-controller-manager --a=1  --b="x y" '--c=z'`), ['exec', 'kube-controller-manager', '--a=1', '--b=x y', '--c=z']);
  assert.deepEqual(shellWords(''), []);
});

test('a config file is recognised by kind, and other documents of a stream are skipped', () => {
  const stream = '---\napiVersion: v1\nkind: ConfigMap\n---\nkind: KubeControllerManagerConfiguration\nnodeLifecycleController:\n  nodeEvictionRate: 0.3\n';
  const r = readControllerManagerConfigFile('s.yaml', stream);
  assert.equal(r.form, 'KubeControllerManagerConfiguration');
  assert.deepEqual(r.problems, []);
  assert.equal(r.settings.nodeEvictionRate.value, 0.3);
  assert.deepEqual([r.settings.nodeEvictionRate.position?.line, r.settings.nodeEvictionRate.position?.column], [7, 21]);
});

test('sections of KubeControllerManagerConfiguration the simulation does not model are ignored without noise', () => {
  const text =
    'kind: KubeControllerManagerConfiguration\ndeploymentController:\n  concurrentDeploymentSyncs: 9\ngeneric:\n  clientConnection: {qps: 5}\n  leaderElection:\n    leaderElect: true\n    leaseDuration: 20s\nkubeCloudShared:\n  clusterName: x\n';
  const r = readControllerManagerConfigFile('c.yaml', text);
  assert.deepEqual(r.problems, []);
  assert.equal(r.settings.leaderElectLeaseDuration.value, '20s');
});

test('a static Pod manifest gives its command and args words, from the kube-controller-manager container', () => {
  const text =
    'kind: Pod\nspec:\n  containers:\n  - name: sidecar\n    image: busybox\n    command: [sleep, "1"]\n  - name: kube-controller-manager\n    image: registry.k8s.io/kube-controller-manager:v1.29.0\n    command: [kube-controller-manager]\n    args: ["--node-monitor-period=2s"]\n';
  const r = readControllerManagerConfigFile('p.yaml', text);
  assert.equal(r.form, 'Pod');
  assert.deepEqual(
    r.words.map((w) => w.text),
    ['kube-controller-manager', '--node-monitor-period=2s'],
  );
  assert.equal(r.words[1].position?.line, 10);
});

test('a section of the configuration that is not a map is reported as such', () => {
  const r = readControllerManagerConfigFile('c.yaml', 'kind: KubeControllerManagerConfiguration\ngeneric: 7\nnodeLifecycleController: [1]\n');
  assert.deepEqual(
    r.problems.map((p) => [p.code, p.position?.line]),
    [
      ['wrong-type', 2],
      ['wrong-type', 3],
    ],
  );
});
