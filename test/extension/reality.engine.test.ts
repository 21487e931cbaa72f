/**
 * Evidence into the extension, over the real engine: real samples from
 * test/fixtures/real-evidence are imported as the Import Evidence command
 * does, the scenario text is opened as the untitled editor's is, and the
 * session lines the scenario's `reality:` up with the simulation for the
 * timeline's reality lane and the Why.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { importEvidenceFiles } from '../../src/extension/evidence';
import { openScenarioText } from '../../src/extension/openScenario';
import { Session } from '../../src/extension/session';
import { nodeFs, readChunks } from '../../src/platform/nodeFs';
import type { HostMessage, SelectionMessage, UpdateMessage } from '../../src/protocol/webview';

const samples = resolve(__dirname, '../fixtures/real-evidence');
const NOW = Date.parse('2026-12-02T00:00:00Z') * 1000;

function importAndOpen(paths: string[]) {
  const r = importEvidenceFiles(paths, { fs: nodeFs(), readChunks }, NOW);
  if (!r.ok) throw new Error(r.message);
  const o = openScenarioText(r.imported.text, r.imported.file);
  const sent: HostMessage[] = [];
  const session = new Session({ make: o.make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: (m) => sent.push(m) });
  const selection = (): Omit<SelectionMessage, 'type'> | undefined => {
    const last = sent.filter((m) => m.type === 'update' || m.type === 'selection').at(-1);
    return last?.type === 'update' ? (last as UpdateMessage).selection : (last as SelectionMessage | undefined);
  };
  return { imported: r.imported, session, sent, selection };
}

test('a real 1.14 log imports into a scenario whose problems carry file:line:column and whose text keeps its evidence comments', () => {
  const { imported } = importAndOpen([resolve(samples, 'kcm-1.14-k8s-worker3-unreachable.log')]);
  assert.match(imported.text, /# evidence: .*kcm-1\.14-k8s-worker3-unreachable\.log:1: I0516 19:33:12/);
  assert.match(imported.text, /^reality:$/m);
  assert.equal(imported.name, 'imported-kcm-1.14-k8s-worker3-unreachable');
  const cut = imported.problems.find((p) => p.code === 'cut-line');
  assert.deepEqual(cut?.position, { file: resolve(samples, 'kcm-1.14-k8s-worker3-unreachable.log'), line: 6, column: 1 });
});

test('the reality lane of the 1.14 log: two real decisions matched to their simulated ones, the NoExecute taint only real with the zone as the likely reason', () => {
  const { session } = importAndOpen([resolve(samples, 'kcm-1.14-k8s-worker3-unreachable.log')]);
  const lane = session.initMessage().reality;
  assert.ok(lane, 'the init message carries the lane');
  assert.equal(lane.tolerance, '5s');
  assert.deepEqual(
    lane.real.map((r) => `${r.index} ${r.action} ${r.detail ?? ''} ${r.status}`),
    [
      '0 TaintAdded node.kubernetes.io/unreachable:NoSchedule matched',
      '1 NodeQueuedForTainting  matched',
      '2 TaintAdded node.kubernetes.io/unreachable:NoExecute onlyReal',
    ],
  );
  for (const r of lane.real.filter((x) => x.status === 'matched')) {
    // the lane's run and the stepped run are the same deterministic run: the seq names the same decision
    const d = session.decision(r.seq!) ?? session.sim.runUntilDecision((x) => x.seq === r.seq, session.sim.now + 3_600_000_000);
    assert.equal(d?.action, r.action, `real ${r.index} is linked to a simulated ${r.action}`);
    assert.equal(d?.object, r.object);
  }
  assert.match(lane.real[2].reasons!.join(' '), /FullDisruption/);
  assert.deepEqual(lane.onlySimulated, []);
});

test('clicking a matched real mark goes to its time and selects the simulated decision, whose Why carries the real line', () => {
  const { session, selection } = importAndOpen([resolve(samples, 'kcm-1.14-k8s-worker3-unreachable.log')]);
  session.sendAll();
  const lane = session.initMessage().reality!;
  const r = session.handle({ type: 'selectReality', index: 0 }, { play() {}, pause() {} });
  assert.equal(r.ok, true, JSON.stringify(r));
  const sel = selection()!;
  assert.equal(sel.seq, lane.real[0].seq);
  assert.equal(sel.decision?.decision.action, 'TaintAdded');
  assert.ok(session.sim.now >= Date.parse(lane.real[0].at) * 1000 - 5_000_000, 'the position is at the decision');
  assert.equal(sel.reality?.status, 'matched');
  assert.match(sel.reality!.real!.evidence!, /kcm-1\.14-k8s-worker3-unreachable\.log:1: I0516 19:33:12\.204484/);
  // the same decision selected from the log (not from the lane) shows the same real decision
  session.selectObject('Node/k8s-worker3');
  session.selectDecision(lane.real[0].seq!);
  assert.equal(selection()!.reality?.real?.index, 0);
});

test('clicking an only-real mark goes to its time and the Why gives the likely reason; stepping back before it drops it', () => {
  const { session, selection } = importAndOpen([resolve(samples, 'kcm-1.14-k8s-worker3-unreachable.log')]);
  session.sendAll();
  const r = session.selectReality(2);
  assert.equal(r.ok, true, JSON.stringify(r));
  const sel = selection()!;
  assert.equal(sel.object, 'Node/k8s-worker3');
  assert.equal(sel.reality?.status, 'onlyReal');
  assert.match(sel.reality!.reasons.join(' '), /FullDisruption/);
  assert.match(sel.reality!.real!.evidence!, /log:4: /);
  const pass = session.sim.pass!;
  session.goToPass(Math.max(0, pass - 3));
  assert.equal(selection()!.reality, undefined, 'the real decision is after the position now');
});

test('an unknown reality index is refused', () => {
  const { session } = importAndOpen([resolve(samples, 'kcm-1.14-k8s-worker3-unreachable.log')]);
  assert.deepEqual(session.selectReality(9), { ok: false, message: 'No reality: entry 10 in this scenario.' });
});

test('the round trip of a real 1.28 node failure: every real decision in the lane is matched', () => {
  const { session } = importAndOpen([resolve(samples, 'kcm-1.28-node-down-taint-eviction.log')]);
  const lane = session.initMessage().reality!;
  assert.equal(lane.real.length, 4);
  assert.deepEqual(
    lane.real.map((r) => r.status),
    ['matched', 'matched', 'matched', 'matched'],
  );
  assert.deepEqual(lane.onlySimulated, []);
});

test('a scenario without reality: has no lane and no reality in its Why', () => {
  const o = openScenarioText(
    'apiVersion: controllerstepper.io/v1alpha1\nkind: Scenario\nmetadata: {name: plain}\nobjects:\n  - {apiVersion: v1, kind: Node, metadata: {name: n1}}\nevents: []\n',
    resolve(samples, 'plain.yaml'),
  );
  const session = new Session({ make: o.make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: () => {} });
  assert.equal(session.initMessage().reality, undefined);
  assert.equal(session.selectionMessage().reality, undefined);
});

test('a folder of evidence with nothing this tool reads is refused with a reason', () => {
  const r = importEvidenceFiles([resolve(samples, 'SOURCES.md')], { fs: nodeFs(), readChunks }, NOW);
  assert.equal(r.ok, false);
  assert.match((r as { message: string }).message, /none of SOURCES\.md is evidence this tool reads/);
});

test('one simulated PodsMarkedNotReady matched by each pod’s real Event shows every one of them in its Why', () => {
  const { session, selection } = importAndOpen([resolve(samples, 'kcm-1.28-node-down-taint-eviction.log')]);
  session.sendAll();
  const lane = session.initMessage().reality!;
  const [a, b] = lane.real.filter((r) => r.action === 'PodsMarkedNotReady');
  assert.equal(a.seq, b.seq, 'both pods’ entries matched the one decision');
  session.selectReality(a.index);
  const why = selection()!.reality!;
  assert.equal(why.real?.object, 'Pod/supcon/ice1-1');
  assert.deepEqual(
    why.alsoMatched?.map((r) => r.object),
    ['Pod/supcon/datacenter-dc-0'],
  );
  // the decision selected from the log: both real entries, the first as its real decision
  session.selectObject('Node/unnamed-node-1');
  session.selectDecision(a.seq!);
  const again = selection()!.reality!;
  assert.deepEqual([again.real?.object, ...(again.alsoMatched ?? []).map((r) => r.object)], ['Pod/supcon/ice1-1', 'Pod/supcon/datacenter-dc-0']);
});
