/**
 * The engine's public entry: what the shells (command line, extension,
 * language server, benchmark) use. The engine is pure: no vscode, no node:*,
 * no DOM.
 */
export type { Simulation, SimulationOptions, StateView, ZoneView, MachineView, Explanation, ExpectationResult, ZoneStateName } from './simulation/api';
export { createSimulation } from './simulation/simulation';
export { simulationInSlices } from './simulation/makeInSlices';
export { planControllers, CONTROLLER_ORDER } from './simulation/controllerPlan';
export type { ControllerPlan, ControllerFactory } from './simulation/controllerPlan';
export { mergePatch, resolveNodeTarget } from './simulation/world';
export { parseObjectRef } from './model/objectRef';
/** names as people sort them (node-9 before node-10), the order the binder breaks ties in and the panel lists in */
export { naturalCompare } from './controllers/scheduler/fit';

export type { Decision, DecisionInput, Check, MachineTransition, Action, ControllerName } from './trace/decision';
export type { WhyNot, WhyNotCheck, WhyNotOutcome, Counterfactual } from './trace/whyNot';
export { ACTIONS, NOISE_ACTIONS } from './trace/decision';
export { DECISION_FIELDS, orderedDecision, decisionToJson, traceToJsonLines, parseJsonLines } from './trace/serialize';
export { formatTraceText, formatCheck, formatWhyNot, formatWhyNotWhen, timesAsOffsets } from './trace/text';
export type { TextOptions } from './trace/text';
export { causeChain, rootCauses } from './trace/causes';

export type { Problem, Severity, SourcePosition } from './problems';
export { formatProblem, hasErrors } from './problems';
export type { Scenario, ScenarioEvent, Expectation, LoadedSnapshot, TimeSpec } from './snapshot/types';
export type { Micros, Duration } from './model/time';
export { formatTime, formatDuration, parseDuration, parseTimestamp } from './model/time';
export type { ObjectRef, KObject } from './model/types';
export { Kubelets } from './kubelet/kubelets';
export type { KubeletView } from './kubelet/kubelets';

// loading inputs (the loader, snapshot/): shells read files through an InputFs
export { loadSnapshot } from './snapshot/load';
export { loadScenario, parseScenario, scenarioFromSnapshot, isScenarioText } from './snapshot/scenario';
export { MemoryFs } from './snapshot/source';
export type { InputFs } from './snapshot/source';
export type { KubeletState } from './kubelet/kubelets';
export { SimulationImpl, MAX_CHECKPOINTS } from './simulation/simulation';
