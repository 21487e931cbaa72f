/**
 * The code of an outage's first passes compiled before the user's outage reaches them. In the
 * generated 5,000-node outage (1.31) the pass after the Unknown pass is the run's first to queue
 * nodes for tainting, taint one, evict pods, create and place replacements: every one of those
 * paths runs there for the first time in the process, and about a fifth of that pass's CPU was
 * that code compiled and run cold (bench/README.md "### after25"). A small generated outage of
 * the same version, stepped through those passes once per process and thrown away, does it
 * beforehand; its simulation shares nothing with the user's (its own cluster, host and trace),
 * so no decision of theirs changes.
 */
import { GenerateOptionsError, generateClusterText } from '../generate';
import { parseScenario } from '../snapshot/scenario';
import type { InputFs } from '../snapshot/source';
import type { DecisionList } from '../trace/decisionLog';
import type { Scenario } from '../snapshot/types';

/** Makes the warm-up's simulation (simulation.ts createSimulation, passed in: it imports this file) */
export type MakeWarm = (scenario: Scenario) => { step(interactive?: boolean): void; readonly trace: DecisionList };

/**
 * A zone's nodes go dark a minute in: its Unknown pass, then the taints, evictions and replacements after it. Lean,
 * unindented JSON: the full detail's 1.75 MB took ~170 of the warm-up's ~200 ms to generate and load. Fewer pods (3
 * nodes of 20) warmed too little: the pass after the Unknown pass B ÷ A 1.18 / 0.79 / 1.01.
 */
const WARM_OPTIONS = {
  nodes: 6,
  podsPerNode: 30,
  zones: 3,
  seed: 1,
  detail: 'lean',
  managedFields: 0,
  indent: 0,
  timeline: { zoneOutage: { zone: 1, at: '60s' } },
} as const;
/** passes stepped: past the Unknown pass (about pass 20), the zone's taints (one per 10 s), their evictions and replacements */
const WARM_PASSES = 40;

const warmed = new Set<number>();

/**
 * The warm-up outage of 1.`minor` stepped through its first passes, once per version in a process;
 * false when it was done already, or the generator has no such version (nothing to warm with).
 */
export function warmUpOnce(minor: number, make: MakeWarm): DecisionList | false {
  if (warmed.has(minor)) return false;
  // marked first: a warm-up that throws is not tried again on every prepare
  warmed.add(minor);
  try {
    return warmUpTrace(minor, make);
  } catch (e) {
    if (e instanceof GenerateOptionsError) return false;
    throw e;
  }
}

/** The warm-up outage of `version` stepped (tests: its trace says what it ran through). */
export function warmUpTrace(minor: number, make: MakeWarm): DecisionList {
  const { cluster, scenario } = generateClusterText({ ...WARM_OPTIONS, kubernetesVersion: `1.${minor}`, format: 'json' });
  const files = new Map([['/warm-up/cluster.json', cluster]]);
  const fs: InputFs = {
    stat: (p) => (files.has(p) ? { kind: 'file', size: files.get(p)!.length } : undefined),
    readText: (p) => {
      const t = files.get(p);
      if (t === undefined) throw new Error(`warm-up: no file ${p}`);
      return t;
    },
    list: () => [],
  };
  const sim = make(parseScenario(scenario!, '/warm-up/scenario.json', fs).scenario);
  for (let i = 0; i < WARM_PASSES; i++) sim.step(true);
  return sim.trace;
}
