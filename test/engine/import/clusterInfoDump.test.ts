/**
 * `kubectl cluster-info dump` to stdout: the EventLists are read as events,
 * the kube-controller-manager container's log as its log, other containers'
 * logs are left alone, and `import` takes the dump as the snapshot too.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importEvidence } from '../../../src/engine/import/index';
import { formatTime, parseTimestamp } from '../../../src/engine/model/time';
import { runCli } from '../../helpers/cliRun';

const list = (kind: string, items: unknown[]) => JSON.stringify({ kind, apiVersion: 'v1', metadata: { resourceVersion: '1' }, items }, null, 4);
const node = {
  metadata: { name: 'n1' },
  status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2026-01-01T00:00:00Z', lastTransitionTime: '2025-12-01T00:00:00Z' }] },
};
const dump =
  [
    list('NodeList', [node]),
    list('EventList', [
      {
        involvedObject: { kind: 'Node', name: 'n1' },
        reason: 'RegisteredNode',
        message: 'Node n1 event: Registered Node n1 in Controller',
        source: { component: 'node-controller' },
        firstTimestamp: '2026-01-01T00:00:01Z',
        count: 1,
      },
    ]),
    list('PodList', []),
    '==== START logs for container kube-controller-manager of pod kube-system/kube-controller-manager-cp ====',
    'I0101 00:00:02.000000       1 node_lifecycle_controller.go:1067] "Controller detected that zone is now in new state" zone="" newState="Normal"',
    '==== END logs for container kube-controller-manager of pod kube-system/kube-controller-manager-cp ====',
    '==== START logs for container coredns of pod kube-system/coredns-1 ====',
    'I0101 00:00:03.000000       1 taint_manager.go:106] NoExecuteTaintManager is deleting Pod: default/not-from-kcm',
    '==== END logs for container coredns of pod kube-system/coredns-1 ====',
  ].join('\n') + '\n';

describe('kubectl cluster-info dump to stdout', () => {
  it("its EventLists and the controller manager's log are read; other containers' logs are not", () => {
    const r = importEvidence([{ name: 'dump.txt', chunks: [dump] }], { anchor: parseTimestamp('2026-01-02T00:00:00Z'), anchorGiven: true });
    assert.deepEqual(
      r.inputs.map((i) => i.format),
      ['cluster-info-dump'],
    );
    assert.deepEqual(
      r.decisions.map((d) => `${formatTime(d.time)} ${d.action} ${d.object}`),
      ['2026-01-01T00:00:01.000Z NodeRegistered Node/n1', '2026-01-01T00:00:02.000Z ZoneStateChanged Zone/'],
    );
    assert.deepEqual(
      r.problems.filter((p) => p.severity !== 'info'),
      [],
    );
  });
  it('import takes the dump as the snapshot as well', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cs-dump-')), 'dump.txt');
    writeFileSync(file, dump);
    const r = await runCli('import', file, '--at', '2026-01-02T00:00:00Z', '--version', '1.31');
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, new RegExp(`snapshot: "${file}"`));
    assert.doesNotMatch(r.out, /\nobjects:/);
  });
});
