/**
 * Leases an export leaves out (spec 1.4): a snapshot file without any Lease, at a version that
 * heartbeats with Leases, takes its Ready nodes as renewed at the start time; inline objects and
 * `missingLeases: absent` read a missing Lease as missing. Through the public entry points: the
 * scenario loader over files and the simulation.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadScenario, parseScenario } from '../../../src/engine/snapshot/scenario';
import { MemoryFs } from '../../../src/engine/snapshot/source';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { parseTimestamp } from '../../../src/engine/model/time';
import { lintDocument } from '../../../src/engine/lint';
import { missingLeasesText } from '../../../src/extension/session';

const START = '2026-01-01T00:10:00Z';
const THREE_MIN_AGO = '2026-01-01T00:07:00Z';

function nodeYaml(name: string, ready: string, heartbeat: string, kubelet = 'v1.31.4'): string {
  return `- apiVersion: v1
  kind: Node
  metadata: {name: ${name}, creationTimestamp: "2025-12-01T00:00:00Z"}
  status:
    conditions:
    - {type: Ready, status: "${ready}", lastHeartbeatTime: "${heartbeat}", lastTransitionTime: "2025-12-01T00:00:00Z"}
    nodeInfo: {kubeletVersion: ${kubelet}}
`;
}

/**
 * `fresh` posted at the start time; `ok` is Ready with a heartbeat 3 minutes old (as a 1.14+
 * kubelet leaves it between its 5-minute reports); `down` is Unknown in the export;
 * `notready` is NotReady with a heartbeat 3 minutes old.
 */
const NODES =
  nodeYaml('fresh', 'True', START) +
  nodeYaml('ok', 'True', THREE_MIN_AGO) +
  nodeYaml('down', 'Unknown', THREE_MIN_AGO) +
  nodeYaml('notready', 'False', THREE_MIN_AGO);
const LEASE_FOR_FRESH = `- apiVersion: coordination.k8s.io/v1
  kind: Lease
  metadata: {name: fresh, namespace: kube-node-lease}
  spec: {holderIdentity: fresh, leaseDurationSeconds: 40, renewTime: "${START}"}
`;
const CLUSTER = `apiVersion: v1\nkind: List\nitems:\n${NODES}`;

function scenarioText(extra: string, snapshot = 'snapshot: cluster.yaml\n'): string {
  return `apiVersion: controllerstepper.io/v1alpha1\nkind: Scenario\nkubernetesVersion: "1.31"\n${extra}${snapshot}`;
}

function inline(objects: string): string {
  return `objects:\n${objects.replace(/^/gm, '  ').trimEnd()}\n`;
}

interface Case {
  name: string;
  files: Record<string, string>;
  open: string;
  /** nodes with an AssumptionMade decision for their Lease, in trace order */
  assumed: string[];
  /** nodes whose Ready is Unknown after 10 minutes */
  unknownAt10m: string[];
}

const cases: Case[] = [
  {
    name: 'a plain export without Leases at 1.31 takes its Ready nodes as renewed at the start, and only the node the export shows Unknown (and the NotReady one, whose kubelet is not assumed) is Unknown 10 minutes later',
    files: { '/w/cluster.yaml': CLUSTER },
    open: '/w/cluster.yaml',
    assumed: ['fresh', 'ok'],
    unknownAt10m: ['down', 'notready'],
  },
  {
    name: 'a scenario whose snapshot: is a file makes the same assumption by default',
    files: { '/w/cluster.yaml': CLUSTER, '/w/s.yaml': scenarioText('') },
    open: '/w/s.yaml',
    assumed: ['fresh', 'ok'],
    unknownAt10m: ['down', 'notready'],
  },
  {
    name: 'missingLeases: absent reads the missing Leases as missing: the 3-minute-old heartbeat is stale',
    files: { '/w/cluster.yaml': CLUSTER, '/w/s.yaml': scenarioText('missingLeases: absent\n') },
    open: '/w/s.yaml',
    assumed: [],
    unknownAt10m: ['down', 'notready', 'ok'],
  },
  {
    name: 'inline objects: a missing Lease is a missing Lease by default',
    files: { '/w/s.yaml': scenarioText(`startTime: "${START}"\n`, inline(NODES)) },
    open: '/w/s.yaml',
    assumed: [],
    unknownAt10m: ['down', 'notready', 'ok'],
  },
  {
    name: 'inline objects with missingLeases: assumed take the Ready nodes as renewed',
    files: { '/w/s.yaml': scenarioText(`startTime: "${START}"\nmissingLeases: assumed\n`, inline(NODES)) },
    open: '/w/s.yaml',
    assumed: ['fresh', 'ok'],
    unknownAt10m: ['down', 'notready'],
  },
  {
    name: 'an export that holds some Lease is taken as holding all there are: nothing is assumed',
    files: { '/w/cluster.yaml': `${CLUSTER}${LEASE_FOR_FRESH}` },
    open: '/w/cluster.yaml',
    assumed: [],
    unknownAt10m: ['down', 'notready', 'ok'],
  },
  {
    name: 'a version without Lease heartbeats (1.12) assumes nothing: a 3-minute-old heartbeat is stale there',
    files: { '/w/cluster.yaml': CLUSTER, '/w/s.yaml': scenarioText('').replace('"1.31"', '"1.12"') },
    open: '/w/s.yaml',
    assumed: [],
    unknownAt10m: ['down', 'notready', 'ok'],
  },
];

const TEN_MINUTES = 10 * 60 * 1_000_000;

describe('missingLeases', () => {
  for (const c of cases) {
    it(c.name, () => {
      const scenario = loadScenario(c.open, new MemoryFs(c.files));
      assert.deepEqual(
        scenario.problems.filter((p) => p.severity === 'error'),
        [],
      );
      const sim = createSimulation(scenario);
      assert.equal(sim.startTime, parseTimestamp(START));
      const assumptions = sim.trace.filter((d) => d.action === 'AssumptionMade' && d.object.startsWith('Node/'));
      assert.deepEqual(
        assumptions.map((d) => d.object),
        c.assumed.map((n) => `Node/${n}`),
      );
      // the first decisions, before the controllers' own assumption and pass 0
      assumptions.forEach((d, i) => {
        assert.equal(d.seq, i + 1);
        assert.equal(d.pass, null);
      });
      for (const n of c.assumed) assert.equal(sim.cluster.leases.get(n)?.renewTime, sim.startTime, `Lease of ${n} renewed at the start`);
      sim.runUntil(sim.startTime + TEN_MINUTES);
      const unknown = [...sim.cluster.nodes.values()]
        .filter((n) => n.conditions.find((x) => x.type === 'Ready')?.status === 'Unknown')
        .map((n) => n.meta.name)
        .sort();
      assert.deepEqual(unknown, c.unknownAt10m);
    });
  }

  it('explain shows the assumption among what happened to the node, and the controller read the assumed Lease', () => {
    const sim = createSimulation(loadScenario('/w/cluster.yaml', new MemoryFs({ '/w/cluster.yaml': CLUSTER })));
    sim.runUntil(sim.startTime + TEN_MINUTES);
    const e = sim.explain('Node/ok');
    const first = e.happened[0].decision;
    assert.equal(first.action, 'AssumptionMade');
    assert.match(first.summary, /Lease taken as renewed at the start time/);
    assert.deepEqual(first.because.map((b) => b.values?.missingLeases ?? b.values?.Ready).filter(Boolean), ['assumed', 'True']);
    const registered = e.happened.find((h) => h.decision.action === 'NodeRegistered')!.decision;
    assert.equal(registered.because[0].values?.from, 'Lease renewTime');
  });

  it('stepping back restores the assumed Leases, and running forward again decides the same', () => {
    const sim = createSimulation(loadScenario('/w/cluster.yaml', new MemoryFs({ '/w/cluster.yaml': CLUSTER })));
    const end = sim.startTime + TEN_MINUTES;
    sim.runUntil(end);
    const trace = JSON.stringify(sim.trace);
    const state = JSON.stringify(sim.state());
    sim.goToPass(0);
    assert.equal(sim.cluster.leases.get('ok')?.renewTime, sim.startTime);
    sim.runUntil(end);
    assert.equal(JSON.stringify(sim.trace), trace);
    assert.equal(JSON.stringify(sim.state()), state);
  });

  it('the panel shows the per-node assumptions as one line that names the nodes', () => {
    const sim = createSimulation(loadScenario('/w/cluster.yaml', new MemoryFs({ '/w/cluster.yaml': CLUSTER })));
    const ds = sim.trace.filter((d) => d.action === 'AssumptionMade' && d.object.startsWith('Node/'));
    assert.equal(
      missingLeasesText(ds),
      'No Lease in the snapshot: 2 nodes whose Ready is True taken as having renewed their Leases at the start time (missingLeases: assumed): fresh, ok.',
    );
  });

  const values: { name: string; value: string; want?: 'assumed' | 'absent'; error?: RegExp }[] = [
    { name: 'missingLeases: assumed is read', value: 'assumed', want: 'assumed' },
    { name: 'missingLeases: absent is read', value: 'absent', want: 'absent' },
    { name: 'any other value is an error that lists the values', value: 'maybe', error: /expected missingLeases to be one of .*assumed.*absent/ },
  ];
  for (const v of values) {
    it(v.name, () => {
      const text = scenarioText(`missingLeases: ${v.value}\n`, inline(NODES));
      const { scenario, problems } = parseScenario(text, '/w/s.yaml', new MemoryFs());
      assert.equal(scenario.missingLeases, v.want);
      const errors = problems.filter((p) => p.severity === 'error');
      if (v.error) {
        assert.equal(errors.length, 1);
        assert.match(errors[0].message, v.error);
        assert.deepEqual([errors[0].position?.line, errors[0].position?.column], [4, 16]);
      } else assert.deepEqual(errors, []);
    });
  }

  const lint: { name: string; extra: string; message: RegExp }[] = [
    {
      name: 'validate says what the simulation assumes for an export without Leases',
      extra: '',
      message: /the 2 node\(s\) whose Ready is True are taken as having renewed their Lease at the start time/,
    },
    {
      name: 'validate says healthy nodes may look stale when missingLeases is absent',
      extra: 'missingLeases: absent\n',
      message: /healthy nodes may look stale \(missingLeases: absent\)/,
    },
  ];
  for (const l of lint) {
    it(l.name, () => {
      // a 1.12 kubelet keeps the loader from warning first: the lint rule speaks for the chosen version
      const fs = new MemoryFs({ '/w/cluster.yaml': CLUSTER.replaceAll('v1.31.4', 'v1.12.1') });
      const text = scenarioText(l.extra);
      const p = lintDocument('file:///w/s.yaml', text, undefined, fs).filter((x) => x.code === 'no-leases');
      assert.equal(p.length, 1);
      assert.match(p[0].message, l.message);
    });
  }
});
