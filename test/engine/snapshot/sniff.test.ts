/**
 * A file that holds no Kubernetes object gets one message that says what it
 * looks like and what was expected (issue 13 §1), without quoting the file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSnapshot } from '../../../src/engine/snapshot/load';
import { MemoryFs } from '../../../src/engine/snapshot/source';
import { shellWord } from '../../../src/engine/simulation/explainCommand';

const SECRET = 'hunter2-s3cr3t';

// `evidence`: a record of what happened, which the message sends to `controller-stepper import`
const cases: { name: string; file: string; text: string; looksLike: RegExp; evidence?: boolean }[] = [
  {
    name: 'a pasted shell transcript of kubectl get is named as table output, not a YAML error',
    file: 'nodes.yaml',
    text: `$ kubectl get nodes\nNAME           STATUS     ROLES    AGE   VERSION\nip-10-0-0-10   Ready      <none>   12d   v1.29.3 ${SECRET}\n`,
    looksLike: /table output of kubectl get \(without -o yaml or -o json\)/,
    evidence: true,
  },
  {
    name: 'a Go struct dump (&Node{ObjectMeta:...}) is named as one',
    file: 'node.txt',
    text: `&Node{ObjectMeta:{ip-10-0-0-10    /api/v1/nodes/ip-10-0-0-10 UID:abc Labels:map[token:${SECRET}]},Spec:NodeSpec{PodCIDR:10.0.0.0/24,},}\n`,
    looksLike: /Go struct dump/,
  },
  {
    name: 'YAML with capitalised Go field names (Name:, Spec:) is named as such',
    file: 'node.yaml',
    text: `Name: ip-10-0-0-10\nLabels:\n  token: ${SECRET}\nSpec:\n  Taints: []\nStatus:\n  Conditions: []\n`,
    looksLike: /capitalised Go field names \(Name: Labels: Spec: Status:\)/,
  },
  {
    name: 'kubectl describe output is named as one',
    file: 'describe.txt',
    text: `Name:               ip-10-0-0-10\nRoles:              <none>\nLabels:             token=${SECRET}\nTaints:             <none>\nConditions:\n  Type   Status\n  Ready  True\n`,
    looksLike: /output of kubectl describe/,
    evidence: true,
  },
  {
    name: 'kubectl get events as a table is named as one',
    file: 'events.txt',
    text: `NAMESPACE   LAST SEEN   TYPE     REASON                 OBJECT          MESSAGE\ndefault     7m24s       Normal   TaintManagerEviction   pod/web-1       Marking for deletion ${SECRET}\n`,
    looksLike: /table output of kubectl get events/,
    evidence: true,
  },
  {
    name: "a controller manager's klog lines are named as a log",
    file: 'logs/kube controller manager.log',
    text: `I0827 02:05:45.661972       1 event.go:307] "Event occurred" object="${SECRET}"\nI0827 02:10:50.989653       1 taint_manager.go:106] "NoExecuteTaintManager is deleting pod"\n`,
    looksLike: /log lines in klog format/,
    evidence: true,
  },
  {
    name: 'a shell transcript of another command is named as a transcript',
    file: 'session.yaml',
    text: `$ kubectl cordon ip-10-0-0-10\nnode/ip-10-0-0-10 cordoned ${SECRET}\n`,
    looksLike: /shell transcript/,
  },
  {
    name: "a Markdown file (an export folder's README or SOURCES.md) is named as one, not as 20 YAML errors",
    file: 'fixtures/SOURCES.md',
    text: `# Sources\n\nEach file, where it came from: see [the thread](https://github.com/x/y/issues/1).\n\n## nodes.json\n\n- **Licence:** Apache-2.0 ${SECRET}\n`,
    looksLike: /a Markdown document/,
  },
  {
    name: 'a Markdown file with a table and a code fence is named as one',
    file: 'notes.md',
    text: `## What we saw\n\n| node | at |\n|---|---|\n| a1 | 10:02 ${SECRET} |\n\n\`\`\`sh\nkubectl get nodes\n\`\`\`\n`,
    looksLike: /a Markdown document/,
  },
  {
    name: 'a JSON file that is not Kubernetes (package.json) is named by its keys, which are field names, not values',
    file: 'package.json',
    text: `{"name": "controller-stepper", "version": "0.1.0", "token": "${SECRET}"}`,
    looksLike: /a mapping without apiVersion and kind \(its keys: "name", "version", "token"\)/,
  },
  {
    name: 'a scenario without its header (read as a snapshot) is named as one, with the two lines to write',
    file: 'outage.yaml',
    text: `scenario:\n  name: typo-test\nsnapshot: ./cluster.yaml\ntimeline:\n  - {at: 30s, kubelet: stop, nodes: [${SECRET}]}\nexpect:\n  - {at: 2m, node: a1, ready: Unknown}\n`,
    looksLike:
      /a scenario without its header \(its keys "snapshot", "timeline", "expect" are a scenario's\); a scenario starts with apiVersion: controllerstepper\.io\/v1alpha1 and kind: Scenario \(docs\/scenario-format\.md\); as a snapshot, expected/,
  },
];

for (const c of cases) {
  test(c.name, () => {
    const snap = loadSnapshot({ file: c.file, text: c.text });
    assert.equal(snap.problems.length, 1, JSON.stringify(snap.problems));
    const [p] = snap.problems;
    assert.equal(p.code, 'not-kubernetes');
    assert.equal(p.severity, 'error');
    assert.deepEqual([p.position?.file, p.position?.line, p.position?.column], [c.file, 1, 1]);
    assert.match(p.message, c.looksLike);
    assert.match(p.message, /expected Kubernetes objects as JSON or YAML, with apiVersion and kind/);
    assert.ok(!p.message.includes(SECRET), 'the message never quotes the file');
    // the command as a shell reads it, with the file as given
    const hint = `; to replay what it records, turn it into a scenario: controller-stepper import ${shellWord(c.file)}`;
    assert.equal(p.message.endsWith(hint), c.evidence === true, p.message);
    assert.equal(snap.partial, true);
  });
}

const kubernetesAfterAll: { name: string; text: string }[] = [
  { name: 'an empty kind: List (kubectl get in an empty namespace)', text: 'apiVersion: v1\nitems: []\nkind: List\n' },
  { name: 'an object that only lacks its kind', text: '{"metadata": {"name": "thing"}}' },
  { name: 'a file of comments only', text: '# nothing exported yet\n' },
  {
    name: 'a Node that spells out its apiVersion and kind beside keys a scenario also has',
    text: 'apiVersion: v1\nkind: Node\nmetadata: {name: a1}\nkubelet: {}\nobjects: []\n',
  },
];

for (const c of kubernetesAfterAll) {
  test(`${c.name} is not called "not Kubernetes"`, () => {
    const snap = loadSnapshot({ file: 'x.yaml', text: c.text });
    assert.ok(!snap.problems.some((p) => p.code === 'not-kubernetes'), JSON.stringify(snap.problems));
  });
}

test('in a folder, a file that is not Kubernetes is a warning and the rest is loaded', () => {
  const fs = new MemoryFs({
    '/dump/nodes.yaml': 'apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n',
    '/dump/notes.yaml': '$ kubectl get nodes\nNAME   STATUS\nn1     Ready\n',
  });
  const snap = loadSnapshot('/dump', fs);
  const p = snap.problems.find((x) => x.code === 'not-kubernetes');
  assert.equal(p?.severity, 'warning');
  assert.deepEqual([...snap.cluster.nodes.keys()], ['n1']);
});

test('YAML whose comments look like headings (a Helm values file) is not called Markdown', () => {
  const snap = loadSnapshot({ file: 'values.yaml', text: '# Default values\n## @param image.tag\nimage:\n  tag: "1.2"\nnodes:\n  - a1\n' });
  const p = snap.problems.find((x) => x.code === 'not-kubernetes');
  assert.ok(p === undefined || !/Markdown/.test(p.message), p?.message);
});
