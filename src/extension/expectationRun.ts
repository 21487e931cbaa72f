/**
 * The Testing view's run of one scenario's expectations, on a worker thread of its own: a
 * 5,000-node scenario runs for tens of seconds, and the extension host must keep answering
 * meanwhile (as the panel's Run Until does with its slices). The worker is ended when the run
 * is cancelled, which also frees the snapshot it held. No `vscode` here: the worker bundle
 * (expectationWorker.ts) is this file and the engine.
 */
import { Worker } from 'node:worker_threads';
import type { ExpectationResult, Problem } from '../engine';
import { openScenarioText } from './openScenario';
import { formatTime } from '../engine/model/time';

export interface ExpectationJob {
  /** the scenario's text as the editor holds it */
  text: string;
  /** where the scenario lives: its snapshot: path resolves beside it */
  file: string;
  access: { allowOutside: boolean; roots: string[] };
}

export type ExpectationAnswer =
  /** `start`: the simulation's start (RFC3339), for showing times as offsets as the expectations write them */
  | { kind: 'results'; results: ExpectationResult[]; start: string }
  /** errors in the input: nothing was run */
  | { kind: 'errors'; errors: Problem[] }
  | { kind: 'failed'; message: string }
  | { kind: 'cancelled' };

/** What the worker does with a job. */
export function runExpectations(job: ExpectationJob): ExpectationAnswer {
  try {
    const sim = openScenarioText(job.text, job.file, job.access).make({});
    const errors = sim.problems.filter((p) => p.severity === 'error');
    if (errors.length) return { kind: 'errors', errors };
    return { kind: 'results', results: sim.checkExpectations(), start: formatTime(sim.startTime) };
  } catch (err) {
    return { kind: 'failed', message: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Runs `job` on a new worker thread started from `entry` (the worker bundle). `onCancel` is
 * called with the function that ends the run: the answer is then `cancelled`.
 */
export function runExpectationsInWorker(entry: string, job: ExpectationJob, onCancel: (cancel: () => void) => void): Promise<ExpectationAnswer> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (a: ExpectationAnswer) => {
      if (settled) return;
      settled = true;
      resolve(a);
      void worker.terminate();
    };
    const worker = new Worker(entry, { workerData: job });
    worker.on('message', (a: ExpectationAnswer) => settle(a));
    worker.on('error', (e) => settle({ kind: 'failed', message: e.message }));
    worker.on('exit', (code) => settle({ kind: 'failed', message: `the run's worker thread exited with code ${code} before it answered` }));
    onCancel(() => settle({ kind: 'cancelled' }));
  });
}
