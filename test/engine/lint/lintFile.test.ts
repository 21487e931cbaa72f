/** The command line's entry: lintFile reads a file or folder and reports what lintDocument reports for its text. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintDocument, lintFile } from '../../../src/engine/lint';
import { CLUSTER, DIR, LEASES_YAML, SCENARIO, scenario, workspace } from './helpers';

test('lintFile on a scenario gives exactly what lintDocument gives for its text', () => {
  const text = scenario('1.27', 'controllerManager:\n  flags: ["--pod-eviction-timeout=2m"]\nevents:\n  - at: 30s\n    kubelet: stop\n    nodes: [node-a9]\n');
  const fs = workspace({ [SCENARIO]: text });
  const a = lintFile(SCENARIO, fs);
  assert.deepEqual(a, lintDocument(`file://${SCENARIO}`, text, undefined, fs));
  assert.deepEqual(
    a.map((p) => p.code),
    ['no-leases', 'not-in-version', 'unknown-node'],
  );
});

test('--version overrides the version the scenario names, as replay does', () => {
  const text = scenario('1.26', 'controllerManager:\n  flags: ["--pod-eviction-timeout=2m"]\n');
  const fs = workspace({ [SCENARIO]: text });
  assert.equal(lintFile(SCENARIO, fs).filter((p) => p.code === 'not-in-version').length, 0);
  assert.equal(lintFile(SCENARIO, fs, { versionOverride: '1.27' }).filter((p) => p.code === 'not-in-version').length, 1);
  assert.equal(lintFile(SCENARIO, fs, { versionOverride: '2.0' })[0].code, 'unknown-version');
});

test("--set overrides are checked like the scenario's own settings", () => {
  const fs = workspace({ [SCENARIO]: scenario('1.31', '') });
  const p = lintFile(SCENARIO, fs, { set: { nodeMonitorGracePeriod: '20s' } });
  assert.ok(
    p.some((x) => x.code === 'grace-period-under-http2-timeout'),
    JSON.stringify(p.map((x) => x.code)),
  );
});

test('a snapshot folder is linted as a snapshot: Leases missing for the version asked', () => {
  const fs = workspace();
  assert.deepEqual(
    lintFile(DIR, fs, { version: '1.31' }).map((p) => p.code),
    ['no-leases'],
  );
  assert.deepEqual(
    lintFile(DIR, fs, { version: '1.12' }).map((p) => p.code),
    [],
  );
  fs.write(`${DIR}/leases.yaml`, LEASES_YAML);
  assert.deepEqual(
    lintFile(DIR, fs, { version: '1.31' }).map((p) => p.code),
    [],
  );
});

test("a snapshot file reports the loader's problems with their positions", () => {
  const fs = workspace();
  fs.write(
    `${DIR}/bad.yaml`,
    'apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus:\n  conditions: [{type: Ready, status: "True", lastHeartbeatTime: "not a time"}]\n',
  );
  const p = lintFile(`${DIR}/bad.yaml`, fs, { version: '1.12' });
  assert.ok(p.length > 0);
  assert.ok(
    p.every((x) => x.position?.file === `${DIR}/bad.yaml`),
    JSON.stringify(p),
  );
  void CLUSTER;
});
