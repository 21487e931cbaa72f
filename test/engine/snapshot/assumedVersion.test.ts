/**
 * The version simulated when nothing names one: what the kubelets report, clamped to the versions
 * the engine simulates (1.12 to the newest) with a warning when clamped.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadScenario } from '../../../src/engine/snapshot/scenario';
import { MemoryFs } from '../../../src/engine/snapshot/source';
import { createSimulation } from '../../../src/engine/simulation/simulation';
import { MAX_MINOR } from '../../../src/engine/versions/table';

function cluster(kubelets: string[]): string {
  const items = kubelets.map((v, i) => ({
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name: `n${i}` },
    status: { conditions: [{ type: 'Ready', status: 'True', lastHeartbeatTime: '2026-01-01T00:00:00Z' }], nodeInfo: { kubeletVersion: v } },
  }));
  return JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
}

const cases: { name: string; kubelets: string[]; version: string; warning?: RegExp }[] = [
  { name: 'kubelets of a simulated version give that version', kubelets: ['v1.17.1+9d33dd3'], version: '1.17' },
  {
    name: 'a 1.10 kubelet is simulated as 1.12, with a warning that names what it reports',
    kubelets: ['v1.10.7-gke.2'],
    version: '1.12',
    warning: /kubelets report v1\.10\.7-gke\.2.*simulating 1\.12, the nearest supported version/,
  },
  { name: 'the version most kubelets report wins, and is clamped', kubelets: ['v1.11.0', 'v1.11.3', 'v1.20.0'], version: '1.12', warning: /v1\.11\.0/ },
  // as real kubelets report them: k3s, OpenShift release candidates, EKS (the minor read as kubeMinor reads it everywhere)
  { name: 'a k3s kubelet', kubelets: ['v1.27.4+k3s1'], version: '1.27' },
  { name: 'an OpenShift release candidate', kubelets: ['v1.25.0-rc.0+4d3cc2e'], version: '1.25' },
  { name: 'an EKS kubelet, reported with a leading blank', kubelets: [' v1.29.3-eks-ae9a62a'], version: '1.29' },
  { name: 'a tie goes to the newer version', kubelets: ['v1.20.0', 'v1.21.0'], version: '1.21' },
  {
    name: 'a kubelet newer than the newest simulated version is simulated as the newest, with a warning',
    kubelets: ['v1.99.0'],
    version: `1.${MAX_MINOR}`,
    warning: new RegExp(`simulating 1\\.${MAX_MINOR}`),
  },
  { name: 'with no kubelet version the newest is simulated, without a warning', kubelets: ['not-a-version'], version: `1.${MAX_MINOR}` },
];

describe('the version of a plain snapshot', () => {
  for (const c of cases) {
    it(c.name, () => {
      const scenario = loadScenario('/w/nodes.json', new MemoryFs({ '/w/nodes.json': cluster(c.kubelets) }));
      const sim = createSimulation(scenario);
      assert.equal(sim.behaviour.version.text, c.version);
      const w = sim.problems.filter((p) => p.code === 'version-clamped');
      if (!c.warning) {
        assert.deepEqual(w, []);
        return;
      }
      assert.equal(w.length, 1);
      assert.equal(w[0].severity, 'warning');
      assert.match(w[0].message, c.warning);
      assert.deepEqual([w[0].position?.file, w[0].position?.line], ['/w/nodes.json', 1]);
    });
  }
});

describe('the version of a scenario over old kubelets', () => {
  const fs = () => new MemoryFs({ '/w/nodes.json': cluster(['v1.10.7']) });
  const scenario = (version: string) => `apiVersion: controllerstepper.io/v1alpha1\nkind: Scenario\n${version}snapshot: nodes.json\n`;

  it('without kubernetesVersion: 1.12, with the warning at the scenario', () => {
    const f = fs().write('/w/s.yaml', scenario(''));
    const sim = createSimulation(loadScenario('/w/s.yaml', f));
    assert.equal(sim.behaviour.version.text, '1.12');
    const w = sim.problems.find((p) => p.code === 'version-clamped');
    assert.equal(w?.position?.file, '/w/s.yaml');
  });

  it('with kubernetesVersion: that version, and no warning', () => {
    const f = fs().write('/w/s.yaml', scenario('kubernetesVersion: "1.20"\n'));
    const sim = createSimulation(loadScenario('/w/s.yaml', f));
    assert.equal(sim.behaviour.version.text, '1.20');
    assert.equal(
      sim.problems.some((p) => p.code === 'version-clamped'),
      false,
    );
  });

  it('with a version given to the simulation (--version): that version, and the guess is not reported', () => {
    const f = fs().write('/w/s.yaml', scenario(''));
    const sim = createSimulation(loadScenario('/w/s.yaml', f), { version: '1.31' });
    assert.equal(sim.behaviour.version.text, '1.31');
    assert.equal(
      sim.problems.some((p) => p.code === 'version-clamped' || p.code === 'version-assumed'),
      false,
    );
  });
});

// The no-leases warning reads the kubelets' minor as the assumed version does: a kubelet the version is taken from
// (1.14 or later) is one that heartbeats by Lease (the warning missed ' v1.29.3-eks-…', which the version read).
describe('the no-leases warning reads the kubelet version as the assumed version does', () => {
  const cases: { kubelet: string; warned: boolean }[] = [
    { kubelet: 'v1.27.4+k3s1', warned: true },
    { kubelet: ' v1.29.3-eks-ae9a62a', warned: true },
    { kubelet: 'v1.13.12', warned: false },
    { kubelet: 'not-a-version', warned: false },
  ];
  for (const c of cases) {
    it(`${JSON.stringify(c.kubelet)}: ${c.warned ? 'warned' : 'not warned'}`, () => {
      const scenario = loadScenario('/w/nodes.json', new MemoryFs({ '/w/nodes.json': cluster([c.kubelet]) }));
      assert.equal(
        scenario.problems.some((p) => p.code === 'no-leases'),
        c.warned,
      );
    });
  }
});
