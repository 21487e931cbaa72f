/**
 * kube-controller-manager command-line flags as the simulation reads them:
 * `--name=value`, `--name value` (two words or two list entries), bare boolean
 * flags, `--feature-gates=A=true,B=false` and `--controllers=*,-replicaset`.
 * Parsing is pflag's: a boolean flag never takes the next word as its value.
 */
import type { SourcePosition } from '../problems';
import { lookupSetting, settingExistsIn, type SettingRow } from './settings';
import { ignoredFlagMissingIn } from './flagLifetimes';

export interface ParsedFlag {
  /** `--node-monitor-grace-period` */
  flag: string;
  /** the value after `=` or the next word; undefined for a bare flag */
  value?: string;
  /** the setting it sets, when the simulation models it */
  setting?: SettingRow;
  /** a real kube-controller-manager flag the simulation does not model (ignored) */
  ignored: boolean;
  /** the text it came from */
  text: string;
  position?: SourcePosition;
  /** where the value starts (for `--a=b` the part after `=`; for `--a b` the second word) */
  valuePosition?: SourcePosition;
}

/**
 * kube-controller-manager flags the simulation does not model: accepted and
 * ignored, so a real static Pod manifest reads cleanly. (kube-controller-manager
 * --help, 1.12 to 1.37, plus the klog flags; the versions that have each one are in
 * flagLifetimes.ts, and a version without it refuses it.)
 */
export const IGNORED_KCM_FLAGS: ReadonlySet<string> = new Set([
  'address',
  'allocate-node-cidrs',
  'allow-metric-labels',
  'allow-metric-labels-manifest',
  'alsologtostderr',
  'attach-detach-reconcile-sync-period',
  'authentication-kubeconfig',
  'authentication-skip-lookup',
  'authentication-token-webhook-cache-ttl',
  'authentication-tolerate-lookup-failure',
  'authorization-always-allow-paths',
  'authorization-kubeconfig',
  'authorization-webhook-cache-authorized-ttl',
  'authorization-webhook-cache-unauthorized-ttl',
  'azure-container-registry-config',
  'bind-address',
  'cert-dir',
  'cidr-allocator-type',
  'client-ca-file',
  'cloud-config',
  'cloud-provider',
  'cloud-provider-gce-l7lb-src-cidrs',
  'cloud-provider-gce-lb-src-cidrs',
  'cluster-cidr',
  'cluster-name',
  'cluster-signing-cert-file',
  'cluster-signing-duration',
  'cluster-signing-key-file',
  'cluster-signing-kube-apiserver-client-cert-file',
  'cluster-signing-kube-apiserver-client-key-file',
  'cluster-signing-kubelet-client-cert-file',
  'cluster-signing-kubelet-client-key-file',
  'cluster-signing-kubelet-serving-cert-file',
  'cluster-signing-kubelet-serving-key-file',
  'cluster-signing-legacy-unknown-cert-file',
  'cluster-signing-legacy-unknown-key-file',
  'concurrent-cron-job-syncs',
  'concurrent-daemonset-syncs',
  'concurrent-deployment-syncs',
  'concurrent-endpoint-syncs',
  'concurrent-ephemeralvolume-syncs',
  'concurrent-gc-syncs',
  'concurrent-horizontal-pod-autoscaler-syncs',
  'concurrent-job-syncs',
  'concurrent-namespace-syncs',
  'concurrent-rc-syncs',
  'concurrent-resource-quota-syncs',
  'concurrent-resourceclaim-syncs',
  'concurrent-service-endpoint-syncs',
  'concurrent-service-syncs',
  'concurrent-serviceaccount-token-syncs',
  'concurrent-statefulset-syncs',
  'concurrent-ttl-after-finished-syncs',
  'concurrent-validating-admission-policy-status-syncs',
  'configure-cloud-routes',
  'contention-profiling',
  'controller-start-interval',
  'deleting-pods-burst',
  'deleting-pods-qps',
  'deployment-controller-sync-period',
  'disable-attach-detach-reconcile-sync',
  'disable-force-detach-on-timeout',
  'disabled-metrics',
  'enable-dynamic-provisioning',
  'enable-garbage-collector',
  'enable-hostpath-provisioner',
  'enable-leader-migration',
  'endpoint-updates-batch-period',
  'endpointslice-updates-batch-period',
  'experimental-cluster-signing-duration',
  'external-cloud-volume-plugin',
  'flex-volume-plugin-dir',
  'help',
  'horizontal-pod-autoscaler-cpu-initialization-period',
  'horizontal-pod-autoscaler-downscale-delay',
  'horizontal-pod-autoscaler-downscale-stabilization',
  'horizontal-pod-autoscaler-initial-readiness-delay',
  'horizontal-pod-autoscaler-sync-period',
  'horizontal-pod-autoscaler-tolerance',
  'horizontal-pod-autoscaler-upscale-delay',
  'horizontal-pod-autoscaler-use-rest-clients',
  'http2-max-streams-per-connection',
  'kube-api-burst',
  'kube-api-content-type',
  'kube-api-qps',
  'kubeconfig',
  'leader-elect',
  'leader-elect-renew-deadline',
  'leader-elect-resource-lock',
  'leader-elect-resource-name',
  'leader-elect-resource-namespace',
  'leader-elect-retry-period',
  'leader-migration-config',
  'legacy-service-account-token-clean-up-period',
  'log-backtrace-at',
  'log-dir',
  'log-file',
  'log-file-max-size',
  'log-flush-frequency',
  'log-json-info-buffer-size',
  'log-json-split-stream',
  'log-text-info-buffer-size',
  'log-text-split-stream',
  'logging-format',
  'logtostderr',
  'master',
  'max-endpoints-per-slice',
  'min-resync-period',
  'mirroring-concurrent-service-endpoint-syncs',
  'mirroring-endpointslice-updates-batch-period',
  'mirroring-max-endpoints-per-subset',
  'namespace-sync-period',
  'node-cidr-mask-size',
  'node-cidr-mask-size-ipv4',
  'node-cidr-mask-size-ipv6',
  'node-sync-period',
  'one-output',
  'permit-address-sharing',
  'permit-port-sharing',
  'port',
  'profiling',
  'pv-recycler-increment-timeout-nfs',
  'pv-recycler-minimum-timeout-hostpath',
  'pv-recycler-minimum-timeout-nfs',
  'pv-recycler-pod-template-filepath-hostpath',
  'pv-recycler-pod-template-filepath-nfs',
  'pv-recycler-timeout-increment-hostpath',
  'pvclaimbinder-sync-period',
  'requestheader-allowed-names',
  'requestheader-client-ca-file',
  'requestheader-extra-headers-prefix',
  'requestheader-group-headers',
  'requestheader-uid-headers',
  'requestheader-username-headers',
  'resource-quota-sync-period',
  'root-ca-file',
  'route-reconciliation-period',
  'secure-port',
  'service-account-private-key-file',
  'service-cluster-ip-range',
  'show-hidden-metrics-for-version',
  'skip-headers',
  'skip-log-headers',
  'stderrthreshold',
  'terminated-pod-gc-threshold',
  'tls-cert-file',
  'tls-cipher-suites',
  'tls-curve-preferences',
  'tls-min-version',
  'tls-private-key-file',
  'tls-sni-cert-key',
  'use-service-account-credentials',
  'v',
  'version',
  'vmodule',
  'emulated-version',
  'allow-untagged-cloud',
  'register-retry-count',
  'volume-host-allow-local-loopback',
  'volume-host-cidr-denylist',
  'experimental-logging-sanitization',
  'min-compatibility-version',
  'concurrent-device-taint-eviction-syncs',
  'concurrent-disruption-syncs',
  'disable-http2-serving',
]);

/** Ignored flags that are booleans (a bare `--flag` does not take the next word). */
const IGNORED_BOOL_FLAGS: ReadonlySet<string> = new Set([
  'allocate-node-cidrs',
  'alsologtostderr',
  'authentication-skip-lookup',
  'authentication-tolerate-lookup-failure',
  'configure-cloud-routes',
  'contention-profiling',
  'disable-attach-detach-reconcile-sync',
  'disable-force-detach-on-timeout',
  'enable-dynamic-provisioning',
  'enable-garbage-collector',
  'enable-hostpath-provisioner',
  'enable-leader-migration',
  'help',
  'leader-elect',
  'log-json-split-stream',
  'log-text-split-stream',
  'logtostderr',
  'one-output',
  'profiling',
  'skip-headers',
  'skip-log-headers',
  'use-service-account-credentials',
  'version',
  'horizontal-pod-autoscaler-use-rest-clients',
  'allow-untagged-cloud',
  'volume-host-allow-local-loopback',
  'experimental-logging-sanitization',
  'disable-http2-serving',
]);

export const isBoolFlag = (name: string): boolean => {
  const bare = name.replace(/^-+/, '');
  return lookupSetting('--' + bare)?.type === 'bool' || IGNORED_BOOL_FLAGS.has(bare);
};

/**
 * Every flag name the simulation recognises (modelled or ignored) that kube-controller-manager 1.`minor`
 * has, without dashes: the did-you-mean candidates, so that a hint never names a flag the version refuses.
 */
export function knownFlagNames(minor: number): readonly string[] {
  let names = knownByMinor.get(minor);
  if (!names) {
    const modelled = MODELLED_FLAGS.filter((n) => {
      const row = lookupSetting('--' + n);
      return !row || settingExistsIn(row, minor);
    });
    names = [...modelled, ...[...IGNORED_KCM_FLAGS].filter((n) => !ignoredFlagMissingIn(n, minor))];
    knownByMinor.set(minor, names);
  }
  return names;
}
/** One array per version: suggest.ts prepares each candidate list once, keyed by the array. */
const knownByMinor = new Map<number, readonly string[]>();

const MODELLED_FLAGS = [
  'node-monitor-period',
  'node-monitor-grace-period',
  'node-startup-grace-period',
  'pod-eviction-timeout',
  'node-eviction-rate',
  'secondary-node-eviction-rate',
  'large-cluster-size-threshold',
  'unhealthy-zone-threshold',
  'enable-taint-manager',
  'feature-gates',
  'controllers',
  'concurrent-replicaset-syncs',
  'leader-elect-lease-duration',
];

/**
 * Parses one flag word: `--node-monitor-grace-period=20s`, `--enable-taint-manager`,
 * `-v=2`. Returns undefined when the text is not a flag (does not start with `-`).
 * A flag that needs a value and has none keeps `value` undefined; the caller
 * takes the next word (see splitFlagWords).
 */
export function parseFlag(text: string, position?: SourcePosition): ParsedFlag | undefined {
  const t = text.trim();
  if (!/^--?[A-Za-z0-9]/.test(t)) return undefined;
  const eq = t.indexOf('=');
  const name = (eq < 0 ? t : t.slice(0, eq)).replace(/^-+/, '');
  const flag = '--' + name;
  const value = eq < 0 ? undefined : t.slice(eq + 1);
  const setting = lookupSetting(flag);
  const ignored = !setting && IGNORED_KCM_FLAGS.has(name);
  const lead = text.length - text.trimStart().length;
  return {
    flag,
    value,
    setting,
    ignored,
    text: t,
    position,
    valuePosition: value !== undefined && position ? shift(position, lead + eq + 1, value.length) : undefined,
  };
}

/** A word of a command line with where it was found. */
export interface Word {
  text: string;
  position?: SourcePosition;
}

export interface FlagWordsResult {
  flags: ParsedFlag[];
  /** words that are not flags and not a flag's value (e.g. the binary name) */
  positional: Word[];
  /** flags that need a value but are last */
  missingValue: ParsedFlag[];
}

/**
 * Groups command-line words into flags: `--a=b`, `--a b` (when `--a` is not a
 * boolean), and a single word `--a b` (a flags list entry written with a space).
 */
export function splitFlagWords(words: readonly Word[]): FlagWordsResult {
  const flags: ParsedFlag[] = [];
  const positional: Word[] = [];
  const missingValue: ParsedFlag[] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    const trimmed = w.text.trim();
    // "--node-monitor-grace-period 20s" as one list entry
    const space = /^(--?[^\s=]+)\s+(\S.*)$/.exec(trimmed);
    if (space && !trimmed.includes('=')) {
      const f = parseFlag(space[1], w.position);
      if (f) {
        const offset = w.text.indexOf(space[2]);
        flags.push({ ...f, value: space[2], text: trimmed, valuePosition: w.position ? shift(w.position, offset, space[2].length) : undefined });
        continue;
      }
    }
    const f = parseFlag(w.text, w.position);
    if (!f) {
      positional.push(w);
      continue;
    }
    if (f.value === undefined && !isBoolFlag(f.flag)) {
      const next = words[i + 1];
      if (next && !/^--?[A-Za-z]/.test(next.text.trim())) {
        flags.push({ ...f, value: next.text.trim(), text: `${f.text} ${next.text.trim()}`, valuePosition: next.position });
        i++;
        continue;
      }
      if (f.setting || !f.ignored) missingValue.push(f);
    }
    flags.push(f);
  }
  return { flags, positional, missingValue };
}

/** Splits a command line written as one string into words (quotes respected, no expansion). */
export function shellWords(line: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quote: string | null = null;
  let has = false;
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      has = true;
    } else if (/\s/.test(ch)) {
      if (has || cur) out.push(cur);
      cur = '';
      has = false;
    } else cur += ch;
  }
  if (has || cur) out.push(cur);
  return out;
}

function shift(p: SourcePosition, by: number, length: number): SourcePosition {
  if (p.endLine !== undefined && p.endLine !== p.line) return p;
  return {
    ...p,
    column: p.column + by,
    endLine: p.line,
    endColumn: p.column + by + length,
    offset: p.offset !== undefined ? p.offset + by : undefined,
    endOffset: p.offset !== undefined ? p.offset + by + length : undefined,
  };
}
