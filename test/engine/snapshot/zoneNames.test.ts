/**
 * How a scenario names zones. An event's `zone:` is the zone label's value (spec 1.2, "Selectors"); an expectation's
 * is the zone's key, `REGION/ZONE` when the nodes have a region label (GetZoneKey, the trace's `Zone/KEY`). A user who
 * writes an expectation beside an event (`zone: us-east-1b` in both) means the same zone: the expectation takes the
 * label's value when exactly one zone has it, and what no zone is gets a warning that says which one was meant.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseScenario } from '../../../src/engine/snapshot/scenario';
import { MemoryFs } from '../../../src/engine/snapshot/source';
import { lintDocument } from '../../../src/engine/lint';
import { applyEdits } from '../lint/helpers';

const node = (name: string, labels: Record<string, string>) => `- apiVersion: v1
  kind: Node
  metadata: {name: ${name}, labels: ${JSON.stringify(labels)}}
  status:
    conditions:
    - {type: Ready, status: "True", lastHeartbeatTime: "2026-01-01T00:00:00Z", lastTransitionTime: "2025-12-01T00:00:00Z"}
    nodeInfo: {kubeletVersion: v1.12.1}
`;
const R = 'topology.kubernetes.io/region';
const Z = 'topology.kubernetes.io/zone';
/** r1 has two zones; two regions share the zone name "shared"; "solo" has no region; one node has no labels. */
const CLUSTER = `apiVersion: v1
kind: List
items:
${node('n1', { [R]: 'r1', [Z]: 'r1-a' })}${node('n2', { [R]: 'r1', [Z]: 'r1-b' })}${node('n3', { [R]: 'r2', [Z]: 'shared' })}${node('n4', { [R]: 'r3', [Z]: 'shared' })}${node('n5', { [Z]: 'solo' })}${node('n6', {})}`;

const HEAD = `apiVersion: controllerstepper.io/v1alpha1
kind: Scenario
kubernetesVersion: "1.31"
startTime: "2026-01-01T00:00:00Z"
snapshot: ./cluster.yaml
`;
/** a node applied at 1m in region r9, zone z9: its zone exists for the expectations too */
const APPLY = `events:
  - at: 1m
    apply: {apiVersion: v1, kind: Node, metadata: {name: n9, labels: {${R}: r9, ${Z}: z9}}}
`;
const fs = () => new MemoryFs({ '/ws/cluster.yaml': CLUSTER });
const parse = (text: string) => parseScenario(text, '/ws/scenario.yaml', fs());
const zoneProblems = (text: string) => parse(text).problems.filter((p) => p.code === 'unknown-zone');

const expectCases: { name: string; zone: string; want: string; warning?: RegExp }[] = [
  { name: 'the key as the trace writes it', zone: 'r1/r1-a', want: 'r1/r1-a' },
  { name: 'the key with Zone/', zone: 'Zone/r1/r1-b', want: 'Zone/r1/r1-b' },
  { name: 'the zone label of one zone, as an event writes it', zone: 'r1-a', want: 'r1/r1-a' },
  { name: 'the zone label with Zone/', zone: 'Zone/r1-b', want: 'Zone/r1/r1-b' },
  { name: 'a zone without a region', zone: 'solo', want: 'solo' },
  { name: 'a zone of a node an event applies, by its label', zone: 'z9', want: 'r9/z9' },
  {
    name: 'a zone label two regions have is not guessed',
    zone: 'shared',
    want: 'shared',
    warning: /zone "shared": zones of 2 regions have that zone label \(r2\/shared, r3\/shared\); write REGION\/ZONE$/,
  },
  { name: 'a typo of a zone label', zone: 'r1-aa', want: 'r1-aa', warning: /zone "r1-aa"; the expectation will fail \(did you mean r1-a\?\)$/ },
  { name: 'a typo of a key', zone: 'r1/r1-bb', want: 'r1/r1-bb', warning: /\(did you mean r1\/r1-b\?\)$/ },
  { name: 'a region of its own is no zone', zone: 'r1', want: 'r1', warning: /zone "r1"; the expectation will fail/ },
];

for (const c of expectCases) {
  test(`an expectation's zone: ${c.name}`, () => {
    const text = `${HEAD}${APPLY}expect:\n  - {at: 2m, zone: ${JSON.stringify(c.zone)}, state: Normal}\n`;
    const { scenario, problems } = parse(text);
    assert.equal(scenario.expect[0].zone, c.want);
    const warnings = problems.filter((p) => p.code === 'unknown-zone');
    if (!c.warning) assert.deepEqual(warnings, []);
    else {
      assert.equal(warnings.length, 1, JSON.stringify(problems.map((p) => p.message)));
      assert.equal(warnings[0].severity, 'warning');
      assert.match(warnings[0].message, c.warning);
      assert.equal(warnings[0].position?.line, 10);
    }
  });
}

test('a zone applied by an event is known only with the event (an expectation alone does not make it)', () => {
  const [w] = zoneProblems(`${HEAD}expect:\n  - {at: 2m, zone: z9, state: Normal}\n`);
  assert.match(w.message, /zone "z9"; the expectation will fail/);
});

test("an event's zone written as a key names the zone label it meant", () => {
  const [w] = zoneProblems(`${HEAD}events:\n  - {at: 30s, kubelet: stop, zone: r1/r1-a}\n`);
  assert.match(w.message, /no node in the snapshot is in zone "r1\/r1-a" \(did you mean r1-a\?\)$/);
});

test("the quick fix of an expectation's zone writes the whole key, region and all", () => {
  const text = `${HEAD}expect:\n  - {at: 2m, zone: r1/r1-bb, state: Normal}\n`;
  const p = lintDocument('/ws/scenario.yaml', text, undefined, fs()).find((x) => x.code === 'unknown-zone');
  assert.ok(p?.fixes?.length, 'a quick fix is offered');
  const fixed = applyEdits(text, p.fixes![0].edits);
  assert.match(fixed, /zone: r1\/r1-b, state/);
  assert.deepEqual(zoneProblems(fixed), []);
});

test("a decision expectation's Zone/ object is read as a zone: target is, by key or by its one zone label", () => {
  const expect = (object: string) => parse(`${HEAD}expect:\n  - {at: 2m, decision: {action: ZoneStateChanged, object: ${JSON.stringify(object)}, count: 1}}\n`);
  const byLabel = expect('Zone/r1-a');
  assert.equal(byLabel.scenario.expect[0].decision?.object, 'Zone/r1/r1-a');
  assert.deepEqual(
    byLabel.problems.filter((p) => p.code === 'unknown-zone'),
    [],
  );
  assert.equal(expect('Zone/r1/r1-b').scenario.expect[0].decision?.object, 'Zone/r1/r1-b');
  const [w] = expect('Zone/r1-aa').problems.filter((p) => p.code === 'unknown-zone');
  assert.match(w.message, /zone "Zone\/r1-aa"; the expectation will fail \(did you mean Zone\/r1-a\?\)$/);
});
