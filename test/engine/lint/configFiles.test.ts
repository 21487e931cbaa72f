/**
 * kube-controller-manager configs linted on their own: the static Pod
 * manifest's command flags (version from the image tag) and
 * KubeControllerManagerConfiguration files, with exact positions.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectDocumentKind, lintDocument, versionFromImage } from '../../../src/engine/lint';
import { applyEdits, marked } from './helpers';

const pod = (image: string, flags: string) => `apiVersion: v1
kind: Pod
metadata:
  name: kube-controller-manager
  namespace: kube-system
spec:
  containers:
  - command:
    - kube-controller-manager
    - --kubeconfig=/etc/kubernetes/controller-manager.conf
${flags}    image: registry.k8s.io/kube-controller-manager:${image}
    name: kube-controller-manager
`;

const config = (body: string) => `apiVersion: kubecontrollermanager.config.k8s.io/v1alpha1
kind: KubeControllerManagerConfiguration
${body}`;

test('a static Pod manifest and a KubeControllerManagerConfiguration are told from snapshots and scenarios', () => {
  assert.equal(detectDocumentKind(pod('v1.27.3', '')), 'kcm-pod');
  assert.equal(detectDocumentKind(config('')), 'kcm-config');
  assert.equal(detectDocumentKind('apiVersion: v1\nkind: Pod\nmetadata: {name: web}\n'), 'snapshot');
  assert.equal(detectDocumentKind('kind: Scenario\n'), 'scenario');
  assert.equal(detectDocumentKind('{"kind": "KubeControllerManagerConfiguration"}'), 'kcm-config');
});

test(
  'the kube-controller-manager container is found in any layout, and 300,000 blank lines are scanned once (quadratic would take minutes)',
  { timeout: 20_000 },
  () => {
    const blank = '\n'.repeat(150_000);
    const cases: [what: string, text: string, want: string][] = [
      ['the manifest after 150,000 blank lines', blank + pod('v1.27.3', ''), 'kcm-pod'],
      ['300,000 blank lines and whitespace in a Pod', `kind: Pod\n${' \t\n'.repeat(300_000)}`, 'snapshot'],
      ['300,000 lines of "- " in a Pod', `kind: Pod\n${'- \n'.repeat(300_000)}`, 'snapshot'],
      [
        'the binary as a command word with CRLF line ends',
        'kind: Pod\r\nspec:\r\n  containers:\r\n  - command:\r\n    - /usr/local/bin/kube-controller-manager\r\n',
        'kcm-pod',
      ],
      ['only managedFields naming the manager', 'kind: Pod\nmetadata:\n  managedFields:\n  - manager: kube-controller-manager\n', 'snapshot'],
      ['a JSON manifest', '{"kind": "Pod", "spec": {"containers": [{"image": "registry.k8s.io/kube-controller-manager:v1.31.0"}]}}', 'kcm-pod'],
      // kube-controller-manager's /configz answer, however it opens (its group's name first, without kind)
      ['/configz as JSON after blank lines and spaces', `${blank}  {\n  "kubecontrollermanager.config.k8s.io": {}}`, 'kcm-config'],
      ['/configz as YAML', 'componentconfig:\n  NodeMonitorGracePeriod: 40s\n', 'kcm-config'],
      ["/configz as JSON with the brace on the group's line", '{"componentconfig": {}}', 'kcm-config'],
      ['a mapping whose first key only starts like the group', '{"componentconfigs": {}}', 'snapshot'],
    ];
    for (const [what, text, want] of cases) assert.equal(detectDocumentKind(text), want, what);
  },
);

test('the version of a static Pod manifest is its image tag', () => {
  assert.equal(versionFromImage(pod('v1.27.3', ''))?.minor, 27);
  assert.equal(versionFromImage('image: registry.k8s.io/kube-controller-manager-amd64:v1.12.1')?.minor, 12);
  assert.equal(versionFromImage('image: example/other:v1.27.3'), undefined);
});

const cases: { name: string; doc: string; code: string; options?: { version?: string }; fixed?: string }[] = [
  {
    name: 'a removed flag in a 1.27 manifest is an error on the whole flag word, removed by the fix',
    doc: pod('v1.27.3', '    - «--pod-eviction-timeout=2m»\n'),
    code: 'not-in-version',
    fixed: pod('v1.27.3', ''),
  },
  {
    name: 'a misspelt flag in a manifest is fixed to the flag it is close to',
    doc: pod('v1.31.0', '    - «--node-monitor-grace-perid=50s»\n'),
    code: 'unknown-flag',
    fixed: pod('v1.31.0', '    - --node-monitor-grace-period=50s\n'),
  },
  {
    name: 'a short grace period flag in a manifest is a timing warning on its value',
    doc: pod('v1.31.0', '    - --node-monitor-grace-period=«20s»\n'),
    code: 'grace-period-under-http2-timeout',
    fixed: pod('v1.31.0', '    - --node-monitor-grace-period=50s\n'),
  },
  {
    name: 'a manifest without a version tag is checked against the version asked for',
    doc: pod('latest', '    - «--pod-eviction-timeout=2m»\n'),
    code: 'not-in-version',
    options: { version: '1.30' },
  },
  {
    name: 'an unknown field of a modelled section of a KubeControllerManagerConfiguration is a warning with a fix',
    doc: config('nodeLifecycleController:\n  «nodeMonitorGracePeriood»: 50s\n'),
    code: 'unknown-field',
    fixed: config('nodeLifecycleController:\n  nodeMonitorGracePeriod: 50s\n'),
  },
  {
    name: 'an unknown field in the Go spelling (older v1alpha1 fields had no json tags) is fixed in the Go spelling',
    doc: config('NodeLifecycleController:\n  «NodeMonitorGracePeriood»: 50s\n'),
    code: 'unknown-field',
    fixed: config('NodeLifecycleController:\n  NodeMonitorGracePeriod: 50s\n'),
  },
  {
    name: 'podEvictionTimeout in a 1.27 configuration is reported',
    doc: config('nodeLifecycleController:\n  podEvictionTimeout: «5m»\n'),
    code: 'not-in-version',
    options: { version: '1.27' },
  },
  {
    name: 'a short grace period in a configuration is a timing warning on its value',
    doc: config('nodeLifecycleController:\n  nodeMonitorGracePeriod: «30s»\n'),
    code: 'grace-period-few-heartbeats',
    fixed: config('nodeLifecycleController:\n  nodeMonitorGracePeriod: 40s\n'),
  },
];

for (const c of cases) {
  test(c.name, () => {
    const { text, ranges } = marked(c.doc);
    const problems = lintDocument('file:///etc/kubernetes/manifests/kcm.yaml', text, undefined, undefined, c.options ?? {});
    const p = problems.find((x) => x.code === c.code);
    assert.ok(p, JSON.stringify(problems.map((x) => `${x.code}: ${x.message}`)));
    assert.equal(p.position?.file, '/etc/kubernetes/manifests/kcm.yaml');
    assert.deepEqual([p.position?.offset, p.position?.endOffset], ranges[0], `got ${JSON.stringify(text.slice(p.position?.offset, p.position?.endOffset))}`);
    if (c.fixed) assert.equal(applyEdits(text, p.fixes![0].edits), c.fixed);
  });
}

test('a Pod that only mentions kube-controller-manager (managedFields) is a snapshot, not a manifest', () => {
  const text =
    'apiVersion: v1\nkind: Pod\nmetadata:\n  name: csi-nfs-node\n  managedFields:\n  - manager: kube-controller-manager\n    operation: Update\nspec:\n  containers:\n  - name: nfs\n    image: example/nfs:v1\n';
  assert.equal(detectDocumentKind(text), 'snapshot');
  assert.equal(
    detectDocumentKind(
      JSON.stringify({
        kind: 'Pod',
        metadata: { managedFields: [{ manager: 'kube-controller-manager' }] },
        spec: { containers: [{ name: 'x', image: 'a/b:1' }] },
      }),
    ),
    'snapshot',
  );
  assert.equal(
    detectDocumentKind(JSON.stringify({ kind: 'Pod', spec: { containers: [{ name: 'kcm', image: 'registry.k8s.io/kube-controller-manager:v1.30.0' }] } })),
    'kcm-pod',
  );
});
