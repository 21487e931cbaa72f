/**
 * Loads a cluster snapshot: Kubernetes objects exactly as people export them
 * (spec 1.1) -> a LoadedSnapshot with a ClusterState and problems as data.
 *
 * Inputs: `kind: List` and typed lists (`NodeList`, ... whose items may have no
 * kind), multi-document YAML, single objects, JSON or YAML, folders (recursive,
 * in name order), the `kubectl cluster-info dump --output-directory` layout
 * (kind taken from file names such as `nodes.json`), `kubectl cluster-info dump`
 * printed to stdout (JSON values with log text between them), and raw items
 * with no kind at all (a Node recognised by its shape, with a warning).
 *
 * JSON is parsed with JSON.parse and positions are computed only for the
 * problems found (one extra pass over the text per top-level value with
 * problems), so a big clean snapshot costs little more than JSON.parse.
 * Files over STREAM_FILES_ABOVE are never held as one string: a JSON List is
 * read item by item (jsonListStream.ts), YAML document by document
 * (yamlDocStream.ts), and problems are placed while their item is at hand.
 * Nothing here throws on bad input.
 *
 * Problem codes (stable): errors — file-not-found, file-too-large, unreadable-file,
 * unreadable-folder, binary-file, json-syntax, yaml-syntax, missing-field, wrong-type,
 * bad-timestamp, bad-condition-status, bad-taint-effect, bad-toleration-operator,
 * bad-pod-phase, bad-selector-operator, no-file-system; warnings — kind-guessed,
 * unknown-kind, not-an-object, unsupported-api-version, duplicate-object, no-leases,
 * heartbeats-disagree, folder-too-deep, yaml-warning, pods-on-missing-nodes,
 * replicaset-pods-missing (dangling.ts), nothing-simulated; info — kind-inferred, ignored-kind,
 * ignored-lease, skipped-text, skipped-file, empty-file, leases-without-nodes.
 * `partial` is true when a file, document, object or field could not be used
 * as written (any error).
 */
import { isNode, parseAllDocuments, type Document } from 'yaml';
import type { EngineKind } from '../model/convert';
import type { Problem, Severity, SourcePosition } from '../problems';
import { LineIndex, skipWs, splitJsonStream, type JsonPath } from './positions';
import { parseListSharing } from './listParse';
import type { Chunk } from './jsonListStream';
import type { Lines } from './streamPositions';
import { detachStrings } from './yamlDocStream';
import { GzipLimitError } from './gzip';
import { MAX_FILE_BYTES, STREAM_FILES_ABOVE, basenamePath, joinPath, kindFromFileName, type InputFs } from './source';
import { MAX_ALIAS_COUNT, TOO_DEEP_MESSAGE, YAML_OPTIONS, findTooDeep, isStackOverflow, yamlBuildError } from './yamlOptions';
import type { LoadedSnapshot } from './types';
import { EXPECTED_SNAPSHOT, isBinary, notKubernetes, sniffText, withoutBom } from './sniff';
import { ClusterStore } from './clusterStore';
import { crossChecks, latestTimestamp } from './crossChecks';
import { jsonUnit, readItem, readKubectlYamlUnits, readUnit, releasedJsonUnit, yamlUnit, type KeepOf, type Unit } from './unitObjects';
import { MAX_SYNTAX_PROBLEMS, concatIterators, firstNonBlank, formatBytes, joinUpTo, streamJson, streamYaml } from './streamedFile';
import { loadJsonValues } from './jsonValues';
import { MAX_YAML_DOCUMENT_CHARS } from './yamlDocStream';
import { placeYamlError } from './unclosedFlow';

export { API_VERSIONS } from './unitObjects';
export { latestTimestamp } from './crossChecks';
export { kindFromFileName } from './source';

/** What loadSnapshot reads. */
export type SnapshotInput =
  /** a file or folder, read through the InputFs */
  | string
  /** the text of a file (an open editor document, stdin) */
  | { file: string; text: string }
  /** objects written inline in a YAML document (a scenario's `objects:`), a list at `path` */
  | { file: string; text: string; document: Document; path: JsonPath };

export interface LoadOptions {
  /** files larger than this are reported and not read (default MAX_FILE_BYTES, 480 MiB) */
  maxFileBytes?: number;
  /** JSON texts up to this size get a position for every object (default 8 MiB); larger ones only for problems */
  objectPositionsUpTo?: number;
  /**
   * files larger than this are read as a stream of chunks, item by item (a JSON List) or document by
   * document (multi-document YAML), when the InputFs can (`readChunks`); default STREAM_FILES_ABOVE
   */
  streamFilesAbove?: number;
  /** what each object read keeps of itself once its record is built (unitObjects.ts KeepOf); default all of it */
  keepOf?: KeepOf;
  kubectlYaml?: boolean; // false: every YAML text is read by the yaml package, none by kubectlYaml.ts (the differential tests)
}

const SNAPSHOT_EXTENSIONS = /\.(json|ya?ml)(\.gz)?$/i;
const MAX_DIR_DEPTH = 32;

class SnapshotLoader {
  readonly problems: Problem[] = [];
  readonly files: string[] = [];
  partial = false;
  /** some input was an export (a file, folder or text), not a scenario's inline `objects:` */
  exported = false;
  /** the objects read, and the cluster of their records */
  readonly store = new ClusterStore();
  private readonly visitedDirs = new Set<string>();
  /** by file, the kinds of the objects a loadCounted read and let go because none was of a simulated kind */
  readonly otherKinds = new Map<string, Map<string, number>>();

  constructor(
    private readonly fs: InputFs | undefined,
    readonly options: LoadOptions,
  ) {}

  problem(code: string, severity: Severity, message: string, position?: SourcePosition): void {
    const p: Problem = { code, severity, message };
    if (position) p.position = position;
    this.problems.push(p);
  }

  // -- files and folders ----------------------------------------------------

  /**
   * `opened`: the file's text, from its start, from a read the caller began (the evidence import
   * recognising what the file is): used instead of reading the file again.
   */
  loadPath(path: string, depth = 0, inFolder = false, opened?: Iterable<string>): void {
    const fs = this.fs;
    if (!fs) {
      this.problem('no-file-system', 'error', `cannot read ${path}: no file system was given to the loader`);
      this.partial = true;
      return;
    }
    let st;
    try {
      st = fs.stat(path);
    } catch {
      st = undefined;
    }
    if (!st) {
      this.problem('file-not-found', 'error', `${path}: no such file or folder`, { file: path, line: 1, column: 1 });
      this.partial = true;
      return;
    }
    if (st.kind === 'dir') {
      const dirId = st.id ?? path;
      if (depth > MAX_DIR_DEPTH || this.visitedDirs.has(dirId)) {
        this.problem('folder-too-deep', 'warning', `${path}: folders nested deeper than ${MAX_DIR_DEPTH} levels (or a loop) are not read`);
        return;
      }
      this.visitedDirs.add(dirId);
      let names: string[];
      try {
        names = fs
          .list(path)
          .slice()
          .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
      } catch (e) {
        this.problem('unreadable-folder', 'error', `${path}: cannot list the folder (${e instanceof Error ? e.message : String(e)})`);
        this.partial = true;
        return;
      }
      for (const name of names) {
        if (name.startsWith('.')) continue;
        const child = joinPath(path, name);
        const cst = safeStat(fs, child);
        if (cst?.kind === 'file' && !SNAPSHOT_EXTENSIONS.test(name)) {
          this.problem('skipped-file', 'info', `${child}: not read (only .json, .yaml and .yml files in a folder are read, gzipped or not)`);
          continue;
        }
        this.loadPath(child, depth + 1, true);
      }
      return;
    }
    const limit = this.options.maxFileBytes ?? MAX_FILE_BYTES;
    // a stream has no size limit of its own: only one the caller sets
    // YAML is parsed a document at a time, and the yaml package's tree is many times the text: a big YAML file streams sooner
    const streamAbove = this.options.streamFilesAbove ?? (/\.ya?ml(\.gz)?$/i.test(path) ? MAX_YAML_DOCUMENT_CHARS : STREAM_FILES_ABOVE);
    if ((opened || fs.readChunks) && st.size > streamAbove && (this.options.maxFileBytes === undefined || st.size <= limit)) {
      let chunks: Iterable<Chunk>;
      try {
        chunks = opened ?? fs.readChunks!(path);
      } catch (e) {
        this.unreadable(path, e);
        return;
      }
      this.loadChunks(path, chunks, inFolder);
      return;
    }
    if (st.size > limit) {
      this.problem(
        'file-too-large',
        'error',
        `${path} is ${formatBytes(st.size)}${st.compressed !== undefined ? ` decompressed (${formatBytes(st.compressed)} gzipped)` : ''}; the loader reads files up to ${formatBytes(limit)}. Export fewer objects (for example one namespace, or only nodes,pods,replicasets,daemonsets,leases) or split the file.`,
        { file: path, line: 1, column: 1 },
      );
      this.partial = true;
      return;
    }
    // no local variable holds the text: loadSource can let it go (see there)
    let source: TextSource;
    try {
      if (opened) {
        const whole = joinUpTo(opened, limit);
        // longer than its size said (a gzip trailer tells the size modulo 4 GiB): streamed, as below
        if (typeof whole !== 'string') {
          this.loadChunks(path, whole, inFolder);
          return;
        }
        source = { text: whole, reread: () => fs.readText(path) };
      } else source = { text: fs.readText(path), reread: () => fs.readText(path) };
    } catch (e) {
      // a gzip trailer tells the size modulo 4 GiB: a file that turns out too big to read whole is streamed
      if (st.compressed !== undefined && fs.readChunks && this.options.maxFileBytes === undefined && e instanceof GzipLimitError && e.limit === 'size') {
        this.loadChunks(path, fs.readChunks(path), inFolder);
        return;
      }
      this.unreadable(path, e);
      return;
    }
    this.loadSource(path, source, inFolder);
  }

  /** A file that could not be opened or read (`e`, what the file system threw): the snapshot is partial without it. */
  private unreadable(path: string, e: unknown): void {
    this.problem('unreadable-file', 'error', `${path}: cannot read the file (${e instanceof Error ? e.message : String(e)})`, {
      file: path,
      line: 1,
      column: 1,
    });
    this.partial = true;
  }

  /**
   * A file loaded as loadPath loads it, from `opened` when the caller began reading it: how many
   * objects of each kind it put in the cluster, as if loaded alone. Unless `keepEmpty`, one that put
   * none leaves no trace (no problem, no ignored object): it was no snapshot.
   */
  loadCounted(path: string, opened?: Iterable<string>, keepEmpty = false): Map<string, number> {
    const store = this.store;
    const mark = { problems: this.problems.length, files: this.files.length, used: store.used.length, ignored: store.ignored.length };
    const was = { partial: this.partial, exported: this.exported, kindless: store.kindless };
    this.loadPath(path, 0, false, opened);
    const names = new Map<string, Set<string>>();
    for (let i = mark.used; i < store.used.length; i++) {
      const l = store.used[i];
      let set = names.get(l.kind);
      if (!set) names.set(l.kind, (set = new Set()));
      set.add(l.name);
    }
    if (!names.size && !keepEmpty) {
      const other = store.ignoredKindsFrom(mark.ignored);
      if (other.size) this.otherKinds.set(path, other);
      this.problems.length = mark.problems;
      this.files.length = mark.files;
      store.ignored.length = mark.ignored;
      this.partial = was.partial;
      this.exported = was.exported;
      store.kindless = was.kindless;
    }
    return new Map([...names].map(([kind, set]) => [kind, set.size]));
  }

  loadText(file: string, text: string): void {
    this.loadSource(file, { text });
  }

  /**
   * A big JSON file whose text can be read again (`reread`) gives up its text once parsed:
   * `source.text` is emptied, so a 400 MB text is not kept beside its tree while the records
   * are built (the peak of a load), and is read again only to place problems.
   */
  loadSource(file: string, source: TextSource, inFolder = false): void {
    const before = { problems: this.problems.length, objects: this.store.kubernetesObjects() };
    this.loadSourceText(file, source);
    if (this.store.kubernetesObjects() === before.objects) this.notKubernetes(file, source, before.problems, inFolder);
  }

  /**
   * A file that gave no Kubernetes object at all: say what it looks like and
   * what was expected (sniff.ts). An error when the file was named; a warning
   * for a file met in a folder (an export folder may hold other YAML).
   */
  private notKubernetes(file: string, source: TextSource, problemsBefore: number, inFolder: boolean): void {
    const own = this.problems.slice(problemsBefore);
    if (own.some((p) => p.code === 'binary-file' || p.code === 'empty-file' || p.code === 'file-too-large')) return;
    const text = source.text || '';
    if (!text.trim()) return;
    const sniffed = sniffText(withoutBom(text));
    if (!sniffed) return;
    // A syntax error in what is otherwise Kubernetes says more than "this is not Kubernetes".
    if (!sniffed.recognised && own.some((p) => p.severity === 'error')) return;
    // The parser's complaints about the file describe YAML, not the mistake: the one message replaces them.
    const noise = new Set(['yaml-syntax', 'json-syntax', 'not-an-object', 'unknown-kind', 'yaml-warning']);
    const kept = own.filter((p) => !noise.has(p.code));
    this.problems.length = problemsBefore;
    this.problems.push(...kept);
    this.problem('not-kubernetes', inFolder ? 'warning' : 'error', notKubernetes(file, sniffed), {
      file,
      line: 1,
      column: 1,
    });
    if (!inFolder) this.partial = true;
  }

  private loadSourceText(file: string, source: TextSource): void {
    this.files.push(file);
    this.exported = true;
    let text = withoutBom(source.text);
    if (isBinary(text)) {
      this.problem('binary-file', 'error', `${file} is not a text file (it holds binary data); it is left out`, { file, line: 1, column: 1 });
      this.partial = true;
      return;
    }
    const fileKind = kindFromFileName(file);
    const first = skipWs(text, 0);
    if (first >= text.length) {
      this.problem('empty-file', 'info', `${file} is empty`, { file, line: 1, column: 1 });
      return;
    }
    const c = text.charCodeAt(first);
    if (c === 0x7b || c === 0x5b) {
      const big = text.length > this.positionsUpTo();
      const withinLimits: boolean[] = [];
      let value: unknown = big ? parseListSharing(text, first, withinLimits) : undefined;
      const shared = value !== undefined;
      let ok = true;
      if (!shared) {
        try {
          value = JSON.parse(text);
        } catch {
          ok = false;
        }
      }
      if (ok) {
        const reread = source.reread;
        let unit: Unit;
        if (reread && big) {
          source.text = '';
          text = '';
          unit = releasedJsonUnit(file, reread, first, value, fileKind);
        } else unit = jsonUnit(file, text, new LineIndex(text), first, value, fileKind, false, text.length <= this.positionsUpTo());
        unit.shared = shared;
        if (shared) unit.itemsWithinLimits = withinLimits;
        this.processUnit(unit);
        return;
      }
      loadJsonValues(this, file, text, new LineIndex(text), fileKind, text.length <= this.positionsUpTo());
      return;
    }
    this.loadYaml(file, text, new LineIndex(text), fileKind);
  }

  /**
   * A file read as a stream of chunks: a JSON List item by item, anything else as YAML
   * document by document. The whole text is never held; problems are placed while the
   * item or document they are in is at hand.
   */
  loadChunks(file: string, chunks: Iterable<Chunk>, inFolder = false): void {
    this.files.push(file);
    this.exported = true;
    const before = { problems: this.problems.length, objects: this.store.kubernetesObjects() };
    const it = chunks[Symbol.iterator]();
    const seen: Chunk[] = [];
    let first = -1;
    try {
      for (let r = it.next(); !r.done; r = it.next()) {
        seen.push(r.value);
        first = firstNonBlank(r.value);
        if (first !== -1) break;
      }
      const all: Iterable<Chunk> = { [Symbol.iterator]: () => concatIterators(seen, it) };
      if (first === -1) this.problem('empty-file', 'info', `${file} is empty`, { file, line: 1, column: 1 });
      else if (first === 0) {
        this.problem('binary-file', 'error', `${file} is not a text file (it holds binary data); it is left out`, { file, line: 1, column: 1 });
        this.partial = true;
      } else if (first === 0x7b || first === 0x5b) streamJson(this, file, all, kindFromFileName(file));
      else streamYaml(this, file, all, kindFromFileName(file));
    } catch (e) {
      this.problem('unreadable-file', 'error', `${file}: reading stopped (${e instanceof Error ? e.message : String(e)}); what was read before is kept`, {
        file,
        line: 1,
        column: 1,
      });
      this.partial = true;
    }
    if (this.store.kubernetesObjects() === before.objects && this.problems.length === before.problems) {
      this.problem('not-kubernetes', inFolder ? 'warning' : 'error', `${basenamePath(file)} holds no Kubernetes object; ${EXPECTED_SNAPSHOT}`, {
        file,
        line: 1,
        column: 1,
      });
      if (!inFolder) this.partial = true;
    }
  }

  private positionsUpTo(): number {
    return this.options.objectPositionsUpTo ?? 8 * 1024 * 1024;
  }

  /**
   * `asItem`: the text is one item of a streamed List (yamlListStream.ts), whose value is one object
   * whatever its shape (a sequence or a List there is a bad item, as when the file is read whole).
   */
  loadYaml(file: string, text: string, lines: Lines, fileKind: EngineKind | undefined, detach = false, asItem = false): void {
    const process = asItem ? (u: Unit) => readItem(this, u) : (u: Unit) => readUnit(this, u);
    if (this.options.kubectlYaml !== false && readKubectlYamlUnits(process, file, lines, text, fileKind, detach)) return;
    let docs: Document.Parsed[];
    try {
      docs = parseAllDocuments(text, { ...YAML_OPTIONS, prettyErrors: false }) as unknown as Document.Parsed[];
    } catch (e) {
      if (isStackOverflow(e)) {
        this.problem('too-deep', 'error', `${file} is ${TOO_DEEP_MESSAGE}; the file is left out`, { file, line: 1, column: 1 });
        this.partial = true;
        return;
      }
      this.problem('yaml-syntax', 'error', `cannot parse YAML (${e instanceof Error ? e.message : String(e)}); the file is left out`, {
        file,
        line: 1,
        column: 1,
      });
      this.partial = true;
      return;
    }
    if (!Array.isArray(docs)) docs = [];
    // `kubectl cluster-info dump` output with text before the first JSON value is not YAML.
    if (docs.some((d) => d.errors.length) && /\n[{[]\s*\n/.test(text)) {
      const segments = splitJsonStream(text);
      if (segments.some((s) => s.kind === 'json' && s.end - s.start > 1)) {
        loadJsonValues(this, file, text, lines, fileKind, text.length <= this.positionsUpTo());
        return;
      }
    }
    let reported = 0;
    let unreported = 0;
    for (const doc of docs) {
      if (doc.errors.some((err) => /call stack/i.test(err.message))) {
        // the yaml package's own stack overflow, recorded as an error wherever the stack ran out
        // (which differs from run to run): one problem at the document's start, the same every time
        const start = doc.range?.[0] ?? 0;
        this.problem('too-deep', 'error', `this document is ${TOO_DEEP_MESSAGE}; it is left out`, lines.position(file, start, start));
        this.partial = true;
        continue;
      }
      if (doc.errors.length) {
        for (const err of doc.errors) {
          if (reported >= MAX_SYNTAX_PROBLEMS) {
            unreported++;
            continue;
          }
          reported++;
          const placed = placeYamlError(text, doc.range?.[0] ?? 0, err.pos, err.message.split('\n')[0], (o) => lines.lineCol(o));
          this.problem('yaml-syntax', 'error', `${placed.message}; this document is left out`, lines.position(file, placed.start, placed.end));
        }
        this.partial = true;
        continue;
      }
      // before the warnings: a document whose parse ran out of stack has none to report
      if (doc.contents !== null && findTooDeep(doc.contents)) {
        // at the document's start, as when the yaml package's own stack ran out first: one answer at any depth
        const start = doc.range?.[0] ?? 0;
        this.problem('too-deep', 'error', `this document is ${TOO_DEEP_MESSAGE}; it is left out`, lines.position(file, start, start));
        this.partial = true;
        continue;
      }
      for (const w of doc.warnings) this.problem('yaml-warning', 'warning', w.message.split('\n')[0], lines.position(file, w.pos[0], w.pos[1]));
      if (doc.contents === null) continue;
      let value: unknown;
      try {
        value = doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
        // a streamed document's text must not outlive it (yamlDocStream.ts)
        if (detach) value = detachStrings(value);
      } catch (e) {
        const r = doc.contents?.range;
        this.problem(
          'yaml-syntax',
          'error',
          `${yamlBuildError(e)}; this document is left out`,
          r ? lines.position(file, r[0], r[1]) : { file, line: 1, column: 1 },
        );
        this.partial = true;
        continue;
      }
      process(yamlUnit(file, lines, doc, [], value, fileKind));
    }
    if (unreported) this.problem('yaml-syntax', 'error', `${unreported} more YAML syntax errors in this file are not listed`, { file, line: 1, column: 1 });
  }

  /** Objects written inline in a YAML document, as a list at `path`. */
  loadInline(file: string, text: string, document: Document, path: JsonPath): void {
    const lines = new LineIndex(text);
    const list = document.getIn(path);
    const items = (list as { items?: unknown[] } | undefined)?.items;
    if (!items) return;
    for (let i = 0; i < items.length; i++) {
      let value: unknown;
      try {
        const node = items[i];
        value = isNode(node) ? node.toJS(document, { maxAliasCount: MAX_ALIAS_COUNT }) : node;
      } catch (e) {
        const r = (items[i] as { range?: [number, number] } | undefined)?.range;
        this.problem(
          'yaml-syntax',
          'error',
          `${yamlBuildError(e)}; this object is left out`,
          r ? lines.position(file, r[0], r[1]) : { file, line: 1, column: 1 },
        );
        this.partial = true;
        continue;
      }
      this.processUnit(yamlUnit(file, lines, document, [...path, i], value, undefined));
    }
  }

  // -- values and objects ---------------------------------------------------

  processUnit(unit: Unit): void {
    readUnit(this, unit);
  }

  // -- the result -------------------------------------------------------------

  finish(): LoadedSnapshot {
    const cluster = this.store.cluster;
    const objects = this.store.objects();
    // Problems in file order, and by position within a file; the snapshot-wide ones last.
    const fileRank = new Map(this.files.map((f, i) => [f, i]));
    const rank = (p: Problem) => (p.position ? (fileRank.get(p.position.file) ?? -1) : Infinity);
    const sorted = this.problems
      .map((p, i) => ({ p, i }))
      .sort((a, b) => {
        const ra = rank(a.p),
          rb = rank(b.p);
        if (ra !== rb) return ra - rb;
        const oa = a.p.position?.offset ?? -1,
          ob = b.p.position?.offset ?? -1;
        return oa - ob || a.i - b.i;
      });
    this.problems.splice(0, this.problems.length, ...sorted.map((x) => x.p));
    this.problems.push(...crossChecks(this.store, this.exported));
    const latest = latestTimestamp(cluster);
    const snap: LoadedSnapshot = { objects, cluster, files: this.files, problems: this.problems, partial: this.partial, exported: this.exported };
    if (latest !== undefined) snap.latestTimestamp = latest;
    return snap;
  }
}

function safeStat(fs: InputFs, p: string) {
  try {
    return fs.stat(p);
  } catch {
    return undefined;
  }
}

/** The text of one input. */
export interface TextSource {
  text: string;
  /** reads the same text again; given, the loader may empty `text` once it is parsed (see loadSource) */
  reread?: () => string;
}

/**
 * Loads a snapshot from files, folders and texts, in the order given. Never
 * throws on bad input: every problem is in `problems`, and `partial` is true
 * when something could not be used as written.
 */
/**
 * One file's text, already read, that the loader may let go of once parsed
 * (it empties `source.text`; `source.reread` reads it again for problems).
 */
export function loadSnapshotSource(file: string, source: TextSource, fs?: InputFs, options: LoadOptions = {}): LoadedSnapshot {
  const loader = new SnapshotLoader(fs, options);
  loader.loadSource(file, source);
  return loader.finish();
}

/** One file given as chunks of text or UTF-8 bytes (a file bigger than one string, a pipe), read as a stream. */
export function loadSnapshotChunks(file: string, chunks: Iterable<Chunk>, fs?: InputFs, options: LoadOptions = {}): LoadedSnapshot {
  const loader = new SnapshotLoader(fs, options);
  loader.loadChunks(file, chunks);
  return loader.finish();
}

/** A snapshot loaded input by input, for a caller that reads some files itself (the evidence import). */
export interface SnapshotSession {
  /** what each file put in the cluster, by kind (SnapshotLoader.loadCounted) */
  loadPath(path: string): Map<string, number>;
  /** a file the caller began reading, loaded from that read (undefined: read again); one that held no object leaves no trace unless `keepEmpty` */
  loadOpened(path: string, chunks: Iterable<string> | undefined, keepEmpty?: boolean): Map<string, number>;
  /** the objects of other kinds a file held that left no trace because none was simulated, by kind */
  otherKinds(path: string): ReadonlyMap<string, number> | undefined;
  finish(): LoadedSnapshot;
}

export function openSnapshot(fs: InputFs, options: LoadOptions = {}): SnapshotSession {
  const loader = new SnapshotLoader(fs, options);
  return {
    loadPath: (path) => loader.loadCounted(path, undefined, true),
    loadOpened: (path, chunks, keepEmpty) => loader.loadCounted(path, chunks, keepEmpty),
    otherKinds: (path) => loader.otherKinds.get(path),
    finish: () => loader.finish(),
  };
}

export function loadSnapshot(inputs: SnapshotInput | readonly SnapshotInput[], fs?: InputFs, options: LoadOptions = {}): LoadedSnapshot {
  const loader = new SnapshotLoader(fs, options);
  const list = Array.isArray(inputs) ? (inputs as readonly SnapshotInput[]) : [inputs as SnapshotInput];
  for (const input of list) {
    if (typeof input === 'string') loader.loadPath(input);
    else if ('document' in input) loader.loadInline(input.file, input.text, input.document, input.path);
    else loader.loadText(input.file, input.text);
  }
  return loader.finish();
}
