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
 * replicaset-pods-missing (dangling.ts); info — kind-inferred, ignored-kind,
 * ignored-lease, skipped-text, skipped-file, empty-file, leases-without-nodes.
 * `partial` is true when a file, document, object or field could not be used
 * as written (any error).
 */
import { isNode, parse, parseAllDocuments, type Document } from 'yaml';
import { emptyCluster, type ClusterState } from '../model/cluster';
import { isEngineKind, toRecord, type EngineKind } from '../model/convert';
import { ZERO_TIME, formatDuration, type Micros } from '../model/time';
import { NODE_LEASE_NAMESPACE, type KObject, type ObjectRecord } from '../model/types';
import type { Problem, Severity, SourcePosition } from '../problems';
import { LineIndex, findJsonSyntaxError, locateJsonPaths, locateYamlPath, pathKey, skipWs, splitJsonStream, type JsonPath, type JsonRange } from './positions';
import { parseListSharing } from './listParse';
import { JsonListReader, type Chunk, type ListItem, type TextPoint } from './jsonListStream';
import { ShiftedLines, StreamedListPositions, type Lines } from './streamPositions';
import { MAX_YAML_DOCUMENT_CHARS, detachStrings } from './yamlDocStream';
import { yamlStreamPieces } from './yamlListStream';
import { shareWithPrevious } from './share';
import { danglingReferences } from './dangling';
import { GzipLimitError } from './gzip';
import { MAX_FILE_BYTES, STREAM_FILES_ABOVE, basenamePath, joinPath, type InputFs } from './source';
import { MAX_ALIAS_COUNT, TOO_DEEP_MESSAGE, YAML_OPTIONS, findTooDeep, isStackOverflow, yamlBuildError } from './yamlOptions';
import type { LoadedObject, LoadedSnapshot } from './types';
import { EXPECTED_SNAPSHOT, sniffText } from './sniff';

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
}

/** apiVersions of the era for the kinds the engine uses. */
export const API_VERSIONS: Record<EngineKind, readonly string[]> = {
  Node: ['v1'],
  Pod: ['v1'],
  ReplicaSet: ['apps/v1', 'apps/v1beta2', 'extensions/v1beta1'],
  DaemonSet: ['apps/v1', 'apps/v1beta2', 'extensions/v1beta1'],
  Lease: ['coordination.k8s.io/v1', 'coordination.k8s.io/v1beta1'],
};

/** File names of kubectl cluster-info dump (`nodes.json`) and sonobuoy (`core_v1_nodes.json`). */
const KIND_BY_FILE_NAME: Record<string, EngineKind> = {
  nodes: 'Node',
  pods: 'Pod',
  replicasets: 'ReplicaSet',
  daemonsets: 'DaemonSet',
  leases: 'Lease',
};

export function kindFromFileName(file: string): EngineKind | undefined {
  const base = basenamePath(file)
    .toLowerCase()
    .replace(/\.(json|ya?ml)(\.gz)?$/, '');
  const last = base.slice(base.lastIndexOf('_') + 1);
  return KIND_BY_FILE_NAME[last];
}

const SNAPSHOT_EXTENSIONS = /\.(json|ya?ml)(\.gz)?$/i;
const MAX_DIR_DEPTH = 32;
/** syntax errors listed per file; the rest are counted */
const MAX_SYNTAX_PROBLEMS = 50;

function formatBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let u = 0;
  let v = n;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${n} bytes` : `${v.toFixed(1).replace(/\.0$/, '')} ${units[u]}`;
}

/** The `kind` of a List's own keys (its items left out), or undefined. */
function listKindOf(text: string): string | undefined {
  try {
    const v = parse(text, { ...YAML_OPTIONS, prettyErrors: false, maxAliasCount: MAX_ALIAS_COUNT }) as { kind?: unknown } | null;
    return typeof v?.kind === 'string' ? v.kind : undefined;
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is KObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One top-level value of a file, and how to find positions in it. */
interface Unit {
  file: string;
  value: unknown;
  /** the path of `value` inside its document */
  base: JsonPath;
  lines: Lines;
  /** ranges of the paths (relative to the document) that exist */
  locate(paths: JsonPath[]): Map<string, JsonRange>;
  /** cheap to locate every object */
  cheap: boolean;
  /** kind hint from the file name */
  fileKind?: EngineKind;
  /** from the text of `kubectl cluster-info dump`: values that are not Kubernetes objects are log text */
  stream?: boolean;
  /** the items already share their equal parts (parsed by parseListSharing) */
  shared?: boolean;
}

interface Pending {
  path: JsonPath;
  code: string;
  severity: Severity;
  message: string;
}

class SnapshotLoader {
  readonly problems: Problem[] = [];
  readonly files: string[] = [];
  partial = false;
  /** some input was an export (a file, folder or text), not a scenario's inline `objects:` */
  exported = false;
  /** every used object in input order (a duplicate's earlier copy is dropped in finish()) */
  private readonly used: LoadedObject[] = [];
  /** objects replaced by a later duplicate */
  private readonly replaced = new Set<LoadedObject>();
  private readonly cluster: ClusterState = emptyCluster();
  private readonly ignored: LoadedObject[] = [];
  /** entries of `ignored` without a kind (not Kubernetes objects at all) */
  private kindless = 0;
  private readonly visitedDirs = new Set<string>();
  /** the last object of each kind, whose equal parts the next one shares (see share.ts) */
  private readonly previous = new Map<string, KObject>();

  constructor(
    private readonly fs: InputFs | undefined,
    private readonly options: LoadOptions,
  ) {}

  problem(code: string, severity: Severity, message: string, position?: SourcePosition): void {
    const p: Problem = { code, severity, message };
    if (position) p.position = position;
    this.problems.push(p);
  }

  // -- files and folders ----------------------------------------------------

  loadPath(path: string, depth = 0, inFolder = false): void {
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
    if (fs.readChunks && st.size > streamAbove && (this.options.maxFileBytes === undefined || st.size <= limit)) {
      let chunks: Iterable<Chunk>;
      try {
        chunks = fs.readChunks(path);
      } catch (e) {
        this.problem('unreadable-file', 'error', `${path}: cannot read the file (${e instanceof Error ? e.message : String(e)})`, {
          file: path,
          line: 1,
          column: 1,
        });
        this.partial = true;
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
      source = { text: fs.readText(path), reread: () => fs.readText(path) };
    } catch (e) {
      // a gzip trailer tells the size modulo 4 GiB: a file that turns out too big to read whole is streamed
      if (st.compressed !== undefined && fs.readChunks && this.options.maxFileBytes === undefined && e instanceof GzipLimitError && e.limit === 'size') {
        this.loadChunks(path, fs.readChunks(path), inFolder);
        return;
      }
      this.problem('unreadable-file', 'error', `${path}: cannot read the file (${e instanceof Error ? e.message : String(e)})`, {
        file: path,
        line: 1,
        column: 1,
      });
      this.partial = true;
      return;
    }
    this.loadSource(path, source, inFolder);
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
    const before = { problems: this.problems.length, objects: this.kubernetesObjects() };
    this.loadSourceText(file, source);
    if (this.kubernetesObjects() === before.objects) this.notKubernetes(file, source, before.problems, inFolder);
  }

  /** Objects with a kind read so far (used or ignored). */
  private kubernetesObjects(): number {
    return this.used.length + this.ignored.length - this.kindless;
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
    this.problem('not-kubernetes', inFolder ? 'warning' : 'error', `${basenamePath(file)} looks like ${sniffed.looksLike}; ${EXPECTED_SNAPSHOT}`, {
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
      let value: unknown = big ? parseListSharing(text, first) : undefined;
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
          unit = this.releasedJsonUnit(file, reread, first, value, fileKind);
        } else {
          unit = this.jsonUnit(file, text, new LineIndex(text), first, value, fileKind, false);
        }
        unit.shared = shared;
        this.processUnit(unit);
        return;
      }
      this.loadJsonStream(file, text, new LineIndex(text), fileKind);
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
    const before = { problems: this.problems.length, objects: this.kubernetesObjects() };
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
      } else if (first === 0x7b || first === 0x5b) this.streamJson(file, all, kindFromFileName(file));
      else this.streamYaml(file, all, kindFromFileName(file));
    } catch (e) {
      this.problem('unreadable-file', 'error', `${file}: reading stopped (${e instanceof Error ? e.message : String(e)}); what was read before is kept`, {
        file,
        line: 1,
        column: 1,
      });
      this.partial = true;
    }
    if (this.kubernetesObjects() === before.objects && this.problems.length === before.problems) {
      this.problem('not-kubernetes', inFolder ? 'warning' : 'error', `${basenamePath(file)} holds no Kubernetes object; ${EXPECTED_SNAPSHOT}`, {
        file,
        line: 1,
        column: 1,
      });
      if (!inFolder) this.partial = true;
    }
  }

  /** A JSON List (or array) item by item: each item parsed alone, converted, placed, and let go. */
  private streamJson(file: string, chunks: Iterable<Chunk>, fileKind: EngineKind | undefined): void {
    let positions = new StreamedListPositions(['items']);
    const unit: Unit = {
      file,
      value: undefined,
      base: [],
      get lines() {
        return positions;
      },
      locate: (paths) => positions.locate(paths),
      cheap: false,
      fileKind,
      stream: false,
    };
    const u = this.openUnit(unit);
    let item: ((value: unknown, index: number) => void) | undefined;
    /** items without kind met before the List's kind (kubectl prints `kind` after `items`): read at the end */
    const later: ListItem[] = [];
    let listKind: string | undefined;
    let syntaxErrors = 0;
    const reader = new JsonListReader({
      head: (keys) => {
        if (typeof keys.kind === 'string') listKind = keys.kind;
      },
      item: (it) => {
        if (it.index === 0 && reader.isTopArray) {
          positions = new StreamedListPositions([]);
          item = (v, i) => u.object(v, i, undefined, undefined);
        }
        if (reader.start) positions.list = reader.start;
        positions.enter(it);
        if (!item && listKind === undefined && !(isObject(it.value) && typeof it.value.kind === 'string' && it.value.kind)) {
          later.push({ ...it, text: '' });
        } else {
          (item ??= u.list(listKind ?? 'List'))(it.value, it.index);
          u.place();
        }
        positions.leave();
      },
      error: (e) => {
        this.partial = true;
        if (++syntaxErrors > MAX_SYNTAX_PROBLEMS) return;
        this.problem('json-syntax', 'error', e.message, { file, line: e.at.line, column: e.at.column, offset: e.at.offset });
      },
    });
    for (const chunk of chunks) reader.push(chunk);
    const summary = reader.end();
    if (reader.start) positions.list = reader.start;
    if (syntaxErrors > MAX_SYNTAX_PROBLEMS)
      this.problem('json-syntax', 'error', `${syntaxErrors - MAX_SYNTAX_PROBLEMS} more JSON syntax errors in this file are not listed`, {
        file,
        line: 1,
        column: 1,
      });
    if (summary.shape === 'object') {
      // one object, not a List: small, its text was the top-level keys
      u.object(summary.keys, -1, undefined, undefined);
    } else if (later.length) {
      const kind = typeof summary.keys.kind === 'string' && summary.keys.kind.endsWith('List') ? summary.keys.kind : 'List';
      const late = u.list(kind);
      for (const it of later) late(it.value, it.index);
    }
    u.close();
  }

  /**
   * YAML, document by document, and a List document (`kubectl get -o yaml`) item by item
   * (yamlListStream.ts): each piece parsed alone, with the file's lines and columns.
   */
  private streamYaml(file: string, chunks: Iterable<Chunk>, fileKind: EngineKind | undefined): void {
    /** items of a typed List without kind: read once the List's kind is known (kubectl prints it after the items) */
    let later: { text: string; at: TextPoint; indent: number }[] = [];
    for (const split of yamlStreamPieces(chunks)) {
      if ('tooLong' in split) {
        this.problem(
          'file-too-large',
          'error',
          `a YAML document or List item of ${formatBytes(split.chars)} characters is left out: each is parsed whole (the yaml package builds its whole tree at once), up to ${formatBytes(MAX_YAML_DOCUMENT_CHARS)}. Export as JSON (-o json), which is read item by item, or split it`,
          { file, line: split.tooLong.line, column: 1, offset: split.tooLong.offset },
        );
        this.partial = true;
        continue;
      }
      if ('item' in split) {
        const { text, at } = split.item;
        if (!new RegExp(`^ {${split.indent + 2}}kind:[ \\t]*\\S`, 'm').test(text)) later.push({ text, at, indent: split.indent });
        else this.loadYaml(file, text, new ShiftedLines(text, at), fileKind, true);
        continue;
      }
      if ('listEnd' in split) {
        const kind = listKindOf(split.listEnd.text);
        const itemKind = kind && kind !== 'List' && kind.endsWith('List') ? kind.slice(0, -4) : undefined;
        // the List's kind names its items' kind, as a file's name can
        const hint = itemKind && isEngineKind(itemKind) ? itemKind : fileKind;
        for (const it of later) this.loadYaml(file, it.text, new ShiftedLines(it.text, it.at), hint, true);
        later = [];
        continue;
      }
      const { text, at } = split.piece;
      this.loadYaml(file, text, new ShiftedLines(text, at), fileKind, true);
    }
  }

  private positionsUpTo(): number {
    return this.options.objectPositionsUpTo ?? 8 * 1024 * 1024;
  }

  /** A parsed file whose text was let go: read again, once, only if a problem needs a position. */
  private releasedJsonUnit(file: string, reread: () => string, start: number, value: unknown, fileKind: EngineKind | undefined): Unit {
    let text: string | undefined;
    let lines: LineIndex | undefined;
    const again = (): string => {
      if (text === undefined) {
        // a file that can no longer be read gives problems without a line (the fallback position)
        try {
          text = withoutBom(reread());
        } catch {
          text = '';
        }
      }
      return text;
    };
    return {
      file,
      value,
      base: [],
      get lines() {
        return (lines ??= new LineIndex(again()));
      },
      locate: (paths) => locateJsonPaths(again(), start, paths),
      cheap: false,
      fileKind,
      stream: false,
    };
  }

  private jsonUnit(file: string, text: string, lines: Lines, start: number, value: unknown, fileKind: EngineKind | undefined, stream: boolean): Unit {
    return {
      file,
      value,
      base: [],
      lines,
      locate: (paths) => locateJsonPaths(text, start, paths),
      cheap: text.length <= this.positionsUpTo(),
      fileKind,
      stream,
    };
  }

  /** Several JSON values with text between them, or one malformed JSON value. */
  private loadJsonStream(file: string, text: string, lines: Lines, fileKind: EngineKind | undefined): void {
    const segments = splitJsonStream(text);
    const values = segments.filter((s) => s.kind === 'json');
    if (values.length === 0 || (segments.length === 1 && segments[0].kind !== 'json')) {
      // One malformed JSON document: say where.
      const err = findJsonSyntaxError(text, 0);
      const at = err?.offset ?? 0;
      this.problem(
        'json-syntax',
        'error',
        `${err?.message ?? 'malformed JSON'}; the file is left out`,
        lines.position(file, at, Math.min(at + 1, text.length)),
      );
      this.partial = true;
      return;
    }
    for (const seg of segments) {
      if (seg.kind === 'text') {
        const start = skipWs(text, seg.start);
        let end = seg.end;
        while (end > start && /\s/.test(text[end - 1])) end--;
        const n = lines.lineCol(end).line - lines.lineCol(start).line + 1;
        this.problem(
          'skipped-text',
          'info',
          `skipped ${n} line${n === 1 ? '' : 's'} of text between JSON values (as in the output of kubectl cluster-info dump)`,
          lines.position(file, start, end),
        );
      } else if (seg.kind === 'bad-json') {
        const at = seg.error?.offset ?? seg.start;
        this.problem(
          'json-syntax',
          'error',
          `${seg.error?.message ?? 'malformed JSON'}; this JSON value is left out`,
          lines.position(file, at, Math.min(at + 1, text.length)),
        );
        this.partial = true;
      } else {
        let value: unknown;
        try {
          value = JSON.parse(text.slice(seg.start, seg.end));
        } catch (e) {
          this.problem(
            'json-syntax',
            'error',
            `${e instanceof Error ? e.message : 'malformed JSON'}; this JSON value is left out`,
            lines.position(file, seg.start),
          );
          this.partial = true;
          continue;
        }
        this.processUnit(this.jsonUnit(file, text, lines, seg.start, value, fileKind, true));
      }
    }
  }

  private loadYaml(file: string, text: string, lines: Lines, fileKind: EngineKind | undefined, detach = false): void {
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
        this.loadJsonStream(file, text, lines, fileKind);
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
          const [s, e] = err.pos;
          this.problem('yaml-syntax', 'error', `${err.message.split('\n')[0]}; this document is left out`, lines.position(file, s, Math.max(e, s)));
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
      this.processUnit(yamlUnit(file, lines, doc, [], value, fileKind));
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

  private processUnit(unit: Unit): void {
    const u = this.openUnit(unit);
    const v = unit.value;
    if (isObject(v) && (Array.isArray(v.items) || v.items === null) && (v.kind === undefined || (typeof v.kind === 'string' && v.kind.endsWith('List')))) {
      const item = u.list(typeof v.kind === 'string' ? v.kind : 'List');
      const items = (v.items ?? []) as unknown[];
      for (let i = 0; i < items.length; i++) item(items[i], i);
    } else if (v === null || v === undefined) {
      // an empty document
    } else if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) u.object(v[i], i, undefined, undefined);
    } else {
      u.object(v, -1, undefined, undefined);
    }
    u.close();
  }

  /**
   * Reading one unit's objects: `object` or a list's `item` for each, `place`
   * to give the problems found so far their positions (a streamed List does
   * it after each item, while the item's text is at hand), `close` at the end.
   */
  private openUnit(unit: Unit) {
    const pending: Pending[] = [];
    const located: { loaded: LoadedObject; path: JsonPath }[] = [];
    const ignoredKinds = new Map<string, number>();
    const inferred = new Map<string, { count: number; from: string; path: JsonPath; severity: Severity }>();
    const at = unit.base;
    const add = (p: Pending) => pending.push(p);
    // Paths are built only when needed (a problem, or positions for every object when cheap).
    let itemsKey: 'items' | undefined;
    const pathOf = (index: number): JsonPath => (index < 0 ? at : itemsKey ? [...at, itemsKey, index] : [...at, index]);
    let current = -1;
    let failed = false;
    const reporter = (p: JsonPath, code: string, severity: Severity, message: string) => {
      if (severity === 'error') failed = true;
      add({ path: [...pathOf(current), ...p], code, severity, message });
    };

    const object = (obj: unknown, index: number, listKind: EngineKind | undefined, listName: string | undefined) => {
      if (!isObject(obj)) {
        const path = pathOf(index);
        add({
          path,
          code: 'not-an-object',
          severity: 'warning',
          message: `expected a Kubernetes object (a mapping), found ${describeValue(obj)}; it is ignored`,
        });
        return;
      }
      let kind = typeof obj.kind === 'string' && obj.kind ? obj.kind : undefined;
      if (!kind) {
        const shape = shapeKind(obj);
        const fromList = listKind;
        const fromFile = unit.fileKind;
        kind = fromList ?? fromFile ?? shape;
        if (!kind) {
          const path = pathOf(index);
          if (unit.stream && !isObject(obj.metadata)) {
            add({ path, code: 'skipped-text', severity: 'info', message: 'skipped a JSON value that is not a Kubernetes object (a log line?)' });
          } else {
            add({
              path,
              code: 'unknown-kind',
              severity: 'warning',
              message: 'an object without kind that does not look like a Node, Pod or Lease; it is ignored (add kind and apiVersion)',
            });
            this.ignored.push({ object: obj, kind: '', name: nameOf(obj, false) });
            this.kindless++;
          }
          return;
        }
        const from = fromList
          ? `the ${listName}`
          : fromFile
            ? `the file name ${basenamePath(unit.file)}`
            : 'its fields (status.nodeInfo, spec.containers, spec.renewTime...)';
        const key = `${kind}|${from}`;
        const prev = inferred.get(key);
        if (prev) prev.count++;
        else inferred.set(key, { count: 1, from, path: pathOf(index), severity: fromList || fromFile ? 'info' : 'warning' });
      }
      if (!isEngineKind(kind)) {
        ignoredKinds.set(kind, (ignoredKinds.get(kind) ?? 0) + 1);
        const loaded: LoadedObject = { object: obj, kind, name: nameOf(obj, true) };
        this.ignored.push(loaded);
        if (unit.cheap) located.push({ loaded, path: pathOf(index) });
        return;
      }
      const apiVersion = obj.apiVersion;
      if (apiVersion !== undefined && !API_VERSIONS[kind].includes(apiVersion as string)) {
        add({
          path: [...pathOf(index), 'apiVersion'],
          code: 'unsupported-api-version',
          severity: 'warning',
          message: `${kind} with apiVersion ${JSON.stringify(apiVersion)}: expected ${API_VERSIONS[kind].join(' or ')}; read as ${API_VERSIONS[kind][0]}`,
        });
      }
      current = index;
      failed = false;
      if (!unit.shared) {
        const prevOfKind = this.previous.get(kind);
        if (prevOfKind) shareWithPrevious(obj, prevOfKind);
        this.previous.set(kind, obj);
      }
      const record = toRecord(kind, obj, reporter);
      if (failed) this.partial = true;
      if (!record) return;
      const ns = record.meta.namespace;
      const name = ns ? `${ns}/${record.meta.name}` : record.meta.name;
      const loaded: LoadedObject = { object: obj, kind, name };
      if (unit.cheap) located.push({ loaded, path: pathOf(index) });
      if (kind === 'Lease' && ns !== NODE_LEASE_NAMESPACE) {
        add({
          path: pathOf(index),
          code: 'ignored-lease',
          severity: 'info',
          message: `Lease ${name} is not in ${NODE_LEASE_NAMESPACE}: it is not a node heartbeat and is ignored`,
        });
        this.ignored.push(loaded);
        return;
      }
      // A duplicate is seen by its cluster map not growing: no look-up before each insert.
      if (!this.remember(record, name)) {
        const prev = findLast(this.used, (l) => l.kind === kind && l.name === name && !this.replaced.has(l));
        const where = prev?.position ? ` (first at ${prev.position.file}:${prev.position.line})` : '';
        add({
          path: pathOf(index),
          code: 'duplicate-object',
          severity: 'warning',
          message: `${kind} ${name} appears more than once${where}; the last one is used`,
        });
        if (prev) this.replaced.add(prev);
        this.forget(record.kind, name, prev?.object);
        this.remember(record, name);
      }
      this.used.push(loaded);
    };

    const list = (listKindName: string) => {
      const itemKind = listKindName !== 'List' ? listKindName.slice(0, -4) : undefined;
      const engineItemKind = itemKind && isEngineKind(itemKind) ? itemKind : undefined;
      itemsKey = 'items';
      return (item: unknown, i: number): void => {
        if (itemKind && !engineItemKind && isObject(item) && !item.kind) {
          ignoredKinds.set(itemKind, (ignoredKinds.get(itemKind) ?? 0) + 1);
          this.ignored.push({ object: item, kind: itemKind, name: nameOf(item, true) });
          return;
        }
        object(item, i, engineItemKind, listKindName);
      };
    };

    // Positions: every object when cheap, otherwise only for problems.
    const place = (): void => {
      const wanted: JsonPath[] = [];
      if (unit.cheap) for (const l of located) wanted.push(l.path);
      for (const p of pending) for (let n = p.path.length; n >= 0; n--) wanted.push(p.path.slice(0, n));
      if (!wanted.length) return;
      const ranges = unit.locate(wanted);
      if (unit.cheap) {
        for (const l of located) {
          const r = ranges.get(pathKey(l.path));
          if (r) l.loaded.position = unit.lines.position(unit.file, r.start, r.end);
        }
      }
      for (const p of pending) {
        let position: SourcePosition | undefined;
        for (let n = p.path.length; n >= 0 && !position; n--) {
          const r = ranges.get(pathKey(p.path.slice(0, n)));
          if (r) position = unit.lines.position(unit.file, r.start, r.end);
        }
        this.problem(p.code, p.severity, p.message, position ?? { file: unit.file, line: 1, column: 1 });
      }
      pending.length = 0;
      located.length = 0;
    };

    const close = (): void => {
      for (const [key, info] of inferred) {
        const kind = key.slice(0, key.indexOf('|'));
        const what = info.count === 1 ? 'an object without kind' : `${info.count} objects without kind`;
        add({
          path: info.path,
          code: info.severity === 'info' ? 'kind-inferred' : 'kind-guessed',
          severity: info.severity,
          message: `${what} taken as ${kind} from ${info.from}`,
        });
      }
      if (ignoredKinds.size) {
        const parts = [...ignoredKinds].map(([k, n]) => `${n} ${k}`);
        add({ path: at, code: 'ignored-kind', severity: 'info', message: `kept but not simulated (kinds the engine does not use): ${parts.join(', ')}` });
      }
      place();
    };
    return { object, list, place, close };
  }

  // -- the result -------------------------------------------------------------

  /**
   * Puts a record in the cluster; `name` is `ns/name` for namespaced kinds. False when one of
   * that name was there: it is replaced in the map, and the caller puts things right (forget).
   */
  private remember(record: ObjectRecord, name: string): boolean {
    const cluster = this.cluster;
    switch (record.kind) {
      case 'Node':
        return grew(cluster.nodes, name, record);
      case 'Pod': {
        if (!grew(cluster.pods, name, record)) return false;
        if (record.nodeName) {
          let set = cluster.podsByNode.get(record.nodeName);
          if (!set) cluster.podsByNode.set(record.nodeName, (set = new Set()));
          set.add(name);
        }
        return true;
      }
      case 'ReplicaSet':
        return grew(cluster.replicaSets, name, record);
      case 'DaemonSet':
        return grew(cluster.daemonSets, name, record);
      case 'Lease':
        return grew(cluster.leases, record.meta.name, record);
    }
  }

  private lookup(kind: ObjectRecord['kind'], name: string): ObjectRecord | undefined {
    const c = this.cluster;
    switch (kind) {
      case 'Node':
        return c.nodes.get(name);
      case 'Pod':
        return c.pods.get(name);
      case 'ReplicaSet':
        return c.replicaSets.get(name);
      case 'DaemonSet':
        return c.daemonSets.get(name);
      case 'Lease':
        return c.leases.get(name.slice(name.indexOf('/') + 1));
    }
  }

  /** Takes out an earlier object of the same name (a duplicate), whose raw object was `raw`. */
  private forget(kind: ObjectRecord['kind'], name: string, raw: KObject | undefined): void {
    const cluster = this.cluster;
    switch (kind) {
      case 'Node':
        cluster.nodes.delete(name);
        break;
      case 'Pod': {
        const nodeName = raw && nodeNameOf(raw);
        if (nodeName) {
          const set = cluster.podsByNode.get(nodeName);
          set?.delete(name);
          if (set && !set.size) cluster.podsByNode.delete(nodeName);
        }
        cluster.pods.delete(name);
        break;
      }
      case 'ReplicaSet':
        cluster.replicaSets.delete(name);
        break;
      case 'DaemonSet':
        cluster.daemonSets.delete(name);
        break;
      case 'Lease':
        cluster.leases.delete(name.slice(name.indexOf('/') + 1));
        break;
    }
  }

  finish(): LoadedSnapshot {
    const cluster = this.cluster;
    const objects: LoadedObject[] = this.replaced.size ? this.used.filter((l) => !this.replaced.has(l)) : this.used.slice();
    for (const l of this.ignored) {
      objects.push(l);
      cluster.ignored.push(l.object);
    }
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
    this.crossChecks(cluster);
    const latest = latestTimestamp(cluster);
    const snap: LoadedSnapshot = { objects, cluster, files: this.files, problems: this.problems, partial: this.partial, exported: this.exported };
    if (latest !== undefined) snap.latestTimestamp = latest;
    return snap;
  }

  /** Warnings about the snapshot as a whole (spec 1.4 and the quirks of real exports). */
  private crossChecks(cluster: ClusterState): void {
    const firstPosition = (kind: string, name: string) => {
      const raw = this.lookup(kind as ObjectRecord['kind'], name)?.raw;
      return raw && this.used.find((l) => l.object === raw)?.position;
    };
    // A modern snapshot without Leases makes healthy nodes look stale.
    if (cluster.nodes.size && !cluster.leases.size) {
      for (const node of cluster.nodes.values()) {
        const v = kubeletMinor(node.raw);
        if (v && v.minor >= 14) {
          this.problem(
            'no-leases',
            'warning',
            `the nodes run Kubernetes ${v.text} (1.14 or later: the kubelet heartbeats with a Lease in ${NODE_LEASE_NAMESPACE} and rewrites lastHeartbeatTime only every few minutes), but the snapshot holds no node Leases, ${this.exported ? 'so nodes whose Ready is True are taken as having renewed their Lease at the start time, unless the simulated version has no Leases or a scenario says missingLeases: absent (the trace shows the assumption); for their real renew times export them too' : 'so healthy nodes may look stale; add them with'}: kubectl get leases -n ${NODE_LEASE_NAMESPACE} -o yaml`,
            firstPosition('Node', node.meta.name),
          );
          break;
        }
      }
    }
    // Heartbeats that disagree: the snapshot has no single "now".
    let lo: Micros | undefined,
      hi: Micros | undefined,
      loNode = '',
      hiNode = '';
    for (const node of cluster.nodes.values()) {
      const ready = node.conditions.find((c) => c.type === 'Ready');
      if (!ready || ready.lastHeartbeatTime === ZERO_TIME) continue;
      if (lo === undefined || ready.lastHeartbeatTime < lo) {
        lo = ready.lastHeartbeatTime;
        loNode = node.meta.name;
      }
      if (hi === undefined || ready.lastHeartbeatTime > hi) {
        hi = ready.lastHeartbeatTime;
        hiNode = node.meta.name;
      }
    }
    if (lo !== undefined && hi !== undefined && hi - lo > HEARTBEAT_SPREAD_WARNING) {
      this.problem(
        'heartbeats-disagree',
        'warning',
        `the nodes' Ready heartbeats are ${formatDuration(hi - lo)} apart (${loNode} oldest, ${hiNode} newest): the snapshot has no single "now"; the clock starts at the latest timestamp, so ${loNode} will look stale${this.exported && !cluster.leases.size && cluster.nodes.get(loNode)?.conditions.some((c) => c.type === 'Ready' && c.status === 'True') ? ' unless its Lease is taken as renewed at the start time (no-leases)' : ''}`,
        firstPosition('Node', loNode),
      );
    }
    // Dangling references, as in partial exports.
    this.problems.push(...danglingReferences(cluster, firstPosition));
    const orphanLeases = [...cluster.leases.keys()].filter((n) => !cluster.nodes.has(n));
    if (orphanLeases.length) {
      this.problem(
        'leases-without-nodes',
        'info',
        `${orphanLeases.length} node Lease${orphanLeases.length === 1 ? '' : 's'} without a Node in the snapshot (${orphanLeases.slice(0, 3).join(', ')}${orphanLeases.length > 3 ? ', ...' : ''})`,
      );
    }
  }
}

/** The first character (or byte) that is not a blank or a BOM: 0 for a NUL (binary), -1 when there is none. */
function firstNonBlank(chunk: Chunk): number {
  for (let i = 0; i < chunk.length; i++) {
    const c = typeof chunk === 'string' ? chunk.charCodeAt(i) : chunk[i];
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xfeff || c === 0xef || c === 0xbb || c === 0xbf) continue;
    return c;
  }
  return -1;
}

function* concatIterators<T>(head: T[], rest: Iterator<T>): Generator<T> {
  yield* head;
  for (let r = rest.next(); !r.done; r = rest.next()) yield r.value;
}

const HEARTBEAT_SPREAD_WARNING = 60 * 60 * 1_000_000;

/** Sets `key`; true when the map grew (the key is new). */
function grew<V>(map: Map<string, V>, key: string, value: V): boolean {
  const size = map.size;
  map.set(key, value);
  return map.size !== size;
}

/** A pod's spec.nodeName as its record has it (convert.ts toPodRecord). */
function nodeNameOf(raw: KObject): string | undefined {
  const spec = raw.spec;
  return isObject(spec) && typeof spec.nodeName === 'string' && spec.nodeName ? spec.nodeName : undefined;
}

function findLast<T>(xs: readonly T[], f: (x: T) => boolean): T | undefined {
  for (let i = xs.length - 1; i >= 0; i--) if (f(xs[i])) return xs[i];
  return undefined;
}

function safeStat(fs: InputFs, p: string) {
  try {
    return fs.stat(p);
  } catch {
    return undefined;
  }
}

function yamlUnit(file: string, lines: Lines, doc: Document, base: JsonPath, value: unknown, fileKind: EngineKind | undefined): Unit {
  return {
    file,
    value,
    base,
    lines,
    cheap: true,
    fileKind,
    locate(paths) {
      const out = new Map<string, JsonRange>();
      for (const p of paths) {
        const r = locateYamlPath(doc, p);
        if (r?.exact) out.set(pathKey(p), r);
      }
      return out;
    },
  };
}

/** The text of one input. */
export interface TextSource {
  text: string;
  /** reads the same text again; given, the loader may empty `text` once it is parsed (see loadSource) */
  reread?: () => string;
}

/** Keeps offsets: a BOM becomes a blank. */
function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? ' ' + text.slice(1) : text;
}

/** Binary data: NUL characters, or many undecodable bytes near the start. */
function isBinary(text: string): boolean {
  if (text.indexOf('\u0000') !== -1) return true;
  const head = text.slice(0, 4096);
  let bad = 0;
  for (let i = 0; i < head.length; i++) if (head.charCodeAt(i) === 0xfffd) bad++;
  return bad > 8 && bad > head.length / 100;
}

/** A kind for an item with none, from its shape: only unmistakable shapes. */
function shapeKind(obj: KObject): EngineKind | undefined {
  const status = isObject(obj.status) ? obj.status : undefined;
  const spec = isObject(obj.spec) ? obj.spec : undefined;
  if (status && isObject(status.nodeInfo)) return 'Node';
  if (spec && Array.isArray(spec.containers)) return 'Pod';
  if (spec && ('renewTime' in spec || 'holderIdentity' in spec) && 'leaseDurationSeconds' in spec) return 'Lease';
  return undefined;
}

function nameOf(obj: KObject, namespaced: boolean): string {
  const md = isObject(obj.metadata) ? obj.metadata : {};
  const name = typeof md.name === 'string' ? md.name : '';
  return namespaced && typeof md.namespace === 'string' ? `${md.namespace}/${name}` : name;
}

/**
 * What a value is, never what it says: a file that is not Kubernetes YAML or JSON (a
 * `.git-credentials`, an `.env`) parses as one plain scalar, and echoing it would put a
 * secret into diagnostics, the panel and CI logs.
 */
function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return `a string of ${v.length} character${v.length === 1 ? '' : 's'} (not shown)`;
  return `a ${typeof v} (not shown)`;
}

function kubeletMinor(raw: KObject): { minor: number; text: string } | undefined {
  const status = raw.status as KObject | undefined;
  const info = status && (status.nodeInfo as KObject | undefined);
  const text = info && typeof info.kubeletVersion === 'string' ? info.kubeletVersion : undefined;
  if (!text) return undefined;
  const m = /^v?1\.(\d{1,3})(?:\.|$|-|\+)/.exec(text);
  return m ? { minor: Number(m[1]), text } : undefined;
}

/**
 * The latest timestamp in the snapshot: node condition heartbeats and
 * transitions, taints' timeAdded, Lease renewTimes, pod condition transitions
 * and every object's creationTimestamp. Deletion timestamps are left out (they
 * lie in the future while a pod terminates). Undefined when there is none.
 */
export function latestTimestamp(cluster: ClusterState): Micros | undefined {
  let max = ZERO_TIME;
  const see = (t: Micros | undefined) => {
    if (t !== undefined && t > max) max = t;
  };
  for (const n of cluster.nodes.values()) {
    see(n.meta.creationTimestamp);
    for (const c of n.conditions) {
      see(c.lastHeartbeatTime);
      see(c.lastTransitionTime);
    }
    for (const t of n.taints) see(t.timeAdded);
  }
  for (const p of cluster.pods.values()) {
    see(p.meta.creationTimestamp);
    for (const c of p.conditions) see(c.lastTransitionTime);
  }
  for (const r of cluster.replicaSets.values()) see(r.meta.creationTimestamp);
  for (const d of cluster.daemonSets.values()) see(d.meta.creationTimestamp);
  for (const l of cluster.leases.values()) {
    see(l.meta.creationTimestamp);
    see(l.renewTime);
  }
  return max === ZERO_TIME ? undefined : max;
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
