/**
 * Diagnostics that need a big snapshot, computed off the path of the user's
 * requests: the lint of the whole document with every file it names is handed
 * to `lint` (the server runs it in a worker thread that exits afterwards, so no
 * 400 MiB parse stays in memory), one run at a time, the newest text winning.
 * A result is kept per document with the stamps (size, mtime) of the big files
 * it read: the same text over unchanged files is not linted again, and a
 * snapshot that changed on disk is.
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

export interface BackgroundDiagnosticsOptions {
  lint(job: BackgroundLintJob): Promise<LintProblem[]>;
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
      problems = await this.o.lint(job);
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
