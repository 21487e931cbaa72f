/**
 * One analysed document: its lint context and problems (the engine's
 * lintDocument), its lines, and whether the language server should speak
 * about it at all (a YAML/JSON file that is not a scenario, snapshot or
 * kube-controller-manager config gets nothing).
 */
import { lintDocumentWithContext, detectDocumentKind, type DocumentKind, type LintContext, type LintProblem } from '../../engine/lint';
import type { InputFs } from '../../engine/snapshot/source';
import type { LoadedSnapshot } from '../../engine/snapshot/types';
import { TextLines } from './text';

export interface ServiceOptions {
  /** reads the files a scenario names (snapshot:, configFile:) */
  fs?: InputFs;
  /** the version for documents that do not name one (the extension's controllerStepper.kubernetesVersion) */
  defaultVersion?: string;
}

export interface Analysis {
  uri: string;
  text: string;
  kind: DocumentKind;
  lines: TextLines;
  ctx: LintContext;
  problems: LintProblem[];
}

const SNAPSHOT_KINDS = /^(List|Node|Pod|ReplicaSet|DaemonSet|Lease|NodeList|PodList|ReplicaSetList|DaemonSetList|LeaseList)$/;

/** The kind of document the server handles, or undefined for any other YAML/JSON file. */
export function relevantKind(text: string): DocumentKind | undefined {
  const kind = detectDocumentKind(text);
  if (kind !== 'snapshot') return kind;
  const head = text.length > 200_000 ? text.slice(0, 200_000) : text;
  for (const m of head.matchAll(/^kind:[ \t]*["']?(\w+)["']?[ \t]*$/gm)) if (SNAPSHOT_KINDS.test(m[1])) return 'snapshot';
  for (const m of head.matchAll(/"kind"\s*:\s*"(\w+)"/g)) if (SNAPSHOT_KINDS.test(m[1])) return 'snapshot';
  return undefined;
}

/**
 * An InputFs that keeps what it read until told files changed: editing a
 * scenario re-reads neither its snapshot nor its configFile on every keystroke.
 */
export class CachingFs implements InputFs {
  private readonly texts = new Map<string, string>();
  private readonly stats = new Map<string, ReturnType<InputFs['stat']>>();
  private readonly lists = new Map<string, string[]>();
  /** a file big enough to be streamed is never held, so it is not kept either */
  readonly readChunks?: InputFs['readChunks'];
  constructor(private readonly inner: InputFs) {
    if (inner.readChunks) this.readChunks = (path) => inner.readChunks!(path);
  }
  stat(path: string): ReturnType<InputFs['stat']> {
    if (!this.stats.has(path)) this.stats.set(path, this.inner.stat(path));
    return this.stats.get(path);
  }
  readText(path: string): string {
    let t = this.texts.get(path);
    if (t === undefined) { t = this.inner.readText(path); this.texts.set(path, t); }
    return t;
  }
  list(dir: string): string[] {
    let l = this.lists.get(dir);
    if (!l) { l = this.inner.list(dir); this.lists.set(dir, l); }
    return l;
  }
  clear(): void {
    this.texts.clear();
    this.stats.clear();
    this.lists.clear();
  }
}

/** Analyses documents, keeping the last analysis of each URI while its text is unchanged. */
export class Analyzer {
  private readonly cache = new Map<string, Analysis>();
  private readonly fs: CachingFs | undefined;
  /** the snapshots scenarios name, loaded once until files change (a keystroke in a scenario must not parse 400 MiB again) */
  private readonly snapshots = new Map<string, LoadedSnapshot>();
  constructor(private readonly options: ServiceOptions = {}) {
    this.fs = options.fs ? new CachingFs(options.fs) : undefined;
  }

  analyze(uri: string, text: string): Analysis | undefined {
    const hit = this.cache.get(uri);
    if (hit && hit.text === text) return hit;
    const kind = relevantKind(text);
    if (!kind) { this.cache.delete(uri); return undefined; }
    const { problems, context } = lintDocumentWithContext(uri, text, kind, this.fs, { version: this.options.defaultVersion, snapshots: this.fs ? this.snapshots : undefined });
    const a: Analysis = { uri, text, kind, lines: new TextLines(text), ctx: context, problems };
    this.cache.set(uri, a);
    return a;
  }

  forget(uri: string): void {
    this.cache.delete(uri);
  }

  /** Drops every analysis (a file a document names may have changed on disk). */
  forgetAll(): void {
    this.cache.clear();
    this.fs?.clear();
    this.snapshots.clear();
  }
}
