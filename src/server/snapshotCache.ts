/**
 * What the background lint keeps between runs: the one big snapshot the
 * document names, parsed once per change of its files (their stamps: size
 * and mtime), so an edit of the scenario is linted against it without
 * parsing 400 MiB again; and the names in it, which the quick answers
 * (completion) use without holding the snapshot. Runs in the server's worker
 * thread (lintWorker.ts); pure otherwise, so it is tested in-process.
 */
import { lintDocumentWithContext, type LintProblem } from '../engine/lint';
import type { InputFs } from '../engine/snapshot/source';
import type { LoadedSnapshot } from '../engine/snapshot/types';
import { relevantKind, type BackgroundLintJob, type SnapshotNames } from './service';

export interface LintAnswer {
  problems: LintProblem[];
  /** the names in the snapshot, when this run parsed it (else they are as the last answer said) */
  names?: SnapshotNames;
}

export function namesOf(snapshot: LoadedSnapshot): SnapshotNames {
  const c = snapshot.cluster;
  return { nodes: [...c.nodes.keys()].sort(), pods: [...c.pods.keys()].sort(), replicaSets: [...c.replicaSets.keys()].sort() };
}

export class KeptSnapshot {
  /** the scenario parser's cache (ScenarioOptions.snapshots): at most the one snapshot the last run named */
  private readonly snapshots = new Map<string, LoadedSnapshot>();
  private stamps = '';
  /** how many runs parsed a snapshot */
  parses = 0;

  constructor(private readonly fs: InputFs) {}

  /** Lints the job's text; `stamps` identifies the content of its big files (a change parses them again). */
  lint(job: BackgroundLintJob, stamps: string): LintAnswer {
    if (stamps !== this.stamps) {
      this.snapshots.clear();
      this.stamps = stamps;
    }
    const kind = relevantKind(job.text);
    if (!kind) return { problems: [] };
    const before = new Set(this.snapshots.keys());
    const { problems } = lintDocumentWithContext(job.uri, job.text, kind, this.fs, {
      version: job.version,
      snapshots: this.snapshots,
      allowOutside: job.allowOutside,
      roots: job.roots,
    });
    const fresh = [...this.snapshots.keys()].find((k) => !before.has(k));
    if (fresh === undefined) return { problems };
    // another snapshot was named: the one before it is dropped (one parsed snapshot held, not one per edit)
    for (const k of [...this.snapshots.keys()]) if (k !== fresh) this.snapshots.delete(k);
    this.parses++;
    return { problems, names: namesOf(this.snapshots.get(fresh)!) };
  }
}
