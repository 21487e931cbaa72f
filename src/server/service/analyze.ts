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
  /**
   * Files a scenario names that are bigger than this are not read for the answers a user waits for
   * (code lens, hover, completion, symbols, definition): a 400 MiB snapshot takes seconds to parse and
   * a gigabyte to hold. Its diagnostics come from a background run instead (see BackgroundDiagnostics).
   * Default 4 MiB.
   */
  deferBytes?: number;
  /** a scenario may read files outside its folder tree and `roots` (a trusted workspace) */
  allowOutside?: boolean;
  /** the workspace's folders, whose trees a scenario may read */
  roots?: readonly string[];
}

export const DEFAULT_DEFER_BYTES = 4 * 1024 * 1024;

export interface Analysis {
  uri: string;
  text: string;
  kind: DocumentKind;
  /** the big files the document names that were not read (their problems are not in `problems`) */
  deferred: string[];
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
    if (t === undefined) {
      t = this.inner.readText(path);
      this.texts.set(path, t);
    }
    return t;
  }
  list(dir: string): string[] {
    let l = this.lists.get(dir);
    if (!l) {
      l = this.inner.list(dir);
      this.lists.set(dir, l);
    }
    return l;
  }
  clear(): void {
    this.texts.clear();
    this.stats.clear();
    this.lists.clear();
  }
}

/**
 * Reads through `inner` except the files bigger than `limit`, which read as an empty List and are
 * noted as deferred: the document's own answers do not wait for them.
 */
class DeferringFs implements InputFs {
  readonly deferred: string[] = [];
  constructor(
    private readonly inner: InputFs,
    private readonly limit: number,
  ) {}
  stat(path: string): ReturnType<InputFs['stat']> {
    return this.inner.stat(path);
  }
  readText(path: string): string {
    const st = this.inner.stat(path);
    if (st?.kind === 'file' && st.size > this.limit) {
      this.deferred.push(path);
      return '{"apiVersion":"v1","kind":"List","items":[]}';
    }
    return this.inner.readText(path);
  }
  /** a file too big to read whole is streamed by the loader: deferred here just as readText defers it */
  get readChunks(): InputFs['readChunks'] {
    const inner = this.inner.readChunks;
    if (!inner) return undefined;
    return (path: string) => {
      const st = this.inner.stat(path);
      if (st?.kind === 'file' && st.size > this.limit) {
        this.deferred.push(path);
        return ['{"apiVersion":"v1","kind":"List","items":[]}'];
      }
      return inner.call(this.inner, path);
    };
  }
  list(dir: string): string[] {
    return this.inner.list(dir);
  }
}

/** Analyses documents, keeping the last analysis of each URI while its text is unchanged. */
export class Analyzer {
  private readonly cache = new Map<string, Analysis>();
  private readonly fs: CachingFs | undefined;
  /** the (small) snapshots scenarios name, loaded once until files change: a keystroke must not parse them again */
  private readonly snapshots = new Map<string, LoadedSnapshot>();
  constructor(private readonly options: ServiceOptions = {}) {
    this.fs = options.fs ? new CachingFs(options.fs) : undefined;
  }

  /** The document with the files it names, except the big ones (see ServiceOptions.deferBytes). */
  analyze(uri: string, text: string): Analysis | undefined {
    const hit = this.cache.get(uri);
    if (hit && hit.text === text) return hit;
    const kind = relevantKind(text);
    if (!kind) {
      this.cache.delete(uri);
      return undefined;
    }
    const fs = this.fs ? new DeferringFs(this.fs, this.options.deferBytes ?? DEFAULT_DEFER_BYTES) : undefined;
    // a big file read as empty must not be cached as the snapshot: the cache is only for what was read whole
    const { problems, context } = lintDocumentWithContext(uri, text, kind, fs, {
      version: this.options.defaultVersion,
      snapshots: this.fs ? this.snapshots : undefined,
      allowOutside: this.options.allowOutside,
      roots: this.options.roots,
    });
    const deferred = fs?.deferred ?? [];
    if (deferred.length) this.snapshots.clear();
    const a: Analysis = { uri, text, kind, lines: new TextLines(text), ctx: context, problems, deferred };
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
