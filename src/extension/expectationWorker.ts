/** The worker thread's side of expectationRun.ts: runs the one job it was started with and answers. */
import { parentPort, workerData } from 'node:worker_threads';
import { runExpectations, type ExpectationJob } from './expectationRun';

parentPort?.postMessage(runExpectations(workerData as ExpectationJob));
