/**
 * KWOK recordings, current (action.kwok.x-k8s.io/v1alpha1) and older
 * (kwok.x-k8s.io/internal), plain or gzipped. No real recording is public
 * (test/fixtures/constructed-evidence/SOURCES.md says where we looked): the
 * samples are built with the documented format and marked as constructed.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { importEvidence } from '../../../src/engine/import/index';
import { applyPatch, revertTimeOffsets } from '../../../src/engine/import/kwokRecording';
import { inferScenario } from '../../../src/engine/import/infer';
import { formatTime, parseTimestamp } from '../../../src/engine/model/time';
import { readChunks } from '../../../src/platform/nodeFs';

const dir = new URL('../../fixtures/constructed-evidence', import.meta.url).pathname;
const at = parseTimestamp('2026-06-17T13:00:00Z')!;
const file = (f: string, anchorGiven = true) => importEvidence([{ name: f, chunks: readChunks(join(dir, f)) }], { anchor: at, anchorGiven });
const text = (t: string, anchorGiven = true) => importEvidence([{ name: 'rec.yaml', chunks: [t] }], { anchor: at, anchorGiven });
const list = (r: ReturnType<typeof text>) => r.decisions.map((d) => `${formatTime(d.time).slice(11)} ${d.action} ${d.object}${d.detail ? ` ${d.detail}` : ''}`);
const patch = (ns: number, method: string, resource: string, name: string, template = '') =>
  `apiVersion: action.kwok.x-k8s.io/v1alpha1\ndurationNanosecond: ${ns}\nkind: ResourcePatch\nmethod: ${method}\nresource:\n  resource: ${resource}\n  version: v1\ntarget:\n  name: ${name}\n${template ? `template:\n${template.replace(/^/gm, '  ')}\n` : ''}`;
const NODE = 'apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\nstatus:\n  conditions:\n  - status: "True"\n    type: Ready\n';

describe('KWOK recordings', () => {
  const patches: [name: string, target: object, patch: object, want: object][] = [
    ['maps merge, null removes a key', { a: { b: 1, c: 2 }, d: 1 }, { a: { c: null, e: 3 } }, { a: { b: 1, e: 3 }, d: 1 }],
    [
      'conditions merge by type; directives are dropped',
      {
        status: {
          conditions: [
            { type: 'Ready', status: 'True' },
            { type: 'DiskPressure', status: 'False' },
          ],
        },
      },
      { status: { '$setElementOrder/conditions': [{ type: 'Ready' }], conditions: [{ type: 'Ready', status: 'Unknown' }] } },
      {
        status: {
          conditions: [
            { type: 'Ready', status: 'Unknown' },
            { type: 'DiskPressure', status: 'False' },
          ],
        },
      },
    ],
    [
      '$patch: delete removes a merged element',
      { status: { conditions: [{ type: 'A' }, { type: 'B' }] } },
      { status: { conditions: [{ type: 'A', $patch: 'delete' }] } },
      { status: { conditions: [{ type: 'B' }] } },
    ],
    [
      'taints (no merge key) are replaced whole',
      { spec: { taints: [{ key: 'a', effect: 'NoSchedule' }] } },
      { spec: { taints: [{ key: 'b', effect: 'NoExecute' }] } },
      { spec: { taints: [{ key: 'b', effect: 'NoExecute' }] } },
    ],
    ['taints: null removes them', { spec: { taints: [{ key: 'a' }] } }, { spec: { taints: null } }, { spec: {} }],
  ];
  for (const [name, target, p, want] of patches) it(`strategic merge: ${name}`, () => assert.deepEqual(applyPatch(target as never, p as never), want));

  it('$(time-offset-nanosecond N) is N ns after the start, negative too', () => {
    assert.equal(
      revertTimeOffsets('t: $(time-offset-nanosecond 1500000000), u: $(time-offset-nanosecond -60000000000)', at),
      't: 2026-06-17T13:00:01.500Z, u: 2026-06-17T12:59:00.000Z',
    );
  });

  it('v1alpha1, gzipped: the kubelet stops, Ready Unknown, the taints, the pod marked and evicted, its replacement; the objects as recorded', () => {
    const r = file('kwok-record-v1alpha1-node1-unreachable.yaml.gz');
    assert.deepEqual(list(r), [
      '13:01:03.100Z NodeStatusUnknown Node/node1',
      '13:01:03.200Z TaintAdded Node/node1 node.kubernetes.io/unreachable:NoSchedule',
      '13:01:03.300Z PodsMarkedNotReady Pod/default/web-7d4b9c8f6-fghij',
      '13:01:08.200Z TaintAdded Node/node1 node.kubernetes.io/unreachable:NoExecute',
      '13:06:08.300Z PodEvicted Pod/default/web-7d4b9c8f6-fghij',
      '13:06:08.400Z PodsCreated ReplicaSet/default/web-7d4b9c8f6 web-7d4b9c8f6-klmno',
    ]);
    assert.deepEqual(
      r.observations
        .filter((o) => o.kind === 'heartbeat' && o.mark === 'stop')
        .map((o) => o.kind === 'heartbeat' && `${o.node} ${formatTime(o.time).slice(11)} ${o.via}`),
      ['node1 13:00:18.300Z lease'],
    );
    assert.deepEqual(
      r.inputs.map((i) => i.format),
      ['kwok-recording'],
    );
    assert.deepEqual(r.problems, []);
    const plan = inferScenario(r, { anchor: at, anchorGiven: true, version: '1.31' });
    assert.deepEqual(
      plan.objects.map((o) => `${o.kind}/${(o.metadata as { name: string }).name}`).filter((k) => !k.startsWith('Lease')),
      ['Node/node0', 'Node/node1', 'Pod/web-7d4b9c8f6-abcde', 'Pod/web-7d4b9c8f6-fghij', 'ReplicaSet/web-7d4b9c8f6'],
    );
    assert.equal(formatTime(plan.events[0].at).slice(11), '13:00:18.301Z');
  });

  it("the older kwok.x-k8s.io/internal format: a user's NoExecute taint, and the pod deleted under it is an eviction", () => {
    const r = file('kwok-record-internal-user-taint.yaml');
    assert.deepEqual(list(r), ['13:00:30.500Z PodEvicted Pod/default/web-7d4b9c8f6-abcde']);
    assert.deepEqual(
      r.observations.filter((o) => o.kind === 'taint').map((o) => o.kind === 'taint' && `${o.node} ${o.key}=${o.value}:${o.effect}`),
      ['node0 maintenance=now:NoExecute'],
    );
  });

  it("the start is --at; without it, the import's clock with a warning", () => {
    const r = text(`${NODE}---\n${patch(1_000_000_000, 'delete', 'nodes', 'n1')}`, false);
    assert.deepEqual(
      r.problems.map((p) => p.code),
      ['anchor-assumed'],
    );
    assert.deepEqual(
      r.observations.filter((o) => o.kind === 'delete').map((o) => o.kind === 'delete' && formatTime(o.time)),
      ['2026-06-17T13:00:01.000Z'],
    );
  });

  const bad: [name: string, doc: string, want: string][] = [
    ['a method that is not create, patch or delete', patch(1, 'replace', 'nodes', 'n1'), 'bad-patch 10'],
    ['no durationNanosecond', patch(1, 'patch', 'nodes', 'n1').replace('durationNanosecond: 1\n', ''), 'bad-patch 10'],
    ['no target name', patch(1, 'patch', 'nodes', ''), 'bad-patch 10'],
    ['not YAML', 'kind: ResourcePatch\nmethod: [patch\n', 'yaml-syntax 11'],
    ['neither an object nor a ResourcePatch', 'just: text\n', 'unknown-kind 10'],
  ];
  for (const [name, doc, want] of bad) {
    it(`${name}: a positioned warning, and the rest still imports`, () => {
      const r = text(`${NODE}---\n${doc}---\n${patch(2_000_000_000, 'patch', 'nodes', 'n1', 'status:\n  conditions:\n  - status: Unknown\n    type: Ready')}`);
      assert.deepEqual(
        r.problems.map((p) => `${p.code} ${p.position?.line}`),
        [want],
      );
      // a line in the message would be the document's, not the file's: only the position says where
      assert.doesNotMatch(r.problems[0].message, /at line \d/);
      assert.deepEqual(list(r), ['13:00:02.000Z NodeStatusUnknown Node/n1']);
    });
  }

  it('a change earlier than the one before it is applied in order, with a warning', () => {
    const r = text(
      `${NODE}---\n${patch(5_000_000_000, 'patch', 'nodes', 'n1', 'metadata:\n  labels:\n    a: b')}---\n${patch(2_000_000_000, 'patch', 'nodes', 'n1', 'status:\n  conditions:\n  - status: Unknown\n    type: Ready')}`,
    );
    assert.deepEqual(
      r.problems.map((p) => p.code),
      ['out-of-order'],
    );
  });

  it('a recording whose snapshot part is thousands of lines long is still recognised', () => {
    const many = Array.from({ length: 400 }, (_, i) => NODE.replace('name: n1', `name: n${i + 2}`)).join('---\n');
    const r = text(`${many}---\n${NODE}---\n${patch(2_000_000_000, 'patch', 'nodes', 'n1', 'status:\n  conditions:\n  - status: Unknown\n    type: Ready')}`);
    assert.deepEqual(
      r.inputs.map((i) => i.format),
      ['kwok-recording'],
    );
    assert.deepEqual(list(r), ['13:00:02.000Z NodeStatusUnknown Node/n1']);
  });
});
