import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CONFIG_PROBLEM_CODES,
  isFeatureEnabled,
  resolveConfig,
  usesTaintBasedEvictions,
  type ResolvedConfig,
  type SettingInput,
} from '../../../src/engine/config/resolve';
import { defaultControllerConfig } from '../../../src/engine/config/defaults';
import { behaviourOf, kubeVersion } from '../../../src/engine/versions/table';
import { minutes, seconds } from '../../../src/engine/model/time';
import type { ControllerManagerInput } from '../../../src/engine/snapshot/types';
import type { SourcePosition } from '../../../src/engine/problems';

const FIXTURES = join(__dirname, 'fixtures');
const fixture = (name: string) => ({ path: name, text: readFileSync(join(FIXTURES, name), 'utf8') });
const at = (line: number, column = 3): SourcePosition => ({ file: 'scenario.yaml', line, column });

interface Given {
  settings?: Record<string, unknown>;
  featureGates?: Record<string, unknown>;
  flags?: string[];
  configFile?: { path: string; text: string };
  kubelet?: Record<string, unknown>;
  set?: Record<string, string>;
}

/** Scenario keys get positions line 10, 11, ... ; flags line 30, 31, ... ; kubelet keys line 50, ... */
function resolve(minor: number, g: Given = {}): ResolvedConfig {
  let line = 10;
  const settings: SettingInput = {};
  for (const [k, v] of Object.entries(g.settings ?? {})) settings[k] = { value: v, position: at(line++) };
  line = 20;
  const featureGates: SettingInput = {};
  for (const [k, v] of Object.entries(g.featureGates ?? {})) featureGates[k] = { value: v, position: at(line++, 5) };
  const input: ControllerManagerInput = {
    settings,
    featureGates,
    flags: (g.flags ?? []).map((text, i) => ({ text, position: at(30 + i, 5) })),
    configFile: g.configFile,
  };
  line = 50;
  const kubelet: SettingInput = {};
  for (const [k, v] of Object.entries(g.kubelet ?? {})) kubelet[k] = { value: v, position: at(line++) };
  return resolveConfig(input, kubelet, kubeVersion(minor), g.set);
}

const codes = (r: ResolvedConfig) => r.problems.map((p) => p.code);
const errorsOf = (r: ResolvedConfig) => r.problems.filter((p) => p.severity === 'error');

test('with nothing configured, the version defaults are the result and nothing is reported', () => {
  for (const minor of [12, 13, 26, 27, 28, 29, 31, 32, 33, 34, 35]) {
    const r = resolve(minor);
    assert.deepEqual(r.problems, [], `1.${minor}`);
    assert.deepEqual(r.config, defaultControllerConfig(behaviourOf(kubeVersion(minor))), `1.${minor}`);
    assert.equal(r.origins.nodeMonitorGracePeriod.origin, 'default');
  }
});

test('sources override each other in the documented order: defaults < config file < scenario < flags < --set', () => {
  const file = { path: 'kcm.yaml', text: 'kind: KubeControllerManagerConfiguration\nnodeLifecycleController:\n  nodeMonitorGracePeriod: 30s\n' };
  const cases: [name: string, given: Given, want: number, origin: string][] = [
    ['the default alone', {}, seconds(40), 'default'],
    ['a config file beats the default', { configFile: file }, seconds(30), 'config-file'],
    ['a scenario key beats the config file', { configFile: file, settings: { nodeMonitorGracePeriod: '25s' } }, seconds(25), 'scenario'],
    [
      'a flag beats the scenario key',
      { configFile: file, settings: { nodeMonitorGracePeriod: '25s' }, flags: ['--node-monitor-grace-period=20s'] },
      seconds(20),
      'flag',
    ],
    [
      '--set beats the flag',
      { configFile: file, settings: { nodeMonitorGracePeriod: '25s' }, flags: ['--node-monitor-grace-period=20s'], set: { nodeMonitorGracePeriod: '15s' } },
      seconds(15),
      'override',
    ],
    ['the last of repeated flags wins', { flags: ['--node-monitor-grace-period=20s', '--node-monitor-grace-period=22s'] }, seconds(22), 'flag'],
    [
      'a bad flag leaves the scenario key in place',
      { settings: { nodeMonitorGracePeriod: '25s' }, flags: ['--node-monitor-grace-period=soon'] },
      seconds(25),
      'scenario',
    ],
    ['a static Pod manifest counts as the config file', { configFile: fixture('kube-controller-manager.pod.yaml'), settings: {} }, seconds(20), 'config-file'],
    [
      'a scenario key beats the static Pod manifest',
      { configFile: fixture('kube-controller-manager.pod.yaml'), settings: { nodeMonitorGracePeriod: '45s' } },
      seconds(45),
      'scenario',
    ],
  ];
  for (const [name, given, want, origin] of cases) {
    const r = resolve(31, given);
    assert.equal(r.config.nodeMonitorGracePeriod, want, name);
    assert.equal(r.origins.nodeMonitorGracePeriod.origin, origin, name);
  }
});

test('feature gates override gate by gate in the same order', () => {
  const r = resolve(21, {
    configFile: { path: 'kcm.yaml', text: 'kind: KubeControllerManagerConfiguration\nfeatureGates:\n  PodDeletionCost: true\n  LogarithmicScaleDown: true\n' },
    featureGates: { LogarithmicScaleDown: false },
    flags: ['--feature-gates=PodDeletionCost=false,LogarithmicScaleDown=true'],
    set: { 'featureGates.PodDeletionCost': 'true' },
  });
  assert.deepEqual(r.problems, []);
  assert.equal(r.config.featureGates.PodDeletionCost, true);
  assert.equal(r.origins['featureGates.PodDeletionCost'].origin, 'override');
  assert.equal(r.config.featureGates.LogarithmicScaleDown, true);
  assert.equal(r.origins['featureGates.LogarithmicScaleDown'].origin, 'flag');
});

test('every input form sets a setting: scenario key, --flag=value, --flag value, "--flag value", config file, static Pod, --set', () => {
  const cases: [name: string, given: Given][] = [
    ['scenario key', { settings: { nodeEvictionRate: 0.5 } }],
    ['scenario key as a string', { settings: { nodeEvictionRate: '0.5' } }],
    ['--flag=value', { flags: ['--node-eviction-rate=0.5'] }],
    ['--flag value as two list entries', { flags: ['--node-eviction-rate', '0.5'] }],
    ['"--flag value" as one list entry', { flags: ['--node-eviction-rate 0.5'] }],
    [
      'KubeControllerManagerConfiguration',
      {
        configFile: {
          path: 'c.yaml',
          text: 'apiVersion: kubecontrollermanager.config.k8s.io/v1alpha1\nkind: KubeControllerManagerConfiguration\nnodeLifecycleController:\n  nodeEvictionRate: 0.5\n',
        },
      },
    ],
    [
      'KubeControllerManagerConfiguration as JSON',
      { configFile: { path: 'c.json', text: '{"kind":"KubeControllerManagerConfiguration","nodeLifecycleController":{"nodeEvictionRate":0.5}}' } },
    ],
    ['static Pod manifest', { configFile: fixture('kube-controller-manager.pod.yaml') }],
    [
      'static Pod args with sh -c',
      {
        configFile: {
          path: 'p.yaml',
          text: 'kind: Pod\nspec:\n  containers:\n  - name: kcm\n    command: ["/bin/sh", "-c", "exec /usr/local/bin/kube-controller-manager --node-eviction-rate=0.5 --v=2"]\n',
        },
      },
    ],
    ['--set with the scenario key', { set: { nodeEvictionRate: '0.5' } }],
    ['--set with the flag', { set: { '--node-eviction-rate': '0.5' } }],
  ];
  for (const [name, given] of cases) {
    const r = resolve(31, given);
    assert.deepEqual(errorsOf(r), [], name);
    assert.equal(r.config.nodeEvictionRate, 0.5, name);
  }
});

test('a KubeControllerManagerConfiguration sets every section the simulation reads', () => {
  const r = resolve(31, { configFile: fixture('kcm-config.yaml') });
  assert.deepEqual(r.problems, []);
  assert.equal(r.config.nodeMonitorPeriod, seconds(2));
  assert.equal(r.config.nodeMonitorGracePeriod, seconds(30));
  assert.equal(r.config.nodeStartupGracePeriod, minutes(2));
  assert.equal(r.config.largeClusterSizeThreshold, 20);
  assert.equal(r.config.unhealthyZoneThreshold, 0.4);
  assert.equal(r.config.nodeEvictionRate, 0.2);
  assert.equal(r.config.secondaryNodeEvictionRate, 0.05);
  assert.equal(r.config.concurrentReplicaSetSyncs, 10);
  assert.equal(r.config.leaderElectLeaseDuration, seconds(30));
  assert.equal(r.config.featureGates.SeparateTaintEvictionController, false);
  // SeparateTaintEvictionController off: the taint manager runs inside nodelifecycle; replicaset disabled by -replicaset.
  assert.deepEqual([...r.config.controllers], ['nodelifecycle']);
  assert.equal(r.behaviour.separateTaintEvictionController, false);
  assert.deepEqual(
    r.origins.nodeMonitorGracePeriod.position && [r.origins.nodeMonitorGracePeriod.position.line, r.origins.nodeMonitorGracePeriod.position.column],
    [12, 27],
  );
});

test('the kubeadm static Pod manifest is read: modelled flags applied, the others listed as ignored', () => {
  const r = resolve(31, { configFile: fixture('kube-controller-manager.pod.yaml') });
  assert.deepEqual(codes(r), ['flag-ignored']);
  assert.equal(r.problems[0].severity, 'info');
  assert.match(r.problems[0].message, /--kubeconfig/);
  assert.equal(r.config.nodeMonitorGracePeriod, seconds(20));
  assert.equal(r.config.featureGates.PodDeletionCost, false);
  assert.deepEqual([...r.config.controllers].sort(), ['nodelifecycle', 'replicaset', 'taint-eviction-controller']);
  const p = r.origins.nodeMonitorGracePeriod.position!;
  assert.deepEqual([p.file, p.line, p.column], ['kube-controller-manager.pod.yaml', 26, 35]);
});

interface ProblemCase {
  name: string;
  minor: number;
  given: Given;
  code: keyof typeof CONFIG_PROBLEM_CODES;
  severity: 'error' | 'warning' | 'info';
  /** [file, line, column] of the problem, when it has one */
  where?: [string, number, number];
  message?: RegExp;
  /** the value must not have been applied: check this config field keeps its default */
  unchanged?: keyof ReturnType<typeof defaultControllerConfig>;
}

const PROBLEM_CASES: ProblemCase[] = [
  {
    name: 'a config file that is not YAML',
    minor: 31,
    given: { configFile: { path: 'c.yaml', text: 'kind: [unclosed\n' } },
    code: 'yaml-syntax',
    severity: 'error',
    message: /./,
  },
  {
    name: 'a config file of another kind',
    minor: 31,
    given: { configFile: { path: 'c.yaml', text: 'kind: ConfigMap\ndata: {}\n' } },
    code: 'bad-config-file',
    severity: 'error',
    where: ['c.yaml', 1, 1],
  },
  {
    name: 'a Pod without a kube-controller-manager container',
    minor: 31,
    given: { configFile: { path: 'p.yaml', text: 'kind: Pod\nspec:\n  containers:\n  - name: a\n    image: nginx\n  - name: b\n    image: redis\n' } },
    code: 'bad-config-file',
    severity: 'error',
  },
  {
    name: 'an unexpected apiVersion',
    minor: 31,
    given: { configFile: { path: 'c.yaml', text: 'apiVersion: kubecontrollermanager.config.k8s.io/v1\nkind: KubeControllerManagerConfiguration\n' } },
    code: 'unknown-api-version',
    severity: 'warning',
    where: ['c.yaml', 1, 13],
  },
  {
    name: 'a misspelt field in nodeLifecycleController',
    minor: 31,
    given: { configFile: { path: 'c.yaml', text: 'kind: KubeControllerManagerConfiguration\nnodeLifecycleController:\n  nodeMonitorGracePeriode: 10s\n' } },
    code: 'unknown-field',
    severity: 'warning',
    where: ['c.yaml', 3, 3],
    message: /did you mean nodeLifecycleController\.nodeMonitorGracePeriod/,
    unchanged: 'nodeMonitorGracePeriod',
  },
  {
    name: 'a misspelt scenario key',
    minor: 31,
    given: { settings: { nodeMonitorGracePriod: '10s' } },
    code: 'unknown-setting',
    severity: 'error',
    where: ['scenario.yaml', 10, 3],
    message: /did you mean nodeMonitorGracePeriod\?/,
  },
  {
    name: 'a kubelet setting under controllerManager',
    minor: 31,
    given: { settings: { nodeStatusUpdateFrequency: '5s' } },
    code: 'unknown-setting',
    severity: 'error',
    message: /belongs under kubelet/,
  },
  {
    name: 'a controller-manager setting under kubelet',
    minor: 31,
    given: { kubelet: { nodeMonitorGracePeriod: '5s' } },
    code: 'unknown-setting',
    severity: 'error',
    where: ['scenario.yaml', 50, 3],
    message: /belongs under controllerManager/,
    unchanged: 'nodeMonitorGracePeriod',
  },
  {
    name: 'a misspelt flag',
    minor: 31,
    given: { flags: ['--node-monitor-grace-periode=10s'] },
    code: 'unknown-flag',
    severity: 'error',
    where: ['scenario.yaml', 30, 5],
    message: /did you mean --node-monitor-grace-period\?/,
    unchanged: 'nodeMonitorGracePeriod',
  },
  {
    name: 'a kubelet flag given to the controller manager',
    minor: 31,
    given: { flags: ['--node-status-update-frequency=4s'] },
    code: 'unknown-flag',
    severity: 'error',
    message: /kubelet flag/,
  },
  {
    name: 'a real flag the simulation does not model',
    minor: 31,
    given: { flags: ['--kubeconfig=/etc/kubernetes/controller-manager.conf'] },
    code: 'flag-ignored',
    severity: 'info',
  },
  {
    name: 'a flag 1.36 added that the simulation does not model (--concurrent-resourceclaim-syncs)',
    minor: 36,
    given: { flags: ['--concurrent-resourceclaim-syncs=10'] },
    code: 'flag-ignored',
    severity: 'info',
  },
  {
    name: 'a serving flag 1.36 added that the simulation does not model (--tls-curve-preferences)',
    minor: 37,
    given: { flags: ['--tls-curve-preferences=X25519MLKEM768,X25519'] },
    code: 'flag-ignored',
    severity: 'info',
  },
  {
    name: 'a word that is not a flag',
    minor: 31,
    given: { flags: ['node-monitor-grace-period=10s'] },
    code: 'bad-flag',
    severity: 'error',
    where: ['scenario.yaml', 30, 5],
  },
  {
    name: 'a boolean flag with its value as the next word',
    minor: 26,
    given: { flags: ['--enable-taint-manager', 'false'] },
    code: 'bad-flag',
    severity: 'error',
    where: ['scenario.yaml', 31, 5],
    message: /--enable-taint-manager=false/,
  },
  {
    name: 'a flag without its value',
    minor: 31,
    given: { flags: ['--node-monitor-grace-period'] },
    code: 'bad-flag',
    severity: 'error',
    message: /needs a value/,
  },
  {
    name: 'a malformed --feature-gates',
    minor: 31,
    given: { flags: ['--feature-gates=PodDeletionCost'] },
    code: 'bad-flag',
    severity: 'error',
    message: /Name=true\|false/,
  },
  {
    name: 'a rate that is not a number',
    minor: 31,
    given: { settings: { nodeEvictionRate: 'fast' } },
    code: 'wrong-type',
    severity: 'error',
    unchanged: 'nodeEvictionRate',
  },
  {
    name: 'a threshold that is not a whole number',
    minor: 31,
    given: { flags: ['--large-cluster-size-threshold=2.5'] },
    code: 'wrong-type',
    severity: 'error',
    where: ['scenario.yaml', 30, 36],
    unchanged: 'largeClusterSizeThreshold',
  },
  {
    name: 'a boolean that is not true or false',
    minor: 26,
    given: { settings: { enableTaintManager: 'yes' } },
    code: 'wrong-type',
    severity: 'error',
    unchanged: 'enableTaintManager',
  },
  {
    name: 'a gate value that is not true or false',
    minor: 31,
    given: { featureGates: { PodDeletionCost: 'maybe' } },
    code: 'wrong-type',
    severity: 'error',
    where: ['scenario.yaml', 20, 5],
  },
  { name: 'controllers that are not a list', minor: 31, given: { settings: { controllers: 5 } }, code: 'wrong-type', severity: 'error' },
  {
    name: 'a duration without a unit',
    minor: 31,
    given: { settings: { nodeMonitorGracePeriod: 40 } },
    code: 'bad-duration',
    severity: 'error',
    message: /40s/,
    unchanged: 'nodeMonitorGracePeriod',
  },
  {
    name: 'a duration Go cannot parse',
    minor: 31,
    given: { flags: ['--node-monitor-period=5 seconds'] },
    code: 'bad-duration',
    severity: 'error',
    unchanged: 'nodeMonitorPeriod',
  },
  {
    name: 'a negative eviction rate',
    minor: 31,
    given: { settings: { nodeEvictionRate: -0.1 } },
    code: 'out-of-range',
    severity: 'error',
    unchanged: 'nodeEvictionRate',
  },
  {
    name: 'a negative secondary eviction rate',
    minor: 31,
    given: { flags: ['--secondary-node-eviction-rate=-1'] },
    code: 'out-of-range',
    severity: 'error',
    unchanged: 'secondaryNodeEvictionRate',
  },
  {
    name: 'an unhealthy-zone threshold of 0',
    minor: 31,
    given: { settings: { unhealthyZoneThreshold: 0 } },
    code: 'out-of-range',
    severity: 'error',
    message: /\(0, 1\]/,
    unchanged: 'unhealthyZoneThreshold',
  },
  {
    name: 'an unhealthy-zone threshold above 1',
    minor: 31,
    given: { settings: { unhealthyZoneThreshold: 1.5 } },
    code: 'out-of-range',
    severity: 'error',
    unchanged: 'unhealthyZoneThreshold',
  },
  {
    name: 'a zero monitor period',
    minor: 31,
    given: { settings: { nodeMonitorPeriod: '0s' } },
    code: 'out-of-range',
    severity: 'error',
    unchanged: 'nodeMonitorPeriod',
  },
  {
    name: '--pod-eviction-timeout on 1.27',
    minor: 27,
    given: { flags: ['--pod-eviction-timeout=1m'] },
    code: 'not-in-version',
    severity: 'error',
    where: ['scenario.yaml', 30, 28],
    message: /removed in 1\.27/,
  },
  { name: 'podEvictionTimeout on 1.35', minor: 35, given: { settings: { podEvictionTimeout: '1m' } }, code: 'not-in-version', severity: 'error' },
  {
    name: '--enable-taint-manager on 1.27',
    minor: 27,
    given: { flags: ['--enable-taint-manager=false'] },
    code: 'not-in-version',
    severity: 'error',
    unchanged: 'enableTaintManager',
  },
  {
    name: 'nodeStatusReportFrequency on 1.12',
    minor: 12,
    given: { kubelet: { nodeStatusReportFrequency: '1m' } },
    code: 'not-in-version',
    severity: 'error',
    message: /added in 1\.13/,
  },
  { name: '--enable-taint-manager on 1.25', minor: 25, given: { flags: ['--enable-taint-manager=true'] }, code: 'deprecated-setting', severity: 'warning' },
  { name: '--pod-eviction-timeout on 1.26', minor: 26, given: { flags: ['--pod-eviction-timeout=2m'] }, code: 'deprecated-setting', severity: 'warning' },
  {
    name: 'a gate the simulation does not model',
    minor: 31,
    given: { featureGates: { PodDeletionCosts: true } },
    code: 'unknown-feature-gate',
    severity: 'warning',
    message: /did you mean PodDeletionCost\?/,
  },
  {
    name: 'TaintBasedEvictions on 1.21',
    minor: 21,
    given: { featureGates: { TaintBasedEvictions: true } },
    code: 'gate-not-in-version',
    severity: 'error',
    message: /removed in 1\.21/,
  },
  {
    name: 'SeparateTaintEvictionController on 1.28',
    minor: 28,
    given: { flags: ['--feature-gates=SeparateTaintEvictionController=true'] },
    code: 'gate-not-in-version',
    severity: 'error',
    message: /added in 1\.29/,
  },
  {
    name: 'NodeLease=false on 1.17',
    minor: 17,
    given: { featureGates: { NodeLease: false } },
    code: 'gate-locked',
    severity: 'error',
    where: ['scenario.yaml', 20, 5],
  },
  {
    name: 'SeparateTaintEvictionController=false on 1.34',
    minor: 34,
    given: { featureGates: { SeparateTaintEvictionController: false } },
    code: 'gate-locked',
    severity: 'error',
  },
  {
    name: 'LogarithmicScaleDown=false on 1.31',
    minor: 31,
    given: { set: { 'featureGates.LogarithmicScaleDown': 'false' } },
    code: 'gate-locked',
    severity: 'error',
  },
  {
    name: 'a misspelt controller',
    minor: 31,
    given: { flags: ['--controllers=*,-replicaset-controler'] },
    code: 'unknown-controller',
    severity: 'error',
    message: /did you mean replicaset-controller\?/,
  },
  {
    name: 'a controller name without its -controller suffix that has no short form',
    minor: 31,
    given: { flags: ['--controllers=*,-validatingadmissionpolicy-status'] },
    code: 'unknown-controller',
    severity: 'error',
    message: /did you mean validatingadmissionpolicy-status-controller\?/,
  },
  {
    name: 'taint-eviction-controller on 1.28',
    minor: 28,
    given: { settings: { controllers: ['*', '-taint-eviction-controller'] } },
    code: 'controller-not-in-version',
    severity: 'error',
    message: /from 1\.29/,
  },
  {
    name: 'the new controller name on 1.27',
    minor: 27,
    given: { flags: ['--controllers=node-lifecycle-controller'] },
    code: 'controller-not-in-version',
    severity: 'error',
  },
  {
    name: 'the canonical name of a controller the simulation does not model, on 1.27 (names came in 1.28)',
    minor: 27,
    given: { flags: ['--controllers=*,-node-ipam-controller'] },
    code: 'controller-not-in-version',
    severity: 'error',
    message: /node-ipam-controller exists from 1\.28; Kubernetes 1\.27 does not have it/,
  },
  {
    name: 'a cloud provider controller on 1.37 (gone with #138002)',
    minor: 37,
    given: { flags: ['--controllers=*,-service-lb-controller'] },
    code: 'controller-not-in-version',
    severity: 'error',
    message: /service-lb-controller was removed in 1\.37/,
  },
  {
    name: "a cloud provider controller's old name on 1.37",
    minor: 37,
    given: { settings: { controllers: ['*', '-route'] } },
    code: 'controller-not-in-version',
    severity: 'error',
    message: /route was removed in 1\.37/,
  },
  {
    name: 'podEvictionTimeout with taint-based evictions on',
    minor: 13,
    given: { settings: { podEvictionTimeout: '1m' } },
    code: 'setting-has-no-effect',
    severity: 'warning',
    where: ['scenario.yaml', 10, 3],
  },
  {
    name: 'nodeStatusReportFrequency without Leases',
    minor: 13,
    given: { kubelet: { nodeStatusReportFrequency: '2m' } },
    code: 'setting-has-no-effect',
    severity: 'warning',
  },
  {
    name: 'TaintBasedEvictions without the taint manager',
    minor: 20,
    given: { settings: { enableTaintManager: false } },
    code: 'setting-interaction',
    severity: 'warning',
  },
  {
    name: 'a grace period shorter than the heartbeat',
    minor: 31,
    given: { settings: { nodeMonitorGracePeriod: '8s' } },
    code: 'grace-period-too-short',
    severity: 'warning',
  },
  {
    name: 'a monitor period of 1us',
    minor: 31,
    given: { settings: { nodeMonitorPeriod: '1us' } },
    code: 'period-below-limit',
    severity: 'error',
    where: ['scenario.yaml', 10, 3],
    message: /1ms or more/,
  },
  {
    name: 'a monitor period of 200ms',
    minor: 31,
    given: { flags: ['--node-monitor-period=200ms'] },
    code: 'absurd-setting',
    severity: 'warning',
    message: /under one second/,
  },
];

test('every bad input is reported with its stable code, severity and position, and is not applied', () => {
  for (const c of PROBLEM_CASES) {
    const r = resolve(c.minor, c.given);
    const p = r.problems.find((x) => x.code === c.code);
    assert.ok(p, `${c.name}: expected ${c.code}, got ${JSON.stringify(r.problems)}`);
    assert.equal(p.severity, c.severity, c.name);
    if (c.where) assert.deepEqual([p.position?.file, p.position?.line, p.position?.column], c.where, c.name);
    if (c.message) assert.match(p.message, c.message, c.name);
    if (c.unchanged) {
      const def = defaultControllerConfig(behaviourOf(kubeVersion(c.minor)));
      assert.deepEqual(r.config[c.unchanged], def[c.unchanged], `${c.name}: ${c.unchanged} must keep its default`);
    }
  }
});

test('every problem code has a case above', () => {
  const covered = new Set(PROBLEM_CASES.map((c) => c.code));
  for (const code of Object.keys(CONFIG_PROBLEM_CODES)) assert.ok(covered.has(code as keyof typeof CONFIG_PROBLEM_CODES), code);
});

test('a flag or gate the version does not have is not applied, the same flag one version earlier is', () => {
  const cases: [name: string, before: number, after: number, given: Given, check: (r: ResolvedConfig) => unknown, applied: unknown, notApplied: unknown][] = [
    ['--pod-eviction-timeout (1.26 vs 1.27)', 26, 27, { flags: ['--pod-eviction-timeout=1m'] }, (r) => r.config.podEvictionTimeout, minutes(1), minutes(5)],
    ['--enable-taint-manager=false (1.26 vs 1.27)', 26, 27, { flags: ['--enable-taint-manager=false'] }, (r) => r.config.enableTaintManager, false, true],
    [
      '--controllers=-taint-eviction-controller (1.29 vs 1.28)',
      29,
      28,
      { flags: ['--controllers=*,-taint-eviction-controller'] },
      (r) => r.config.controllers.has('nodelifecycle') && !r.problems.length,
      true,
      false,
    ],
    [
      'TaintBasedEvictions=false (1.20 locked vs 1.17 beta)',
      17,
      20,
      { featureGates: { TaintBasedEvictions: false } },
      (r) => r.config.featureGates.TaintBasedEvictions,
      false,
      true,
    ],
    [
      'SeparateTaintEvictionController=false (1.33 vs 1.34)',
      33,
      34,
      { featureGates: { SeparateTaintEvictionController: false } },
      (r) => r.behaviour.separateTaintEvictionController,
      false,
      true,
    ],
  ];
  for (const [name, ok, bad, given, check, applied, notApplied] of cases) {
    assert.deepEqual(check(resolve(ok, given)), applied, `${name}: applied in 1.${ok}`);
    const r = resolve(bad, given);
    assert.ok(errorsOf(r).length > 0, `${name}: reported in 1.${bad}`);
    assert.deepEqual(check(r), notApplied, `${name}: not applied in 1.${bad}`);
  }
});

test('--controllers selects the simulated controllers as kube-controller-manager does', () => {
  const cases: [minor: number, value: string, want: string[]][] = [
    [31, '*', ['nodelifecycle', 'replicaset', 'taint-eviction-controller']],
    [28, '*', ['nodelifecycle', 'replicaset']],
    [31, '*,-replicaset', ['nodelifecycle', 'taint-eviction-controller']],
    [31, 'nodelifecycle', ['nodelifecycle']],
    [31, '-nodelifecycle', []],
    [31, '*,bootstrapsigner,tokencleaner', ['nodelifecycle', 'replicaset', 'taint-eviction-controller']],
    [31, '*,-node-lifecycle-controller', ['replicaset', 'taint-eviction-controller']],
    [31, 'replicaset-controller,taint-eviction-controller', ['replicaset', 'taint-eviction-controller']],
    [12, '*,-replicaset', ['nodelifecycle']],
    // the cloud provider's controllers: no-ops from 1.31, still known until 1.37 removed them
    [36, '*,-service-lb-controller,-route,-cloud-node-lifecycle', ['nodelifecycle', 'replicaset', 'taint-eviction-controller']],
    [20, '*,-service,-route,-cloud-node-lifecycle', ['nodelifecycle', 'replicaset']],
  ];
  for (const [minor, value, want] of cases) {
    const r = resolve(minor, { flags: [`--controllers=${value}`] });
    assert.deepEqual(errorsOf(r), [], `${value} on 1.${minor}`);
    assert.deepEqual([...r.config.controllers].sort(), want, `${value} on 1.${minor}`);
  }
  // the same list as a scenario key
  assert.deepEqual([...resolve(31, { settings: { controllers: ['*', '-replicaset'] } }).config.controllers].sort(), [
    'nodelifecycle',
    'taint-eviction-controller',
  ]);
});

test('taint-based eviction is used from 1.13, only with the taint manager before 1.27, always from 1.27', () => {
  const cases: [minor: number, given: Given, want: boolean][] = [
    [12, {}, false],
    [12, { featureGates: { TaintBasedEvictions: true } }, true],
    [12, { featureGates: { TaintBasedEvictions: true }, settings: { enableTaintManager: false } }, false],
    [13, {}, true],
    [13, { featureGates: { TaintBasedEvictions: false } }, false],
    [26, { flags: ['--enable-taint-manager=false'] }, false],
    [27, {}, true],
    [35, {}, true],
  ];
  for (const [minor, given, want] of cases) {
    const r = resolve(minor, given);
    assert.equal(usesTaintBasedEvictions(r.config, behaviourOf(kubeVersion(minor))), want, `1.${minor} ${JSON.stringify(given)}`);
  }
});

test('gates that switch behaviour change the resolved behaviour', () => {
  const cases: [
    minor: number,
    gates: Record<string, boolean>,
    field: 'excludeMasterByName' | 'honoursExcludeDisruptionLabel' | 'separateTaintEvictionController',
    want: boolean,
  ][] = [
    [15, {}, 'excludeMasterByName', true],
    [16, {}, 'excludeMasterByName', true],
    [16, { LegacyNodeRoleBehavior: false }, 'excludeMasterByName', false],
    [21, {}, 'excludeMasterByName', false],
    [17, {}, 'honoursExcludeDisruptionLabel', false],
    [17, { NodeDisruptionExclusion: true }, 'honoursExcludeDisruptionLabel', true],
    [20, { NodeDisruptionExclusion: false }, 'honoursExcludeDisruptionLabel', false],
    [25, {}, 'honoursExcludeDisruptionLabel', true],
    [29, { SeparateTaintEvictionController: false }, 'separateTaintEvictionController', false],
    [33, {}, 'separateTaintEvictionController', true],
  ];
  for (const [minor, gates, field, want] of cases) {
    const r = resolve(minor, { featureGates: gates });
    assert.deepEqual(errorsOf(r), [], `1.${minor}`);
    assert.equal(r.behaviour[field], want, `1.${minor} ${JSON.stringify(gates)} ${field}`);
  }
});

test('isFeatureEnabled treats a gate removed after GA as on, and an unknown one as off', () => {
  const r = resolve(31);
  const beh = behaviourOf(kubeVersion(31));
  assert.equal(isFeatureEnabled(r.config, beh, 'TaintBasedEvictions'), true);
  assert.equal(isFeatureEnabled(r.config, beh, 'NodeLease'), true);
  assert.equal(isFeatureEnabled(r.config, beh, 'PodDeletionCost'), true);
  assert.equal(isFeatureEnabled(r.config, beh, 'NoSuchGate'), false);
  const r12 = resolve(12);
  assert.equal(isFeatureEnabled(r12.config, behaviourOf(kubeVersion(12)), 'PodDeletionCost'), false);
});

test('kubelet settings: the report interval follows Leases and the update frequency, as the kubelet defaults it', () => {
  const cases: [name: string, minor: number, given: Given, update: number, report: number][] = [
    ['1.12 posts every 10s', 12, {}, seconds(10), seconds(10)],
    ['1.12 with NodeLease on still posts every update', 12, { featureGates: { NodeLease: true } }, seconds(10), seconds(10)],
    ['1.13 with NodeLease on posts an unchanged status every 1m', 13, { featureGates: { NodeLease: true } }, seconds(10), minutes(1)],
    ['1.31 posts an unchanged status every 5m', 31, {}, seconds(10), minutes(5)],
    ['an explicit update frequency becomes the report default', 31, { kubelet: { nodeStatusUpdateFrequency: '4s' } }, seconds(4), seconds(4)],
    ['an explicit report frequency wins', 31, { kubelet: { nodeStatusUpdateFrequency: '4s', nodeStatusReportFrequency: '1m' } }, seconds(4), minutes(1)],
    ['--set kubelet.X', 31, { set: { 'kubelet.nodeStatusReportFrequency': '2m' } }, seconds(10), minutes(2)],
    ['without Leases the report frequency is the update frequency', 13, { kubelet: { nodeStatusUpdateFrequency: '7s' } }, seconds(7), seconds(7)],
  ];
  for (const [name, minor, given, update, report] of cases) {
    const r = resolve(minor, given);
    assert.deepEqual(errorsOf(r), [], name);
    assert.equal(r.kubelet.nodeStatusUpdateFrequency, update, name);
    assert.equal(r.kubelet.nodeStatusReportFrequency, report, name);
  }
  const r = resolve(31, { kubelet: { podStartupDelay: '2s', leaseRenewInterval: '5s' } });
  assert.equal(r.kubelet.podStartupDelay, seconds(2));
  assert.equal(r.kubelet.leaseRenewInterval, seconds(5));
});

test('resolution is deterministic: the same input gives the same result', () => {
  const given: Given = {
    configFile: fixture('kube-controller-manager.pod.yaml'),
    flags: ['--node-eviction-rate=0.3', '--foo=1'],
    settings: { unhealthyZoneThreshold: 2 },
  };
  const a = resolve(31, given),
    b = resolve(31, given);
  assert.deepEqual(
    { ...a, config: { ...a.config, controllers: [...a.config.controllers] } },
    { ...b, config: { ...b.config, controllers: [...b.config.controllers] } },
  );
});

test('no input makes resolution throw: odd values in every setting, flag and file are reported', () => {
  const odd: unknown[] = [null, undefined, {}, [], [1, 2], NaN, Infinity, -0, 1e308, '', ' ', 'ü', '--', '=', true, '5m5m', '-5s', '0x10'];
  const keys = [
    'nodeMonitorPeriod',
    'nodeEvictionRate',
    'largeClusterSizeThreshold',
    'enableTaintManager',
    'controllers',
    'featureGates',
    'podEvictionTimeout',
    'burstReplicas',
  ];
  for (const minor of [12, 26, 27, 35]) {
    for (const key of keys) {
      for (const value of odd) {
        const r = resolve(minor, {
          settings: { [key]: value },
          flags: [`--${key}=${String(value)}`, String(value)],
          featureGates: { PodDeletionCost: value },
          kubelet: { nodeStatusUpdateFrequency: value },
        });
        assert.ok(Array.isArray(r.problems));
        assert.ok(r.config.nodeMonitorPeriod > 0 && Number.isFinite(r.config.nodeEvictionRate));
      }
    }
  }
  for (const text of [
    '',
    '---',
    'null',
    '[]',
    'kind: Pod',
    'kind: Pod\nspec: 5',
    'kind: Pod\nspec:\n  containers: [5]',
    'kind: KubeControllerManagerConfiguration\nfeatureGates: [1]\ngeneric: 7',
    '{"kind":',
    '\u0000\u0001',
  ]) {
    const r = resolve(31, { configFile: { path: 'x.yaml', text } });
    assert.ok(r.problems.length > 0 || text.includes('KubeControllerManagerConfiguration'), JSON.stringify(text));
  }
});
