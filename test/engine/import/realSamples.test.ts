/**
 * Every real sample (test/fixtures/real-evidence, see SOURCES.md) imports
 * without a crash, and each gives what a reader of it sees in it.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { importEvidence } from '../../../src/engine/import/index';
import { inferScenario } from '../../../src/engine/import/infer';
import { formatTime, parseTimestamp } from '../../../src/engine/model/time';
import { readChunks } from '../../../src/platform/nodeFs';

const dir = new URL('../../fixtures/real-evidence', import.meta.url).pathname;
const samples = readdirSync(dir)
  .filter((f) => !f.endsWith('.md'))
  .sort();
const anchor = parseTimestamp('2026-12-02T00:00:00Z')!;
// as the command line reads them: a gzipped sample is inflated on the way
const read = (f: string, at = anchor) => importEvidence([{ name: f, chunks: readChunks(join(dir, f)) }], { anchor: at, anchorGiven: true });
const list = (f: string) => read(f).decisions.map((d) => `${formatTime(d.time)} ${d.action} ${d.object}${d.detail ? ' ' + d.detail : ''}`);

describe('the real samples', () => {
  for (const f of samples) {
    it(`${f} imports without a crash, and a scenario is inferred from it`, () => {
      const r = read(f);
      assert.equal(r.inputs.length, 1);
      const plan = inferScenario(r, { anchor, anchorGiven: true });
      assert.ok(plan.version);
    });
  }
  it('every sample is described in SOURCES.md', () => {
    const sources = readFileSync(join(dir, 'SOURCES.md'), 'utf8');
    for (const f of samples) assert.ok(sources.includes(`\`${f}\``), f);
  });

  it('kube-controller-manager 1.28, a node down: pods marked not ready, then deleted by the taint manager 5m05s later', () => {
    assert.deepEqual(list('kcm-1.28-node-down-taint-eviction.log'), [
      '2026-08-27T02:05:45.661Z PodsMarkedNotReady Pod/supcon/ice1-1',
      '2026-08-27T02:05:45.864Z PodsMarkedNotReady Pod/supcon/datacenter-dc-0',
      '2026-08-27T02:10:50.989Z PodEvicted Pod/supcon/datacenter-dc-0',
      '2026-08-27T02:10:50.989Z PodEvicted Pod/supcon/ice1-1',
    ]);
  });
  it('kube-controller-manager 1.14, k8s-worker3 unreachable: the NoSchedule taint, the taint queue, the NoExecute taint; the cut last line is reported', () => {
    assert.deepEqual(list('kcm-1.14-k8s-worker3-unreachable.log'), [
      '2019-05-16T19:33:12.204Z TaintAdded Node/k8s-worker3 node.kubernetes.io/unreachable:NoSchedule',
      '2019-05-16T19:33:17.229Z NodeQueuedForTainting Node/k8s-worker3',
      '2019-05-16T19:33:17.284Z TaintAdded Node/k8s-worker3 node.kubernetes.io/unreachable:NoExecute',
    ]);
    assert.deepEqual(
      read('kcm-1.14-k8s-worker3-unreachable.log').problems.map((p) => `${p.code} ${p.position?.line}`),
      ['cut-line 6'],
    );
  });
  it('journald lines of 1.14: the taint queue every pass, the year from the message', () => {
    assert.deepEqual(list('kcm-1.14-journald-kubedee.log'), [
      '2019-06-17T13:01:21.373Z NodeQueuedForTainting Node/kubedee-test-worker-2ajv8y',
      '2019-06-17T13:01:26.373Z NodeQueuedForTainting Node/kubedee-test-worker-2ajv8y',
    ]);
  });
  it('1.8 zone states of acs-engine: six changes of two zones, region::zone keys', () => {
    const zones = list('kcm-1.8-zone-states-acs-engine.log').map((l) => l.split(' ').slice(2).join(' '));
    assert.deepEqual(zones, [
      'Zone/northeurope/2 FullDisruption',
      'Zone/northeurope/2 Normal',
      'Zone/northeurope/2 FullDisruption',
      'Zone/northeurope/1 FullDisruption',
      'Zone/northeurope/1 Normal',
      'Zone/northeurope/2 Normal',
    ]);
  });
  it('docker json-file lines of minikube: four pods marked not ready, the cut last line reported', () => {
    assert.equal(list('kcm-docker-json-minikube.log').length, 4);
    assert.deepEqual(
      read('kcm-docker-json-minikube.log').problems.map((p) => `${p.code} ${p.position?.line}`),
      ['broken-line 6'],
    );
  });
  it('1.33 startup: the unlabelled zone becomes Normal; two nodes seen', () => {
    const r = read('kcm-1.33-startup-structured.log');
    assert.deepEqual(list('kcm-1.33-startup-structured.log'), ['2026-09-28T16:29:17.122Z ZoneStateChanged Zone/ Normal']);
    assert.deepEqual(
      r.observations.filter((o) => o.kind === 'node-seen').map((o) => o.kind === 'node-seen' && o.node),
      ['controlplane', 'node01'],
    );
  });
  it('describe node of a healthy 1.28 node: RegisteredNode 4m53s and 19h before it was printed, no failure', () => {
    const r = importEvidence([{ name: 'd', chunks: [readFileSync(join(dir, 'describe-node-1.28-lfs258.txt'), 'utf8')] }], {
      anchor: parseTimestamp('2024-03-19T11:02:40Z')!,
      anchorGiven: true,
    });
    assert.deepEqual(
      r.decisions.map((d) => `${formatTime(d.time)} ${d.action} ${d.object}`),
      [
        '2024-03-18T16:02:40.000Z NodeRegistered Node/ip-172-31-40-74',
        '2024-03-18T16:02:40.000Z NodeRegistered Node/ip-172-31-40-74',
        '2024-03-19T10:57:47.000Z NodeRegistered Node/ip-172-31-40-74',
      ],
    );
    assert.deepEqual(r.problems, []);
    assert.ok(!r.observations.some((o) => o.kind === 'heartbeat'), 'a Ready node shows no stop');
  });
  it('the GCE audit sample: two Lease heartbeats at Metadata level and kubelet 1.14', () => {
    const r = read('audit-1.14-gce-scale-leases.jsonl');
    assert.deepEqual(
      r.observations.filter((o) => o.kind === 'heartbeat').map((o) => o.kind === 'heartbeat' && `${o.node} ${o.via}`),
      ['gce-scale-cluster-minion-group-4-zr07 lease', 'gce-scale-cluster-minion-group-2-v1fj lease'],
    );
    assert.equal(inferScenario(r, {}).version, '1.14');
  });
  it('the rancher events table: three evictions cancelled 7m24s before it was printed, then carried out 2m25s before; the cut row reported', () => {
    const r = importEvidence([{ name: 't', chunks: [readFileSync(join(dir, 'events-table-rancher-29997.txt'), 'utf8')] }], {
      anchor: parseTimestamp('2020-11-01T12:00:00Z')!,
      anchorGiven: true,
    });
    assert.deepEqual(
      r.decisions.map((d) => `${formatTime(d.time).slice(11, 19)} ${d.action} ${d.object}`),
      [
        '11:52:36 PodEvictionCancelled Pod/cattle-system/rancher-5745c55b85-kwhgf',
        '11:52:36 PodEvictionCancelled Pod/cattle-system/rancher-5745c55b85-xkgm4',
        '11:52:36 PodEvictionCancelled Pod/cert-manager/cert-manager-7cb75cf6b4-d8gb2',
        '11:57:35 PodEvicted Pod/cattle-system/rancher-5745c55b85-kwhgf',
        '11:57:35 PodEvicted Pod/cattle-system/rancher-5745c55b85-xkgm4',
        '11:57:35 PodEvicted Pod/cert-manager/cert-manager-7cb75cf6b4-d8gb2',
      ],
    );
    assert.deepEqual(
      r.problems.map((p) => `${p.code} ${p.position?.line}`),
      ['cut-line 9'],
    );
  });

  it('kwokctl snapshot export of a kind 1.30 cluster: a recording of no change, its times $(time-offset-nanosecond N) from --at; the new worker Ready 54.6 ms before the export and still under the not-ready NoSchedule taint', () => {
    const at = parseTimestamp('2024-07-18T18:13:00Z')!;
    const r = read('kwok-export-1.30-kind-lab07.yaml', at);
    assert.deepEqual(
      r.inputs.map((i) => i.format),
      ['kwok-recording'],
    );
    assert.deepEqual(
      r.problems.map((p) => `${p.severity} ${p.code}`),
      ['info no-changes'],
    );
    assert.deepEqual(r.decisions, []);
    const objects = r.observations.flatMap((o) => (o.kind === 'object' ? [o.object] : []));
    const named = (kind: string) =>
      objects.filter((o) => o.kind === kind).map((o) => `${(o.metadata as { namespace?: string }).namespace ?? ''}/${(o.metadata as { name: string }).name}`);
    assert.deepEqual(named('Node'), ['/kind-control-plane', '/kind-worker']);
    assert.equal(named('Pod').length, 12);
    assert.deepEqual(named('ReplicaSet'), [
      'default/kind-deployment-6f999cfffb',
      'kube-system/coredns-7db6d8ff4d',
      'local-path-storage/local-path-provisioner-988d74bc',
    ]);
    const worker = objects.find((o) => o.kind === 'Node' && (o.metadata as { name: string }).name === 'kind-worker')!;
    const ready = (worker.status as { conditions: { type: string; status: string; lastHeartbeatTime: string }[] }).conditions.find((c) => c.type === 'Ready')!;
    assert.deepEqual(
      [
        (worker.metadata as { creationTimestamp: string }).creationTimestamp,
        ready.status,
        ready.lastHeartbeatTime,
        JSON.stringify((worker.spec as { taints: unknown }).taints),
      ],
      ['2024-07-18T18:12:51.945Z', 'True', '2024-07-18T18:12:59.945Z', '[{"effect":"NoSchedule","key":"node.kubernetes.io/not-ready"}]'],
    );
    assert.deepEqual(
      r.observations.filter((o) => o.kind === 'pod-on-node' && o.node === 'kind-worker').map((o) => o.kind === 'pod-on-node' && o.pod),
      ['Pod/default/kind-deployment-6f999cfffb-2zlds', 'Pod/kube-system/kindnet-h98hd', 'Pod/kube-system/kube-proxy-pjdgl'],
    );
    const plan = inferScenario(r, { anchor: at, anchorGiven: true });
    assert.equal(plan.version, '1.30');
    // the DaemonSets that own kindnet and kube-proxy come along, so their pods keep an owner
    assert.deepEqual(
      plan.objects.filter((o) => o.kind === 'DaemonSet' || o.kind === 'ReplicaSet').map((o) => `${o.kind}/${(o.metadata as { name: string }).name}`),
      [
        'DaemonSet/kindnet',
        'DaemonSet/kube-proxy',
        'ReplicaSet/kind-deployment-6f999cfffb',
        'ReplicaSet/coredns-7db6d8ff4d',
        'ReplicaSet/local-path-provisioner-988d74bc',
      ],
    );
  });

  it('gzipped samples (gzip -9; two members one after another, as log rotation leaves them) import as their plain originals', () => {
    const pairs: [string, string][] = [
      ['audit-1.14-gce-scale-leases.jsonl.gz', 'audit-1.14-gce-scale-leases.jsonl'],
      ['kcm-1.28-node-down-taint-eviction.log.1.gz', 'kcm-1.28-node-down-taint-eviction.log'],
    ];
    const strip = (r: ReturnType<typeof read>) =>
      JSON.stringify({ ...r, inputs: r.inputs.map((i) => ({ ...i, file: '' })) }).replaceAll(/"file":"[^"]*"/g, '"file":""');
    for (const [gz, plain] of pairs) {
      const a = read(gz);
      assert.ok(a.decisions.length + a.observations.length > 0, gz);
      assert.equal(strip(a), strip(read(plain)), gz);
    }
  });
  it('describe pod of a 1.29 node shutdown: tolerations of 30s, NodeNotReady 89s before printing, the taint eviction from Terminating (lasts 24s) and the 30s grace period', () => {
    const r = read('describe-pod-1.29-trident-node-shutdown.txt', parseTimestamp('2025-03-21T01:41:04Z')!);
    assert.deepEqual(
      r.decisions.map((d) => `${formatTime(d.time)} ${d.action} ${d.object}`),
      [
        '2025-03-21T01:39:35.000Z PodsMarkedNotReady Pod/default/test-deployment-57fb685899-d5r6n',
        '2025-03-21T01:40:10.000Z PodEvicted Pod/default/test-deployment-57fb685899-d5r6n',
      ],
    );
    const pods = r.observations.flatMap((o) => (o.kind === 'object' ? [o.object] : []));
    assert.deepEqual(
      pods.map(
        (p) =>
          `${(p.metadata as { name: string }).name} ${(p.spec as { nodeName: string }).nodeName} ${JSON.stringify((p.spec as { tolerations: unknown }).tolerations)}`,
      ),
      [
        'test-deployment-57fb685899-d5r6n rhel2 [{"operator":"Exists","key":"node.kubernetes.io/not-ready","effect":"NoExecute","tolerationSeconds":30},{"operator":"Exists","key":"node.kubernetes.io/unreachable","effect":"NoExecute","tolerationSeconds":30}]',
        'test-deployment-57fb685899-n4wmj rhel1 [{"operator":"Exists","key":"node.kubernetes.io/not-ready","effect":"NoExecute","tolerationSeconds":30},{"operator":"Exists","key":"node.kubernetes.io/unreachable","effect":"NoExecute","tolerationSeconds":30}]',
      ],
    );
    assert.deepEqual(
      r.inputs.map((i) => i.format),
      ['describe-pod'],
    );
    assert.deepEqual(r.problems, []);
  });
  it('describe pod of a finished Job (trailing blanks in Conditions): Succeeded, the default 300s tolerations, no decision', () => {
    const r = read('describe-pod-kodekloud-job.txt', parseTimestamp('2022-10-08T01:53:51Z')!);
    assert.deepEqual(r.decisions, []);
    const pod = r.observations.find((o) => o.kind === 'object');
    assert.ok(pod && pod.kind === 'object');
    assert.equal((pod.object.status as { phase: string }).phase, 'Succeeded');
    assert.deepEqual(
      (pod.object.spec as { tolerations: { tolerationSeconds: number }[] }).tolerations.map((t) => t.tolerationSeconds),
      [300, 300],
    );
    assert.deepEqual(
      (pod.object.metadata as { ownerReferences: { kind: string }[] }).ownerReferences.map((o) => o.kind),
      ['Job'],
    );
  });

  it('kubectl get nodes of a kops cluster: the node the termination handler cordoned is made unschedulable, the other Ready', () => {
    const plan = inferScenario(read('get-nodes-1.15-kops-cordoned.txt'), { anchor, anchorGiven: true });
    const nodes = plan.objects.filter((o) => o.kind === 'Node') as {
      metadata: { name: string };
      spec?: { unschedulable?: boolean };
      status: { conditions: { status: string }[] };
    }[];
    assert.deepEqual(
      nodes.map((n) => `${n.metadata.name} ${n.status.conditions.map((c) => c.status).join()} ${n.spec?.unschedulable ? 'cordoned' : ''}`.trim()),
      ['ip-10-34-3-108.us-west-2.compute.internal True', 'ip-10-34-5-239.us-west-2.compute.internal True cordoned'],
    );
    assert.equal(plan.version, '1.15');
  });
  it('kubectl get nodes of a Vagrant cluster: the NotReady worker is made with its kubelet stopped and Ready Unknown, the others Ready', () => {
    const plan = inferScenario(read('get-nodes-1.9-vagrant-notready.txt'), { anchor, anchorGiven: true });
    const nodes = plan.objects.filter((o) => o.kind === 'Node') as { metadata: { name: string }; status: { conditions: { status: string }[] } }[];
    assert.deepEqual(
      nodes.map((n) => `${n.metadata.name} ${n.status.conditions[0].status}`),
      ['master.vagrant.vm True', 'worker1.vagrant.vm True', 'worker2.vagrant.vm Unknown'],
    );
    assert.ok(plan.assumptions.some((a) => /NotReady in a `kubectl get nodes` table/.test(a) && a.includes('get-nodes-1.9-vagrant-notready.txt:5')));
    // its kubelets' v1.9.1 is older than any simulated version: the nearest is, and the scenario says why
    assert.equal(plan.version, '1.12');
    assert.match(plan.versionWhy, /v1\.9\.1\+2\.1\.5\.el7 is outside 1\.12–1\.\d+, so the nearest simulated version/);
  });
});
