/**
 * The background lint (see service/background.ts) in a worker thread of the
 * server's own bundle. The thread stays while documents naming a big
 * snapshot are open and holds that snapshot parsed (KeptSnapshot), so an
 * edit is linted without parsing it again; it is ended when the last such
 * document closes, and the snapshot's memory with it.
 */
import { setPriority } from 'node:os';
import { parentPort, Worker } from 'node:worker_threads';
import { nodeFs } from '../platform/nodeFs';
import type { BackgroundLintJob } from './service';
import { KeptSnapshot, type LintAnswer } from './snapshotCache';

interface Request {
  id: number;
  job: BackgroundLintJob;
  stamps: string;
}
type Reply = { id: number; answer: LintAnswer } | { id: number; error: string };

/**
 * The nice value of the lint's thread. Its parse of a big snapshot is seconds of CPU, and comes when a scenario
 * opens, just as the user asks the panel to load the same file: beside it, the extension host's load of the
 * 5,000-node snapshot took twice as long on two cores, and as long as alone at this value (bench/README.md
 * "lsnice"). Linux keeps a nice value per thread (setpriority on the calling thread), so the server's own thread,
 * which answers lens, hover and completion, keeps its priority; elsewhere the call would lower the whole process.
 */
export const LINT_NICE = 19;

/** Lowers the calling thread's priority where that is the thread's alone (Linux); true when it did. */
export function lowerLintPriority(platform: NodeJS.Platform = process.platform, set: (pid: number, nice: number) => void = setPriority): boolean {
  if (platform !== 'linux') return false;
  try {
    set(0, LINT_NICE);
    return true;
  } catch {
    // not allowed (a sandbox): the lint runs at the server's priority, as before
    return false;
  }
}

/** What the worker thread runs: answers each request in turn. */
export function serveLintRequests(): void {
  lowerLintPriority();
  const kept = new KeptSnapshot(nodeFs());
  parentPort?.on('message', (r: Request) => {
    let reply: Reply;
    try {
      reply = { id: r.id, answer: kept.lint(r.job, r.stamps) };
    } catch (e) {
      reply = { id: r.id, error: String((e as Error)?.message ?? e) };
    }
    parentPort?.postMessage(reply);
  });
}

/** The main thread's side: one worker thread started from `entry` (the server's bundle), started when first asked. */
export class LintWorker {
  private worker?: Worker;
  private next = 1;
  private readonly waiting = new Map<number, { resolve(a: LintAnswer): void; reject(e: Error): void }>();

  constructor(private readonly entry: string) {}

  lint(job: BackgroundLintJob, stamps: string): Promise<LintAnswer> {
    const w = this.start();
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      w.postMessage({ id, job, stamps } satisfies Request);
    });
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(this.entry);
    // the server exits when its client goes, whether or not a lint is kept
    w.unref();
    w.on('message', (r: Reply) => {
      const p = this.waiting.get(r.id);
      if (!p) return;
      this.waiting.delete(r.id);
      if ('error' in r) p.reject(new Error(r.error));
      else p.resolve(r.answer);
    });
    const fail = (e: Error) => {
      if (this.worker === w) this.worker = undefined;
      for (const p of this.waiting.values()) p.reject(e);
      this.waiting.clear();
    };
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`the lint worker exited with code ${code}`)));
    this.worker = w;
    return w;
  }

  /** Ends the thread (and frees the snapshot it holds). */
  close(): void {
    const w = this.worker;
    this.worker = undefined;
    void w?.terminate();
  }
}
