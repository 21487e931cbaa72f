/**
 * What the panel says of an opened scenario before any step: its settings as
 * text, the what-if keys, and the assumptions the loader and the engine made
 * (the init message).
 */
import type { Simulation, SimulationOptions } from '../engine/simulation/api';
import type { Decision } from '../engine/trace/decision';
import { MISSING_LEASES_ASSUMPTION } from '../engine/kubelet/missingLeases';
import { formatDuration, formatTime } from '../engine/model/time';
import type { AssumptionItem, InitMessage, ScenarioInfo, UiSettings } from '../protocol/webview';
import type { RealityIndex } from './reality';
import { scenarioEventMarks } from './scenarioEvents';

/**
 * What the init message reads of a simulation, the same for every simulation of the scenario at the start: a start
 * still being made answers it from what the open's simulation had then (swapAtOpen.ts), without making the shown one.
 */
export type ScenarioFacts = Pick<Simulation, 'scenario' | 'config' | 'behaviour' | 'problems' | 'trace' | 'startTime'>;

const DURATION_KEYS = new Set(['nodeMonitorPeriod', 'nodeMonitorGracePeriod', 'nodeStartupGracePeriod', 'podEvictionTimeout', 'leaderElectLeaseDuration']);

export function formatSetting(key: string, value: unknown): string {
  if (DURATION_KEYS.has(key) && typeof value === 'number') return formatDuration(value);
  if (value instanceof Set) return [...value].sort().join(',');
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value as Record<string, unknown>)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(',');
  }
  return String(value);
}

export function scenarioInfo(sim: ScenarioFacts, options: SimulationOptions): ScenarioInfo {
  const s = sim.scenario;
  const settings: Record<string, string> = {};
  for (const [k, v] of Object.entries(sim.config)) settings[k] = formatSetting(k, v);
  return {
    name: s.name,
    file: s.file,
    kubernetesVersion: sim.behaviour.version.text,
    plainSnapshot: s.plainSnapshot,
    controllerMemory: s.controllerMemory,
    binder: s.binder,
    settings,
    overrides: { ...(options.set ?? {}) },
    monitorPeriodMs: sim.config.nodeMonitorPeriod / 1000,
    events: scenarioEventMarks(s.events, sim.startTime),
  };
}

/** The settings a what-if may change: the numbers and switches. */
export function whatIfKeys(sim: ScenarioFacts): { key: string; value: string }[] {
  return Object.entries(sim.config)
    .filter(([, v]) => typeof v === 'number' || typeof v === 'boolean')
    .map(([key, v]) => ({ key, value: formatSetting(key, v) }));
}

export function assumptions(sim: ScenarioFacts): AssumptionItem[] {
  const s = sim.scenario;
  const out: AssumptionItem[] = [
    {
      text:
        s.controllerMemory === 'fresh'
          ? 'Controller memory: fresh. Every node is newly observed at the start time, as a controller that has just started.'
          : "Controller memory: reconstructed from the snapshot (probe time from the Ready heartbeat and the Lease, transition time from the Ready condition, taint-eviction timers from the taints' timeAdded).",
    },
  ];
  if (s.binder === 'simplified')
    out.push({
      text: 'Pods without a node are placed by a simplified binder (the main kube-scheduler filters and its least-allocated score, ties by name), not the real scheduler.',
    });
  // the missing-Lease assumption is one decision per node (for the node's own trace); here it is one line
  const leases: Decision[] = [];
  for (const d of sim.trace) {
    if (d.action !== 'AssumptionMade') continue;
    if (d.details?.assumption === MISSING_LEASES_ASSUMPTION) leases.push(d);
    else out.push({ text: d.summary, seq: d.seq });
  }
  if (leases.length) out.push({ text: missingLeasesText(leases), seq: leases[0].seq });
  return out;
}

/** The missing-Lease assumption in one line: how many nodes, the first few by name. */
export function missingLeasesText(decisions: readonly Decision[]): string {
  const names = decisions.map((d) => d.object.slice(d.object.indexOf('/') + 1));
  const shown = names.length > 5 ? `${names.slice(0, 5).join(', ')} and ${names.length - 5} more` : names.join(', ');
  return `No Lease in the snapshot: ${names.length} node${names.length === 1 ? '' : 's'} whose Ready is True taken as having renewed ${names.length === 1 ? 'its Lease' : 'their Leases'} at the start time (missingLeases: assumed): ${shown}.`;
}

/** What the webview is told first (and again when it restarts), before any position. */
export function initMessage(sim: ScenarioFacts, options: SimulationOptions, settings: UiSettings, reality: RealityIndex | undefined): InitMessage {
  return {
    type: 'init',
    scenario: scenarioInfo(sim, options),
    problems: sim.problems.map((p) => ({
      severity: p.severity,
      code: p.code,
      message: p.message,
      where: p.position ? `${p.position.file}:${p.position.line}:${p.position.column}` : undefined,
    })),
    assumptions: assumptions(sim),
    settings,
    startTime: formatTime(sim.startTime),
    whatIfKeys: whatIfKeys(sim),
    ...(reality ? { reality: reality.lane } : {}),
  };
}
