/** `kubectl describe node`: the Ready condition, the Lease, the Events table. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { importEvidence } from '../../../src/engine/import/index';
import { parseRfc1123z } from '../../../src/engine/import/describeText';
import { formatTime, parseTimestamp } from '../../../src/engine/model/time';

const at = parseTimestamp('2026-01-01T00:10:00Z')!;
const read = (text: string) => importEvidence([{ name: 'node.txt', chunks: [text] }], { anchor: at, anchorGiven: true });
const unknownNode = (renew: string) => `Name:               n1
Roles:              <none>
Lease:
  HolderIdentity:  n1
  RenewTime:       ${renew}
Conditions:
  Type             Status    LastHeartbeatTime                 LastTransitionTime                Reason              Message
  ----             ------    -----------------                 ------------------                ------              -------
  Ready            Unknown   Thu, 01 Jan 2026 01:00:20 +0100   Thu, 01 Jan 2026 01:01:05 +0100   NodeStatusUnknown   Kubelet stopped posting node status.
Events:
  Type    Reason        Age   From             Message
  ----    ------        ----  ----             -------
  Normal  NodeNotReady  8m    node-controller  Node n1 status is now: NodeNotReady
`;

describe('kubectl describe node', () => {
  const times: [string, string | undefined][] = [
    ['Tue, 19 Mar 2024 11:02:21 +0000', '2024-03-19T11:02:21.000Z'],
    ['Thu, 01 Jan 2026 01:00:20 +0100', '2026-01-01T00:00:20.000Z'],
    ['Mon, 18 Mar 2024 15:13:52 -0700', '2024-03-18T22:13:52.000Z'],
    ['<unset>', undefined],
  ];
  for (const [text, want] of times)
    it(`the time ${JSON.stringify(text)} is ${want ?? 'not a time'}`, () =>
      assert.equal(((t) => (t === undefined ? undefined : formatTime(t)))(parseRfc1123z(text)), want));

  it('Ready=Unknown set by the controller is NodeStatusUnknown at its transition; the later of the Lease renewal and the heartbeat is where the kubelet stopped', () => {
    const r = read(unknownNode('Thu, 01 Jan 2026 00:00:25 +0000'));
    assert.deepEqual(
      r.decisions.map((d) => `${formatTime(d.time)} ${d.action} ${d.object}`),
      ['2026-01-01T00:01:05.000Z NodeStatusUnknown Node/n1', '2026-01-01T00:02:00.000Z PodsMarkedNotReady Node/n1'],
    );
    assert.deepEqual(
      r.observations.filter((o) => o.kind === 'heartbeat').map((o) => o.kind === 'heartbeat' && `${formatTime(o.time)} ${o.via} ${o.mark}`),
      ['2026-01-01T00:00:25.000Z lease stop'],
    );
  });
  it("without a later Lease renewal, the condition's heartbeat is the last one", () => {
    const r = read(unknownNode('<unset>'));
    assert.deepEqual(
      r.observations.filter((o) => o.kind === 'heartbeat').map((o) => o.kind === 'heartbeat' && `${formatTime(o.time)} ${o.via}`),
      ['2026-01-01T00:00:20.000Z status'],
    );
  });
  it('describe pod is not read as a node (but as a pod: describePod.test.ts)', () => {
    const r = read('Name:         web-1\nNamespace:    default\nNode:         n1/10.0.0.1\n');
    assert.deepEqual(r.decisions, []);
    assert.ok(!r.observations.some((o) => o.kind === 'heartbeat' || o.kind === 'condition'));
    assert.deepEqual(
      r.inputs.map((i) => i.format),
      ['describe-pod'],
    );
  });
});
