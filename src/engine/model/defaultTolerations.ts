/**
 * The DefaultTolerationSeconds admission plugin
 * (plugin/pkg/admission/defaulttolerationseconds/admission.go, the same
 * decision from v1.12 to v1.35), ported: on CREATE and UPDATE of a pod (not of
 * its subresources such as status or binding), a pod that has no toleration
 * counting as "tolerates node.kubernetes.io/not-ready:NoExecute" gets
 * `{key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute,
 * tolerationSeconds: 300}` appended, and likewise for
 * node.kubernetes.io/unreachable.
 *
 * The plugin's test is looser than toleration matching: a toleration counts
 * when its key is the taint's key or empty and its effect is NoExecute or
 * empty; its operator and value are not looked at (so `key: not-ready,
 * operator: Equal, value: x` counts, although it would not tolerate the
 * controller's taint, which has no value).
 *
 * The 300 s are the defaults of kube-apiserver's
 * --default-not-ready-toleration-seconds / --default-unreachable-toleration-seconds.
 */
import type { PodRecord, Toleration } from './types';

export const TAINT_NODE_NOT_READY = 'node.kubernetes.io/not-ready';
export const TAINT_NODE_UNREACHABLE = 'node.kubernetes.io/unreachable';
export const DEFAULT_NOT_READY_TOLERATION_SECONDS = 300;
export const DEFAULT_UNREACHABLE_TOLERATION_SECONDS = 300;

export interface DefaultTolerationSettings {
  notReadySeconds: number;
  unreachableSeconds: number;
}

export const DEFAULT_TOLERATION_SETTINGS: DefaultTolerationSettings = {
  notReadySeconds: DEFAULT_NOT_READY_TOLERATION_SECONDS,
  unreachableSeconds: DEFAULT_UNREACHABLE_TOLERATION_SECONDS,
};

export interface DefaultTolerationsResult {
  /** the pod's tolerations after admission (a new array; the input is not changed) */
  tolerations: Toleration[];
  /** the tolerations the plugin appended, in order (empty when the pod already had both) */
  added: Toleration[];
  /** what the plugin found, for a "why" */
  toleratesNotReady: boolean;
  toleratesUnreachable: boolean;
}

/** The plugin's own test: key equal or empty, effect NoExecute or empty; operator and value ignored. */
function countsFor(t: Toleration, key: string): boolean {
  return (t.key === key || !t.key) && (t.effect === 'NoExecute' || !t.effect);
}

/** `Admit` on a pod's tolerations: what the API server stores. */
export function admitDefaultTolerationSeconds(
  tolerations: readonly Toleration[],
  settings: DefaultTolerationSettings = DEFAULT_TOLERATION_SETTINGS,
): DefaultTolerationsResult {
  let toleratesNotReady = false;
  let toleratesUnreachable = false;
  for (const t of tolerations) {
    if (countsFor(t, TAINT_NODE_NOT_READY)) toleratesNotReady = true;
    if (countsFor(t, TAINT_NODE_UNREACHABLE)) toleratesUnreachable = true;
  }
  const added: Toleration[] = [];
  if (!toleratesNotReady) {
    added.push({ key: TAINT_NODE_NOT_READY, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: settings.notReadySeconds });
  }
  if (!toleratesUnreachable) {
    added.push({ key: TAINT_NODE_UNREACHABLE, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: settings.unreachableSeconds });
  }
  return { tolerations: [...tolerations, ...added], added, toleratesNotReady, toleratesUnreachable };
}

/**
 * Applies the plugin to a pod about to be created (or updated, not through a
 * subresource): sets `pod.tolerations` and, when something was added, a copy
 * of `raw` whose spec.tolerations carries the added tolerations, so that the
 * exported object matches what the API server would have stored. Returns the
 * tolerations added.
 */
export function applyDefaultTolerationSeconds(pod: PodRecord, settings: DefaultTolerationSettings = DEFAULT_TOLERATION_SETTINGS): Toleration[] {
  const r = admitDefaultTolerationSeconds(pod.tolerations, settings);
  if (r.added.length === 0) return [];
  pod.tolerations = r.tolerations;
  const spec = pod.raw.spec && typeof pod.raw.spec === 'object' && !Array.isArray(pod.raw.spec) ? (pod.raw.spec as Record<string, unknown>) : {};
  const rawTolerations = Array.isArray(spec.tolerations) ? spec.tolerations : [];
  pod.raw = {
    ...pod.raw,
    spec: {
      ...spec,
      tolerations: [...rawTolerations, ...r.added.map((t) => ({ key: t.key, operator: t.operator, effect: t.effect, tolerationSeconds: t.tolerationSeconds }))],
    },
  };
  return r.added;
}
