/**
 * When kube-controller-manager added or removed the flags the simulation accepts and ignores
 * (flags.ts IGNORED_KCM_FLAGS): pflag refuses a flag the binary does not define ("unknown flag"),
 * so a command line with a flag its version does not have never starts. A flag not listed here is
 * taken as accepted by every simulated version (1.12 to the newest): only the ranges below were
 * checked against upstream, each with the change that says so.
 */
import { MIN_MINOR } from '../versions/table';

export interface FlagLifetime {
  /** the first version that has the flag (absent: every simulated version) */
  since?: number;
  /** the first version that no longer has it */
  removedIn?: number;
  /** where upstream says so */
  source: string;
}

const KK = 'kubernetes/kubernetes';
const KLOG = `${KK}#112120 (KEP-2845: the klog flags, deprecated in 1.23, removed in 1.26; -v and --vmodule stay)`;
const SIGNERS = `${KK}#90822 (1.19: a certificate and key per kube-controller-manager signer)`;

export const IGNORED_FLAG_LIFETIMES: Readonly<Record<string, FlagLifetime>> = {
  'concurrent-service-endpoint-syncs': { since: 16, source: `${KK}#81048 (endpointslice controller); gardener/gardener#2753 (unknown flag before 1.16)` },
  'concurrent-statefulset-syncs': { since: 16, source: `${KK}#79169; gardener/gardener#2753 (unknown flag before 1.16)` },
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
  address: { removedIn: 24, source: `CHANGELOG-1.24 (insecure serving, without effect since 1.22 by ${KK}#96216: --address and --port removed)` },
  port: { removedIn: 24, source: `CHANGELOG-1.24 (insecure serving, without effect since 1.22 by ${KK}#96216: --address and --port removed)` },
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
  'azure-container-registry-config': {
    removedIn: 30,
    source: `${KK}#122595 (the in-tree credential providers, whose package registered the flag in every binary, removed; kubelets of 1.30 refuse it as unknown)`,
  },
  'horizontal-pod-autoscaler-upscale-delay': { removedIn: 31, source: `${KK}#124948 (no-op since 1.12)` },
  'horizontal-pod-autoscaler-downscale-delay': { removedIn: 31, source: `${KK}#124948 (no-op since 1.12)` },
  'concurrent-resourceclaim-syncs': { since: 36, source: `${KK}#134701 (CHANGELOG-1.36, v1.36.0-alpha.1)` },
  'concurrent-service-syncs': { removedIn: 37, source: `${KK}#138002 (CHANGELOG-1.37, v1.37.0-alpha.1: no-op since 1.31)` },
};

/** Why an ignored flag (without dashes) is not in version 1.`minor`, or undefined when it is. */
export function ignoredFlagMissingIn(name: string, minor: number): string | undefined {
  const life = IGNORED_FLAG_LIFETIMES[name];
  if (!life) return undefined;
  if (life.removedIn !== undefined && minor >= life.removedIn) return `was removed in 1.${life.removedIn}`;
  if (life.since !== undefined && minor < life.since) return `was added in 1.${life.since}`;
  return undefined;
}

/** The versions that have an ignored flag, as text: `1.12–1.36`, `1.28 and later`. */
export function ignoredFlagVersions(name: string, newest: number): string {
  const life = IGNORED_FLAG_LIFETIMES[name];
  const from = life?.since ?? MIN_MINOR;
  const to = life?.removedIn !== undefined ? life.removedIn - 1 : newest;
  return to === newest ? `1.${from} and later` : `1.${from}–1.${to}`;
}
