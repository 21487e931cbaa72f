/**
 * The audit log importer: ResponseComplete records only, in stageTimestamp
 * order, at every level; kubelet heartbeats (Lease renewals, status writes)
 * and where they stop; the controllers' writes as decisions; users' writes
 * as world events; broken lines, other kinds and duplicates as warnings.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importEvidence } from '../../../src/engine/import/index';
import { formatTime } from '../../../src/engine/model/time';

interface Rec {
  t: string;
  verb: string;
  user: string;
  ref: Record<string, string>;
  level?: string;
  stage?: string;
  id?: string;
  body?: unknown;
  agent?: string;
}
let n = 0;
const line = (r: Rec) =>
  JSON.stringify({
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level: r.level ?? 'RequestResponse',
    auditID: r.id ?? `a-${++n}`,
    stage: r.stage ?? 'ResponseComplete',
    verb: r.verb,
    user: { username: r.user },
    userAgent: r.agent ?? 'x',
    objectRef: r.ref,
    responseStatus: { code: 200 },
    ...(r.body ? { requestObject: r.body, responseObject: r.body } : {}),
    requestReceivedTimestamp: r.t,
    stageTimestamp: r.t,
  });
const read = (...lines: string[]) => importEvidence([{ name: 'audit.log', chunks: [lines.join('\n') + '\n'] }]);
const lease = (node: string, t: string) =>
  line({ t, verb: 'update', user: `system:node:${node}`, level: 'Metadata', ref: { resource: 'leases', namespace: 'kube-node-lease', name: node } });
const nc = 'system:serviceaccount:kube-system:node-controller';
const taints = (node: string, t: string, user: string, list: { key: string; effect: string }[]) =>
  line({ t, verb: 'patch', user, ref: { resource: 'nodes', name: node }, body: { spec: { taints: list } } });

describe('audit log: heartbeats', () => {
  it('Metadata-level Lease renewals are heartbeats; a silence over 20s is a stop and a start', () => {
    const r = read(
      lease('n1', '2026-01-01T00:00:00Z'),
      lease('n1', '2026-01-01T00:00:10Z'),
      lease('n1', '2026-01-01T00:02:00Z'),
      lease('n1', '2026-01-01T00:02:10Z'),
    );
    assert.deepEqual(
      r.observations.map((o) => o.kind === 'heartbeat' && `${o.mark} ${formatTime(o.time)}`),
      ['first 2026-01-01T00:00:00.000Z', 'stop 2026-01-01T00:00:10.000Z', 'resume 2026-01-01T00:02:00.000Z', 'last 2026-01-01T00:02:10.000Z'],
    );
  });
  it('records are put in stageTimestamp order, not file order', () => {
    const r = read(lease('n1', '2026-01-01T00:00:10Z'), lease('n1', '2026-01-01T00:00:00Z'), lease('n1', '2026-01-01T00:00:20Z'));
    assert.deepEqual(
      r.observations.map((o) => o.kind === 'heartbeat' && o.mark),
      ['first', 'last'],
    );
  });
  it('an audit log with writes but no kubelet heartbeats says the liveness is unknown', () => {
    const r = read(line({ t: '2026-01-01T00:00:00Z', verb: 'delete', user: 'alice', ref: { resource: 'pods', namespace: 'd', name: 'p' } }));
    assert.deepEqual(
      r.problems.map((p) => p.code),
      ['no-heartbeats'],
    );
  });
});

describe("audit log: the controllers' writes and the users'", () => {
  it('taints the node controller adds and removes are TaintAdded and TaintRemoved', () => {
    const r = read(
      taints('n1', '2026-01-01T00:00:00Z', 'admin', []),
      taints('n1', '2026-01-01T00:01:05Z', nc, [{ key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' }]),
      taints('n1', '2026-01-01T00:01:10Z', nc, [
        { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute' },
      ]),
      taints('n1', '2026-01-01T00:05:00Z', nc, []),
    );
    assert.deepEqual(
      r.decisions.map((d) => `${formatTime(d.time).slice(11, 19)} ${d.action} ${d.detail}`),
      [
        '00:01:05 TaintAdded node.kubernetes.io/unreachable:NoSchedule',
        '00:01:10 TaintAdded node.kubernetes.io/unreachable:NoExecute',
        '00:05:00 TaintRemoved node.kubernetes.io/unreachable:NoExecute',
        '00:05:00 TaintRemoved node.kubernetes.io/unreachable:NoSchedule',
      ],
    );
  });
  it("the controller manager's own user with node-controller in its user agent is the node controller", () => {
    const r = read(
      taints('n1', '2026-01-01T00:00:00Z', 'admin', []),
      line({
        t: '2026-01-01T00:01:05Z',
        verb: 'patch',
        user: 'system:kube-controller-manager',
        agent: 'kube-controller-manager/v1.28.3 (linux/amd64) kubernetes/a/system:serviceaccount:kube-system:node-controller',
        ref: { resource: 'nodes', name: 'n1' },
        body: { spec: { taints: [{ key: 'k', effect: 'NoExecute' }] } },
      }),
    );
    assert.deepEqual(
      r.decisions.map((d) => d.action),
      ['TaintAdded'],
    );
  });
  it("a user's taint is a world event, not a decision", () => {
    const r = read(
      taints('n1', '2026-01-01T00:00:00Z', 'admin', []),
      taints('n1', '2026-01-01T00:01:00Z', 'alice', [{ key: 'example.com/maint', effect: 'NoExecute' }]),
    );
    assert.deepEqual(r.decisions, []);
    assert.deepEqual(
      r.observations.map((o) => o.kind === 'taint' && `${o.node} ${o.key}:${o.effect} by ${o.by}`),
      ['n1 example.com/maint:NoExecute by alice'],
    );
  });
  it('Ready=Unknown written by the node controller is NodeStatusUnknown', () => {
    const r = read(
      line({
        t: '2026-01-01T00:01:05Z',
        verb: 'patch',
        user: nc,
        ref: { resource: 'nodes', name: 'n1', subresource: 'status' },
        body: { status: { conditions: [{ type: 'Ready', status: 'Unknown' }] } },
      }),
    );
    assert.deepEqual(
      r.decisions.map((d) => `${d.action} ${d.object}`),
      ['NodeStatusUnknown Node/n1'],
    );
  });
  it('pod deletions: by the taint eviction controller PodEvicted, by a user a world deletion', () => {
    const r = read(
      line({
        t: '2026-01-01T00:06:10Z',
        verb: 'delete',
        user: 'system:serviceaccount:kube-system:taint-eviction-controller',
        ref: { resource: 'pods', namespace: 'd', name: 'p1' },
      }),
      line({ t: '2026-01-01T00:07:00Z', verb: 'delete', user: 'alice', ref: { resource: 'pods', namespace: 'd', name: 'p2' } }),
    );
    assert.deepEqual(
      r.decisions.map((d) => `${d.action} ${d.object}`),
      ['PodEvicted Pod/d/p1'],
    );
    assert.deepEqual(
      r.observations.filter((o) => o.kind === 'delete').map((o) => o.kind === 'delete' && `${o.ref} by ${o.by}`),
      ['Pod/d/p2 by alice'],
    );
  });
  it('a pod the ReplicaSet controller creates is PodsCreated of its owner', () => {
    const r = read(
      line({
        t: '2026-01-01T00:06:11Z',
        verb: 'create',
        user: 'system:serviceaccount:kube-system:replicaset-controller',
        ref: { resource: 'pods', namespace: 'd' },
        body: { metadata: { name: 'web-x', generateName: 'web-', ownerReferences: [{ kind: 'ReplicaSet', name: 'web' }] } },
      }),
    );
    assert.deepEqual(
      r.decisions.map((d) => `${d.action} ${d.object} ${d.detail}`),
      ['PodsCreated ReplicaSet/d/web web-x'],
    );
  });
  it('a user setting replicas is a scale event', () => {
    const r = read(
      line({
        t: '2026-01-01T00:02:00Z',
        verb: 'patch',
        user: 'alice',
        ref: { resource: 'replicasets', namespace: 'd', name: 'web', subresource: 'scale' },
        body: { spec: { replicas: 8 } },
      }),
    );
    assert.deepEqual(
      r.observations.filter((o) => o.kind === 'scale').map((o) => o.kind === 'scale' && `${o.replicaSet} ${o.replicas}`),
      ['ReplicaSet/d/web 8'],
    );
  });
  it("a change of the controller manager's Lease holder is a restart", () => {
    const kcm = (t: string, holder: string) =>
      line({
        t,
        verb: 'update',
        user: 'system:kube-controller-manager',
        ref: { resource: 'leases', namespace: 'kube-system', name: 'kube-controller-manager' },
        body: { spec: { holderIdentity: holder } },
      });
    const r = read(kcm('2026-01-01T00:00:00Z', 'cp-1_a'), kcm('2026-01-01T00:00:02Z', 'cp-1_a'), kcm('2026-01-01T00:05:00Z', 'cp-2_b'));
    assert.deepEqual(
      r.observations.filter((o) => o.kind === 'restart').map((o) => o.kind === 'restart' && `${formatTime(o.time)} ${o.identity}`),
      ['2026-01-01T00:05:00.000Z cp-2_b'],
    );
  });
  it('node controller writes at Metadata level are counted: what they changed is unknown', () => {
    const r = read(line({ t: '2026-01-01T00:01:05Z', verb: 'patch', user: nc, level: 'Metadata', ref: { resource: 'nodes', name: 'n1' } }));
    assert.deepEqual(r.decisions, []);
    assert.ok(r.problems.some((p) => p.code === 'metadata-level'));
  });
});

describe('audit log: bad input', () => {
  it('RequestReceived records are skipped; only ResponseComplete counts', () => {
    const r = read(
      line({ t: '2026-01-01T00:06:10Z', stage: 'RequestReceived', verb: 'delete', user: nc, ref: { resource: 'pods', namespace: 'd', name: 'p1' } }),
    );
    assert.deepEqual(r.decisions, []);
  });
  it('a broken line, another kind and a repeated auditID are positioned warnings; the rest imports', () => {
    const del = line({ t: '2026-01-01T00:06:10Z', id: 'same', verb: 'delete', user: nc, ref: { resource: 'pods', namespace: 'd', name: 'p1' } });
    const r = read(del, '{"kind":"Event","apiVersion":"audit.k8s.io/v1","stage":"Resp', '{"kind":"Pod","apiVersion":"v1"}', del);
    assert.deepEqual(
      r.decisions.map((d) => d.object),
      ['Pod/d/p1'],
    );
    assert.deepEqual(
      r.problems.filter((p) => p.severity === 'warning').map((p) => `${p.code} ${p.position?.line}:${p.position?.column}`),
      ['broken-line 2:1', 'unknown-kind 3:1', 'duplicate 4:1', 'no-heartbeats 1:1'],
    );
  });
});
