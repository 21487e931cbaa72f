/**
 * Pasted `kubectl get nodes` and `kubectl get pods -o wide` tables, run forward: the NotReady node is tainted
 * unreachable (NoExecute) at the first pass and its pod evicted when its 300 s toleration runs out, the cordoned one
 * gets the unschedulable taint, the Ready one and its pod nothing (before, every node of a table was made Ready and
 * a pods table made no pod: the outage it shows never happened).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBin } from '../helpers/binRun';

const PODS = `$ kubectl get pods -o wide
NAME    READY   STATUS      RESTARTS   AGE   IP          NODE       NOMINATED NODE   READINESS GATES
web-1   1/1     Running     0          3d    10.1.1.4    worker-1   <none>           <none>
web-2   1/1     Running     0          3d    10.1.2.4    master-1   <none>           <none>
job-1   0/1     Completed   0          3d    10.1.1.9    worker-1   <none>           <none>
`;
const NODES = `$ kubectl get nodes -o wide
NAME       STATUS                     ROLES           AGE   VERSION   INTERNAL-IP   EXTERNAL-IP   OS-IMAGE             KERNEL-VERSION      CONTAINER-RUNTIME
master-1   Ready                      control-plane   40d   v1.28.2   10.0.0.10     <none>        Ubuntu 22.04.3 LTS   5.15.0-86-generic   containerd://1.6.24
worker-1   NotReady                   <none>          40d   v1.28.2   10.0.0.11     <none>        Ubuntu 22.04.3 LTS   5.15.0-86-generic   containerd://1.6.24
worker-2   Ready,SchedulingDisabled   <none>          40d   v1.28.2   10.0.0.12     <none>        Ubuntu 22.04.3 LTS   5.15.0-86-generic   containerd://1.6.24
`;

test('kubectl get nodes and get pods tables imported and replayed: NotReady tainted and its pod evicted, SchedulingDisabled cordoned, Ready left alone, an ended pod not made', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cs-nodes-table-'));
  try {
    writeFileSync(join(dir, 'nodes.txt'), NODES);
    writeFileSync(join(dir, 'pods.txt'), PODS);
    const imported = runBin(['import', 'nodes.txt', 'pods.txt', '--at', '2026-12-05T10:00:00Z'], {}, undefined, dir);
    assert.equal(imported.code, 0, imported.err);
    writeFileSync(join(dir, 'scenario.yaml'), imported.out);
    const r = runBin(['replay', 'scenario.yaml', '--until', '6m', '--format', 'json'], {}, undefined, dir);
    assert.equal(r.code, 0, r.err);
    const decisions = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { action: string; object: string; summary?: string; pass?: number; time: string });
    const of = (object: string) => decisions.filter((d) => d.object === object).map((d) => `${d.action}${d.summary ? ` ${d.summary}` : ''}`);
    assert.ok(
      of('Node/worker-1').some((d) => /TaintAdded .*unreachable:NoExecute/.test(d)),
      of('Node/worker-1').join('\n'),
    );
    assert.ok(
      of('Node/worker-2').some((d) => /TaintAdded .*unschedulable:NoSchedule/.test(d)),
      of('Node/worker-2').join('\n'),
    );
    assert.ok(!of('Node/master-1').some((d) => /^TaintAdded/.test(d)), of('Node/master-1').join('\n'));
    const evicted = decisions.find((d) => d.object === 'Pod/default/web-1' && d.action === 'PodEvicted');
    assert.equal(evicted?.time, '2026-12-05T10:05:00.000Z', of('Pod/default/web-1').join('\n'));
    assert.deepEqual(of('Pod/default/web-2'), []);
    assert.doesNotMatch(imported.out, /job-1/, 'a Completed pod is not made');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
