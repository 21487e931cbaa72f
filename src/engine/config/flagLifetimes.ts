/**
 * When kube-controller-manager added or removed the flags the simulation accepts and ignores
 * (flags.ts IGNORED_KCM_FLAGS): pflag refuses a flag the binary does not define ("unknown flag"),
 * so a command line with a flag its version does not have never starts. A flag not listed here was
 * checked to be in every simulated version (1.12 to the newest), except the few the README names
 * as not checked. Each range cites the change that says so; "kubernetes-1.N.0" means the staging
 * repository's tree at that release tag (k8s.io/apiserver, component-base, controller-manager,
 * kube-controller-manager config types), which is kube-controller-manager's own source at 1.N.0.
 *
 * A flag registered by a shared package is in the binary whenever kube-controller-manager calls
 * that package's AddFlags: the delegated authentication, authorization and secure serving flags
 * (k8s.io/apiserver, since 1.12), the logging flags (component-base logs, since 1.19; the JSON ones
 * only where the json format is registered, as kube-controller-manager does since 1.22), the
 * metrics flags (component-base metrics) and the GCE cloud provider's flags, which its package put
 * on the global flag set and kube-controller-manager re-registered until the in-tree providers left.
 */
import { MIN_MINOR } from '../versions/table';
import { lifetimeGap, type Lifetime } from './lifetimes';

const KK = 'kubernetes/kubernetes';
const KLOG = `${KK}#112120 (KEP-2845: the klog flags, deprecated in 1.23, removed in 1.26; -v and --vmodule stay)`;
const SIGNERS = `${KK}#90822 (1.19: a certificate and key per kube-controller-manager signer)`;
const MIRRORING = `${KK}#91637 (EndpointSliceMirroring controller; config at kubernetes-1.19.0)`;
const LEADER_MIGRATION = `${KK}#99507 (KEP-2436 leader migration options, k8s.io/controller-manager at kubernetes-1.21.0)`;
const LEADER_RESOURCE = `${KK}#80681 (name and namespace of the leader election object; component-base config at kubernetes-1.16.0)`;
const NODE_CIDR_MASKS = `${KK}#79993 (per-family node CIDR masks for dual-stack; config at kubernetes-1.17.0)`;
const JSON_LOG = `kubernetes/component-base@5dfae7a (configurable JSON output, logs options at kubernetes-1.23.0; registered where the json format is, in kube-controller-manager since ${KK}#102756)`;
const TEXT_LOG = `${KK}#114672 (split text output streams, component-base logs at kubernetes-1.30.0)`;
const VOLUME_HOST = `config at kubernetes-1.20.0 (host filtering of volume plugins' dial contexts); ${KK}#124017 (removed, deprecated)`;
const GCE = `${KK}#124519 (the in-tree GCE cloud provider, whose package registered the flag, removed); kube-controller-manager re-registered it only when the package had`;

export const IGNORED_FLAG_LIFETIMES: Readonly<Record<string, Lifetime>> = {
  'authentication-tolerate-lookup-failure': { since: 14, source: `${KK}#71755 (k8s.io/apiserver delegated authentication, at kubernetes-1.14.0)` },
  'concurrent-service-endpoint-syncs': { since: 16, source: `${KK}#81048 (endpointslice controller); gardener/gardener#2753 (unknown flag before 1.16)` },
  'concurrent-statefulset-syncs': { since: 16, source: `${KK}#79169; gardener/gardener#2753 (unknown flag before 1.16)` },
  'max-endpoints-per-slice': { since: 16, source: `${KK}#81048 (endpointslice controller; config at kubernetes-1.16.0)` },
  'endpoint-updates-batch-period': { since: 16, source: `${KK}#80509 (batching in the endpoints controller; config at kubernetes-1.16.0)` },
  'leader-elect-resource-name': { since: 16, source: LEADER_RESOURCE },
  'leader-elect-resource-namespace': { since: 16, source: LEADER_RESOURCE },
  'node-cidr-mask-size-ipv4': { since: 17, source: NODE_CIDR_MASKS },
  'node-cidr-mask-size-ipv6': { since: 17, source: NODE_CIDR_MASKS },
  'endpointslice-updates-batch-period': {
    since: 18,
    source: `${KK}#88745 (CHANGELOG-1.18: "New flag --endpointslice-updates-batch-period in kube-controller-manager")`,
  },
  'show-hidden-metrics-for-version': {
    since: 18,
    source: `${KK}#85281 (CHANGELOG-1.18: "New flag --show-hidden-metrics-for-version in kube-controller-manager")`,
  },
  'horizontal-pod-autoscaler-use-rest-clients': { removedIn: 19, source: `${KK}#90368 (deprecated in 1.12, removed with Heapster support)` },
  'cluster-signing-duration': { since: 19, source: `${KK}#91154 (replaces --experimental-cluster-signing-duration)` },
  'cluster-signing-kube-apiserver-client-cert-file': { since: 19, source: SIGNERS },
  'cluster-signing-kube-apiserver-client-key-file': { since: 19, source: SIGNERS },
  'cluster-signing-kubelet-client-cert-file': { since: 19, source: SIGNERS },
  'cluster-signing-kubelet-client-key-file': { since: 19, source: SIGNERS },
  'cluster-signing-kubelet-serving-cert-file': { since: 19, source: SIGNERS },
  'cluster-signing-kubelet-serving-key-file': { since: 19, source: SIGNERS },
  'cluster-signing-legacy-unknown-cert-file': { since: 19, source: SIGNERS },
  'cluster-signing-legacy-unknown-key-file': { since: 19, source: SIGNERS },
  'mirroring-concurrent-service-endpoint-syncs': { since: 19, source: MIRRORING },
  'mirroring-endpointslice-updates-batch-period': { since: 19, source: MIRRORING },
  'mirroring-max-endpoints-per-subset': { since: 19, source: MIRRORING },
  'logging-format': { since: 19, source: `${KK}#91521 (kube-controller-manager; the flag is component-base's, ${KK}#89683, KEP-1602 alpha in 1.19)` },
  'permit-port-sharing': { since: 19, source: `${KK}#88893 (k8s.io/apiserver secure serving, at kubernetes-1.19.0)` },
  'volume-host-allow-local-loopback': { since: 20, removedIn: 31, source: VOLUME_HOST },
  'volume-host-cidr-denylist': { since: 20, removedIn: 31, source: VOLUME_HOST },
  'experimental-logging-sanitization': {
    since: 20,
    removedIn: 24,
    source: `${KK}#96370 (added for the control plane components); ${KK}#107207 (removed; component-base logs at kubernetes-1.20.0 to 1.23.0)`,
  },
  'permit-address-sharing': { since: 21, source: `${KK}#93861 (k8s.io/apiserver secure serving, at kubernetes-1.21.0)` },
  'disabled-metrics': { since: 21, source: `${KK}#99217 (component-base metrics options, at kubernetes-1.21.0)` },
  'allow-metric-labels': { since: 21, source: 'kubernetes/component-base@75f1049 (metrics options, at kubernetes-1.21.0)' },
  'enable-leader-migration': { since: 21, source: LEADER_MIGRATION },
  'leader-migration-config': { since: 21, source: LEADER_MIGRATION },
  'concurrent-ephemeralvolume-syncs': { since: 23, source: `${KK}#102981 (CHANGELOG-1.23)` },
  'log-json-info-buffer-size': { since: 23, source: JSON_LOG },
  'log-json-split-stream': { since: 23, source: JSON_LOG },
  address: { removedIn: 24, source: `CHANGELOG-1.24 (insecure serving, without effect since 1.22 by ${KK}#96216: --address and --port removed)` },
  port: { removedIn: 24, source: `CHANGELOG-1.24 (insecure serving, without effect since 1.22 by ${KK}#96216: --address and --port removed)` },
  'deployment-controller-sync-period': {
    removedIn: 24,
    source: `${KK}#107178 (deprecated in 1.23 by #103538; config at kubernetes-1.24.0 has no DeploymentControllerSyncPeriod)`,
  },
  'register-retry-count': {
    removedIn: 25,
    source: `${KK}#109612 (with --deleting-pods-qps/-burst: kubernetes/kube-controller-manager@e51f37b, config at kubernetes-1.25.0)`,
  },
  'experimental-cluster-signing-duration': { removedIn: 25, source: `${KK}#108476 (deprecated in 1.19 by #91154)` },
  'deleting-pods-qps': { removedIn: 25, source: `${KK}#109612 (deprecated since 1.10)` },
  'deleting-pods-burst': { removedIn: 25, source: `${KK}#109612 (deprecated since 1.10)` },
  alsologtostderr: { removedIn: 26, source: KLOG },
  'log-backtrace-at': { removedIn: 26, source: KLOG },
  'log-dir': { removedIn: 26, source: KLOG },
  'log-file': { removedIn: 26, source: KLOG },
  'log-file-max-size': { removedIn: 26, source: KLOG },
  logtostderr: { removedIn: 26, source: KLOG },
  'one-output': { removedIn: 26, source: KLOG },
  'skip-headers': { removedIn: 26, source: KLOG },
  'skip-log-headers': { removedIn: 26, source: KLOG },
  stderrthreshold: { removedIn: 26, source: KLOG },
  'concurrent-horizontal-pod-autoscaler-syncs': { since: 26, source: `${KK}#108501 (CHANGELOG-1.26)` },
  'concurrent-job-syncs': { since: 28, source: `${KK}#117138` },
  'concurrent-cron-job-syncs': { since: 28, source: `${KK}#117550` },
  'concurrent-validating-admission-policy-status-syncs': {
    since: 28,
    source: `${KK}#117377 (ValidatingAdmissionPolicy status controller; config at kubernetes-1.28.0)`,
  },
  'legacy-service-account-token-clean-up-period': { since: 28, source: `${KK}#115554 (LegacyServiceAccountTokenCleanUp alpha; config at kubernetes-1.28.0)` },
  'allow-metric-labels-manifest': { since: 29, source: `${KK}#118299 (KEP-2305, component-base metrics options at kubernetes-1.29.0)` },
  'azure-container-registry-config': {
    removedIn: 30,
    source: `${KK}#122595 (the in-tree credential providers, whose package registered the flag in every binary, removed; kubelets of 1.30 refuse it as unknown)`,
  },
  'disable-force-detach-on-timeout': { since: 30, source: `${KK}#120344 (config at kubernetes-1.30.0)` },
  'log-text-info-buffer-size': { since: 30, source: TEXT_LOG },
  'log-text-split-stream': { since: 30, source: TEXT_LOG },
  'horizontal-pod-autoscaler-upscale-delay': { removedIn: 31, source: `${KK}#124948 (no-op since 1.12)` },
  'horizontal-pod-autoscaler-downscale-delay': { removedIn: 31, source: `${KK}#124948 (no-op since 1.12)` },
  'cloud-provider-gce-lb-src-cidrs': { removedIn: 31, source: GCE },
  'cloud-provider-gce-l7lb-src-cidrs': {
    removedIn: 31,
    source: `${GCE} (added to the provider by #71674 for 1.14; the first kube-controller-manager to re-register it is not checked)`,
  },
  'disable-http2-serving': { since: 31, source: `${KK}#122176 (k8s.io/apiserver secure serving, at kubernetes-1.31.0)` },
  'emulated-version': {
    since: 31,
    source: `${KK}#125778 (KEP-4330; k8s.io/apiserver's version registry at kubernetes-1.31.0, component-base's from 1.32)`,
  },
  'concurrent-daemonset-syncs': { since: 32, source: `${KK}#128444 (the option existed, without a flag, since before 1.12)` },
  'requestheader-uid-headers': { since: 32, source: `${KK}#115834 (k8s.io/apiserver request-header authentication, at kubernetes-1.32.0)` },
  'min-compatibility-version': {
    since: 35,
    source: 'kubernetes/component-base@0b47e99 (KEP-4330, registered with --emulated-version; compatibility registry at kubernetes-1.35.0)',
  },
  'concurrent-device-taint-eviction-syncs': { since: 35, source: `${KK}#134152 (DRA device taints for 1.35; config at kubernetes-1.35.0)` },
  'concurrent-resourceclaim-syncs': { since: 36, source: `${KK}#134701 (CHANGELOG-1.36, v1.36.0-alpha.1)` },
  'tls-curve-preferences': { since: 36, source: `${KK}#137115 (k8s.io/apiserver secure serving, at kubernetes-1.36.0)` },
  'concurrent-disruption-syncs': {
    since: 37,
    source: 'kubernetes/kube-controller-manager@4adb49b (workers for the disruption controller; config at kubernetes-1.37.0-beta.0, not at 1.36.0)',
  },
  'concurrent-service-syncs': { removedIn: 37, source: `${KK}#138002 (CHANGELOG-1.37, v1.37.0-alpha.1: no-op since 1.31)` },
};

/** Why an ignored flag (without dashes) is not in version 1.`minor`, or undefined when it is. */
export function ignoredFlagMissingIn(name: string, minor: number): string | undefined {
  const life = IGNORED_FLAG_LIFETIMES[name];
  const gap = life && lifetimeGap(life, minor);
  if (!gap) return undefined;
  return 'removedIn' in gap ? `was removed in 1.${gap.removedIn}` : `was added in 1.${gap.since}`;
}

/** The versions that have an ignored flag, as text: `1.12–1.36`, `1.28 and later`. */
export function ignoredFlagVersions(name: string, newest: number): string {
  const life = IGNORED_FLAG_LIFETIMES[name];
  const from = life?.since ?? MIN_MINOR;
  const to = life?.removedIn !== undefined ? life.removedIn - 1 : newest;
  return to === newest ? `1.${from} and later` : `1.${from}–1.${to}`;
}
