/**
 * Diagnostics that need a big snapshot, computed off the path of the user's
 * requests: the lint of the whole document with every file it names is handed
 * to `lint` (the server runs it in a worker thread that keeps the snapshot
 * parsed while its documents are open: see lintWorker.ts), one run at a time,
 * the newest text winning. Each run is told the stamps (size, mtime) of the
 * big files, so the worker parses a snapshot again only when it changed on
 * disk. A result is kept per document: the same text over unchanged files is
 * not linted again. A run that parsed the snapshot also gives its names, for
 * completion.
 */
import type { LintProblem } from '../../engine/lint';

export interface BackgroundLintJob {
  uri: string;
  text: string;
  /** the version for documents that do not name one */
  version?: string;
  /** as ServiceOptions.allowOutside and roots: what the scenario may read */
  allowOutside?: boolean;
  roots?: readonly string[];
}

/** The node, pod (`namespace/name`) and ReplicaSet (`namespace/name`) names of a snapshot, sorted. */
export interface SnapshotNames {
  nodes: string[];
  pods: string[];
  replicaSets: string[];
  /** the nodes' zones as the trace keys them (`REGION/ZONE`, GetZoneKey); absent from names kept before they were asked */
  zones?: string[];
}

export interface BackgroundDiagnosticsOptions {
  /** `stamps`: the big files' stamps, as `stamp` gives them (a change means: parse them again) */
  lint(job: BackgroundLintJob, stamps: string): Promise<{ problems: LintProblem[]; names?: SnapshotNames }>;
  /** the names of the big files `files` (a run parsed them) */
  names?(files: readonly string[], names: SnapshotNames): void;
  /** what identifies a file's content cheaply (size and mtime); undefined when it is gone */
  stamp(path: string): string | undefined;
  /** the problems of a finished run, for the text it was run on */
  done(uri: string, text: string, problems: LintProblem[]): void;
}

interface Kept {
  text: string;
  stamps: string;
  problems: LintProblem[];
}

export class BackgroundDiagnostics {
  private readonly kept = new Map<string, Kept>();
  /** the newest request per document not yet run */
  private readonly wanted = new Map<string, { job: BackgroundLintJob; files: string[] }>();
  private running: string | undefined;
  runs = 0;

  constructor(private readonly o: BackgroundDiagnosticsOptions) {}

  private stamps(files: readonly string[]): string {
    return files.map((f) => `${f}\u0000${this.o.stamp(f) ?? 'gone'}`).join('\u0001');
  }

  /**
   * Asks for the full diagnostics of `job.text`, whose big files are `files`. Returns the problems
   * at once when a run on the same text and unchanged files is kept; otherwise schedules a run.
   */
  request(job: BackgroundLintJob, files: readonly string[]): LintProblem[] | undefined {
    const k = this.kept.get(job.uri);
    if (k && k.text === job.text && k.stamps === this.stamps(files)) return k.problems;
    this.wanted.set(job.uri, { job, files: [...files] });
    void this.next();
    return undefined;
  }

  forget(uri: string): void {
    this.kept.delete(uri);
    this.wanted.delete(uri);
  }

  /** Documents with a kept result or a run wanted: none means nothing needs the worker's snapshot. */
  get documents(): number {
    return new Set([...this.kept.keys(), ...this.wanted.keys(), ...(this.running !== undefined ? [this.running] : [])]).size;
  }

  private async next(): Promise<void> {
    if (this.running !== undefined) return;
    const first = this.wanted.entries().next();
    if (first.done) return;
    const [uri, { job, files }] = first.value;
    this.wanted.delete(uri);
    this.running = uri;
    const stamps = this.stamps(files);
    let problems: LintProblem[] | undefined;
    try {
      this.runs++;
      const answer = await this.o.lint(job, stamps);
      problems = answer.problems;
      if (answer.names) this.o.names?.(files, answer.names);
    } catch {
      problems = undefined;
    }
    this.running = undefined;
    // a newer text of the same document asked meanwhile: this result is stale, the newer run follows
    if (problems && !this.wanted.has(uri)) {
      this.kept.set(uri, { text: job.text, stamps, problems });
      this.o.done(uri, job.text, problems);
    }
    void this.next();
  }
}
