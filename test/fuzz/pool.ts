/**
 * Runs fuzz cases in worker threads, each case with a time limit and each worker with a heap
 * limit: a case that overruns its time is a hang (the worker is terminated and replaced), one
 * whose worker runs out of heap is runaway memory.
 */
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import type { FuzzCase } from './cases';
import type { CaseResult } from './runCase';

export type Outcome = CaseResult | { id: number; outcome: 'hang' | 'memory'; error: string };

export interface PoolOptions {
  seconds: number;
  heapMb: number;
  stackMb: number;
}

export class Pool {
  private worker: Worker | undefined;

  constructor(private readonly options: PoolOptions) {}

  private spawn(): Worker {
    return new Worker(join(__dirname, 'worker-entry.cjs'), {
      resourceLimits: { maxOldGenerationSizeMb: this.options.heapMb, stackSizeMb: this.options.stackMb },
    });
  }

  run(message: { seed: number; id: number } | { case: FuzzCase }, id: number): Promise<Outcome> {
    const w = (this.worker ??= this.spawn());
    return new Promise((resolve) => {
      let done = false;
      const finish = (o: Outcome, replace: boolean) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('error', onError);
        w.off('exit', onExit);
        if (replace) {
          void w.terminate();
          if (this.worker === w) this.worker = undefined;
        }
        resolve(o);
      };
      const onMessage = (r: CaseResult) => finish(r, false);
      const onError = (e: Error & { code?: string }) =>
        finish(
          e.code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? { id, outcome: 'memory', error: e.message }
            : { id, outcome: 'crash', hash: 'worker', decisions: 0, violations: [], stepBack: 'skipped', error: `${e.name}: ${e.message}` },
          true,
        );
      const onExit = (code: number) =>
        finish({ id, outcome: 'crash', hash: 'exit', decisions: 0, violations: [], stepBack: 'skipped', error: `worker exited with ${code}` }, true);
      const timer = setTimeout(() => finish({ id, outcome: 'hang', error: `no answer in ${this.options.seconds}s` }, true), this.options.seconds * 1000);
      w.on('message', onMessage);
      w.on('error', onError);
      w.on('exit', onExit);
      w.postMessage(message);
    });
  }

  async close(): Promise<void> {
    await this.worker?.terminate();
    this.worker = undefined;
  }
}
