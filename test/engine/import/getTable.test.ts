/** `kubectl get nodes` and `kubectl get pods -o wide` tables: which nodes exist, where each pod ran. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importEvidence } from '../../../src/engine/import/index';
import { inferScenario } from '../../../src/engine/import/infer';
import { MAX_MINOR } from '../../../src/engine/versions/table';

const read = (...files: string[]) =>
  importEvidence(
    files.map((text, i) => ({ name: `f${i}.txt`, chunks: [text] })),
    { anchor: Date.parse('2026-01-01T01:00:00Z') * 1000, anchorGiven: true },
  );
const seen = (r: ReturnType<typeof read>) =>
  r.observations.flatMap((o) =>
    o.kind === 'node-status' ? [] : [o.kind === 'pod-on-node' ? `${o.pod}@${o.node}` : o.kind === 'node-seen' ? `node ${o.node}` : o.kind],
  );

describe('kubectl get tables', () => {
  it('get nodes: every node is seen', () => {
    const r = read(
      '$ kubectl get nodes\nNAME     STATUS     ROLES           AGE   VERSION\ncp-1     Ready      control-plane   19h   v1.28.8\nw-1      NotReady   <none>          19h   v1.28.8\n',
    );
    assert.deepEqual(seen(r), ['node cp-1', 'version', 'node w-1']);
  });
  it("get nodes: the VERSION column is the kubelets' version, the scenario's when nothing else names one", () => {
    const r = read(
      'NAME     STATUS     ROLES           AGE   VERSION\ncp-1     Ready      control-plane   19h   v1.28.8\nw-1      NotReady   <none>          19h   v1.27.3\nw-2      Ready      <none>          19h   v1.27.3\n',
    );
    assert.deepEqual(
      r.observations.flatMap((o) => (o.kind === 'version' ? [`${o.version} line ${o.evidence.line}`] : [])),
      ['v1.28.8 line 2', 'v1.27.3 line 3'],
    );
    const plan = inferScenario(r, {});
    assert.equal(plan.version, '1.28');
    assert.match(plan.versionWhy, /^from f0\.txt:2: cp-1/);
  });
  it('evidence with no time at all starts at the anchor: --at, else the time of the import, not 1970', () => {
    const r = read('NAME     STATUS     ROLES           AGE   VERSION\ncp-1     Ready      control-plane   19h   v1.28.8\n');
    const at = Date.parse('2026-12-05T06:00:00Z') * 1000;
    assert.equal(inferScenario(r, { anchor: at, anchorGiven: false }).startTime, at);
    assert.match(inferScenario(r, { anchor: at, anchorGiven: false }).startWhy, /the time of the import \(give --at\)/);
    assert.match(inferScenario(r, { anchor: at, anchorGiven: true }).startWhy, /no evidence has a time: --at/);
  });
  it('get pods -A -o wide: each pod ran on its NODE; "NOMINATED NODE" is another column', () => {
    const r = read(
      'NAMESPACE   NAME    READY   STATUS        RESTARTS   AGE   IP          NODE   NOMINATED NODE   READINESS GATES\nsupcon      ice-1   1/1     Terminating   0          19m   10.0.0.1    w-1    <none>           <none>\nsupcon      db-0    0/1     Pending       0          1m    <none>      <none> <none>           <none>\n',
    );
    assert.deepEqual(seen(r), ['Pod/supcon/ice-1@w-1', 'node w-1']);
  });
  it('get pods without -o wide says nothing about nodes', () => {
    assert.deepEqual(seen(read('NAME    READY   STATUS    RESTARTS   AGE\nweb-1   1/1     Running   0          5m\n')), []);
  });
  it('a row that does not line up is a positioned warning', () => {
    const r = read('NAME     STATUS     ROLES           AGE   VERSION\ncp 1 x\n');
    assert.deepEqual(
      r.problems.map((p) => `${p.code} ${p.position?.line}`),
      ['cut-line 2'],
    );
  });
  it('with a log of pods marked not ready, a pods table without -A names their node', () => {
    const log = 'I0101 00:01:25.000000       1 controller_utils.go:129] "Updating ready status of pod to false" pod="supcon/ice-1"\n';
    const table =
      'NAME    READY   STATUS        RESTARTS   AGE   IP          NODE   NOMINATED NODE   READINESS GATES\nice-1   1/1     Terminating   0          19m   10.0.0.1    w-1    <none>           <none>\n';
    const plan = inferScenario(read(log, table), { version: '1.31' });
    assert.deepEqual(
      plan.events.map((e) => JSON.stringify(e.fields)),
      ['{"kubelet":"stop","nodes":["w-1"]}'],
    );
  });

  // kubectl's printNode: Ready / NotReady (Ready False or Unknown) / Unknown (no Ready condition), then
  // SchedulingDisabled when cordoned. The table has no time: its state is the start's for the nodes it makes.
  const nodeCases: { status: string; ready: string; unschedulable: boolean; condition?: string; fresh: boolean }[] = [
    { status: 'Ready', ready: 'Ready', unschedulable: false, condition: 'True', fresh: true },
    { status: 'NotReady', ready: 'NotReady', unschedulable: false, condition: 'Unknown', fresh: false },
    { status: 'Ready,SchedulingDisabled', ready: 'Ready', unschedulable: true, condition: 'True', fresh: true },
    { status: 'NotReady,SchedulingDisabled', ready: 'NotReady', unschedulable: true, condition: 'Unknown', fresh: false },
    { status: 'Unknown', ready: 'Unknown', unschedulable: false, fresh: false },
  ];
  for (const c of nodeCases)
    it(`get nodes: STATUS ${c.status} makes the node ${c.condition ? `Ready ${c.condition}` : 'without conditions'}${c.unschedulable ? ', cordoned' : ''}${c.fresh ? '' : ', its kubelet stopped before the start'}`, () => {
      const r = read(`NAME   ${'STATUS'.padEnd(30)}ROLES    AGE   VERSION\nw-1    ${c.status.padEnd(30)}<none>   19h   v1.28.8\n`);
      const st = r.observations.find((o) => o.kind === 'node-status');
      assert.deepEqual(st && st.kind === 'node-status' ? [st.node, st.ready, st.unschedulable] : undefined, ['w-1', c.ready, c.unschedulable]);
      const plan = inferScenario(r, { anchor: Date.parse('2026-01-01T01:00:00Z') * 1000, anchorGiven: true });
      const node = plan.objects.find((o) => o.kind === 'Node') as {
        spec?: { unschedulable?: boolean };
        status: { conditions: { status: string; lastHeartbeatTime: string }[] };
      };
      const lease = plan.objects.find((o) => o.kind === 'Lease') as { spec: { renewTime: string } };
      assert.equal(node.spec?.unschedulable ?? false, c.unschedulable);
      assert.deepEqual(
        node.status.conditions.map((x) => x.status),
        c.condition ? [c.condition] : [],
      );
      const start = plan.startTime / 1000;
      // a kubelet runs at the start when its heartbeat or Lease is within the grace period (40 s in 1.28)
      assert.equal(Date.parse(lease.spec.renewTime) >= start - 40_000, c.fresh, lease.spec.renewTime);
      if (c.condition) assert.equal(Date.parse(node.status.conditions[0].lastHeartbeatTime) >= start - 40_000, c.fresh);
      assert.equal(
        plan.assumptions.some((a) => /NotReady in a `kubectl get nodes` table/.test(a) && a.includes('Node/w-1 (f0.txt:2')),
        c.ready !== 'Ready',
      );
      assert.equal(
        plan.assumptions.some((a) => /SchedulingDisabled .*made unschedulable/.test(a)),
        c.unschedulable,
      );
    });
  it('get nodes: a NotReady node whose failure the log shows is made Ready at the start (the timeline stops its kubelet)', () => {
    const log = 'I0101 00:01:25.000000       1 controller_utils.go:129] "Updating ready status of pod to false" pod="supcon/ice-1"\n';
    const pods =
      'NAME    READY   STATUS        RESTARTS   AGE   IP          NODE   NOMINATED NODE   READINESS GATES\nice-1   1/1     Terminating   0          19m   10.0.0.1    w-1    <none>           <none>\n';
    const nodes = 'NAME   STATUS     ROLES    AGE   VERSION\nw-1    NotReady   <none>   19h   v1.28.8\n';
    const plan = inferScenario(read(log, pods, nodes), {});
    const node = plan.objects.find((o) => o.kind === 'Node') as { status: { conditions: { status: string }[] } };
    assert.equal(node.status.conditions[0].status, 'True');
    assert.deepEqual(
      plan.events.map((e) => JSON.stringify(e.fields)),
      ['{"kubelet":"stop","nodes":["w-1"]}'],
    );
    assert.ok(!plan.assumptions.some((a) => /NotReady in a `kubectl get nodes` table/.test(a)));
  });
  it("get nodes: a node the snapshot holds keeps the snapshot's state, and the table's disagreement is said", () => {
    const nodes = 'NAME   STATUS     ROLES    AGE   VERSION\nw-1    NotReady   <none>   19h   v1.28.8\n';
    const known = { nodes: new Set(['w-1']), pods: new Map<string, string>(), replicaSets: new Set<string>(), daemonSets: new Set<string>() };
    const plan = inferScenario(read(nodes), {}, known);
    assert.equal(plan.objects.filter((o) => o.kind === 'Node').length, 0);
    assert.ok(
      plan.assumptions.some((a) => /the snapshot's state of them is simulated: Node\/w-1 \(f0\.txt:2/.test(a)),
      plan.assumptions.join('\n'),
    );
  });

  // kubectl's printPod STATUS: a pod that had not ended is made where the table shows it, when nothing else holds it
  const podRows = (rows: string) =>
    read(`NAMESPACE   NAME    READY   STATUS             RESTARTS   AGE   IP         NODE   NOMINATED NODE   READINESS GATES\n${rows}`);
  const podCases: { name: string; rows: string; made: string[]; notReady?: string[] }[] = [
    {
      name: 'a Running pod is made on its node',
      rows: 'shop        web-1   1/1     Running            0          3d    10.0.0.1   w-1    <none>           <none>\n',
      made: ['shop/web-1'],
    },
    {
      name: 'a pod whose containers are not all ready is made not Ready',
      rows: 'shop        web-1   1/2     CrashLoopBackOff   9          3d    10.0.0.1   w-1    <none>           <none>\n',
      made: ['shop/web-1'],
      notReady: ['shop/web-1'],
    },
    {
      name: 'ended pods are not made',
      rows: 'shop        job-1   0/1     Completed          0          3d    10.0.0.1   w-1    <none>           <none>\nshop        job-2   0/1     Error              0          3d    10.0.0.2   w-1    <none>           <none>\nshop        web-3   0/1     Evicted            0          3d    10.0.0.3   w-1    <none>           <none>\n',
      made: [],
    },
    {
      name: 'a Terminating pod (not yet gone) is made',
      rows: 'shop        web-1   1/1     Terminating        0          3d    10.0.0.1   w-1    <none>           <none>\n',
      made: ['shop/web-1'],
    },
  ];
  for (const c of podCases)
    it(`get pods -o wide: ${c.name}`, () => {
      const plan = inferScenario(podRows(c.rows), {});
      const pods = plan.objects.filter((o) => o.kind === 'Pod') as {
        metadata: { name: string; namespace: string };
        spec: { nodeName?: string };
        status: { conditions: { status: string }[] };
      }[];
      assert.deepEqual(
        pods.map((p) => `${p.metadata.namespace}/${p.metadata.name}`),
        c.made,
      );
      for (const p of pods) assert.equal(p.spec.nodeName, 'w-1');
      assert.deepEqual(
        pods.filter((p) => p.status.conditions[0].status === 'False').map((p) => `${p.metadata.namespace}/${p.metadata.name}`),
        c.notReady ?? [],
      );
      assert.equal(
        plan.assumptions.some((a) => /listed by a `kubectl get pods -o wide` table/.test(a)),
        c.made.length > 0,
      );
    });
  it('get pods -o wide without -A: a pod the log names in its namespace is made once, in that namespace', () => {
    const log = 'I0101 00:01:25.000000       1 controller_utils.go:129] "Updating ready status of pod to false" pod="supcon/ice-1"\n';
    const table =
      'NAME    READY   STATUS    RESTARTS   AGE   IP          NODE   NOMINATED NODE   READINESS GATES\nice-1   1/1     Running   0          19m   10.0.0.1    w-1    <none>           <none>\nweb-9   1/1     Running   0          19m   10.0.0.2    w-1    <none>           <none>\n';
    const plan = inferScenario(read(log, table), {});
    assert.deepEqual(
      plan.objects.filter((o) => o.kind === 'Pod').map((o) => `${(o.metadata as { namespace: string }).namespace}/${(o.metadata as { name: string }).name}`),
      ['default/web-9', 'supcon/ice-1'],
    );
  });
  it('get pods -o wide: a pod the snapshot holds is not made again', () => {
    const known = { nodes: new Set(['w-1']), pods: new Map([['shop/web-1', 'w-1']]), replicaSets: new Set<string>(), daemonSets: new Set<string>() };
    const plan = inferScenario(
      podRows('shop        web-1   1/1     Running            0          3d    10.0.0.1   w-1    <none>           <none>\n'),
      {},
      known,
    );
    assert.equal(plan.objects.filter((o) => o.kind === 'Pod').length, 0);
  });

  const versionCases: { kubelet: string; version: string; clamped: boolean }[] = [
    { kubelet: 'v1.28.8', version: '1.28', clamped: false },
    { kubelet: 'v1.9.1+2.1.5.el7', version: '1.12', clamped: true },
    { kubelet: 'v1.99.0', version: `1.${MAX_MINOR}`, clamped: true },
  ];
  for (const c of versionCases)
    it(`get nodes: kubelets ${c.kubelet} are simulated as ${c.version}${c.clamped ? ', the nearest version, and the scenario says so' : ''}`, () => {
      const plan = inferScenario(read(`NAME   STATUS   ROLES    AGE   VERSION\nw-1    Ready    <none>   19h   ${c.kubelet}\n`), {});
      assert.equal(plan.version, c.version);
      assert.equal(/is outside 1\.12–1\.\d+, so the nearest simulated version/.test(plan.versionWhy), c.clamped, plan.versionWhy);
    });
});
