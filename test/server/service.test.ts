/**
 * The pure language service, with the caret written into the text as `|`
 * (as yaml-language-server's tests do): hover, completion, definition, code
 * lenses, symbols, diagnostics and code actions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createLanguageService } from '../../src/server/service';
import { lintDocumentWithContext } from '../../src/engine/lint';
import { nodeFs } from '../../src/platform/nodeFs';
import { TextLines } from '../../src/server/service/text';
import { CLUSTER, SCENARIO, caret, scenario, workspace } from '../engine/lint/helpers';

const URI = `file://${SCENARIO}`;
const service = (version?: string) => createLanguageService({ fs: workspace(), defaultVersion: version });

/** Runs `f` with the caret's LSP position in `src`. */
function at<T>(src: string, f: (text: string, pos: { line: number; character: number }) => T): T {
  const { text, offset } = caret(src);
  return f(text, new TextLines(text).positionAt(offset));
}

const hoverText = (src: string, uri = URI): string =>
  at(src, (text, pos) => {
    const h = service().hover(uri, text, pos);
    return h ? (h.contents as { value: string }).value : '';
  });

const labels = (src: string, uri = URI): string[] =>
  at(src, (text, pos) =>
    service()
      .completion(uri, text, pos)
      .map((c) => c.label),
  );

const hovers: { name: string; doc: string; uri?: string; has: string[] }[] = [
  {
    name: "hover on a setting shows its default in the scenario's version (1.31: 40s)",
    doc: scenario('1.31', 'controllerManager:\n  nodeMonitor|GracePeriod: 45s\n'),
    has: ['**nodeMonitorGracePeriod**', 'Default in 1.31: `40s`', '--node-monitor-grace-period'],
  },
  {
    name: 'hover on the same setting in 1.32 shows 50s',
    doc: scenario('1.32', 'controllerManager:\n  nodeMonitorGracePeriod: 4|5s\n'),
    has: ['Default in 1.32: `50s`'],
  },
  {
    name: 'hover on a removed setting says when it was removed',
    doc: scenario('1.31', 'controllerManager:\n  podEviction|Timeout: 5m\n'),
    has: ['Removed in 1.27'],
  },
  { name: 'hover on a kubelet setting', doc: scenario('1.31', 'kubelet:\n  leaseRenew|Interval: 10s\n'), has: ['**leaseRenewInterval**'] },
  {
    name: 'hover on a flag in flags:',
    doc: scenario('1.31', 'controllerManager:\n  flags:\n    - --node-eviction-r|ate=0.2\n'),
    has: ['**nodeEvictionRate**', 'Default in 1.31: `0.1`'],
  },
  {
    name: 'hover on an ignored flag says the versions that have it, and that this one refuses it',
    doc: scenario('1.37', 'controllerManager:\n  flags:\n    - --concurrent-service-s|yncs=2\n'),
    has: ['syncs** (kube-controller-manager 1.12–1.36)', 'was removed in 1.37: kube-controller-manager 1.37 refuses to start with it'],
  },
  {
    name: 'hover on an ignored flag the version has',
    doc: scenario('1.31', 'controllerManager:\n  flags:\n    - --concurrent-job-s|yncs=2\n'),
    has: ['(kube-controller-manager 1.28 and later)', 'accepted and ignored'],
  },
  {
    name: 'hover on a gate inside --feature-gates',
    doc: scenario('1.12', 'controllerManager:\n  flags: ["--feature-gates=NodeLease=true,TaintBased|Evictions=true"]\n'),
    has: ['**TaintBasedEvictions** (feature gate)', 'In 1.12: alpha, default false'],
  },
  {
    name: 'hover on a feature gate key',
    doc: scenario('1.12', 'controllerManager:\n  featureGates:\n    Node|Lease: true\n'),
    has: ['**NodeLease** (feature gate)'],
  },
  {
    name: 'hover on an event kind',
    doc: scenario('1.31', 'events:\n  - at: 30s\n    kube|let: stop\n    nodes: [node-a1]\n'),
    has: ['**kubelet** (event kind)', 'unreachable'],
  },
  {
    name: 'hover on an event field',
    doc: scenario('1.31', 'events:\n  - a|t: 30s\n    kubelet: stop\n    nodes: [node-a1]\n'),
    has: ['**at** (event field)', 'offset from startTime'],
  },
  {
    name: 'hover on an expectation field',
    doc: scenario('1.31', 'expect:\n  - at: 1m\n    node: node-a1\n    hasT|aint: node.kubernetes.io/unreachable:NoExecute\n'),
    has: ['**hasTaint** (expectation)'],
  },
  {
    name: 'hover on a top-level field',
    doc: scenario('1.31', '').replace('controllerMemory', 'x').replace('startTime', 'start|Time'),
    has: ['**startTime** (scenario)'],
  },
  {
    name: "hover on a static Pod manifest's flag uses the image's version",
    uri: 'file:///etc/kubernetes/manifests/kcm.yaml',
    doc: 'apiVersion: v1\nkind: Pod\nmetadata: {name: kube-controller-manager}\nspec:\n  containers:\n  - name: kube-controller-manager\n    image: registry.k8s.io/kube-controller-manager:v1.32.0\n    command:\n    - kube-controller-manager\n    - --node-monitor-grace|-period=40s\n',
    has: ['Default in 1.32: `50s`'],
  },
  {
    name: 'hover on a KubeControllerManagerConfiguration field',
    uri: 'file:///etc/kcm.yaml',
    doc: 'apiVersion: kubecontrollermanager.config.k8s.io/v1alpha1\nkind: KubeControllerManagerConfiguration\nnodeLifecycleController:\n  nodeEviction|Rate: 0.2\n',
    has: ['**nodeEvictionRate**'],
  },
];

for (const h of hovers) {
  test(h.name, () => {
    const md = hoverText(h.doc, h.uri);
    for (const s of h.has) assert.ok(md.includes(s), `${JSON.stringify(s)} not in ${JSON.stringify(md)}`);
  });
}

test('no hover on a YAML file that is not a scenario, snapshot or controller config', () => {
  assert.equal(hoverText('name: CI\non:\n  pu|sh: {}\n', 'file:///ws/.github/ci.yaml'), '');
});

const completions: { name: string; doc: string; has: string[]; lacks?: string[] }[] = [
  { name: 'top-level keys of a scenario', doc: scenario('1.31', 'kub|'), has: ['kubelet', 'kubernetesVersion', 'events', 'expect', 'controllerManager'] },
  {
    name: 'controllerManager keys are the settings of the version (1.31: no podEvictionTimeout)',
    doc: scenario('1.31', 'controllerManager:\n  node|'),
    has: ['nodeMonitorGracePeriod', 'nodeEvictionRate', 'flags'],
    lacks: ['podEvictionTimeout', 'nodeStatusUpdateFrequency'],
  },
  {
    name: 'controllerManager keys in 1.12 include podEvictionTimeout and enableTaintManager',
    doc: scenario('1.12', 'controllerManager:\n  |'),
    has: ['podEvictionTimeout', 'enableTaintManager'],
  },
  { name: 'kubelet keys', doc: scenario('1.31', 'kubelet:\n  |'), has: ['nodeStatusUpdateFrequency', 'leaseRenewInterval'], lacks: ['nodeMonitorGracePeriod'] },
  { name: 'feature gates of the version', doc: scenario('1.12', 'controllerManager:\n  featureGates:\n    |'), has: ['NodeLease', 'TaintBasedEvictions'] },
  {
    name: 'event kinds and fields in a new event',
    doc: scenario('1.31', 'events:\n  - |'),
    has: ['at', 'kubelet', 'condition', 'taint', 'restartControllerManager', 'nodes'],
  },
  {
    name: 'no second event kind once an event has one',
    doc: scenario('1.31', 'events:\n  - at: 30s\n    kubelet: stop\n    |\n'),
    has: ['nodes', 'zone'],
    lacks: ['taint', 'delete'],
  },
  {
    name: 'node names from the snapshot after nodes: [',
    doc: scenario('1.31', 'events:\n  - at: 30s\n    kubelet: stop\n    nodes: [node-a1, |'),
    has: ['node-a1', 'node-a2'],
  },
  { name: 'node names after node:', doc: scenario('1.31', 'events:\n  - at: 30s\n    node: |'), has: ['node-a1', 'node-a2'] },
  { name: 'pod names after pod:', doc: scenario('1.31', 'events:\n  - at: 30s\n    pod: |'), has: ['default/web-1'] },
  {
    name: 'object references after delete:',
    doc: scenario('1.31', 'events:\n  - at: 30s\n    delete: |'),
    has: ['Pod/default/web-1', 'Node/node-a1', 'ReplicaSet/default/web'],
  },
  { name: 'kubelet: start|stop values', doc: scenario('1.31', 'events:\n  - at: 30s\n    kubelet: |'), has: ['start', 'stop'] },
  {
    name: 'flag names in flags:, only those of the version',
    doc: scenario('1.31', 'controllerManager:\n  flags:\n    - --|'),
    has: ['--node-monitor-grace-period', '--node-eviction-rate'],
    lacks: ['--pod-eviction-timeout'],
  },
  { name: 'versions after kubernetesVersion:', doc: 'kind: Scenario\nkubernetesVersion: |', has: ['"1.12"', '"1.35"', '"1.36"', '"1.37"'] },
];

for (const c of completions) {
  test(`completion: ${c.name}`, () => {
    const got = labels(c.doc);
    for (const s of c.has) assert.ok(got.includes(s), `${s} not in ${JSON.stringify(got)}`);
    for (const s of c.lacks ?? []) assert.ok(!got.includes(s), `${s} must not be offered`);
  });
}

test('completion of flags in a static Pod manifest', () => {
  const doc =
    'apiVersion: v1\nkind: Pod\nmetadata: {name: kube-controller-manager}\nspec:\n  containers:\n  - name: kube-controller-manager\n    image: registry.k8s.io/kube-controller-manager:v1.26.0\n    command:\n    - kube-controller-manager\n    - --pod|\n';
  const got = labels(doc, 'file:///m/kcm.yaml');
  assert.ok(got.includes('--pod-eviction-timeout'), JSON.stringify(got));
});

test("the Step through code lens is on a scenario's kind line and opens it", () => {
  const text = scenario('1.31', '');
  const lenses = service().codeLenses(URI, text);
  assert.equal(lenses.length, 1);
  assert.equal(lenses[0].range.start.line, 1);
  assert.deepEqual(lenses[0].command, { title: 'Step through', command: 'controllerStepper.openScenario', arguments: [URI] });
  assert.deepEqual(service().codeLenses(`file://${CLUSTER}`, workspace().readText(CLUSTER)), []);
});

test("go to definition from an event's node to the Node in the snapshot file", () => {
  const locs = at(scenario('1.31', 'events:\n  - at: 30s\n    kubelet: stop\n    nodes: [node-a1, no|de-a2]\n'), (text, pos) =>
    service().definition(URI, text, pos),
  );
  assert.equal(locs.length, 1);
  assert.equal(locs[0].uri, `file://${CLUSTER}`);
  const clusterLines = workspace().readText(CLUSTER).split('\n');
  assert.equal(clusterLines[locs[0].range.start.line], '- apiVersion: v1');
  assert.match(clusterLines[locs[0].range.start.line + 3], /name: node-a2/);
});

test("go to definition from a pod reference and from a snapshot's nodeName", () => {
  const locs = at(scenario('1.31', 'events:\n  - at: 30s\n    delete: Pod/default/we|b-1\n'), (text, pos) => service().definition(URI, text, pos));
  assert.equal(locs.length, 1);
  const lines = workspace().readText(CLUSTER).split('\n');
  assert.match(lines[locs[0].range.start.line + 3], /name: web-1/);
  const inSnapshot = at(workspace().readText(CLUSTER).replace('nodeName: node-a1', 'nodeName: node-|a1'), (text, pos) =>
    service().definition(`file://${CLUSTER}`, text, pos),
  );
  assert.equal(inSnapshot.length, 1);
  assert.equal(inSnapshot[0].uri, `file://${CLUSTER}`);
  assert.match(lines[inSnapshot[0].range.start.line + 3], /name: node-a1/);
});

test("document symbols: a scenario's sections with its events; a snapshot's objects", () => {
  const syms = service().documentSymbols(
    URI,
    scenario('1.31', 'events:\n  - at: 30s\n    kubelet: stop\n    nodes: [node-a1]\n  - at: 1m\n    delete: Pod/default/web-1\n'),
  );
  const events = syms.find((s) => s.name === 'events');
  assert.deepEqual(
    events?.children?.map((c) => c.name),
    ['30s: kubelet stop · nodes node-a1', '1m: delete Pod/default/web-1'],
  );
  const snap = service().documentSymbols(`file://${CLUSTER}`, workspace().readText(CLUSTER));
  assert.deepEqual(
    snap.map((s) => s.name),
    ['Node/node-a1', 'Node/node-a2', 'ReplicaSet/default/web', 'Pod/default/web-1'],
  );
});

test("diagnostics have the lint problems' exact ranges, codes and fixes; the code action applies the fix", () => {
  const text = scenario('1.27', 'controllerManager:\n  flags:\n    - --pod-eviction-timeout=2m\n');
  const s = service();
  const diags = s.diagnostics(URI, text);
  const d = diags.find((x) => x.code === 'not-in-version')!;
  assert.ok(d);
  assert.equal(d.severity, 1);
  assert.equal(d.source, 'controller-stepper');
  const lines = new TextLines(text);
  assert.equal(text.slice(lines.offsetAt(d.range.start), lines.offsetAt(d.range.end)), '--pod-eviction-timeout=2m');
  const actions = s.codeActions(URI, text, d.range, [d]);
  assert.equal(actions.length, 1);
  assert.equal(actions[0].kind, 'quickfix');
  const edit = actions[0].edit!.changes![URI][0];
  assert.deepEqual(edit.range, { start: { line: d.range.start.line, character: 0 }, end: { line: d.range.start.line + 1, character: 0 } });
  assert.equal(edit.newText, '');
  // without the client's diagnostics, the actions at the range are found again
  assert.equal(s.codeActions(URI, text, d.range).length, 1);
});

const rangedFlags: { name: string; version: string; message?: RegExp }[] = [
  {
    name: 'a flag the version does not have yet is an error at the flag',
    version: '1.31',
    message: /^--concurrent-daemonset-syncs was added in 1\.32; kube-controller-manager 1\.31 refuses to start with it/,
  },
  { name: 'the same flag in its first version is no error', version: '1.32' },
];

for (const c of rangedFlags)
  test(`diagnostics for a version-ranged ignored flag: ${c.name} (${c.version})`, () => {
    const flag = '--concurrent-daemonset-syncs=4';
    const text = scenario(c.version, `controllerManager:\n  flags:\n    - ${flag}\n`);
    const errors = service()
      .diagnostics(URI, text)
      .filter((d) => d.severity === 1);
    if (!c.message) return assert.deepEqual(errors, []);
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.equal(errors[0].code, 'not-in-version');
    assert.match(errors[0].message, c.message);
    const lines = new TextLines(text);
    assert.equal(text.slice(lines.offsetAt(errors[0].range.start), lines.offsetAt(errors[0].range.end)), flag);
  });

test("problems in the scenario's snapshot file are shown on the snapshot key with the real place as related information", () => {
  const fs = workspace();
  fs.write(CLUSTER, fs.readText(CLUSTER) + '- apiVersion: v1\n  kind: Node\n  metadata: {name: node-a1}\n');
  const diags = createLanguageService({ fs }).diagnostics(URI, scenario('1.12', ''));
  const d = diags.find((x) => x.code === 'duplicate-object');
  assert.ok(d, JSON.stringify(diags.map((x) => x.code)));
  assert.deepEqual(d.range.start, { line: 4, character: 0 });
  assert.equal(d.relatedInformation?.[0].location.uri, `file://${CLUSTER}`);
  assert.match(d.message, /^cluster\.yaml:\d+:\d+: /);
});

test('the default version applies only to documents that do not name one', () => {
  const noVersion =
    'apiVersion: controllerstepper.io/v1alpha1\nkind: Scenario\nsnapshot: ./cluster.yaml\ncontrollerManager:\n  flags: ["--pod-eviction-timeout=2m"]\n';
  assert.ok(
    service('1.27')
      .diagnostics(URI, noVersion)
      .some((d) => d.code === 'not-in-version'),
  );
  assert.ok(
    !service('1.26')
      .diagnostics(URI, noVersion)
      .some((d) => d.code === 'not-in-version'),
  );
  assert.ok(
    !service('1.27')
      .diagnostics(URI, noVersion.replace('kind: Scenario', 'kind: Scenario\nkubernetesVersion: "1.26"'))
      .some((d) => d.code === 'not-in-version'),
  );
});

test('editing a scenario does not re-read its snapshot until files change on disk', () => {
  const fs = workspace();
  let reads = 0;
  const counting = {
    stat: (p: string) => fs.stat(p),
    list: (d: string) => fs.list(d),
    readText: (p: string) => {
      reads++;
      return fs.readText(p);
    },
  };
  const s = createLanguageService({ fs: counting });
  s.diagnostics(URI, scenario('1.31', 'kubelet: {}\n'));
  s.diagnostics(URI, scenario('1.31', 'kubelet: {leaseRenewInterval: 10s}\n'));
  assert.equal(reads, 1);
  fs.write(CLUSTER, fs.readText(CLUSTER).replace(/node-a2/g, 'node-b1'));
  const text = scenario('1.31', 'events:\n  - at: 1s\n    node: node-b1\n    condition: {type: Ready, status: "False"}\n');
  assert.ok(
    s.diagnostics(URI, text).some((d) => d.code === 'unknown-node'),
    'the cached snapshot is still the old one',
  );
  s.filesChanged();
  assert.ok(!s.diagnostics(URI, text).some((d) => d.code === 'unknown-node'));
  assert.equal(reads, 2);
});

test('editing a scenario does not parse its snapshot again until files change on disk', async () => {
  const { Analyzer } = await import('../../src/server/service/analyze');
  const a = new Analyzer({ fs: workspace() });
  const first = a.analyze(URI, scenario('1.31', 'kubelet: {}\n'))!.ctx.scenario!.snapshot;
  const edited = a.analyze(URI, scenario('1.31', 'kubelet: {leaseRenewInterval: 10s}\n'))!;
  assert.equal(edited.ctx.scenario!.snapshot, first, 'the loaded snapshot is reused');
  assert.ok(first.cluster.nodes.size > 0);
  a.forgetAll();
  const after = a.analyze(URI, scenario('1.31', 'kubelet: {}\n'))!.ctx.scenario!.snapshot;
  assert.notEqual(after, first, 'loaded again once files may have changed');
  assert.deepEqual([...after.cluster.nodes.keys()], [...first.cluster.nodes.keys()]);
});

test('hover text escapes markdown written by the user, so a remote image or a link cannot pass through', () => {
  const cases: [what: string, src: string, must: string, mustNot: RegExp][] = [
    [
      'a gate key with an image link',
      scenario('1.31', 'controllerManager:\n  featureGates:\n    "![x](https://evil.example/t.png)|": true\n'),
      '\\!\\[x\\]\\(https\\:',
      /!\[x\]\(https:/,
    ],
    [
      'a gate in --feature-gates with HTML',
      scenario('1.31', 'controllerManager:\n  flags: ["--feature-gates=<img src|>=true"]\n'),
      '\\<img src\\>',
      /(^|[^\\])<img/,
    ],
  ];
  for (const [what, src, must, mustNot] of cases) {
    const md = hoverText(src);
    assert.ok(md.includes(must), `${what}: ${md}`);
    assert.doesNotMatch(md, mustNot, what);
  }
});

test('a scenario may read a snapshot outside its folder only when the workspace allows it (a trusted workspace, or one of its folders)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ls-outside-'));
  try {
    mkdirSync(join(dir, 'project'));
    copyFileSync(join(__dirname, '../../examples/clusters/three-zones.yaml'), join(dir, 'cluster.yaml'));
    const file = join(dir, 'project', 'outside.yaml');
    const text = 'apiVersion: controllerstepper.io/v1alpha1\nkind: Scenario\nkubernetesVersion: "1.31"\nsnapshot: ../cluster.yaml\n';
    writeFileSync(file, text);
    const uri = pathToFileURL(file).href;
    const outside = (o: { allowOutside?: boolean; roots?: string[] }) =>
      createLanguageService({ fs: nodeFs(), ...o })
        .diagnostics(uri, text)
        .filter((d) => d.code === 'path-outside').length;
    assert.equal(outside({}), 1, 'untrusted, outside every root: refused');
    assert.equal(outside({ allowOutside: true }), 0, 'a trusted workspace reads it');
    assert.equal(outside({ roots: [dir] }), 0, 'inside a workspace folder: read');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a scenario whose snapshot is too big to read whole: the answers a user waits for defer it, and the background lint streams it', () => {
  const fs = workspace();
  // the same text, claimed to be 1 GiB: only a stream reads it
  fs.write(CLUSTER, fs.readText(CLUSTER), 1024 ** 3);
  const text = scenario('1.31', 'events:\n  - at: 1s\n    node: node-a2\n    condition: {type: Ready, status: "False"}\n');
  const service = createLanguageService({ fs });
  assert.deepEqual(service.deferred(URI, text), [CLUSTER], 'left to the background');
  assert.ok(!service.diagnostics(URI, text).some((d) => d.code === 'file-too-large'), 'never refused for its size');
  // what the background worker runs (server/lintWorker.ts), over the same files
  const background = lintDocumentWithContext(URI, text, 'scenario', fs, { version: '1.31' }).problems;
  assert.deepEqual(
    background.filter((p) => p.code === 'file-too-large' || p.code === 'unknown-node'),
    [],
  );
});
