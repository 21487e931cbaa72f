/**
 * One fuzz case, in the current thread: load it from memory, refuse it or run it in checking
 * mode, hash its trace and final state, and check that stepping back then forward again
 * gives the same state. Exceptions are caught and reported: the fuzzer classifies them.
 */
import { createHash } from 'node:crypto';
import { exportCluster } from '../../src/engine/model/export';
import { hasErrors } from '../../src/engine/problems';
import { unsafeToRun } from '../../src/engine/model/limits';
import { EVERY_CHECK } from '../helpers/everyCheck';
import { createSimulation } from '../../src/engine/simulation/simulation';
import { loadScenario } from '../../src/engine/snapshot/scenario';
import { MemoryFs } from '../../src/engine/snapshot/source';
import { traceToJsonLines } from '../../src/engine/trace/serialize';
import type { FuzzCase } from './cases';

export interface CaseResult {
  id: number;
  /** refused: nothing usable, or unsafe to run (a clean outcome); ran: simulated, perhaps a partial input; crash: an exception escaped */
  outcome: 'refused' | 'ran' | 'crash';
  /** sha256 of the problems, the trace (JSON Lines) and the final state: compared between processes */
  hash: string;
  decisions: number;
  /** the codes of the error problems (a run may go on with some: a partial input) */
  errors?: string[];
  violations: string[];
  stepBack: 'ok' | 'mismatch' | 'skipped';
  error?: string;
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex').slice(0, 16);

export function runCase(c: FuzzCase): CaseResult {
  try {
    const scenario = loadScenario(c.entry, new MemoryFs(c.files));
    const problems = scenario.problems.map((p) => `${p.position?.line}:${p.position?.column} ${p.severity} ${p.code} ${p.message}`).join('\n');
    const errorCodes = (ps: readonly { severity: string; code: string }[]) => [...new Set(ps.filter((p) => p.severity === 'error').map((p) => p.code))].sort();
    // as the command line does: nothing usable with errors, or an error that makes the run unsafe, is refused;
    // other errors leave a partial input that runs
    const usable = scenario.snapshot.objects.length > 0 || scenario.events.length > 0;
    if ((!usable && hasErrors(scenario.problems)) || unsafeToRun(scenario.problems))
      return { id: c.id, outcome: 'refused', hash: sha(problems), decisions: 0, errors: errorCodes(scenario.problems), violations: [], stepBack: 'skipped' };
    // every checking mode too: each compares a fast path with the slow one it stands for, and throws (a crash here) on a difference
    const sim = createSimulation(scenario, { checkInvariants: true, checks: EVERY_CHECK });
    if (unsafeToRun(sim.problems))
      return {
        id: c.id,
        outcome: 'refused',
        hash: sha(sim.problems.map((p) => `${p.code} ${p.message}`).join('\n')),
        decisions: 0,
        errors: errorCodes(sim.problems),
        violations: [],
        stepBack: 'skipped',
      };
    const end = sim.startTime + c.horizonSeconds * 1_000_000;
    sim.runUntil(end);
    const trace = traceToJsonLines(sim.trace);
    const state = JSON.stringify(exportCluster(sim.cluster));
    const hash = sha(`${problems}\n${trace}\n${state}`);
    // the problems too: the controllers' own (a ReplicaSet's, a pod's owners) are memory a restore puts back
    const found = JSON.stringify(sim.problems);
    let stepBack: CaseResult['stepBack'] = 'skipped';
    if (sim.pass !== null && sim.pass >= 4) {
      sim.goToPass(Math.floor(sim.pass / 2));
      sim.runUntil(end);
      const same = traceToJsonLines(sim.trace) === trace && JSON.stringify(exportCluster(sim.cluster)) === state && JSON.stringify(sim.problems) === found;
      stepBack = same ? 'ok' : 'mismatch';
    }
    return {
      id: c.id,
      outcome: 'ran',
      hash,
      decisions: sim.trace.length,
      errors: errorCodes(sim.problems),
      violations: [...(sim.invariants?.violations ?? [])],
      stepBack,
    };
  } catch (e) {
    const error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    return { id: c.id, outcome: 'crash', hash: sha(error), decisions: 0, violations: [], stepBack: 'skipped', error };
  }
}
