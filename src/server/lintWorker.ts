/**
 * The background lint (see service/background.ts) in a worker thread of the
 * server's own bundle: the whole document with every file it names, snapshot
 * included; the thread exits when it has answered, and its heap with it.
 */
import { Worker } from 'node:worker_threads';
import { lintDocumentWithContext, type LintProblem } from '../engine/lint';
import { nodeFs } from '../platform/nodeFs';
import { relevantKind, type BackgroundLintJob } from './service';

/** What the worker thread runs. */
export function lintJob(job: BackgroundLintJob): LintProblem[] {
  const kind = relevantKind(job.text);
  if (!kind) return [];
  return lintDocumentWithContext(job.uri, job.text, kind, nodeFs(), { version: job.version, allowOutside: job.allowOutside, roots: job.roots }).problems;
}

/** Runs `job` in a new worker thread started from `entry` (the server's bundle, which calls lintJob when not the main thread). */
export function lintInWorker(entry: string, job: BackgroundLintJob): Promise<LintProblem[]> {
  return new Promise((resolve, reject) => {
    const w = new Worker(entry, { workerData: job });
    let answered = false;
    w.once('message', (problems: LintProblem[]) => {
      answered = true;
      resolve(problems);
    });
    w.once('error', reject);
    w.once('exit', (code) => {
      if (!answered) reject(new Error(`the lint worker exited with code ${code}`));
    });
  });
}
