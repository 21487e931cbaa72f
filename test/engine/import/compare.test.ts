/**
 * compare: units, matching within the tolerance, what is not compared, and
 * the likely reasons given for a difference.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compareDecisions, normaliseTaint } from '../../../src/engine/import/compare';
import type { Decision } from '../../../src/engine/trace/decision';
import type { RealityEntry } from '../../../src/engine/import/reality';
import { parseTimestamp, seconds } from '../../../src/engine/model/time';

const T = (s: string) => parseTimestamp(`2026-01-01T00:${s}Z`)!;
let seq = 0;
const dec = (
  time: string,
  controller: Decision['controller'],
  action: Decision['action'],
  object: string,
  summary = '',
  details?: Record<string, unknown>,
): Decision => ({
  seq: ++seq,
  time: `2026-01-01T00:${time}Z`,
  pass: null,
  controller,
  action,
  object,
  summary,
  because: [{ rule: `why ${action}` }],
  causes: [],
  machine: null,
  source: 's',
  ...(details ? { details } : {}),
});
const real = (time: string, action: string, object: string, detail?: string): RealityEntry => ({
  at: T(time),
  action: action as RealityEntry['action'],
  object,
  detail,
  index: 0,
  evidence: `log:${time}`,
});
const ctx = { version: '1.31', hasObject: () => true, versionHas: () => true };
const run = (trace: Decision[], reality: RealityEntry[], tol = seconds(5)) => compareDecisions(trace, reality, tol, ctx, T('00:00.000'));

describe('compare', () => {
  it('the same action on the same object within the tolerance matches', () => {
    const r = run([dec('01:05.000', 'node-lifecycle', 'NodeStatusUnknown', 'Node/n1')], [real('01:08.000', 'NodeStatusUnknown', 'Node/n1')]);
    assert.equal(r.matched.length, 1);
    assert.equal(r.matched[0].delta, -seconds(3));
    assert.equal(r.agree, true);
  });
  it('beyond the tolerance it is one only real and one only simulated, each naming the other', () => {
    const r = run([dec('01:05.000', 'node-lifecycle', 'NodeStatusUnknown', 'Node/n1')], [real('01:15.000', 'NodeStatusUnknown', 'Node/n1')]);
    assert.equal(r.agree, false);
    assert.match(r.onlyReal[0].reasons[0], /simulated 10s earlier/);
    assert.match(r.onlySimulated[0].reasons[0], /nearest real one is 10s away/);
  });
  it('a taint matches by key and effect; a value in the simulated one is ignored, as logs omit it', () => {
    assert.equal(normaliseTaint('k=v:NoExecute'), 'k:NoExecute');
    const r = run(
      [dec('01:10.000', 'node-lifecycle', 'TaintAdded', 'Node/n1', 'Added taint k=v:NoExecute')],
      [real('01:10.000', 'TaintAdded', 'Node/n1', 'k:NoExecute')],
    );
    assert.equal(r.matched.length, 1);
  });
  it('a taint of another effect does not match', () => {
    const r = run(
      [dec('01:10.000', 'node-lifecycle', 'TaintAdded', 'Node/n1', 'Added taint k:NoSchedule')],
      [real('01:10.000', 'TaintAdded', 'Node/n1', 'k:NoExecute')],
    );
    assert.equal(r.matched.length, 0);
  });
  it('kinds of decision the evidence never shows are not compared, only counted', () => {
    const r = run(
      [dec('00:00.000', 'node-lifecycle', 'NodeRegistered', 'Node/n1'), dec('01:05.000', 'node-lifecycle', 'NodeStatusUnknown', 'Node/n1')],
      [real('01:05.000', 'NodeStatusUnknown', 'Node/n1')],
    );
    assert.deepEqual(r.notCompared, { NodeRegistered: 1 });
    assert.equal(r.agree, true);
  });
  it('simulated decisions after the evidence ends are counted, not differences', () => {
    const r = run(
      [dec('01:05.000', 'taint-eviction', 'PodEvicted', 'Pod/d/a'), dec('09:00.000', 'taint-eviction', 'PodEvicted', 'Pod/d/b')],
      [real('01:05.000', 'PodEvicted', 'Pod/d/a')],
    );
    assert.equal(r.afterEvidence, 1);
    assert.equal(r.agree, true);
  });
  it('PodsMarkedNotReady is compared per pod when the evidence names pods', () => {
    const r = run(
      [dec('01:05.000', 'node-lifecycle', 'PodsMarkedNotReady', 'Node/n1', '', { pods: ['d/a', 'd/b'] })],
      [real('01:05.000', 'PodsMarkedNotReady', 'Pod/d/a')],
    );
    assert.equal(r.matched.length, 1);
    assert.deepEqual(
      r.onlySimulated.map((o) => o.sim.object),
      ['Pod/d/b'],
    );
    assert.deepEqual(r.notCompared, { 'PodsMarkedNotReady on Node': 1 }, "the node's own record is not compared, and said to be the node's");
  });
  it('pods created are compared by count: three simulated against two real leaves one', () => {
    const r = run(
      [dec('00:10.000', 'replicaset', 'PodsCreated', 'ReplicaSet/d/web', '', { pods: ['web-1', 'web-2', 'web-3'] })],
      [real('00:10.000', 'PodsCreated', 'ReplicaSet/d/web', 'web-x'), real('00:10.500', 'PodsCreated', 'ReplicaSet/d/web', 'web-y')],
    );
    assert.equal(r.matched.length, 2);
    assert.equal(r.onlySimulated.length, 1);
  });
  it('each simulated decision matches one real one only, the nearest', () => {
    const r = run(
      [dec('01:05.000', 'taint-eviction', 'PodEvicted', 'Pod/d/a')],
      [real('01:04.000', 'PodEvicted', 'Pod/d/a'), real('01:05.500', 'PodEvicted', 'Pod/d/a')],
    );
    assert.equal(r.matched.length, 1);
    assert.equal(r.matched[0].real.time, T('01:05.500'));
    assert.equal(r.onlyReal.length, 1);
  });
  it('a real decision on an object the simulated cluster lacks names the missing evidence', () => {
    const r = compareDecisions([], [real('01:05.000', 'PodEvicted', 'Pod/d/ghost')], seconds(5), { ...ctx, hasObject: () => false }, T('00:00.000'));
    assert.match(r.onlyReal[0].reasons.join(' '), /evidence missing: Pod\/d\/ghost is not in the simulated cluster/);
  });
  it('a decision the simulated version cannot take names the version difference', () => {
    const r = compareDecisions(
      [],
      [{ ...real('01:05.000', 'PodEvicted', 'Pod/d/a'), controller: 'node-lifecycle' }],
      seconds(5),
      { ...ctx, versionHas: () => false },
      T('00:00.000'),
    );
    assert.match(r.onlyReal[0].reasons.join(' '), /a version difference: Kubernetes 1.31/);
  });
  it('a taint the simulation held back in a disrupted zone says so', () => {
    const trace = [
      dec('01:05.000', 'node-lifecycle', 'ZoneStateChanged', 'Zone/a', 'Zone Zone/a is now FullDisruption (was Normal)'),
      dec('01:05.000', 'node-lifecycle', 'TaintAdded', 'Node/n1', 'Added taint k:NoSchedule'),
    ];
    const r = run(trace, [
      real('01:05.000', 'TaintAdded', 'Node/n1', 'k:NoSchedule'),
      real('01:10.000', 'TaintAdded', 'Node/n1', 'node.kubernetes.io/unreachable:NoExecute'),
    ]);
    assert.match(r.onlyReal[0].reasons.join(' '), /Zone\/a was in FullDisruption/);
  });
  it('the zone of nodes without a zone label is named as such, not as "Zone/"', () => {
    const trace = [dec('01:05.000', 'node-lifecycle', 'ZoneStateChanged', 'Zone/', 'Zone Zone/ is now FullDisruption (was Normal)')];
    const r = run(trace, [real('01:10.000', 'TaintAdded', 'Node/n1', 'node.kubernetes.io/unreachable:NoExecute')]);
    assert.match(r.onlyReal[0].reasons.join(' '), /the simulated zone of the nodes without a zone label was in FullDisruption/);
  });
  // a kubectl get events table names pods without their node: the simulated pods have nowhere to run
  const placed: [name: string, trace: Decision[], action: string, says: RegExp][] = [
    [
      'a pod the simulation never placed: the missing node is named',
      [dec('00:01.000', 'scheduler', 'PodUnschedulable', 'Pod/d/a')],
      'PodEvicted',
      /evidence missing: the evidence does not say which node Pod\/d\/a ran on, and the simulated pod was never on one/,
    ],
    [
      'a pod placed after a first miss: the generic reason',
      [dec('00:01.000', 'scheduler', 'PodUnschedulable', 'Pod/d/a'), dec('00:02.000', 'scheduler', 'PodBound', 'Pod/d/a')],
      'PodEvicted',
      /^the simulation took other decisions about this object/,
    ],
    [
      'an action that does not follow from a node: the generic reason',
      [dec('00:01.000', 'scheduler', 'PodUnschedulable', 'Pod/d/a')],
      'PodsDeleted',
      /^the simulation took other decisions about this object/,
    ],
  ];
  for (const [name, trace, action, says] of placed) {
    it(name, () => {
      const r = run(trace, [real('01:05.000', action, 'Pod/d/a')]);
      assert.match(r.onlyReal[0].reasons.join(' '), says);
    });
  }
  it('a node registered again: a controller-manager restart the timeline lacks is named', () => {
    const r = run(
      [dec('00:01.000', 'node-lifecycle', 'NodeRegistered', 'Node/n1')],
      [real('00:01.000', 'NodeRegistered', 'Node/n1'), real('05:00.000', 'NodeRegistered', 'Node/n1')],
    );
    assert.equal(r.matched.length, 1);
    assert.match(r.onlyReal[0].reasons.join(' '), /registered Node\/n1 again: a kube-controller-manager that restarts .*`restartControllerManager: true`/);
  });
});
