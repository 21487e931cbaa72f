/**
 * The objects of one top-level value of a file (a List and its items, an
 * array, one object): each one's kind (given, from its List or file name, or
 * from its shape), its checks and record (model/convert.ts), sharing with its
 * neighbour (share.ts), duplicates, and the positions of what is reported.
 */
import { isEngineKind, toRecord, type EngineKind } from '../model/convert';
import { NODE_LEASE_NAMESPACE, type KObject } from '../model/types';
import type { Severity, SourcePosition } from '../problems';
import { LineIndex, locateJsonPaths, locateYamlPath, pathKey, type JsonPath, type JsonRange } from './positions';
import { parseDocument, type Document } from 'yaml';
import { readKubectlYaml, type KubectlYamlDocument } from './kubectlYaml';
import { YAML_OPTIONS } from './yamlOptions';
import { shareWithinLimits } from './share';
import type { Lines } from './streamPositions';
import type { ClusterStore } from './clusterStore';
import type { LoadedObject } from './types';
import { basenamePath } from './source';
import { withoutBom } from './sniff';

/** apiVersions of the era for the kinds the engine uses. */
export const API_VERSIONS: Record<EngineKind, readonly string[]> = {
  Node: ['v1'],
  Pod: ['v1'],
  ReplicaSet: ['apps/v1', 'apps/v1beta2', 'extensions/v1beta1'],
  DaemonSet: ['apps/v1', 'apps/v1beta2', 'extensions/v1beta1'],
  Lease: ['coordination.k8s.io/v1', 'coordination.k8s.io/v1beta1'],
};

export const isObject = (v: unknown): v is KObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One top-level value of a file, and how to find positions in it. */
export interface Unit {
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
  /** by index in the List's items, those found within the limits (model/limits.ts) while shared */
  itemsWithinLimits?: readonly boolean[];
}

interface Pending {
  path: JsonPath;
  code: string;
  severity: Severity;
  message: string;
}

/**
 * What an object read keeps of itself once its record is built, for its record's `raw` and the
 * loaded object: by default all of it. A caller that holds a big snapshot long and reads only the
 * records (the language server) keeps less, so a full-detail export's bulk becomes garbage item by
 * item as it streams, not all at once at the end. What is kept must have the object's apiVersion,
 * kind, metadata.name and metadata.namespace, and a pod's spec.nodeName (a duplicate is found and
 * taken out of the cluster by them: ClusterStore.forget), and a node's status.nodeInfo (the
 * kubelet version, which crossChecks and a scenario's assumed version read).
 */
export type KeepOf = (object: KObject, kind: string) => KObject;

/** What reading a unit's objects needs of the loader. */
export interface UnitHost {
  readonly store: ClusterStore;
  readonly options: { readonly keepOf?: KeepOf };
  partial: boolean;
  problem(code: string, severity: Severity, message: string, position?: SourcePosition): void;
}

/**
 * Reading one unit's objects: `object` or a list's `item` for each, `place`
 * to give the problems found so far their positions (a streamed List does
 * it after each item, while the item's text is at hand), `close` at the end.
 */
export function openUnit(host: UnitHost, unit: Unit) {
  const store = host.store;
  const pending: Pending[] = [];
  const located: { loaded: LoadedObject; path: JsonPath }[] = [];
  const ignoredKinds = new Map<string, number>();
  const inferred = new Map<string, { count: number; from: string; path: JsonPath; severity: Severity }>();
  const at = unit.base;
  const add = (p: Pending) => pending.push(p);
  const keepOf = host.options.keepOf;
  const keep = (obj: KObject, kind: string): KObject => (keepOf ? keepOf(obj, kind) : obj);
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
          store.ignored.push({ object: keep(obj, ''), kind: '', name: nameOf(obj, false) });
          store.kindless++;
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
      const loaded: LoadedObject = { object: keep(obj, kind), kind, name: nameOf(obj, true) };
      store.ignored.push(loaded);
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
    let withinLimits = false;
    if (!unit.shared) {
      const prevOfKind = store.previous.get(kind);
      if (prevOfKind) withinLimits = shareWithinLimits(obj, prevOfKind);
      store.previous.set(kind, obj);
    } else if (index >= 0 && unit.itemsWithinLimits) withinLimits = unit.itemsWithinLimits[index] === true;
    const record = toRecord(kind, obj, reporter, withinLimits);
    if (failed) host.partial = true;
    if (!record) return;
    const ns = record.meta.namespace;
    // A flat string, not the rope a `+` or template makes: the key is kept for the run and compared
    // (podsOn's key order, sorts), and a rope's first comparison makes a flat copy beside it (at
    // 5,000 nodes, 50,000 copies in the pass where a zone goes Unknown); flat is also the smaller.
    const name = ns ? [ns, record.meta.name].join('/') : record.meta.name;
    // the record and the loaded object hold the same kept object: positionOf finds one by the other
    if (keepOf) record.raw = keep(obj, kind);
    const loaded: LoadedObject = { object: record.raw, kind, name };
    if (unit.cheap) located.push({ loaded, path: pathOf(index) });
    if (kind === 'Lease' && ns !== NODE_LEASE_NAMESPACE) {
      add({
        path: pathOf(index),
        code: 'ignored-lease',
        severity: 'info',
        message: `Lease ${name} is not in ${NODE_LEASE_NAMESPACE}: it is not a node heartbeat and is ignored`,
      });
      store.ignored.push(loaded);
      return;
    }
    // A duplicate is seen by its cluster map not growing: no look-up before each insert.
    if (!store.remember(record, name)) {
      const prev = store.latestOf(kind, name);
      const where = prev?.position ? ` (first at ${prev.position.file}:${prev.position.line})` : '';
      add({
        path: pathOf(index),
        code: 'duplicate-object',
        severity: 'warning',
        message: `${kind} ${name} appears more than once${where}; the last one is used`,
      });
      if (prev) store.replaced.add(prev);
      store.forget(record.kind, name, prev?.object);
      store.remember(record, name);
    }
    store.used.push(loaded);
  };

  const list = (listKindName: string) => {
    const itemKind = listKindName !== 'List' ? listKindName.slice(0, -4) : undefined;
    const engineItemKind = itemKind && isEngineKind(itemKind) ? itemKind : undefined;
    itemsKey = 'items';
    return (item: unknown, i: number): void => {
      if (itemKind && !engineItemKind && isObject(item) && !item.kind) {
        ignoredKinds.set(itemKind, (ignoredKinds.get(itemKind) ?? 0) + 1);
        store.ignored.push({ object: keep(item, itemKind), kind: itemKind, name: nameOf(item, true) });
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
      host.problem(p.code, p.severity, p.message, position ?? { file: unit.file, line: 1, column: 1 });
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

/** A kind for an item with none, from its shape: only unmistakable shapes. */
function shapeKind(obj: KObject): EngineKind | undefined {
  const status = isObject(obj.status) ? obj.status : undefined;
  const spec = isObject(obj.spec) ? obj.spec : undefined;
  if (status && isObject(status.nodeInfo)) return 'Node';
  if (spec && Array.isArray(spec.containers)) return 'Pod';
  if (spec && ('renewTime' in spec || 'holderIdentity' in spec) && 'leaseDurationSeconds' in spec) return 'Lease';
  return undefined;
}

export function nameOf(obj: KObject, namespaced: boolean): string {
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

/** A parsed file whose text was let go: read again, once, only if a problem needs a position. */
export function releasedJsonUnit(file: string, reread: () => string, start: number, value: unknown, fileKind: EngineKind | undefined): Unit {
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

export function jsonUnit(
  file: string,
  text: string,
  lines: Lines,
  start: number,
  value: unknown,
  fileKind: EngineKind | undefined,
  stream: boolean,
  cheap: boolean,
): Unit {
  return {
    file,
    value,
    base: [],
    lines,
    locate: (paths) => locateJsonPaths(text, start, paths),
    cheap,
    fileKind,
    stream,
  };
}

export function yamlUnit(file: string, lines: Lines, doc: Document, base: JsonPath, value: unknown, fileKind: EngineKind | undefined): Unit {
  return {
    file,
    value,
    base,
    lines,
    cheap: true,
    fileKind,
    locate(paths) {
      const out = new Map<string, JsonRange>();
      for (const p of paths) placeInYaml(doc, p, out);
      return out;
    },
  };
}

/** Where the yaml package's tree puts `p`, when it knows it exactly. */
function placeInYaml(doc: Document, p: JsonPath, out: Map<string, JsonRange>): void {
  const r = locateYamlPath(doc, p);
  if (r?.exact) out.set(pathKey(p), r);
}

/**
 * The documents of a YAML text read by kubectlYaml.ts, each handed to `process` as a unit; false,
 * with nothing done, when the text is outside its subset. `detach`: a streamed piece's strings are
 * copied, so its text does not outlive it (yamlDocStream.ts).
 */
export function readKubectlYamlUnits(
  process: (unit: Unit) => void,
  file: string,
  lines: Lines,
  text: string,
  fileKind: EngineKind | undefined,
  detach: boolean,
): boolean {
  const docs = readKubectlYaml(text, detach);
  if (!docs) return false;
  for (let i = 0; i < docs.length; i++) process(kubectlYamlUnit(file, lines, text, docs[i], fileKind));
  return true;
}

/**
 * A document read by kubectlYaml.ts: its objects are placed at the ranges it gave (those the yaml
 * package gives); a problem deeper in is placed by the yaml package, reading this document's lines
 * again, alone: a multi-document export whose problems are in some documents (KWOK's, 95
 * `bad-timestamp` errors in 236 documents) parses those, not the whole text.
 */
export function kubectlYamlUnit(file: string, lines: Lines, text: string, doc: KubectlYamlDocument, fileKind: EngineKind | undefined): Unit {
  let own: Document | undefined;
  /** where the document's text starts: its contents' line, so the columns (and indentation) stay those of the whole text */
  const from = text.lastIndexOf('\n', doc.start - 1) + 1;
  return {
    file,
    value: doc.value,
    base: [],
    lines,
    cheap: true,
    fileKind,
    locate(paths) {
      const out = new Map<string, JsonRange>();
      for (const p of paths) {
        const item = doc.items && p.length === (doc.topLevelItems ? 1 : 2) && (doc.topLevelItems || p[0] === 'items') ? p[p.length - 1] : undefined;
        if (p.length === 0) out.set(pathKey(p), { start: doc.start, end: doc.end });
        else if (typeof item === 'number' && doc.items![2 * item] >= 0) out.set(pathKey(p), { start: doc.items![2 * item], end: doc.items![2 * item + 1] });
        else {
          own ??= parseDocument(text.slice(from, doc.end), { ...YAML_OPTIONS, prettyErrors: false }) as unknown as Document;
          const r = locateYamlPath(own, p);
          if (r?.exact) {
            out.set(pathKey(p), {
              start: r.start + from,
              end: r.end + from,
              ...(r.keyStart !== undefined ? { keyStart: r.keyStart + from } : {}),
            });
          }
        }
      }
      return out;
    },
  };
}

/** A unit's objects: a List's items, a sequence's each, or the one object it is. */
export function readUnit(host: UnitHost, unit: Unit): void {
  const u = openUnit(host, unit);
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

/** A streamed List's item (yamlListStream.ts): one object whatever its shape, as readUnit reads each item of a List read whole. */
export function readItem(host: UnitHost, unit: Unit): void {
  if (unit.value === null || unit.value === undefined) return readUnit(host, unit);
  const u = openUnit(host, unit);
  u.object(unit.value, -1, undefined, undefined);
  u.close();
}
