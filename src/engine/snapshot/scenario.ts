/**
 * Scenario files (spec 1.2): a snapshot plus controller settings, a timeline
 * of world events and expectations, parsed from YAML with positions.
 *
 * - `parseScenario(text, file, fs)` parses scenario text and returns the
 *   Scenario, its problems and the parsed YAML document (with positions) so
 *   the language server can reuse it.
 * - `loadScenario(path, fs)` reads a scenario file, or takes a plain snapshot
 *   (file or folder) as a scenario with `plainSnapshot: true`.
 *
 * Settings under `controllerManager` are kept as written, with positions;
 * config/resolve.ts resolves them. Events are returned sorted by time, stable
 * (file order within one instant); events written out of time order get a
 * warning. Every problem has a stable code and a position in the file.
 *
 * Problem codes (besides the loader's, for the snapshot): not-a-scenario,
 * unknown-field (with did-you-mean), wrong-type, bad-value, bad-duration,
 * bad-timestamp, bad-flag, bad-reference, bad-taint, bad-condition-status,
 * missing-field, missing-event-kind, ambiguous-event, missing-target,
 * ambiguous-target, unknown-node, unknown-pod, unknown-replicaset,
 * unknown-daemonset, unknown-lease, file-not-found, file-too-large,
 * unreadable-file, version-as-number, unsupported-version, yaml-syntax (errors);
 * unknown-zone, selector-matches-nothing, events-out-of-order, event-before-start, unknown-api-version,
 * no-snapshot, unused-field, ignored-kind, yaml-warning (warnings);
 * version-assumed, ignored-lease (info).
 */
import { isMap, isScalar, isSeq, parseDocument, type Document, type Node as YamlNode, type Pair, type YAMLMap } from 'yaml';
import { toLabelSelector, toRecord, toTaint, isEngineKind, CONDITION_STATUSES, POD_PHASES, TAINT_EFFECTS } from '../model/convert';
import { parseDuration, parseTimestamp, type Micros } from '../model/time';
import { defaultNamespaceOf, NODE_LEASE_NAMESPACE, type KObject, type LabelSelector, type Taint, type TaintEffect } from '../model/types';
import { zoneLabelsOf } from '../model/zones';
import { compileSelector, formatSelector } from '../model/labels';
import type { Problem, Severity, SourcePosition } from '../problems';
import { MAX_MINOR, MIN_MINOR, parseKubeVersion } from '../versions/table';
import { loadSnapshot, loadSnapshotSource, type SnapshotInput } from './load';
import { LineIndex } from './positions';
import { MAX_FILE_BYTES, basenamePath, dirnamePath, resolveFrom, type InputFs } from './source';
import { closest, namesStartingWith } from '../config/suggest';
import { ACTIONS } from '../trace/decision';
import { readReality } from '../import/reality';
import { MAX_ALIAS_COUNT, TOO_DEEP_MESSAGE, YAML_OPTIONS, findTooDeep, isStackOverflow, yamlBuildError } from './yamlOptions';
import { validateScenario } from './validateScenario';
import { outsideReason } from './pathPolicy';
import type { ControllerManagerInput, Expectation, LoadedSnapshot, NodeTarget, Scenario, ScenarioEvent, TimeSpec } from './types';

export const SCENARIO_API_VERSION = 'controllerstepper.io/v1alpha1';

/** The warning when nothing says when the clock starts (Go's zero time would be 0001; ours is the epoch). */
export const NO_START_TIME = 'no startTime and no timestamp in the snapshot: the clock starts at 1970-01-01T00:00:00Z; write startTime: "2026-01-01T00:00:00Z"';

const TOP_KEYS = ['apiVersion', 'kind', 'metadata', 'kubernetesVersion', 'startTime', 'controllerMemory', 'missingLeases', 'binder', 'snapshot', 'objects', 'controllerManager', 'kubelet', 'events', 'expect', 'reality'] as const;
const KUBELET_KEYS = ['nodeStatusUpdateFrequency', 'nodeStatusReportFrequency', 'leaseRenewInterval', 'podStartupDelay'] as const;
export const EVENT_KINDS = ['kubelet', 'condition', 'taint', 'untaint', 'apply', 'patch', 'delete', 'pod', 'scale', 'fail', 'restartControllerManager'] as const;
type EventKindKey = (typeof EVENT_KINDS)[number];
const TARGET_KEYS = ['nodes', 'node', 'zone', 'selector'] as const;
const EVENT_EXTRA_KEYS: Record<EventKindKey, readonly string[]> = {
  kubelet: ['only', 'conditions', ...TARGET_KEYS],
  condition: TARGET_KEYS,
  taint: TARGET_KEYS,
  untaint: TARGET_KEYS,
  apply: [],
  patch: [],
  delete: [],
  pod: ['phase', 'ready'],
  scale: [],
  fail: [],
  restartControllerManager: [],
};
export const EXPECT_TARGETS = ['node', 'pod', 'zone', 'replicaSet'] as const;
/** Every action a decision can have (the trace's table), for `decision: {action}` in expect:. */
const ALL_ACTIONS: readonly string[] = [...new Set(Object.values(ACTIONS).flat())];
/** What `decision: {object}` may name: the trace's object refs (spec 2.1). */
const DECISION_OBJECT = /^(Node\/[^/]+|(Pod|ReplicaSet|DaemonSet)\/[^/]+\/[^/]+|Lease\/([^/]+\/)?[^/]+|Zone\/.*|ControllerManager\/[^/]+)$/;
export const EXPECT_ASSERTIONS = ['hasTaint', 'lacksTaint', 'deleted', 'exists', 'ready', 'state', 'replicas', 'readyReplicas', 'availableReplicas', 'boundTo', 'decision'] as const;
const ZONE_STATES = ['Initial', 'Normal', 'PartialDisruption', 'FullDisruption'];
const FAIL_VERBS = ['create', 'delete', 'update', 'patch'] as const;
const FAIL_RESOURCES = ['pods', 'nodes', 'replicasets'] as const;
/** Kinds an object reference (`Kind/ns/name`) may name, and whether they are namespaced (`Kind/name`: see defaultNamespaceOf). */
const REF_KINDS: Record<string, { kind: string; namespaced: boolean }> = {
  node: { kind: 'Node', namespaced: false },
  pod: { kind: 'Pod', namespaced: true },
  replicaset: { kind: 'ReplicaSet', namespaced: true },
  daemonset: { kind: 'DaemonSet', namespaced: true },
  lease: { kind: 'Lease', namespaced: true },
};

export interface ParsedScenario {
  scenario: Scenario;
  /** every problem: the scenario's and its snapshot's */
  problems: Problem[];
  /** the parsed YAML, with positions (undefined for a plain snapshot) */
  document?: Document.Parsed;
}

export interface ScenarioOptions {
  maxFileBytes?: number;
  /**
   * Snapshots already loaded, by the files they were loaded from: a scenario
   * whose snapshot: files are all here reuses the loaded snapshot instead of
   * parsing them again (the language server, where every edit of a scenario is
   * checked again and its snapshot can be 400 MiB). Read-only for every user;
   * the caller empties it when a file may have changed.
   */
  snapshots?: Map<string, LoadedSnapshot>;
  /** read snapshot:/configFile: paths outside the scenario's folder tree (pathPolicy.ts) */
  allowOutside?: boolean;
  /** folders besides the scenario's whose trees may be read (a workspace) */
  roots?: readonly string[];
}

// ---------------------------------------------------------------------------

/** The closest of `known` to `word`, when it is close enough to be a typo (one rule for the whole engine). */
export function didYouMean(word: string, known: readonly string[]): string | undefined {
  return closest(word, known);
}

const suggest = (word: string, known: readonly string[]): string => {
  const s = didYouMean(word, known);
  return s ? ` (did you mean ${s}?)` : '';
};

const quoteList = (xs: readonly string[]) => xs.join(', ');

interface RefInfo {
  kind: string;
  /** `Kind/ns/name` or `Node/name`, normalised */
  ref: string;
}

/** Parses `Kind/ns/name` or `Kind/name` (namespace `default`; kube-node-lease for a Lease). */
export function parseObjectRef(text: string): RefInfo | { error: string } {
  const parts = text.split('/');
  const k = REF_KINDS[parts[0]?.toLowerCase() ?? ''];
  if (!k) return { error: `expected Kind/namespace/name or Kind/name with Kind one of Node, Pod, ReplicaSet, DaemonSet, Lease, found ${JSON.stringify(text)}` };
  if (parts.some((p) => p === '')) return { error: `an empty part in ${JSON.stringify(text)}` };
  if (!k.namespaced) {
    if (parts.length !== 2) return { error: `a ${k.kind} has no namespace: write ${k.kind}/NAME, found ${JSON.stringify(text)}` };
    return { kind: k.kind, ref: `${k.kind}/${parts[1]}` };
  }
  if (parts.length === 2) return { kind: k.kind, ref: `${k.kind}/${defaultNamespaceOf(k.kind)}/${parts[1]}` };
  if (parts.length === 3) return { kind: k.kind, ref: `${k.kind}/${parts[1]}/${parts[2]}` };
  return { error: `expected ${k.kind}/NAMESPACE/NAME, found ${JSON.stringify(text)}` };
}

/** `ns/name`, or `name` in namespace default. */
function parseNsName(text: string): string | undefined {
  const parts = text.split('/');
  if (parts.some((p) => p === '') || parts.length > 2) return undefined;
  return parts.length === 1 ? `default/${parts[0]}` : text;
}

/** Parses a taint written as `key[=value]:Effect`. */
export function parseTaintText(text: string): Taint | { error: string } {
  const colon = text.lastIndexOf(':');
  if (colon <= 0) return { error: `expected key[=value]:Effect, found ${JSON.stringify(text)}` };
  const effect = text.slice(colon + 1);
  if (!(TAINT_EFFECTS as readonly string[]).includes(effect)) return { error: `expected a taint effect of ${quoteList(TAINT_EFFECTS)}, found ${JSON.stringify(effect)}` };
  const kv = text.slice(0, colon);
  const eq = kv.indexOf('=');
  const taint: Taint = { key: eq === -1 ? kv : kv.slice(0, eq), effect: effect as TaintEffect };
  if (eq !== -1) taint.value = kv.slice(eq + 1);
  if (!taint.key) return { error: `a taint needs a key, found ${JSON.stringify(text)}` };
  return taint;
}

// ---------------------------------------------------------------------------

class ScenarioParser {
  readonly problems: Problem[] = [];
  readonly lines: LineIndex;
  readonly dir: string;
  /** every object the snapshot holds or an event creates (filled by events(); expectations check their targets against it) */
  private everKnown?: Set<string>;

  constructor(readonly text: string, readonly file: string, readonly doc: Document.Parsed, readonly fs: InputFs | undefined, readonly options: ScenarioOptions) {
    this.lines = new LineIndex(text);
    this.dir = dirnamePath(file);
  }

  pos(node: unknown): SourcePosition | undefined {
    const r = (node as YamlNode | null | undefined)?.range;
    if (!r) return undefined;
    let end = r[1];
    while (end > r[0] && /\s/.test(this.text[end - 1])) end--;
    return this.lines.position(this.file, r[0], end);
  }

  /** The position of a scalar's text, inside its quotes when it is quoted (flags are located within it). */
  textPos(node: unknown): SourcePosition | undefined {
    const n = node as (YamlNode & { type?: string }) | null | undefined;
    const r = n?.range;
    if (!r || (n?.type !== 'QUOTE_DOUBLE' && n?.type !== 'QUOTE_SINGLE')) return this.pos(node);
    return this.lines.position(this.file, r[0] + 1, Math.max(r[0] + 1, r[1] - 1));
  }

  report(code: string, severity: Severity, message: string, node?: unknown): void {
    const p: Problem = { code, severity, message };
    const position = this.pos(node) ?? { file: this.file, line: 1, column: 1 };
    p.position = position;
    this.problems.push(p);
  }

  js(node: unknown): unknown {
    if (node === null || node === undefined) return null;
    const n = node as YamlNode;
    return typeof n.toJS === 'function' ? n.toJS(this.doc, { maxAliasCount: MAX_ALIAS_COUNT }) : node;
  }

  /** The pairs of a mapping, reporting unknown keys (with did-you-mean). */
  pairs(node: unknown, known: readonly string[] | undefined, where: string): Map<string, Pair<YamlNode, YamlNode | null>> {
    const out = new Map<string, Pair<YamlNode, YamlNode | null>>();
    if (!isMap(node)) return out;
    for (const pair of (node as YAMLMap<YamlNode, YamlNode | null>).items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
      if (key === undefined) {
        this.report('wrong-type', 'error', `expected a plain key in ${where}`, pair.key);
        continue;
      }
      if (known && !known.includes(key)) {
        this.report('unknown-field', 'error', `unknown field ${JSON.stringify(key)} in ${where}${suggest(key, known)}; expected one of ${quoteList(known)}`, pair.key);
        continue;
      }
      out.set(key, pair);
    }
    return out;
  }

  string(node: unknown, what: string): string | undefined {
    if (isScalar(node) && typeof node.value === 'string') return node.value;
    this.report('wrong-type', 'error', `expected ${what} as a string, found ${this.describe(node)}`, node);
    return undefined;
  }

  enumValue<T extends string>(node: unknown, values: readonly T[], what: string): T | undefined {
    const s = isScalar(node) ? node.value : undefined;
    if (typeof s === 'string' && (values as readonly string[]).includes(s)) return s as T;
    const shown = typeof s === 'string' ? JSON.stringify(s) + suggest(s, values) : this.describe(node);
    this.report('bad-value', 'error', `expected ${what} to be one of ${quoteList(values)}, found ${shown}`, node);
    return undefined;
  }

  integer(node: unknown, what: string, min: number): number | undefined {
    const v = isScalar(node) ? node.value : undefined;
    if (typeof v === 'number' && Number.isInteger(v) && v >= min) return v;
    this.report('wrong-type', 'error', `expected ${what} as a whole number${min > 0 ? ` of ${min} or more` : min === 0 ? ' of 0 or more' : ''}, found ${this.describe(node)}`, node);
    return undefined;
  }

  boolean(node: unknown, what: string): boolean | undefined {
    const v = isScalar(node) ? node.value : undefined;
    if (typeof v === 'boolean') return v;
    this.report('wrong-type', 'error', `expected ${what} as true or false, found ${this.describe(node)}`, node);
    return undefined;
  }

  /** A condition status: "True"/"False"/"Unknown" (YAML's unquoted True/False booleans are accepted). */
  conditionStatus(node: unknown, what: string): string | undefined {
    const v = isScalar(node) ? node.value : undefined;
    if (typeof v === 'boolean') return v ? 'True' : 'False';
    if (typeof v === 'string' && (CONDITION_STATUSES as readonly string[]).includes(v)) return v;
    this.report('bad-condition-status', 'error', `expected ${what} to be "True", "False" or "Unknown", found ${typeof v === 'string' ? JSON.stringify(v) + suggest(v, CONDITION_STATUSES) : this.describe(node)}`, node);
    return undefined;
  }

  duration(node: unknown, what: string): number | undefined {
    const v = isScalar(node) ? node.value : undefined;
    if (v === 0) return 0;
    if (typeof v === 'string') {
      const d = parseDuration(v);
      if (d !== undefined) return d;
      this.report('bad-duration', 'error', `expected ${what} as a duration such as 30s, 1m30s or 100ms, found ${JSON.stringify(v)}`, node);
      return undefined;
    }
    this.report('bad-duration', 'error', `expected ${what} as a duration with a unit (such as 30s, 1m30s or 100ms), found ${this.describe(node)}`, node);
    return undefined;
  }

  describe(node: unknown): string {
    if (node === null || node === undefined) return 'nothing';
    if (isMap(node)) return 'a mapping';
    if (isSeq(node)) return 'a list';
    if (isScalar(node)) {
      const v = node.value;
      if (v === null) return 'null';
      if (typeof v === 'string') return `the string ${JSON.stringify(v)}`;
      return `${typeof v} ${String(v)}`;
    }
    return 'an unexpected value';
  }

  // -- top level ------------------------------------------------------------

  parse(): Scenario {
    const root = this.doc.contents;
    const cm: ControllerManagerInput = { settings: {}, featureGates: {}, flags: [] };
    const scenario: Scenario = {
      name: basenamePath(this.file).replace(/\.(ya?ml|json)$/i, ''),
      file: this.file,
      plainSnapshot: false,
      kubernetesVersion: '',
      controllerMemory: 'reconstructed',
      binder: 'simplified',
      snapshot: emptySnapshot(),
      controllerManager: cm,
      kubelet: {},
      events: [],
      expect: [],
      problems: this.problems,
    };
    if (!isMap(root)) {
      this.report('not-a-scenario', 'error', `expected a scenario (a mapping with kind: Scenario), found ${this.describe(root)}`, root);
      return scenario;
    }
    const top = this.pairs(root, TOP_KEYS, 'the scenario');
    const val = (k: string) => top.get(k)?.value ?? undefined;

    if (top.has('apiVersion')) {
      const v = this.string(val('apiVersion'), 'apiVersion');
      if (v !== undefined && v !== SCENARIO_API_VERSION) this.report('unknown-api-version', 'warning', `expected apiVersion ${SCENARIO_API_VERSION}, found ${JSON.stringify(v)}`, val('apiVersion'));
    }
    if (top.has('kind')) {
      const v = this.string(val('kind'), 'kind');
      if (v !== undefined && v !== 'Scenario') this.report('bad-value', 'error', `expected kind: Scenario, found ${JSON.stringify(v)}`, val('kind'));
    }
    if (top.has('metadata')) {
      const md = this.pairs(val('metadata'), undefined, 'metadata');
      if (!isMap(val('metadata'))) this.report('wrong-type', 'error', `expected metadata as a mapping, found ${this.describe(val('metadata'))}`, val('metadata'));
      const name = md.get('name')?.value;
      if (name !== undefined) {
        const n = this.string(name, 'metadata.name');
        if (n) scenario.name = n;
      }
    }
    if (top.has('startTime')) {
      const node = val('startTime');
      const s = this.string(node, 'startTime');
      if (s !== undefined) {
        const t = parseTimestamp(s);
        if (t === undefined) this.report('bad-timestamp', 'error', `expected startTime as an RFC3339 time such as 2026-01-01T00:00:00Z, found ${JSON.stringify(s)}`, node);
        else scenario.startTime = t;
      }
    }
    if (top.has('controllerMemory')) scenario.controllerMemory = this.enumValue(val('controllerMemory'), ['reconstructed', 'fresh'] as const, 'controllerMemory') ?? 'reconstructed';
    if (top.has('missingLeases')) scenario.missingLeases = this.enumValue(val('missingLeases'), ['assumed', 'absent'] as const, 'missingLeases');
    if (top.has('binder')) scenario.binder = this.enumValue(val('binder'), ['simplified', 'none'] as const, 'binder') ?? 'simplified';

    scenario.snapshot = this.snapshot(top.get('snapshot'), top.get('objects'));
    const versionPair = top.get('kubernetesVersion');
    scenario.kubernetesVersion = versionPair ? this.version(versionPair.value) ?? '' : '';
    if (!scenario.kubernetesVersion) {
      const assumed = assumedVersion(scenario.snapshot);
      scenario.kubernetesVersion = assumed.version;
      if (!versionPair) this.report('version-assumed', 'info', `no kubernetesVersion: simulating ${assumed.version} (${assumed.why})`, root.items[0]?.key);
      if (!versionPair && assumed.warning) this.report(assumed.warning.code, assumed.warning.severity, assumed.warning.message, root.items[0]?.key);
    }
    if (top.has('controllerManager')) this.controllerManager(val('controllerManager'), cm);
    if (top.has('kubelet')) this.kubelet(val('kubelet'), scenario.kubelet);
    const start = scenario.startTime ?? scenario.snapshot.latestTimestamp;
    // reported here, where the document is, so that replay and validate place it alike
    if (start === undefined) this.report('no-start-time', 'warning', NO_START_TIME, top.get('kind')?.key ?? root.items[0]?.key);
    if (top.has('events')) scenario.events = this.events(val('events'), scenario.snapshot, start);
    if (top.has('expect')) scenario.expect = this.expectations(val('expect'), start, this.everKnown ?? knownObjects(scenario.snapshot));
    // what really happened, for `compare` (written by `import`; read in import/reality.ts)
    if (top.has('reality')) scenario.reality = readReality(val('reality'), (code, message, node) => this.report(code, 'error', message, node));
    return scenario;
  }

  private version(node: unknown): string | undefined {
    if (isScalar(node) && typeof node.value === 'number') {
      const r = node.range;
      const written = r ? this.text.slice(r[0], r[1]).trim() : String(node.value);
      const read = String(node.value);
      if (written !== read) {
        this.report('version-as-number', 'error', `kubernetesVersion ${written} is read by YAML as the number ${read}; quote it: kubernetesVersion: "${written}"`, node);
        return undefined;
      }
      const v = parseKubeVersion(read);
      if (!v) {
        this.report('unsupported-version', 'error', `kubernetesVersion ${read} is not a version from "1.12" to "1.${MAX_MINOR}" (write it as a string, e.g. "1.20": YAML reads 1.20 as 1.2)`, node);
        return undefined;
      }
      this.report('version-as-number', 'warning', `kubernetesVersion is a YAML number; quote it ("${read}"): written as a number, 1.20 would read as 1.2`, node);
      return `1.${v.minor}`;
    }
    const s = this.string(node, 'kubernetesVersion');
    if (s === undefined) return undefined;
    const v = parseKubeVersion(s);
    if (!v) {
      this.report('unsupported-version', 'error', `kubernetesVersion ${JSON.stringify(s)} is not a version from "1.12" to "1.${MAX_MINOR}"`, node);
      return undefined;
    }
    return s.trim();
  }

  private snapshot(pathsPair: Pair<YamlNode, YamlNode | null> | undefined, objectsPair: Pair<YamlNode, YamlNode | null> | undefined): LoadedSnapshot {
    const inputs: SnapshotInput[] = [];
    if (pathsPair) {
      const node = pathsPair.value;
      const items = isSeq(node) ? node.items : [node];
      for (const item of items) {
        const rel = this.string(item, 'snapshot (a path relative to the scenario, or a list of them)');
        if (rel === undefined) continue;
        const full = resolveFrom(this.dir, rel);
        if (!this.fs) {
          this.report('no-file-system', 'error', `cannot read ${rel}: no file system`, item);
          continue;
        }
        // the same snapshot named twice (or 200 times) is read once, and looked at once (a stat can cost its size)
        if (inputs.includes(full)) { this.report('duplicate-snapshot', 'warning', `snapshot ${JSON.stringify(rel)} is listed more than once; it is read once`, item); continue; }
        let st;
        try { st = this.fs.stat(full); } catch { st = undefined; }
        if (!st) {
          this.report('file-not-found', 'error', `snapshot ${JSON.stringify(rel)} not found (looked for ${full}, relative to the scenario file)`, item);
          continue;
        }
        const outside = outsideReason(this.fs, this.dir, full, this.options);
        if (outside) { this.report('path-outside', 'error', outside, item); continue; }
        inputs.push(full);
      }
    }
    if (objectsPair) {
      const node = objectsPair.value;
      if (isSeq(node)) inputs.push({ file: this.file, text: this.text, document: this.doc, path: ['objects'] });
      else this.report('wrong-type', 'error', `expected objects as a list of Kubernetes objects, found ${this.describe(node)}`, node);
    }
    if (!pathsPair && !objectsPair) this.report('no-snapshot', 'warning', 'the scenario has no snapshot: and no objects:; it starts with an empty cluster', this.doc.contents);
    const cache = this.options.snapshots;
    const key = cache && inputs.length > 0 && inputs.every((i) => typeof i === 'string') ? `${this.options.maxFileBytes ?? ''}\0${inputs.join('\0')}` : undefined;
    let snap = key !== undefined ? cache!.get(key) : undefined;
    if (!snap) {
      snap = loadSnapshot(inputs, this.fs, { maxFileBytes: this.options.maxFileBytes });
      if (key !== undefined) cache!.set(key, snap);
    }
    this.problems.push(...snap.problems);
    return snap;
  }

  private controllerManager(node: unknown, cm: ControllerManagerInput): void {
    if (!isMap(node)) {
      this.report('wrong-type', 'error', `expected controllerManager as a mapping of settings, found ${this.describe(node)}`, node);
      return;
    }
    for (const [key, pair] of this.pairs(node, undefined, 'controllerManager')) {
      const v = pair.value;
      if (key === 'flags') {
        if (!isSeq(v)) { this.report('wrong-type', 'error', `expected flags as a list such as ["--node-monitor-grace-period=20s"], found ${this.describe(v)}`, v); continue; }
        for (const item of v.items) {
          const s = this.string(item, 'a flag');
          if (s === undefined) continue;
          if (!s.startsWith('--')) this.report('bad-flag', 'error', `expected a flag of the form --name=value, found ${JSON.stringify(s)}`, item);
          else cm.flags.push({ text: s, position: this.textPos(item) });
        }
      } else if (key === 'featureGates') {
        if (!isMap(v)) { this.report('wrong-type', 'error', `expected featureGates as a mapping such as {TaintBasedEvictions: true}, found ${this.describe(v)}`, v); continue; }
        for (const [gate, gp] of this.pairs(v, undefined, 'featureGates')) {
          const b = this.boolean(gp.value, `feature gate ${gate}`);
          if (b !== undefined) cm.featureGates[gate] = { value: b, position: this.pos(gp.key) };
        }
      } else if (key === 'configFile') {
        const rel = this.string(v, 'configFile (a path relative to the scenario)');
        if (rel === undefined) continue;
        const full = resolveFrom(this.dir, rel);
        const text = this.readFile(full, rel, v);
        if (text !== undefined) cm.configFile = { path: full, text };
      } else {
        cm.settings[key] = { value: this.js(v), position: this.pos(pair.key) };
      }
    }
  }

  private readFile(full: string, rel: string, node: unknown): string | undefined {
    if (!this.fs) { this.report('no-file-system', 'error', `cannot read ${rel}: no file system`, node); return undefined; }
    let st;
    try { st = this.fs.stat(full); } catch { st = undefined; }
    if (!st || st.kind !== 'file') { this.report('file-not-found', 'error', `${JSON.stringify(rel)} not found (looked for ${full}, relative to the scenario file)`, node); return undefined; }
    const outside = outsideReason(this.fs, this.dir, full, this.options);
    if (outside) { this.report('path-outside', 'error', outside, node); return undefined; }
    const limit = this.options.maxFileBytes ?? MAX_FILE_BYTES;
    if (st.size > limit) { this.report('file-too-large', 'error', `${rel} is ${st.size} bytes; the limit is ${limit} bytes`, node); return undefined; }
    try {
      return this.fs.readText(full);
    } catch (e) {
      this.report('unreadable-file', 'error', `cannot read ${rel} (${e instanceof Error ? e.message : String(e)})`, node);
      return undefined;
    }
  }

  private kubelet(node: unknown, out: Scenario['kubelet']): void {
    if (!isMap(node)) {
      this.report('wrong-type', 'error', `expected kubelet as a mapping of settings, found ${this.describe(node)}`, node);
      return;
    }
    for (const [key, pair] of this.pairs(node, KUBELET_KEYS, 'kubelet')) {
      if (this.duration(pair.value, `kubelet.${key}`) === undefined) continue;
      out[key] = { value: this.js(pair.value), position: this.pos(pair.key) };
    }
  }

  // -- time -------------------------------------------------------------------

  private at(node: unknown, where: string): TimeSpec | undefined {
    if (node === undefined) return undefined;
    const v = isScalar(node) ? node.value : undefined;
    if (v === 0) return { offset: 0 };
    if (typeof v === 'string') {
      const d = parseDuration(v);
      if (d !== undefined) {
        if (d < 0) { this.report('bad-duration', 'error', `${where}: at: must not be negative, found ${JSON.stringify(v)}`, node); return undefined; }
        return { offset: d };
      }
      const t = parseTimestamp(v);
      if (t !== undefined) return { time: t };
    }
    const unit = isScalar(node) && typeof node.value === 'number' ? ' (a duration needs a unit)' : '';
    this.report('bad-duration', 'error', `${where}: expected at: as an offset from startTime with a unit (30s, 1m30s) or an RFC3339 time, found ${this.describe(node)}${unit}`, node);
    return undefined;
  }

  // -- events -------------------------------------------------------------------

  private events(node: unknown, snap: LoadedSnapshot, start: Micros | undefined): ScenarioEvent[] {
    if (!isSeq(node)) {
      this.report('wrong-type', 'error', `expected events as a list, found ${this.describe(node)}`, node);
      return [];
    }
    const parsed: { event: ScenarioEvent; node: unknown; refs: { ref: string; node: unknown; what: string }[]; nodes: { name: string; node: unknown }[]; zone?: { zone: string; node: unknown }; selector?: { selector: LabelSelector; node: unknown }; creates?: string[] }[] = [];
    node.items.forEach((item, index) => {
      const r = this.event(item, index);
      if (r) parsed.push(r);
    });
    const abs = (t: TimeSpec) => ('offset' in t ? (start ?? 0) + t.offset : t.time);
    // Out-of-order events: warn, then sort stably by time.
    let latest: Micros | undefined;
    let latestIndex = 0;
    let latestAt: TimeSpec | undefined;
    for (const p of parsed) {
      const t = abs(p.event.at);
      if (start !== undefined && 'time' in p.event.at && p.event.at.time < start) {
        this.report('event-before-start', 'warning', `event ${p.event.index + 1} is at ${formatAt(p.event.at)}, before startTime (${formatAt({ time: start })}), when the simulation has not begun`, (p.node as YAMLMap).items.find((x) => isScalar(x.key) && x.key.value === 'at')?.value ?? p.node);
      }
      if (latest !== undefined && t < latest) {
        this.report('events-out-of-order', 'warning', `event ${p.event.index + 1} (at ${formatAt(p.event.at)}) comes after event ${latestIndex + 1} (at ${latestAt ? formatAt(latestAt) : 'a later time'}) in the file; events are applied sorted by time, in file order within one instant`, p.node);
      } else {
        latest = t;
        latestIndex = p.event.index;
        latestAt = p.event.at;
      }
    }
    const sorted = parsed.map((p, i) => ({ p, i, t: abs(p.event.at) })).sort((a, b) => a.t - b.t || a.i - b.i).map((x) => x.p);
    // References: objects in the snapshot, or created by an earlier apply.
    const known = knownObjects(snap);
    let nodeNames: string[] | undefined;
    const zones = new Set<string>();
    const nodeLabels: Record<string, string>[] = [];
    for (const n of snap.cluster.nodes.values()) {
      zones.add(zoneLabelsOf(n.meta.labels).zone);
      nodeLabels.push(n.meta.labels);
    }
    for (const p of sorted) {
      for (const n of p.nodes) {
        if (!known.has(`Node/${n.name}`)) this.report('unknown-node', 'error', `no node ${JSON.stringify(n.name)} in the snapshot (nor created by an earlier apply)${suggest(n.name, (nodeNames ??= [...snap.cluster.nodes.keys()]))}`, n.node);
      }
      for (const r of p.refs) {
        if (!known.has(r.ref)) {
          const names = namesStartingWith(known, r.ref.slice(0, r.ref.indexOf('/') + 1));
          this.report(`unknown-${r.what}`, 'error', `no ${r.ref} in the snapshot (nor created by an earlier apply)${suggest(r.ref, names)}`, r.node);
        }
      }
      if (p.selector) {
        const compiled = compileSelector(p.selector.selector);
        if (!compiled.error && !nodeLabels.some((l) => compiled.matches(l))) {
          this.report('selector-matches-nothing', 'warning', `no node in the snapshot (nor created by an earlier apply) matches this selector (${formatSelector(p.selector.selector)})`, p.selector.node);
        }
      }
      if (p.zone && !zones.has(p.zone.zone)) {
        this.report('unknown-zone', 'warning', `no node in the snapshot is in zone ${JSON.stringify(p.zone.zone)}${suggest(p.zone.zone, [...zones].filter(Boolean))}`, p.zone.node);
      }
      for (const c of p.creates ?? []) {
        known.add(c);
        if (c.startsWith('Node/')) {
          const obj = (p.event as { object?: KObject }).object;
          const labels = (obj?.metadata as KObject | undefined)?.labels as Record<string, string> | undefined;
          zones.add(zoneLabelsOf(labels).zone);
          nodeLabels.push(labels ?? {});
        }
      }
    }
    this.everKnown = known;
    return sorted.map((p) => p.event);
  }

  private event(item: unknown, index: number) {
    const where = `event ${index + 1}`;
    if (!isMap(item)) {
      this.report('wrong-type', 'error', `${where}: expected a mapping with at: and one of ${quoteList(EVENT_KINDS)}, found ${this.describe(item)}`, item);
      return undefined;
    }
    const all = this.pairs(item, undefined, where);
    const kinds = EVENT_KINDS.filter((k) => all.has(k));
    if (kinds.length === 0) {
      const unknown = [...all.keys()].filter((k) => k !== 'at' && k !== 'description');
      const hint = unknown.length ? suggest(unknown[0], EVENT_KINDS) : '';
      this.report('missing-event-kind', 'error', `${where}: says nothing happens: expected one of ${quoteList(EVENT_KINDS)}${hint}`, unknown.length ? all.get(unknown[0])!.key : item);
      return undefined;
    }
    if (kinds.length > 1) {
      this.report('ambiguous-event', 'error', `${where}: has both ${kinds[0]} and ${kinds[1]}; write one event for each`, all.get(kinds[1])!.key);
      return undefined;
    }
    const kind = kinds[0];
    const allowed = ['at', 'description', kind, ...EVENT_EXTRA_KEYS[kind]];
    for (const [key, pair] of all) {
      if (!allowed.includes(key)) {
        const everything = ['at', 'description', ...EVENT_KINDS, ...TARGET_KEYS, 'only', 'conditions', 'phase', 'ready'];
        const known = everything.includes(key);
        this.report('unknown-field', 'error', known ? `${where}: ${key} does not go with ${kind}` : `${where}: unknown field ${JSON.stringify(key)}${suggest(key, allowed)}; a ${kind} event takes ${quoteList(allowed)}`, pair.key);
      }
    }
    const atPair = all.get('at');
    if (!atPair) {
      this.report('missing-field', 'error', `${where}: needs at: (an offset such as 30s, or an RFC3339 time)`, item.items[0]?.key ?? item);
      return undefined;
    }
    const at = this.at(atPair.value, where);
    if (!at) return undefined;
    const v = all.get(kind)!.value;
    const position = this.pos(item);
    const base = { at, index, ...(position ? { position } : {}) };
    const refs: { ref: string; node: unknown; what: string }[] = [];
    const nodes: { name: string; node: unknown }[] = [];
    let zone: { zone: string; node: unknown } | undefined;
    let selector: { selector: LabelSelector; node: unknown } | undefined;
    const creates: string[] = [];
    const targetOf = (): NodeTarget | undefined => {
      const present = TARGET_KEYS.filter((k) => all.has(k));
      if (present.length === 0) {
        this.report('missing-target', 'error', `${where}: which nodes? add nodes: [...], node: NAME, zone: ZONE or selector: {matchLabels: ...}`, all.get(kind)!.key);
        return undefined;
      }
      if (present.length > 1) {
        this.report('ambiguous-target', 'error', `${where}: give only one of nodes, node, zone, selector (found ${present.join(' and ')})`, all.get(present[1])!.key);
        return undefined;
      }
      const t = present[0];
      const tv = all.get(t)!.value;
      if (t === 'node') {
        const n = this.string(tv, 'node');
        if (n === undefined) return undefined;
        nodes.push({ name: n, node: tv });
        return { nodes: [n] };
      }
      if (t === 'nodes') {
        if (!isSeq(tv)) { this.report('wrong-type', 'error', `${where}: expected nodes as a list of node names, found ${this.describe(tv)}`, tv); return undefined; }
        const names: string[] = [];
        for (const n of tv.items) {
          const s = this.string(n, 'a node name');
          if (s !== undefined) { names.push(s); nodes.push({ name: s, node: n }); }
        }
        if (!names.length) { this.report('missing-target', 'error', `${where}: nodes: is empty`, tv); return undefined; }
        return { nodes: names };
      }
      if (t === 'zone') {
        const z = isScalar(tv) && (typeof tv.value === 'number' || typeof tv.value === 'string') ? String(tv.value) : this.string(tv, 'zone');
        if (z === undefined) return undefined;
        zone = { zone: z, node: tv };
        return { zone: z };
      }
      const sel = this.selector(tv, where);
      if (sel) selector = { selector: sel, node: tv };
      return sel ? { selector: sel } : undefined;
    };
    const done = (event: ScenarioEvent) => ({ event, node: item, refs, nodes, zone, selector, creates });

    switch (kind) {
      case 'kubelet': {
        const action = this.enumValue(v, ['start', 'stop'] as const, `${where}: kubelet`);
        const target = targetOf();
        let only: 'status' | 'lease' | undefined;
        if (all.has('only')) {
          only = this.enumValue(all.get('only')!.value, ['status', 'lease'] as const, `${where}: only`);
          if (only === undefined) return undefined;
        }
        let conditions: Record<string, string> | undefined;
        if (all.has('conditions')) {
          const cv = all.get('conditions')!.value;
          if (!isMap(cv)) { this.report('wrong-type', 'error', `${where}: expected conditions as a mapping such as {Ready: "False"}, found ${this.describe(cv)}`, cv); return undefined; }
          conditions = {};
          for (const [type, cp] of this.pairs(cv, undefined, `${where}: conditions`)) {
            const s = this.conditionStatus(cp.value, `condition ${type}`);
            if (s === undefined) return undefined;
            conditions[type] = s;
          }
          if (action === 'stop') this.report('unused-field', 'warning', `${where}: conditions: only matter when a kubelet starts`, all.get('conditions')!.key);
        }
        if (!action || !target) return undefined;
        const e: ScenarioEvent = { ...base, kind: 'kubelet', action, target };
        if (only) e.only = only;
        if (conditions) e.conditions = conditions;
        return done(e);
      }
      case 'condition': {
        const target = targetOf();
        if (!isMap(v)) { this.report('wrong-type', 'error', `${where}: expected condition as a mapping such as {type: Ready, status: "False"}, found ${this.describe(v)}`, v); return undefined; }
        const c = this.pairs(v, ['type', 'status', 'reason', 'message'], `${where}: condition`);
        if (!c.has('type') || !c.has('status')) { this.report('missing-field', 'error', `${where}: a condition needs type and status`, v); return undefined; }
        const type = this.string(c.get('type')!.value, 'condition type');
        const status = this.conditionStatus(c.get('status')!.value, 'condition status');
        const reason = c.has('reason') ? this.string(c.get('reason')!.value, 'reason') : undefined;
        const message = c.has('message') ? this.string(c.get('message')!.value, 'message') : undefined;
        if (!type || !status || !target) return undefined;
        const condition: { type: string; status: string; reason?: string; message?: string } = { type, status };
        if (reason !== undefined) condition.reason = reason;
        if (message !== undefined) condition.message = message;
        return done({ ...base, kind: 'condition', target, condition });
      }
      case 'taint': {
        const target = targetOf();
        const taint = this.taint(v, where, true);
        if (!taint || !target) return undefined;
        return done({ ...base, kind: 'taint', target, taint: taint as Taint });
      }
      case 'untaint': {
        const target = targetOf();
        const taint = this.taint(v, where, false);
        if (!taint || !target) return undefined;
        const t: { key: string; effect?: TaintEffect } = { key: taint.key };
        if (taint.effect) t.effect = taint.effect;
        return done({ ...base, kind: 'untaint', target, taint: t });
      }
      case 'apply': {
        const obj = this.appliedObject(v, where);
        if (!obj) return undefined;
        creates.push(obj.ref);
        return done({ ...base, kind: 'apply', object: obj.object });
      }
      case 'patch': {
        if (!isMap(v)) { this.report('wrong-type', 'error', `${where}: expected patch as {object: Kind/namespace/name, merge: {...}}, found ${this.describe(v)}`, v); return undefined; }
        const p = this.pairs(v, ['object', 'merge'], `${where}: patch`);
        if (!p.has('object') || !p.has('merge')) { this.report('missing-field', 'error', `${where}: a patch needs object: and merge:`, v); return undefined; }
        const refNode = p.get('object')!.value;
        const ref = this.ref(refNode, where);
        const mergeNode = p.get('merge')!.value;
        if (!isMap(mergeNode)) { this.report('wrong-type', 'error', `${where}: expected merge: as a mapping (a JSON merge patch), found ${this.describe(mergeNode)}`, mergeNode); return undefined; }
        if (!ref) return undefined;
        refs.push({ ref: ref.ref, node: refNode, what: refWhat(ref.kind) });
        return done({ ...base, kind: 'patch', ref: ref.ref, merge: this.js(mergeNode) as KObject });
      }
      case 'delete': {
        const ref = this.ref(v, where);
        if (!ref) return undefined;
        refs.push({ ref: ref.ref, node: v, what: refWhat(ref.kind) });
        return done({ ...base, kind: 'delete', ref: ref.ref });
      }
      case 'pod': {
        const s = this.string(v, 'pod (namespace/name)');
        const key = s === undefined ? undefined : parseNsName(s);
        if (s !== undefined && !key) this.report('bad-reference', 'error', `${where}: expected pod: namespace/name, found ${JSON.stringify(s)}`, v);
        let phase: string | undefined;
        let ready: boolean | undefined;
        if (all.has('phase')) phase = this.enumValue(all.get('phase')!.value, POD_PHASES, `${where}: phase`);
        if (all.has('ready')) ready = this.boolean(all.get('ready')!.value, `${where}: ready`);
        if (!all.has('phase') && !all.has('ready')) { this.report('missing-field', 'error', `${where}: say what happens to the pod: phase: Running|Succeeded|Failed|... or ready: true|false`, all.get('pod')!.key); return undefined; }
        if (!key || (all.has('phase') && !phase) || (all.has('ready') && ready === undefined)) return undefined;
        refs.push({ ref: `Pod/${key}`, node: v, what: 'pod' });
        const e: ScenarioEvent = { ...base, kind: 'pod', pod: key };
        if (phase) e.phase = phase;
        if (ready !== undefined) e.ready = ready;
        return done(e);
      }
      case 'scale': {
        if (!isMap(v)) { this.report('wrong-type', 'error', `${where}: expected scale as {replicaSet: namespace/name, replicas: N}, found ${this.describe(v)}`, v); return undefined; }
        const p = this.pairs(v, ['replicaSet', 'replicas'], `${where}: scale`);
        if (!p.has('replicaSet') || !p.has('replicas')) { this.report('missing-field', 'error', `${where}: scale needs replicaSet: and replicas:`, v); return undefined; }
        const rsNode = p.get('replicaSet')!.value;
        const s = this.string(rsNode, 'replicaSet (namespace/name)');
        const key = s === undefined ? undefined : parseNsName(s);
        if (s !== undefined && !key) this.report('bad-reference', 'error', `${where}: expected replicaSet: namespace/name, found ${JSON.stringify(s)}`, rsNode);
        const replicas = this.integer(p.get('replicas')!.value, 'replicas', 0);
        if (!key || replicas === undefined) return undefined;
        refs.push({ ref: `ReplicaSet/${key}`, node: rsNode, what: 'replicaset' });
        return done({ ...base, kind: 'scale', replicaSet: key, replicas });
      }
      case 'fail': {
        if (!isMap(v)) { this.report('wrong-type', 'error', `${where}: expected fail as {verb: create|delete|update|patch, resource: pods|nodes|replicasets, count: N}, found ${this.describe(v)}`, v); return undefined; }
        const p = this.pairs(v, ['verb', 'resource', 'count'], `${where}: fail`);
        if (!p.has('verb') || !p.has('resource')) { this.report('missing-field', 'error', `${where}: fail needs verb: and resource:`, v); return undefined; }
        const verb = this.enumValue(p.get('verb')!.value, FAIL_VERBS, 'verb');
        const resource = this.enumValue(p.get('resource')!.value, FAIL_RESOURCES, 'resource');
        const count = p.has('count') ? this.integer(p.get('count')!.value, 'count', 1) : 1;
        if (!verb || !resource || count === undefined) return undefined;
        return done({ ...base, kind: 'fail', verb, resource, count });
      }
      case 'restartControllerManager': {
        let failover = false;
        if (isScalar(v) && v.value === true) failover = false;
        else if (isScalar(v) && v.value === false) {
          this.report('bad-value', 'warning', `${where}: restartControllerManager: false does nothing; the event is ignored`, v);
          return undefined;
        } else if (isMap(v)) {
          const p = this.pairs(v, ['failover'], `${where}: restartControllerManager`);
          if (p.has('failover')) {
            const b = this.boolean(p.get('failover')!.value, 'failover');
            if (b === undefined) return undefined;
            failover = b;
          }
        } else {
          this.report('wrong-type', 'error', `${where}: expected restartControllerManager: true or {failover: true}, found ${this.describe(v)}`, v);
          return undefined;
        }
        return done({ ...base, kind: 'restartControllerManager', failover });
      }
    }
  }

  private selector(node: unknown, where: string): LabelSelector | undefined {
    if (!isMap(node)) { this.report('wrong-type', 'error', `${where}: expected selector as {matchLabels: {...}, matchExpressions: [...]}, found ${this.describe(node)}`, node); return undefined; }
    this.pairs(node, ['matchLabels', 'matchExpressions'], `${where}: selector`);
    let ok = true;
    const sel = toLabelSelector(this.js(node), [], (path, code, severity, message) => {
      if (severity === 'error') ok = false;
      this.report(code, severity, `${where}: selector: ${message}`, this.doc.getIn([...nodePath(this.doc, node), ...path], true) ?? node);
    });
    return ok ? sel : undefined;
  }

  private taint(node: unknown, where: string, needEffect: boolean): { key: string; value?: string; effect?: TaintEffect; timeAdded?: number } | undefined {
    if (isScalar(node) && typeof node.value === 'string') {
      const text = node.value;
      if (!needEffect && !text.includes(':')) return { key: text };
      const t = parseTaintText(text);
      if ('error' in t) { this.report('bad-taint', 'error', `${where}: ${t.error}`, node); return undefined; }
      return t;
    }
    if (!isMap(node)) { this.report('wrong-type', 'error', `${where}: expected a taint as {key: ..., effect: NoExecute} or key[=value]:Effect, found ${this.describe(node)}`, node); return undefined; }
    const p = this.pairs(node, needEffect ? ['key', 'value', 'effect', 'timeAdded'] : ['key', 'effect'], `${where}: taint`);
    if (!needEffect) {
      if (!p.has('key')) { this.report('missing-field', 'error', `${where}: untaint needs the taint's key`, node); return undefined; }
      const key = this.string(p.get('key')!.value, 'key');
      let effect: TaintEffect | undefined;
      if (p.has('effect')) {
        effect = this.enumValue(p.get('effect')!.value, TAINT_EFFECTS, 'effect');
        if (!effect) return undefined;
      }
      if (!key) return undefined;
      return effect ? { key, effect } : { key };
    }
    let ok = true;
    const path = nodePath(this.doc, node);
    const t = toTaint(this.js(node), [], (sub, code, severity, message) => {
      if (severity === 'error') ok = false;
      this.report(code, severity, `${where}: ${message}`, this.doc.getIn([...path, ...sub], true) ?? node);
    });
    return ok ? t : undefined;
  }

  private ref(node: unknown, where: string): RefInfo | undefined {
    const s = this.string(node, 'an object reference (Kind/namespace/name)');
    if (s === undefined) return undefined;
    const r = parseObjectRef(s);
    if ('error' in r) { this.report('bad-reference', 'error', `${where}: ${r.error}`, node); return undefined; }
    return r;
  }

  private appliedObject(node: unknown, where: string): { object: KObject; ref: string } | undefined {
    if (!isMap(node)) { this.report('wrong-type', 'error', `${where}: expected apply: a Kubernetes object (a mapping with apiVersion, kind, metadata), found ${this.describe(node)}`, node); return undefined; }
    const object = this.js(node) as KObject;
    const path = nodePath(this.doc, node);
    const kind = object.kind;
    if (typeof kind !== 'string' || !kind) { this.report('missing-field', 'error', `${where}: the applied object needs a kind`, node); return undefined; }
    if (!isEngineKind(kind)) {
      this.report('ignored-kind', 'warning', `${where}: a ${kind} is not simulated; it is kept but no controller acts on it`, (node as YAMLMap).items.find((p) => isScalar(p.key) && p.key.value === 'kind')?.value ?? node);
    }
    let ok = true;
    const record = isEngineKind(kind)
      ? toRecord(kind, object, (sub, code, severity, message) => {
          if (severity === 'error') ok = false;
          const target = deepestNode(this.doc, [...path, ...sub]) ?? node;
          this.report(code, severity, `${where}: ${message}`, target);
        })
      : undefined;
    if (isEngineKind(kind) && (!record || !ok)) return undefined;
    const md = object.metadata as KObject | undefined;
    const name = record?.meta.name ?? (typeof md?.name === 'string' ? md.name : '');
    const ns = record?.meta.namespace;
    if (kind === 'Lease' && ns !== NODE_LEASE_NAMESPACE) this.report('ignored-lease', 'info', `${where}: a Lease outside ${NODE_LEASE_NAMESPACE} is not a node heartbeat`, node);
    return { object, ref: ns ? `${kind}/${ns}/${name}` : `${kind}/${name}` };
  }

  // -- expectations ------------------------------------------------------------

  /**
   * An expectation about an object that neither the snapshot nor an event
   * creates: a warning (the run reports it as a failure, since a ReplicaSet
   * may still create a pod under a name no file holds). Pods whose name
   * starts with a known ReplicaSet's name and a dash are left alone.
   */
  private unknownTarget(k: 'node' | 'pod' | 'replicaSet', name: string, known: ReadonlySet<string>, node: unknown, where: string): void {
    const kind = k === 'node' ? 'Node' : k === 'pod' ? 'Pod' : 'ReplicaSet';
    const ref = `${kind}/${strip(`${kind}/`, name)}`;
    if (known.has(ref)) return;
    if (kind === 'Pod') {
      const [ns, pod] = ref.slice('Pod/'.length).split('/');
      for (const r of known) if (r.startsWith(`ReplicaSet/${ns}/`) && pod.startsWith(`${r.slice(`ReplicaSet/${ns}/`.length)}-`)) return;
    }
    const names = namesStartingWith(known, `${kind}/`);
    this.report(`unknown-${kind.toLowerCase()}`, 'warning', `${where}: no ${ref} in the snapshot, nor created by an event; the expectation will fail${kind === 'Pod' ? ' unless a controller creates it' : ''}${suggest(ref, names)}`, node);
  }

  private expectations(node: unknown, start: Micros | undefined, known: ReadonlySet<string>): Expectation[] {
    if (!isSeq(node)) {
      this.report('wrong-type', 'error', `expected expect as a list, found ${this.describe(node)}`, node);
      return [];
    }
    const out: { e: Expectation; t: number }[] = [];
    node.items.forEach((item, index) => {
      const where = `expectation ${index + 1}`;
      if (!isMap(item)) { this.report('wrong-type', 'error', `${where}: expected a mapping, found ${this.describe(item)}`, item); return; }
      const keys = ['at', 'description', ...EXPECT_TARGETS, ...EXPECT_ASSERTIONS];
      const p = this.pairs(item, keys, where);
      if (!p.has('at')) { this.report('missing-field', 'error', `${where}: needs at:`, item); return; }
      const at = this.at(p.get('at')!.value, where);
      if (!at) return;
      const position = this.pos(item);
      const e: Expectation = { at, index, ...(position ? { position } : {}) };
      let ok = true;
      const targets = EXPECT_TARGETS.filter((k) => p.has(k));
      if (targets.length > 1) { this.report('ambiguous-target', 'error', `${where}: give only one of ${quoteList(EXPECT_TARGETS)}`, p.get(targets[1])!.key); ok = false; }
      for (const k of targets) {
        const vn = p.get(k)!.value;
        const s = k === 'zone' && isScalar(vn) && typeof vn.value === 'number' ? String(vn.value) : this.string(vn, k);
        if (s === undefined) { ok = false; continue; }
        if ((k === 'pod' || k === 'replicaSet') && !parseNsName(s)) { this.report('bad-reference', 'error', `${where}: expected ${k}: namespace/name, found ${JSON.stringify(s)}`, vn); ok = false; continue; }
        e[k] = k === 'pod' || k === 'replicaSet' ? parseNsName(s)! : s;
        if (k !== 'zone') this.unknownTarget(k, e[k]!, known, vn, where);
      }
      const assertions = EXPECT_ASSERTIONS.filter((k) => p.has(k));
      if (!assertions.length) { this.report('missing-field', 'error', `${where}: checks nothing: add one of ${quoteList(EXPECT_ASSERTIONS)}`, item); return; }
      if (!targets.length && !(assertions.length === 1 && assertions[0] === 'decision')) {
        this.report('missing-target', 'error', `${where}: which object? add one of ${quoteList(EXPECT_TARGETS)}`, item);
        ok = false;
      }
      for (const k of assertions) {
        const vn = p.get(k)!.value;
        switch (k) {
          case 'hasTaint':
          case 'lacksTaint': {
            const s = this.string(vn, k);
            if (s === undefined) { ok = false; break; }
            if (s.includes(':')) {
              const t = parseTaintText(s);
              if ('error' in t) { this.report('bad-taint', 'error', `${where}: ${k}: ${t.error}`, vn); ok = false; break; }
            }
            e[k] = s;
            break;
          }
          case 'deleted':
          case 'exists': {
            const b = this.boolean(vn, k);
            if (b === undefined) ok = false;
            else e[k] = b;
            break;
          }
          case 'ready': {
            const s = this.conditionStatus(vn, 'ready');
            if (s === undefined) ok = false;
            else e.ready = s;
            break;
          }
          case 'state': {
            const s = this.enumValue(vn, ZONE_STATES, 'state');
            if (s === undefined) ok = false;
            else e.state = s;
            break;
          }
          case 'replicas':
          case 'readyReplicas':
          case 'availableReplicas': {
            const n = this.integer(vn, k, 0);
            if (n === undefined) ok = false;
            else e[k] = n;
            break;
          }
          case 'boundTo': {
            const s = this.string(vn, k);
            if (s === undefined) ok = false;
            else { e.boundTo = s; this.unknownTarget('node', s, known, vn, where); }
            break;
          }
          case 'decision': {
            if (!isMap(vn)) { this.report('wrong-type', 'error', `${where}: expected decision as {action: TaintAdded, object: Node/NAME, count: N}, found ${this.describe(vn)}`, vn); ok = false; break; }
            const d = this.pairs(vn, ['action', 'object', 'count'], `${where}: decision`);
            if (!d.has('action')) { this.report('missing-field', 'error', `${where}: decision needs action:`, vn); ok = false; break; }
            const actionNode = d.get('action')!.value;
            let action = this.string(actionNode, 'action');
            // a misspelt action never matches: with count: 0 the check would pass whatever happened
            if (action !== undefined && !ALL_ACTIONS.includes(action)) {
              this.report('bad-value', 'error', `${where}: decision: no decision has action ${JSON.stringify(action)}${suggest(action, ALL_ACTIONS)}`, actionNode);
              action = undefined;
            }
            const dec: { action: string; object?: string; count?: number } = { action: action ?? '' };
            if (d.has('object')) {
              const objectNode = d.get('object')!.value;
              const o = this.string(objectNode, 'object');
              if (o !== undefined && !DECISION_OBJECT.test(o)) {
                this.report('bad-reference', 'error', `${where}: decision: expected object as Node/NAME, Pod/NAMESPACE/NAME, ReplicaSet/NAMESPACE/NAME or Zone/KEY, found ${JSON.stringify(o)}`, objectNode);
                ok = false;
              } else if (o !== undefined) {
                dec.object = o;
                const kind = o.slice(0, o.indexOf('/'));
                if (kind === 'Node' || kind === 'Pod' || kind === 'ReplicaSet') this.unknownTarget(kind === 'Node' ? 'node' : kind === 'Pod' ? 'pod' : 'replicaSet', o.slice(kind.length + 1), known, objectNode, where);
              } else ok = false;
            }
            if (d.has('count')) {
              const c = this.integer(d.get('count')!.value, 'count', 0);
              if (c !== undefined) dec.count = c;
              else ok = false;
            }
            if (action === undefined) ok = false;
            e.decision = dec;
            break;
          }
        }
      }
      if (ok) out.push({ e, t: 'offset' in at ? (start ?? 0) + at.offset : at.time });
    });
    return out.map((x, i) => ({ ...x, i })).sort((a, b) => a.t - b.t || a.i - b.i).map((x) => x.e);
  }
}

function strip(prefix: string, s: string): string {
  return s.startsWith(prefix) ? s.slice(prefix.length) : s;
}

function refWhat(kind: string): string {
  return kind.toLowerCase();
}

function formatAt(at: TimeSpec): string {
  if ('offset' in at) return formatOffset(at.offset);
  return new Date(Math.floor(at.time / 1000)).toISOString();
}

function formatOffset(us: number): string {
  // Go-style, as written in scenarios
  const s = us / 1_000_000;
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${Number(sec.toFixed(6))}s`;
}

/** The path of a node inside the document (for positions of problems found after toJS). */
function nodePath(doc: Document, target: unknown): (string | number)[] {
  const path: (string | number)[] = [];
  const visit = (node: unknown): boolean => {
    if (node === target) return true;
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
        if (key === undefined) continue;
        path.push(key);
        if (visit(pair.value)) return true;
        path.pop();
      }
    } else if (isSeq(node)) {
      for (let i = 0; i < node.items.length; i++) {
        path.push(i);
        if (visit(node.items[i])) return true;
        path.pop();
      }
    }
    return false;
  };
  return visit(doc.contents) ? path : [];
}

/** The node at `path`, or at the longest prefix of it that exists. */
function deepestNode(doc: Document, path: (string | number)[]): unknown {
  for (let n = path.length; n >= 0; n--) {
    const node = doc.getIn(path.slice(0, n), true);
    if (node !== undefined && node !== null && typeof node === 'object') return node;
  }
  return undefined;
}

function knownObjects(snap: LoadedSnapshot): Set<string> {
  const known = new Set<string>();
  const c = snap.cluster;
  for (const k of c.nodes.keys()) known.add(`Node/${k}`);
  for (const k of c.pods.keys()) known.add(`Pod/${k}`);
  for (const k of c.replicaSets.keys()) known.add(`ReplicaSet/${k}`);
  for (const k of c.daemonSets.keys()) known.add(`DaemonSet/${k}`);
  for (const k of c.leases.keys()) known.add(`Lease/${NODE_LEASE_NAMESPACE}/${k}`);
  return known;
}

function emptySnapshot(): LoadedSnapshot {
  return loadSnapshot([]);
}

/**
 * The version simulated when the input does not say: the minor version most nodes' kubelets
 * report (ties: the newer), clamped to the versions the engine simulates (1.12 to the newest),
 * with a warning when clamped: a 1.10 cluster is closest to 1.12 (no Leases, the pod-eviction
 * path), not to the newest release. With no kubelet version in the snapshot: the newest.
 */
export function assumedVersion(snap: LoadedSnapshot): { version: string; why: string; warning?: Problem } {
  const counts = new Map<number, { n: number; text: string }>();
  for (const n of snap.cluster.nodes.values()) {
    const info = (n.raw.status as KObject | undefined)?.nodeInfo as KObject | undefined;
    const text = typeof info?.kubeletVersion === 'string' ? info.kubeletVersion : undefined;
    const m = text !== undefined ? /^\s*v?1\.(\d{1,3})(?:[.+-]|\s*$)/.exec(text) : null;
    if (!m) continue;
    const minor = Number(m[1]);
    const c = counts.get(minor);
    if (c) c.n++; else counts.set(minor, { n: 1, text: text!.trim() });
  }
  let best: number | undefined;
  for (const [minor, c] of counts) if (best === undefined || c.n > counts.get(best)!.n || (c.n === counts.get(best)!.n && minor > best)) best = minor;
  if (best === undefined) return { version: `1.${MAX_MINOR}`, why: 'the newest supported; the snapshot does not say' };
  const clamped = Math.min(MAX_MINOR, Math.max(MIN_MINOR, best));
  if (clamped === best) return { version: `1.${best}`, why: 'the version the nodes\' kubelets report' };
  const reported = counts.get(best)!.text;
  return {
    version: `1.${clamped}`,
    why: `the nodes' kubelets report ${reported}, outside 1.${MIN_MINOR}–1.${MAX_MINOR}: the nearest simulated version`,
    warning: {
      code: 'version-clamped', severity: 'warning',
      message: `the nodes' kubelets report ${reported}, which the engine does not simulate: simulating 1.${clamped}, the nearest supported version (1.${MIN_MINOR} to 1.${MAX_MINOR}); set kubernetesVersion to choose`,
    },
  };
}

// ---------------------------------------------------------------------------

/** True when the text is a scenario (kind: Scenario or our apiVersion), not a snapshot. */
export function isScenarioText(text: string): boolean {
  const head = text.length > 1_000_000 ? text.slice(0, 1_000_000) : text;
  if (/^\s*[{[]/.test(head)) return /"kind"\s*:\s*"Scenario"/.test(head) || head.includes(`"${SCENARIO_API_VERSION}"`);
  return /^kind:[ \t]*["']?Scenario["']?[ \t]*(#.*)?$/m.test(head) || /^apiVersion:[ \t]*["']?controllerstepper\.io\//m.test(head);
}

/**
 * Parses scenario text. Snapshot paths and configFile are read through `fs`,
 * relative to `file`'s folder. Never throws on bad input.
 */
export function parseScenario(text: string, file: string, fs?: InputFs, options: ScenarioOptions = {}): ParsedScenario {
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, { ...YAML_OPTIONS, prettyErrors: false, keepSourceTokens: false });
  } catch (e) {
    if (!isStackOverflow(e)) throw e;
    return tooDeepScenario(file, parseDocument('{}'));
  }
  const parser = new ScenarioParser(text, file, doc, fs, options);
  const deep = findTooDeep(doc.contents);
  // the yaml package's own stack overflow: where (and whether) it happens differs from run to run
  if (doc.errors.some((err) => /call stack/i.test(err.message))) return tooDeepScenario(file, doc);
  if (doc.errors.length) {
    for (const err of doc.errors.slice(0, 50)) {
      const [s, e] = err.pos;
      parser.problems.push({ code: 'yaml-syntax', severity: 'error', message: err.message.split('\n')[0], position: parser.lines.position(file, s, Math.max(s, e)) });
    }
  }
  if (doc.errors.length > 50) parser.problems.push({ code: 'yaml-syntax', severity: 'error', message: `${doc.errors.length - 50} more YAML syntax errors are not listed`, position: { file, line: 1, column: 1 } });
  for (const w of doc.warnings) parser.problems.push({ code: 'yaml-warning', severity: 'warning', message: w.message.split('\n')[0], position: parser.lines.position(file, w.pos[0], w.pos[1]) });
  let scenario: Scenario;
  try {
    // refused before any recursive walk (toJS) can overflow the stack
    if (deep) return tooDeepScenario(file, doc);
    scenario = parser.parse();
    validateScenario(scenario, doc, (code, severity, message, node) => parser.report(code, severity, message, node), (p) => parser.problems.push(p));
  } catch (e) {
    // A bug, not bad input; still report it as data rather than crash the caller.
    parser.problems.push({ code: 'internal-error', severity: 'error', message: `the scenario could not be read: ${yamlBuildError(e)}`, position: { file, line: 1, column: 1 } });
    scenario = { ...scenarioFromSnapshot(emptySnapshot(), file), plainSnapshot: false };
    scenario.problems = parser.problems;
  }
  if (doc.errors.length) scenario.snapshot.partial = true;
  return { scenario, problems: parser.problems, document: doc };
}

function firstNodePosition(snapshot: LoadedSnapshot): SourcePosition | undefined {
  return snapshot.objects.find((o) => o.kind === 'Node' && o.position)?.position;
}

/**
 * A scenario nested too deep, refused whole with one problem at its start: the same answer
 * whether our depth check or the yaml package's stack found it first, so no result depends on
 * where a stack overflows.
 */
function tooDeepScenario(file: string, document: Document.Parsed): ParsedScenario {
  const problems: Problem[] = [{ code: 'too-deep', severity: 'error', message: `the scenario is ${TOO_DEEP_MESSAGE}`, position: { file, line: 1, column: 1 } }];
  const scenario: Scenario = { ...scenarioFromSnapshot(emptySnapshot(), file), plainSnapshot: false, problems };
  return { scenario, problems, document };
}

/** A plain snapshot as a scenario: defaults everywhere, no events. */
export function scenarioFromSnapshot(snapshot: LoadedSnapshot, file: string): Scenario {
  const assumed = assumedVersion(snapshot);
  const problems = [...snapshot.problems];
  problems.push({ code: 'version-assumed', severity: 'info', message: `a plain snapshot: simulating Kubernetes ${assumed.version} (${assumed.why}); write a scenario to choose` });
  if (assumed.warning) problems.push({ ...assumed.warning, ...(firstNodePosition(snapshot) ? { position: firstNodePosition(snapshot) } : {}) });
  const scenario: Scenario = {
    name: basenamePath(file).replace(/\.(ya?ml|json)$/i, '') || file,
    file,
    plainSnapshot: true,
    kubernetesVersion: assumed.version,
    controllerMemory: 'reconstructed',
    binder: 'simplified',
    snapshot,
    controllerManager: { settings: {}, featureGates: {}, flags: [] },
    kubelet: {},
    events: [],
    expect: [],
    problems,
  };
  validateScenario(scenario, undefined, () => {}, (p) => problems.push(p));
  return scenario;
}

/**
 * Loads a scenario file, or a plain snapshot (file or folder) as a scenario
 * with `plainSnapshot: true`.
 */
export function loadScenario(path: string, fs: InputFs, options: ScenarioOptions = {}): Scenario {
  let st;
  try { st = fs.stat(path); } catch { st = undefined; }
  const limit = options.maxFileBytes ?? MAX_FILE_BYTES;
  // only a limit the caller set: the loader streams a file too big to read whole
  const snapshotOptions = { maxFileBytes: options.maxFileBytes };
  if (!st || st.kind === 'dir' || st.size > limit) return scenarioFromSnapshot(loadSnapshot(path, fs, snapshotOptions), path);
  let text: string;
  try {
    text = fs.readText(path);
  } catch {
    return scenarioFromSnapshot(loadSnapshot(path, fs, snapshotOptions), path);
  }
  if (isScenarioText(text)) return parseScenario(text, path, fs, options).scenario;
  // the loader may let a big snapshot's text go once parsed: nothing here keeps it
  const source = { text, reread: () => fs.readText(path) };
  text = '';
  return scenarioFromSnapshot(loadSnapshotSource(path, source, fs, snapshotOptions), path);
}
