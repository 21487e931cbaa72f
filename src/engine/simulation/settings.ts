/**
 * The settings a simulation runs with: the version (the scenario's
 * kubernetesVersion, or `--version`), then config/resolve.ts for the
 * controller-manager and kubelet settings (defaults for the version, config
 * file, scenario keys, flags, `--set`). The simulation's problems are the
 * scenario's plus these.
 */
import type { ControllerConfig, KubeletConfig } from '../config/types';
import type { Problem } from '../problems';
import type { Scenario } from '../snapshot/types';
import type { VersionBehaviour } from '../versions/types';
import { kubeVersion, parseKubeVersion, MAX_MINOR } from '../versions/table';
import { isFeatureEnabled, resolveConfig } from '../config/resolve';
import type { SimulationOptions } from './api';

export interface SimulationSettings {
  behaviour: VersionBehaviour;
  config: ControllerConfig;
  kubelet: KubeletConfig;
  /** the NodeLease gate: kubelets renew Leases and the controller reads them */
  leases: boolean;
  problems: Problem[];
}

export function resolveSimulationSettings(scenario: Scenario, options: SimulationOptions): SimulationSettings {
  const problems: Problem[] = [];
  const text = options.version ?? scenario.kubernetesVersion;
  let version = parseKubeVersion(text);
  if (!version) {
    version = kubeVersion(MAX_MINOR);
    problems.push({
      code: 'unknown-version',
      severity: 'error',
      message: `${options.version !== undefined ? '--version' : 'kubernetesVersion'} ${JSON.stringify(text)} is not a supported version (1.12 to 1.${MAX_MINOR})`,
    });
  }
  const r = resolveConfig(scenario.controllerManager, scenario.kubelet, version, options.set);
  problems.push(...r.problems);
  return { behaviour: r.behaviour, config: r.config, kubelet: r.kubelet, leases: isFeatureEnabled(r.config, r.behaviour, 'NodeLease'), problems };
}
