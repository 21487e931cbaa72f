/**
 * Flags the simulation accepts and ignores, against the version whose kube-controller-manager reads
 * them (config/flagLifetimes.ts): pflag refuses a flag the binary does not define, so a flag the
 * version does not have yet, or no longer has, is an error at the flag (the language server's
 * diagnostics and `validate`), as kube-controller-manager's "unknown flag" would stop it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lintDocument } from '../../../src/engine/lint';
import { SCENARIO, scenario, workspace } from '../lint/helpers';

const MANIFEST = '/etc/kubernetes/manifests/kube-controller-manager.yaml';
const manifest = (image: string, flag: string) =>
  `apiVersion: v1\nkind: Pod\nmetadata: {name: kube-controller-manager, namespace: kube-system}\nspec:\n  containers:\n  - name: kube-controller-manager\n    image: registry.k8s.io/kube-controller-manager:${image}\n    command:\n    - kube-controller-manager\n    - ${flag}\n`;

const cases: { name: string; version?: string; uri?: string; text?: string; flag: string; error?: RegExp }[] = [
  {
    name: '--concurrent-service-syncs in 1.37 (removed by #138002)',
    version: '1.37',
    flag: '--concurrent-service-syncs=2',
    error:
      /^--concurrent-service-syncs was removed in 1\.37; kube-controller-manager 1\.37 refuses to start with it \(unknown flag: --concurrent-service-syncs\)$/,
  },
  { name: '--concurrent-service-syncs in 1.36 is accepted and ignored', version: '1.36', flag: '--concurrent-service-syncs=2' },
  { name: 'a klog flag in 1.26', version: '1.26', flag: '--logtostderr=true', error: /^--logtostderr was removed in 1\.26;/ },
  { name: 'a klog flag in 1.25 is accepted', version: '1.25', flag: '--logtostderr=true' },
  { name: 'insecure serving --address in 1.24', version: '1.24', flag: '--address=127.0.0.1', error: /^--address was removed in 1\.24;/ },
  {
    name: '--concurrent-statefulset-syncs before it was added (1.15)',
    version: '1.15',
    flag: '--concurrent-statefulset-syncs=5',
    error: /^--concurrent-statefulset-syncs was added in 1\.16; kube-controller-manager 1\.15 refuses to start/,
  },
  { name: '--concurrent-statefulset-syncs in 1.16', version: '1.16', flag: '--concurrent-statefulset-syncs=5' },
  {
    name: '--azure-container-registry-config in 1.30 (the in-tree credential providers removed)',
    version: '1.30',
    flag: '--azure-container-registry-config=/etc/azure.json',
    error: /^--azure-container-registry-config was removed in 1\.30;/,
  },
  { name: 'a flag with no known range in the oldest version', version: '1.12', flag: '--concurrent-deployment-syncs=5' },
  {
    name: "a static Pod manifest's removed flag, by the image's version",
    uri: MANIFEST,
    text: manifest('v1.37.0', '--concurrent-service-syncs=2'),
    flag: '--concurrent-service-syncs=2',
    error: /^--concurrent-service-syncs was removed in 1\.37;/,
  },
  { name: '--controller-start-interval, checked to be in every version (1.12)', version: '1.12', flag: '--controller-start-interval=1s' },
  { name: '--controller-start-interval, checked to be in every version (1.37)', version: '1.37', flag: '--controller-start-interval=1s' },
  { name: '--allow-untagged-cloud, in every version (1.12)', version: '1.12', flag: '--allow-untagged-cloud' },
  { name: '--allow-untagged-cloud, in every version (1.37)', version: '1.37', flag: '--allow-untagged-cloud' },
];

/** A sample of the checked ranges: the version before `since` refuses the flag, `since` has it, `removedIn` refuses it again. */
const ranges: { flag: string; since?: string; removedIn?: string }[] = [
  { flag: '--authentication-tolerate-lookup-failure=true', since: '1.14' },
  { flag: '--max-endpoints-per-slice=100', since: '1.16' },
  { flag: '--node-cidr-mask-size-ipv6=64', since: '1.17' },
  { flag: '--endpointslice-updates-batch-period=1s', since: '1.18' },
  { flag: '--show-hidden-metrics-for-version=1.17', since: '1.18' },
  { flag: '--logging-format=text', since: '1.19' },
  { flag: '--mirroring-max-endpoints-per-subset=1000', since: '1.19' },
  { flag: '--disabled-metrics=a_metric', since: '1.21' },
  { flag: '--enable-leader-migration', since: '1.21' },
  { flag: '--concurrent-ephemeralvolume-syncs=5', since: '1.23' },
  { flag: '--log-json-split-stream', since: '1.23' },
  { flag: '--concurrent-validating-admission-policy-status-syncs=5', since: '1.28' },
  { flag: '--disable-force-detach-on-timeout', since: '1.30' },
  { flag: '--emulated-version=kube=1.31', since: '1.31' },
  { flag: '--concurrent-daemonset-syncs=5', since: '1.32' },
  { flag: '--tls-curve-preferences=29', since: '1.36' },
  { flag: '--deployment-controller-sync-period=30s', removedIn: '1.24' },
  { flag: '--cloud-provider-gce-lb-src-cidrs=130.211.0.0/22', removedIn: '1.31' },
  // real flags that were unknown before (an error in the versions that have them)
  { flag: '--volume-host-cidr-denylist=10.0.0.0/8', since: '1.20', removedIn: '1.31' },
  { flag: '--experimental-logging-sanitization', since: '1.20', removedIn: '1.24' },
  { flag: '--register-retry-count=10', removedIn: '1.25' },
  { flag: '--min-compatibility-version=kube=1.34', since: '1.35' },
  { flag: '--concurrent-device-taint-eviction-syncs=4', since: '1.35' },
  { flag: '--concurrent-disruption-syncs=4', since: '1.37' },
  { flag: '--disable-http2-serving', since: '1.31' },
];
const before = (v: string) => `1.${Number(v.slice(2)) - 1}`;
const re = (s: string) => s.replace(/[.()]/g, '\\$&');
for (const r of ranges) {
  const name = r.flag.split('=')[0];
  if (r.since)
    cases.push(
      {
        name: `${name} before it was added (${before(r.since)})`,
        version: before(r.since),
        flag: r.flag,
        error: new RegExp(
          `^${re(`${name} was added in ${r.since}; kube-controller-manager ${before(r.since)} refuses to start with it (unknown flag: ${name})`)}$`,
        ),
      },
      { name: `${name} in its first version (${r.since})`, version: r.since, flag: r.flag },
    );
  if (r.removedIn)
    cases.push(
      { name: `${name} in its last version (${before(r.removedIn)})`, version: before(r.removedIn), flag: r.flag },
      {
        name: `${name} once removed (${r.removedIn})`,
        version: r.removedIn,
        flag: r.flag,
        error: new RegExp(`^${re(`${name} was removed in ${r.removedIn};`)}`),
      },
    );
}

for (const c of cases)
  test(`${c.name}: ${c.error ? 'an error at the flag' : 'no error'}`, () => {
    const uri = c.uri ?? SCENARIO;
    const text = c.text ?? scenario(c.version!, `controllerManager:\n  flags:\n    - ${c.flag}\n`);
    const found = lintDocument(`file://${uri}`, text, undefined, workspace({ [uri]: text })).filter((p) => p.severity === 'error');
    if (!c.error) return assert.deepEqual(found, []);
    assert.equal(found.length, 1, JSON.stringify(found));
    assert.equal(found[0].code, 'not-in-version');
    assert.match(found[0].message, c.error);
    const at = text.indexOf(c.flag);
    assert.equal(found[0].position?.offset, at, 'at the flag');
    assert.equal(found[0].position?.endOffset, at + c.flag.length);
  });

// `hint`: the flag suggested; `refused`: a flag the version does not have, never suggested (another may be)
const hints: { name: string; version: string; flag: string; hint?: string; refused?: string }[] = [
  { name: 'a misspelt flag the version has', version: '1.36', flag: '--concurrent-service-sync=2', hint: '--concurrent-service-syncs' },
  { name: 'a misspelt flag the version no longer has', version: '1.37', flag: '--concurrent-service-sync=2', refused: '--concurrent-service-syncs' },
  { name: 'a misspelt modelled flag the version has', version: '1.26', flag: '--pod-eviction-timout=1m', hint: '--pod-eviction-timeout' },
  { name: 'a misspelt modelled flag the version no longer has', version: '1.27', flag: '--pod-eviction-timout=1m', refused: '--pod-eviction-timeout' },
  { name: "kube-apiserver's --insecure-port, never a kube-controller-manager flag", version: '1.20', flag: '--insecure-port=0', hint: '--secure-port' },
];

for (const c of hints)
  test(`${c.name} (${c.version}): ${c.hint ? `did you mean ${c.hint}` : `no hint to ${c.refused}`}`, () => {
    const text = scenario(c.version, `controllerManager:\n  flags:\n    - ${c.flag}\n`);
    const found = lintDocument(`file://${SCENARIO}`, text, undefined, workspace({ [SCENARIO]: text })).filter((p) => p.code === 'unknown-flag');
    assert.equal(found.length, 1, JSON.stringify(found));
    const hint = /did you mean (--[\w-]+)\?/.exec(found[0].message)?.[1];
    if (c.hint) assert.equal(hint, c.hint, found[0].message);
    else assert.notEqual(hint, c.refused, found[0].message);
  });
