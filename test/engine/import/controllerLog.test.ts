/**
 * The kube-controller-manager log importer: each upstream wording (printf,
 * structured, JSON logging) and each wrapper (journald, docker json-file)
 * becomes the trace's decision; broken and cut lines are reported with their
 * position and the rest still imports.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importEvidence } from '../../../src/engine/import/index';
import { formatTime, parseTimestamp } from '../../../src/engine/model/time';

const anchor = parseTimestamp('2026-12-31T00:00:00Z')!;
const read = (text: string, at = anchor) => importEvidence([{ name: 'kcm.log', chunks: [text] }], { anchor: at, anchorGiven: true });
const warnings = (r: ReturnType<typeof read>) => r.problems.filter((p) => p.severity !== 'info');
const summary = (text: string) => read(text).decisions.map((d) => `${formatTime(d.time)} ${d.action} ${d.object}${d.detail ? ' ' + d.detail : ''}`);

describe('controller-manager log lines', () => {
  const cases: { name: string; line: string; want: string[] }[] = [
    {
      name: 'a 1.8 zone state change (NodeController wording) is ZoneStateChanged of Zone/REGION/ZONE',
      line: 'I1020 20:27:11.684316       1 nodecontroller.go:793] NodeController detected that zone northeurope::2 is now in state FullDisruption.',
      want: ['2026-10-20T20:27:11.684Z ZoneStateChanged Zone/northeurope/2 FullDisruption'],
    },
    {
      name: 'a structured zone state change of an unlabelled zone is Zone/',
      line: 'I0928 16:29:17.122025       1 node_lifecycle_controller.go:1067] "Controller detected that zone is now in new state" logger="node-lifecycle-controller" zone="" newState="Normal"',
      want: ['2026-09-28T16:29:17.122Z ZoneStateChanged Zone/ Normal'],
    },
    {
      name: 'a structured zone key with its NUL separator is Zone/REGION/ZONE',
      line: 'I0101 00:00:00.000000       1 node_lifecycle_controller.go:1067] "Controller detected that zone is now in new state" zone="us-east-1:\\x00:us-east-1a" newState="PartialDisruption"',
      want: ['2026-01-01T00:00:00.000Z ZoneStateChanged Zone/us-east-1/us-east-1a PartialDisruption'],
    },
    {
      name: 'the printf taint-queue line is NodeQueuedForTainting',
      line: 'I0516 19:33:17.229931       1 node_lifecycle_controller.go:729] Node k8s-worker3 is unresponsive as of 2019-05-16 19:33:17.2299213 +0000 UTC m=+24436.547875881. Adding it to the Taint queue.',
      want: ['2019-05-16T19:33:17.229Z NodeQueuedForTainting Node/k8s-worker3'],
    },
    {
      name: 'the structured taint-queue line is NodeQueuedForTainting',
      line: 'I0101 00:01:10.000000       1 node_lifecycle_controller.go:790] "Node is unresponsive. Adding it to the Taint queue" node="node-a1" timeStamp="x"',
      want: ['2026-01-01T00:01:10.000Z NodeQueuedForTainting Node/node-a1'],
    },
    {
      name: 'a %+v taint list is one TaintAdded per taint, key:Effect',
      line: 'I0516 19:33:12.204484       1 controller_utils.go:200] Added [&Taint{Key:node.kubernetes.io/unreachable,Value:,Effect:NoSchedule,TimeAdded:2019-05-16 19:33:12.197948187 +0000 UTC m=+24431.515902756,}] Taint to Node k8s-worker3',
      want: ['2019-05-16T19:33:12.204Z TaintAdded Node/k8s-worker3 node.kubernetes.io/unreachable:NoSchedule'],
    },
    {
      name: '"Made sure that Node has no Taint" is not a removal',
      line: 'I0516 19:33:17.284138       1 controller_utils.go:212] Made sure that Node k8s-worker3 has no [&Taint{Key:node.kubernetes.io/not-ready,Value:,Effect:NoExecute,TimeAdded:<nil>,}] Taint',
      want: [],
    },
    {
      name: 'the 1.8–1.20 taint manager deletion is PodEvicted',
      line: 'I0101 00:00:00.000000       1 taint_manager.go:106] NoExecuteTaintManager is deleting Pod: default/nginx-xxx',
      want: ['2026-01-01T00:00:00.000Z PodEvicted Pod/default/nginx-xxx'],
    },
    {
      name: 'the 1.29+ taint-eviction-controller deletion is PodEvicted',
      line: 'I0101 00:06:10.000000       1 taint_eviction.go:109] "Deleting pod" controller="taint-eviction-controller" pod="default/web-1"',
      want: ['2026-01-01T00:06:10.000Z PodEvicted Pod/default/web-1'],
    },
    {
      name: 'another controller\'s "Deleting pod" is not an eviction',
      line: 'I0101 00:06:10.000000       1 foo.go:1] "Deleting pod" controller="podgc" pod="default/web-1"',
      want: [],
    },
    {
      name: "MarkPodsNotReady's structured line is PodsMarkedNotReady of the pod",
      line: 'I0101 00:01:05.000000       1 controller_utils.go:129] "Updating ready status of pod to false" pod="default/web-1"',
      want: ['2026-01-01T00:01:05.000Z PodsMarkedNotReady Pod/default/web-1'],
    },
    {
      name: '"Too few replicas ... creating 3" is three PodsCreated',
      line: 'I0101 00:00:00.000000       1 replica_set.go:548] Too few replicas for ReplicaSet default/web, need 5, creating 3',
      want: [
        '2026-01-01T00:00:00.000Z PodsCreated ReplicaSet/default/web',
        '2026-01-01T00:00:00.000Z PodsCreated ReplicaSet/default/web',
        '2026-01-01T00:00:00.000Z PodsCreated ReplicaSet/default/web',
      ],
    },
    {
      name: 'the structured "Too many replicas" is PodsDeleted',
      line: 'I0425 10:00:00.000000       1 replica_set.go:583] "Too many replicas" replicaSet="rslab/web" need=2 deleting=1',
      want: ['2026-04-25T10:00:00.000Z PodsDeleted ReplicaSet/rslab/web'],
    },
    {
      name: 'a logged Event (1.20+ wording) is read by its reason: TaintManagerEviction is PodEvicted',
      line: 'I0827 02:10:50.989848       1 event.go:307] "Event occurred" object="supcon/ice1-1" fieldPath="" kind="Pod" apiVersion="" type="Normal" reason="TaintManagerEviction" message="Marking for deletion Pod supcon/ice1-1"',
      want: ['2026-08-27T02:10:50.989Z PodEvicted Pod/supcon/ice1-1'],
    },
    {
      name: 'a logged Event (old wording) is read by its reason: RegisteredNode is NodeRegistered',
      line: 'I0617 13:01:21.373374    1717 event.go:209] Event(v1.ObjectReference{Kind:"Node", Namespace:"", Name:"w-1", UID:"u", APIVersion:"", ResourceVersion:"", FieldPath:""}): type: \'Normal\' reason: \'RegisteredNode\' Node w-1 event: Registered Node w-1 in Controller',
      want: ['2026-06-17T13:01:21.373Z NodeRegistered Node/w-1'],
    },
    {
      name: 'a journald prefix is removed',
      line: 'Jun 17 13:01:21 host kube-controller-manager[1717]: I0617 13:01:21.373343    1717 node_lifecycle_controller.go:702] Node w-2 is NotReady as of 2019-06-17 13:01:21.373314502 +0000 UTC m=+110.2. Adding it to the Taint queue.',
      want: ['2019-06-17T13:01:21.373Z NodeQueuedForTainting Node/w-2'],
    },
    {
      name: 'a docker json-file line gives the year from its time',
      line: '{"log":"I0901 00:25:09.311469       1 event.go:291] \\"Event occurred\\" object=\\"kube-system/coredns-1\\" kind=\\"Pod\\" apiVersion=\\"v1\\" type=\\"Warning\\" reason=\\"NodeNotReady\\" message=\\"Node is not ready\\"\\n","stream":"stderr","time":"2021-09-01T00:25:09.311544102Z"}',
      want: ['2021-09-01T00:25:09.311Z PodsMarkedNotReady Pod/kube-system/coredns-1'],
    },
    {
      name: "klog's JSON format is read with its epoch time and KObj values",
      line: '{"ts":1767225665.5,"caller":"nodelifecycle/node_lifecycle_controller.go:790","msg":"Node is unresponsive. Adding it to the Taint queue","v":2,"node":{"name":"node-b1"}}',
      want: ['2026-01-01T00:01:05.500Z NodeQueuedForTainting Node/node-b1'],
    },
    {
      name: 'a line of another controller is ignored without a warning',
      line: 'I0928 16:29:17.130482       1 range_allocator.go:177] "Sending events to api server" logger="node-ipam-controller"',
      want: [],
    },
  ];
  for (const c of cases) it(c.name, () => assert.deepEqual(summary(c.line), c.want));
});

describe('controller-manager logs with bad or pasted input', () => {
  it('a line cut in the middle is a positioned warning, and the lines around it import', () => {
    const r = read(
      'I0101 00:00:01.000000       1 taint_manager.go:106] NoExecuteTaintManager is deleting Pod: default/a\nI0101 00:00:02.00\nI0101 00:00:03.000000       1 taint_manager.go:106] NoExecuteTaintManager is deleting Pod: default/b\n',
    );
    assert.deepEqual(
      r.decisions.map((d) => d.object),
      ['Pod/default/a', 'Pod/default/b'],
    );
    assert.deepEqual(
      warnings(r).map((p) => `${p.code} ${p.position?.line}:${p.position?.column}`),
      ['cut-line 2:1'],
    );
  });
  it('a docker json-file line cut off is a broken-line warning', () => {
    const r = read(
      '{"log":"I0901 00:25:09.311469       1 taint_manager.go:106] NoExecuteTaintManager is deleting Pod: a/b\\n","time":"2021-09-01T00:25:09Z"}\n{"log":"I09',
    );
    assert.equal(r.decisions.length, 1);
    assert.deepEqual(
      warnings(r).map((p) => `${p.code} ${p.position?.line}`),
      ['broken-line 2'],
    );
  });
  it('a shell prompt, the command, a pager line and "..." are skipped silently', () => {
    const r = read(
      '$ journalctl -u kube-controller-manager\n...\nI0101 00:00:01.000000       1 taint_manager.go:106] NoExecuteTaintManager is deleting Pod: default/a\nlines 1-3/3 (END)\n',
    );
    assert.equal(r.decisions.length, 1);
    assert.deepEqual(warnings(r), []);
  });
  it('the same line pasted twice is counted once, with a warning at the copy', () => {
    const line = 'I0101 00:00:01.000000       1 taint_manager.go:106] NoExecuteTaintManager is deleting Pod: default/a';
    const r = read(`${line}\n${line}\n`);
    assert.equal(r.decisions.length, 1);
    assert.deepEqual(
      warnings(r).map((p) => `${p.code} ${p.position?.line}`),
      ['duplicate 2'],
    );
  });
  it('a log line and the Event it logs are one decision', () => {
    const r = read(
      'I0827 02:10:50.989653       1 taint_manager.go:106] "NoExecuteTaintManager is deleting pod" pod="s/p"\nI0827 02:10:50.989848       1 event.go:307] "Event occurred" object="s/p" kind="Pod" reason="TaintManagerEviction" message="Marking for deletion Pod s/p"\n',
    );
    assert.equal(r.decisions.length, 1);
    assert.equal(r.decisions[0].also?.length, 1);
  });
  it('without a year in the log, the anchor gives it, and a later month is last year', () => {
    const r = read('I1231 23:59:00.000000       1 taint_manager.go:106] NoExecuteTaintManager is deleting Pod: a/b\n', parseTimestamp('2027-01-02T00:00:00Z')!);
    assert.equal(formatTime(r.decisions[0].time), '2026-12-31T23:59:00.000Z');
    assert.deepEqual(
      r.problems.map((p) => `${p.code} ${p.severity}`),
      ['year-assumed info'],
    );
  });
  it('a full date elsewhere in the log gives the year', () => {
    const r = read(
      'I0516 19:33:17.229931       1 node_lifecycle_controller.go:729] Node w is unresponsive as of 2019-05-16 19:33:17 +0000 UTC. Adding it to the Taint queue.\n',
    );
    assert.equal(formatTime(r.decisions[0].time), '2019-05-16T19:33:17.229Z');
    assert.deepEqual(r.problems, []);
  });
  it('a stream split in the middle of a line reads as the whole line', () => {
    const line = 'I0101 00:00:01.000000       1 taint_manager.go:106] NoExecuteTaintManager is deleting Pod: default/a\n';
    const r = importEvidence([{ name: 'kcm.log', chunks: [line.slice(0, 30), line.slice(30, 31), line.slice(31)] }], { anchor, anchorGiven: true });
    assert.deepEqual(
      r.decisions.map((d) => d.object),
      ['Pod/default/a'],
    );
  });
});
