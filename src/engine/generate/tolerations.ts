/**
 * The tolerations generated pods carry (objects.ts): their template's, the
 * admission defaults, the DaemonSet controller's; and kubeadm's control-plane
 * taint keys and role labels, by version.
 */
import type { DaemonSetPlan, TolerationStyle } from './plan';

type J = Record<string, unknown>;

const NOT_READY = 'node.kubernetes.io/not-ready';
const UNREACHABLE = 'node.kubernetes.io/unreachable';

/** What the DefaultTolerationSeconds admission plugin adds (pkg/.../admission/defaulttolerationseconds). */
const defaultToleration = (key: string): J => ({ effect: 'NoExecute', key, operator: 'Exists', tolerationSeconds: 300 });

/** The template tolerations of each style (the admission plugin then adds what is missing). */
export function templateTolerations(style: TolerationStyle, minor: number): J[] {
  switch (style) {
    case 'default':
    case 'none':
      return [];
    case 'zero':
      return [
        { effect: 'NoExecute', key: UNREACHABLE, operator: 'Exists', tolerationSeconds: 0 },
        { effect: 'NoExecute', key: NOT_READY, operator: 'Exists', tolerationSeconds: 0 },
      ];
    case 'sixty':
      return [{ effect: 'NoExecute', key: UNREACHABLE, operator: 'Exists', tolerationSeconds: 60 }];
    case 'infinite':
      return [{ effect: 'NoExecute', key: UNREACHABLE, operator: 'Exists' }];
    case 'control-plane':
      return [{ key: 'CriticalAddonsOnly', operator: 'Exists' }, ...controlPlaneTaintKeys(minor).map((key) => ({ effect: 'NoSchedule', key }))];
  }
}

/** Pod tolerations as the API server stores them: the template's, then the admission defaults. */
export function podTolerations(style: TolerationStyle, minor: number): J[] {
  const own = templateTolerations(style, minor);
  if (style === 'none') return own;
  const has = (key: string) => own.some((x) => x.key === key && (x.effect === 'NoExecute' || x.effect === undefined));
  return [...own, ...[NOT_READY, UNREACHABLE].filter((k) => !has(k)).map(defaultToleration)];
}

/** The tolerations the DaemonSet controller adds to its pods (pkg/controller/daemon/util). */
export function daemonPodTolerations(ds: DaemonSetPlan): J[] {
  const added: J[] = [
    { effect: 'NoExecute', key: NOT_READY, operator: 'Exists' },
    { effect: 'NoExecute', key: UNREACHABLE, operator: 'Exists' },
    { effect: 'NoSchedule', key: 'node.kubernetes.io/disk-pressure', operator: 'Exists' },
    { effect: 'NoSchedule', key: 'node.kubernetes.io/memory-pressure', operator: 'Exists' },
    { effect: 'NoSchedule', key: 'node.kubernetes.io/pid-pressure', operator: 'Exists' },
    { effect: 'NoSchedule', key: 'node.kubernetes.io/unschedulable', operator: 'Exists' },
  ];
  if (ds.hostNetwork) added.push({ effect: 'NoSchedule', key: 'node.kubernetes.io/network-unavailable', operator: 'Exists' });
  return [...ds.tolerations, ...added];
}

/** kubeadm's control-plane taint key(s): master before 1.24, both in 1.24, control-plane after. */
export function controlPlaneTaintKeys(minor: number): string[] {
  if (minor < 24) return ['node-role.kubernetes.io/master'];
  if (minor === 24) return ['node-role.kubernetes.io/master', 'node-role.kubernetes.io/control-plane'];
  return ['node-role.kubernetes.io/control-plane'];
}

export function controlPlaneRoleLabels(minor: number): string[] {
  if (minor < 20) return ['node-role.kubernetes.io/master'];
  if (minor < 24) return ['node-role.kubernetes.io/master', 'node-role.kubernetes.io/control-plane'];
  return ['node-role.kubernetes.io/control-plane'];
}
