/**
 * How the extension opens a scenario or snapshot with the engine: the loader
 * over node's fs, then a simulation factory the session calls again for Reset
 * and what-if runs. The one place the extension names the engine's loader.
 */
import { createSimulation, simulationInSlices, type Scenario, type Simulation, type SimulationOptions } from '../engine';
import { loadScenario, parseScenario } from '../engine/snapshot/scenario';
import { nodeFs } from '../platform/nodeFs';
import type { MakeSimulation } from './session';

export interface Opened {
  scenario: Scenario;
  make: MakeSimulation;
  options: SimulationOptions;
}

/** Loads `path` (scenario file, snapshot file or folder). `defaultVersion` applies to plain snapshots only. */
export function openScenario(path: string, defaultVersion: string, access: { allowOutside?: boolean; roots?: readonly string[] } = {}): Opened {
  const scenario = loadScenario(path, nodeFs(), access);
  const options: SimulationOptions = scenario.plainSnapshot && defaultVersion ? { version: defaultVersion } : {};
  return { scenario, options, make: makeOf(scenario) };
}

/**
 * Opens scenario text that has no file of its own (an imported scenario in an untitled editor): `file`
 * is where it is taken to live, so its snapshot: paths resolve beside the evidence.
 */
export function openScenarioText(text: string, file: string, access: { allowOutside?: boolean; roots?: readonly string[] } = {}): Opened {
  const scenario = parseScenario(text, file, nodeFs(), access).scenario;
  return { scenario, options: {}, make: makeOf(scenario) };
}

/** The scenario's simulations, made at once or a slice at a time (run-ahead's, in idle time). */
function makeOf(scenario: Scenario): MakeSimulation {
  return Object.assign((o: SimulationOptions) => createSimulation(scenario, o), {
    inSlices: (o: SimulationOptions, like?: Simulation) => simulationInSlices(scenario, o, undefined, like),
  });
}
