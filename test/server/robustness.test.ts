/**
 * Half-typed documents are the language server's normal input: every prefix
 * of a scenario, a manifest and a snapshot lints without throwing, with
 * ranges inside the text, and every feature answers at every caret position.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintDocument } from '../../src/engine/lint';
import { createLanguageService } from '../../src/server/service';
import { TextLines } from '../../src/server/service/text';
import { CLUSTER, CLUSTER_YAML, SCENARIO, scenario, workspace } from '../engine/lint/helpers';

const SCENARIO_TEXT = scenario(
  '1.27',
  `controllerManager:
  nodeMonitorGracePeriod: 30s
  featureGates: {NodeLease: true}
  flags: ["--pod-eviction-timeout=2m", "--feature-gates=TaintBasedEvictions=true"]
kubelet:
  nodeStatusUpdateFrequency: 10s
events:
  - at: 30s
    kubelet: stop
    nodes: [node-a1, node-x]
  - at: 1m
    delete: Pod/default/web-1
expect:
  - at: 2m
    node: node-a1
    hasTaint: node.kubernetes.io/unreachable:NoExecute
`,
);

const POD = `apiVersion: v1
kind: Pod
metadata: {name: kube-controller-manager, namespace: kube-system}
spec:
  containers:
  - name: kube-controller-manager
    image: registry.k8s.io/kube-controller-manager:v1.27.3
    command:
    - kube-controller-manager
    - --pod-eviction-timeout=2m
    - --node-monitor-grace-period=20s
`;

for (const [name, uri, full] of [
  ['scenario', `file://${SCENARIO}`, SCENARIO_TEXT],
  ['static Pod manifest', 'file:///m/kcm.yaml', POD],
  ['snapshot', `file://${CLUSTER}`, CLUSTER_YAML],
] as const) {
  test(`every prefix of a ${name} lints without throwing, with ranges inside the text`, () => {
    for (let n = 0; n <= full.length; n += 3) {
      const text = full.slice(0, n);
      const problems = lintDocument(uri, text, undefined, workspace());
      for (const p of problems) {
        if (!p.position || p.position.offset === undefined || p.position.file !== uri.replace('file://', '')) continue;
        assert.ok(p.position.offset >= 0 && (p.position.endOffset ?? p.position.offset) <= text.length, `${n}: ${p.code} out of the text`);
        for (const f of p.fixes ?? [])
          for (const e of f.edits) assert.ok(e.offset >= 0 && e.endOffset <= text.length && e.offset <= e.endOffset, `${n}: fix out of the text`);
      }
    }
  });

  test(`hover, completion, definition, symbols and code lenses answer at every caret of a ${name}`, () => {
    const s = createLanguageService({ fs: workspace() });
    const lines = new TextLines(full);
    for (let o = 0; o <= full.length; o += 2) {
      const pos = lines.positionAt(o);
      s.hover(uri, full, pos);
      s.completion(uri, full, pos);
      s.definition(uri, full, pos);
    }
    assert.ok(Array.isArray(s.documentSymbols(uri, full)));
    assert.ok(Array.isArray(s.codeLenses(uri, full)));
    const diags = s.diagnostics(uri, full);
    for (const d of diags) assert.ok(s.codeActions(uri, full, d.range, [d]).every((a) => a.kind === 'quickfix'));
  });
}
