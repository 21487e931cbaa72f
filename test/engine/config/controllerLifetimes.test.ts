/**
 * The names --controllers takes for the controllers the simulation does not model, against the version
 * (config/controllerLifetimes.ts): kube-controller-manager refuses to start on a name it does not know,
 * so a name the version does not have yet, or no longer has, is an error at the setting.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveConfig } from '../../../src/engine/config/resolve';
import { kubeVersion } from '../../../src/engine/versions/table';

const at = { file: 'scenario.yaml', line: 30, column: 5 };
const errorsFor = (minor: number, name: string) =>
  resolveConfig({ settings: {}, featureGates: {}, flags: [{ text: `--controllers=*,-${name}`, position: at }] }, {}, kubeVersion(minor)).problems.filter(
    (p) => p.severity === 'error',
  );

/** A sample of the checked names: the version before `since` refuses the name, `since` knows it, `removedIn` refuses it again. */
const ranges: { name: string; since?: number; removedIn?: number }[] = [
  { name: 'attachdetach', since: 12 },
  { name: 'ttl-after-finished', since: 12 },
  { name: 'root-ca-cert-publisher', since: 13 },
  { name: 'cloud-node-lifecycle', since: 14, removedIn: 37 },
  { name: 'endpointslice', since: 16 },
  { name: 'endpointslicemirroring', since: 19 },
  { name: 'ephemeral-volume', since: 19 },
  { name: 'storage-version-gc', since: 20 },
  { name: 'resource-claim-controller', since: 26 },
  { name: 'legacy-service-account-token-cleaner', since: 28 },
  { name: 'validatingadmissionpolicy-status-controller', since: 28 },
  { name: 'service-cidr-controller', since: 29 },
  { name: 'storage-version-migrator-controller', since: 30 },
  { name: 'selinux-warning-controller', since: 32 },
  { name: 'kube-apiserver-serving-clustertrustbundle-publisher-controller', since: 32 },
  { name: 'volumeattributesclass-protection-controller', since: 32 },
  { name: 'device-taint-eviction-controller', since: 33 },
  { name: 'podcertificaterequest-cleaner-controller', since: 34 },
  { name: 'route', since: 12, removedIn: 37 },
];

const cases: { name: string; minor: number; controller: string; message?: RegExp }[] = [];
for (const r of ranges) {
  if (r.since && r.since > 12)
    cases.push({
      name: `${r.name} before it exists`,
      minor: r.since - 1,
      controller: r.name,
      message: new RegExp(`^controller ${r.name} exists from 1\\.${r.since}; Kubernetes 1\\.${r.since - 1} does not have it`),
    });
  if (r.since) cases.push({ name: `${r.name} in its first version`, minor: r.since, controller: r.name });
  if (r.removedIn) {
    cases.push({ name: `${r.name} in its last version`, minor: r.removedIn - 1, controller: r.name });
    cases.push({
      name: `${r.name} once removed`,
      minor: r.removedIn,
      controller: r.name,
      message: new RegExp(`^controller ${r.name} was removed in 1\\.${r.removedIn}`),
    });
  }
}

for (const c of cases)
  test(`${c.name} (1.${c.minor}): ${c.message ? 'an error at --controllers' : 'no error'}`, () => {
    const found = errorsFor(c.minor, c.controller);
    if (!c.message) return assert.deepEqual(found, []);
    assert.equal(found.length, 1, JSON.stringify(found));
    assert.equal(found[0].code, 'controller-not-in-version');
    assert.match(found[0].message, c.message);
    assert.equal(found[0].position?.line, at.line);
    assert.equal(found[0].position?.column, at.column + '--controllers='.length, 'at the value');
  });

test('validatingadmissionpolicy-status was never a name (the controller came in 1.28 with only its canonical name)', () => {
  for (const minor of [27, 28, 36]) {
    const found = errorsFor(minor, 'validatingadmissionpolicy-status');
    assert.equal(found.length, 1, JSON.stringify(found));
    assert.equal(found[0].code, 'unknown-controller');
  }
});
