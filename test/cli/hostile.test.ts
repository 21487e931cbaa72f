/** The command line over hostile scenarios: refused with exit 2 and a positioned message, or allowed on request. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runCli } from '../helpers/cliRun';

const CLUSTER = resolve(__dirname, '../../examples/clusters/three-zones.yaml');

test("a snapshot outside the scenario's folder is exit 2 unless --allow-outside, and a secret is never printed", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cli-hostile-'));
  try {
    mkdirSync(join(dir, 'project'));
    copyFileSync(CLUSTER, join(dir, 'cluster.yaml'));
    writeFileSync(join(dir, '.git-credentials'), 'https://me:ghp_SECRETTOKEN@github.com\n');
    const scenario = (snapshot: string) => `apiVersion: controllerstepper.io/v1alpha1\nkind: Scenario\nkubernetesVersion: "1.31"\nsnapshot: ${snapshot}\n`;
    writeFileSync(join(dir, 'project', 'outside.yaml'), scenario('../cluster.yaml'));
    writeFileSync(join(dir, 'project', 'secret.yaml'), scenario('../.git-credentials'));
    const refused = await runCli('replay', join(dir, 'project', 'outside.yaml'), '--until', '1m');
    assert.equal(refused.code, 2, refused.err);
    assert.match(refused.err, /outside.yaml:4:11: error path-outside: .*--allow-outside/);
    // the summary names what happened (it said "cannot be simulated within the simulation's limits")
    assert.match(refused.err, /outside\.yaml: 1 error\(s\) in the input; nothing was simulated\n$/);
    const allowed = await runCli('replay', join(dir, 'project', 'outside.yaml'), '--until', '1m', '--allow-outside');
    assert.equal(allowed.code, 0, allowed.err);
    // validate reports what replay would refuse, and takes the same flag
    const checked = await runCli('validate', join(dir, 'project', 'outside.yaml'));
    assert.equal(checked.code, 1, checked.err);
    assert.match(checked.err + checked.out, /outside.yaml:4:11: error path-outside/);
    const checkedAllowed = await runCli('validate', join(dir, 'project', 'outside.yaml'), '--allow-outside');
    assert.doesNotMatch(checkedAllowed.err + checkedAllowed.out, /path-outside/);
    for (const [args, code] of [
      [[], 2],
      [['--allow-outside'], 2],
    ] as const) {
      // refused as outside; or allowed, read, found not to be Kubernetes YAML (exit 2 too) and reported without its content
      const r = await runCli('replay', join(dir, 'project', 'secret.yaml'), '--until', '1m', ...args);
      assert.equal(r.code, code, r.err);
      assert.doesNotMatch(r.err + r.out, /SECRETTOKEN/);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('absurd numbers, times and files are exit 2 before anything is simulated', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cli-hostile-'));
  try {
    copyFileSync(CLUSTER, join(dir, 'cluster.yaml'));
    const cases: [what: string, body: string, code: RegExp][] = [
      ['nodeMonitorPeriod 1us', 'controllerManager:\n  nodeMonitorPeriod: 1us\n', /period-below-limit/],
      ['an event at 100000h', 'events:\n  - {at: 100000h, kubelet: stop, nodes: [node-a1]}\n', /beyond-horizon/],
      ['a start in 2300', 'startTime: "2300-01-01T00:00:00Z"\n', /start-out-of-range/],
      ['configFile: /dev/zero', 'controllerManager:\n  configFile: /dev/zero\n', /path-outside/],
    ];
    for (const [what, body, code] of cases) {
      writeFileSync(
        join(dir, 's.yaml'),
        `apiVersion: controllerstepper.io/v1alpha1\nkind: Scenario\nkubernetesVersion: "1.31"\nsnapshot: ./cluster.yaml\n${body}`,
      );
      const r = await runCli('replay', join(dir, 's.yaml'), '--until', '1s', '--format', 'json');
      assert.equal(r.code, 2, `${what}: ${r.err}`);
      assert.match(r.err, code, what);
      assert.equal(r.out, '', `${what}: nothing simulated`);
    }
    // allowed outside, /dev/zero is still refused before it is read (the run goes on without the config file, as with any unreadable one)
    const dev = await runCli('replay', join(dir, 's.yaml'), '--allow-outside', '--until', '1s');
    assert.match(dev.err, /s\.yaml:6:15: error unreadable-file: .*character device; only regular files and folders are read/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
