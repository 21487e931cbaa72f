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
 * The events are read in parseEvents.ts, the expectations in
 * parseExpectations.ts, both with the typed readers of scenarioReader.ts.
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
 * unknown-daemonset, unknown-lease, file-not-found, snapshot-is-scenario, file-too-large,
 * unreadable-file, version-as-number, unsupported-version, yaml-syntax (errors);
 * unknown-zone, selector-matches-nothing, events-out-of-order, event-before-start, unknown-api-version,
 * no-snapshot, unused-field, ignored-kind, yaml-warning (warnings);
 * version-assumed, ignored-lease (info).
 */
import { isMap, isScalar, isSeq, parseDocument, type Document, type Node as YamlNode, type Pair } from 'yaml';
import { parseTimestamp } from '../model/time';
import type { KObject } from '../model/types';
import type { Problem, SourcePosition } from '../problems';
import { MAX_MINOR, MIN_MINOR, kubeMinor, nearestMinor, parseKubeVersion } from '../versions/table';
import { loadSnapshot, loadSnapshotSource, type SnapshotInput } from './load';
import { MAX_FILE_BYTES, basenamePath, normalizePath, resolveFrom, type InputFs } from './source';
import { readReality } from '../import/reality';
import { TOO_DEEP_MESSAGE, YAML_OPTIONS, findTooDeep, isStackOverflow, yamlBuildError } from './yamlOptions';
import { validateScenario } from './validateScenario';
import { outsideReason } from './pathPolicy';
import { ScenarioReader, type ScenarioOptions } from './scenarioReader';
import { knownObjects } from './knownObjects';
import { parseEvents } from './parseEvents';
import { parseExpectations } from './parseExpectations';
import type { ControllerManagerInput, LoadedSnapshot, Scenario } from './types';
import { placeYamlError } from './unclosedFlow';
import { SCENARIO_API_VERSION, SCENARIO_TOP_KEYS } from './scenarioHeader';

/** The scenario's notes about the version it guessed (assumedVersion), which an explicit --version makes moot. */
export const VERSION_GUESS_CODES: ReadonlySet<string> = new Set(['version-assumed', 'version-clamped']);

export type { ScenarioOptions } from './scenarioReader';

/** The warning when nothing says when the clock starts (Go's zero time would be 0001; ours is the epoch). */
export const NO_START_TIME = 'no startTime and no timestamp in the snapshot: the clock starts at 1970-01-01T00:00:00Z; write startTime: "2026-01-01T00:00:00Z"';

/** Top-level keys people carry over from other files, and where what they mean goes in a scenario. */
const TOP_KEY_ALIASES: Readonly<Record<string, string>> = {
  name: " (a scenario's name goes under metadata: metadata: {name: ...})",
  description: ' (a description goes under metadata.annotations, or in a comment)',
  version: ' (did you mean kubernetesVersion?)',
  settings: " (kube-controller-manager's settings go under controllerManager:)",
  flags: " (kube-controller-manager's flags go under controllerManager: flags: [...])",
  config: " (kube-controller-manager's settings go under controllerManager:)",
  timeline: ' (did you mean events?)',
  expectations: ' (did you mean expect?)',
  cluster: ' (did you mean snapshot?)',
};
const KUBELET_KEYS = ['nodeStatusUpdateFrequency', 'nodeStatusReportFrequency', 'leaseRenewInterval', 'podStartupDelay'] as const;

export interface ParsedScenario {
  scenario: Scenario;
  /** every problem: the scenario's and its snapshot's */
  problems: Problem[];
  /** the parsed YAML, with positions (undefined for a plain snapshot) */
  document?: Document.Parsed;
}

/** The top level of a scenario: its settings and snapshot, and the events and expectations handed on. */
/** The loader's problems after which a whole file (or folder) of the snapshot is missing from it. */
const FILE_UNREAD: ReadonlySet<string> = new Set(['file-not-found', 'no-file-system', 'unreadable-file', 'unreadable-folder', 'binary-file']);

class ScenarioParser extends ScenarioReader {
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
    const top = this.pairs(root, SCENARIO_TOP_KEYS, 'the scenario', TOP_KEY_ALIASES);
    const val = (k: string) => top.get(k)?.value ?? undefined;

    if (top.has('apiVersion')) {
      const v = this.string(val('apiVersion'), 'apiVersion');
      if (v !== undefined && v !== SCENARIO_API_VERSION)
        this.report('unknown-api-version', 'warning', `expected apiVersion ${SCENARIO_API_VERSION}, found ${JSON.stringify(v)}`, val('apiVersion'));
    }
    if (top.has('kind')) {
      const v = this.string(val('kind'), 'kind');
      if (v !== undefined && v !== 'Scenario') this.report('bad-value', 'error', `expected kind: Scenario, found ${JSON.stringify(v)}`, val('kind'));
    }
    if (top.has('metadata')) {
      const md = this.pairs(val('metadata'), undefined, 'metadata');
      if (!isMap(val('metadata')))
        this.report('wrong-type', 'error', `expected metadata as a mapping, found ${this.describe(val('metadata'))}`, val('metadata'));
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
        if (t === undefined)
          this.report('bad-timestamp', 'error', `expected startTime as an RFC3339 time such as 2026-01-01T00:00:00Z, found ${JSON.stringify(s)}`, node);
        else scenario.startTime = t;
      }
    }
    if (top.has('controllerMemory'))
      scenario.controllerMemory = this.enumValue(val('controllerMemory'), ['reconstructed', 'fresh'] as const, 'controllerMemory') ?? 'reconstructed';
    if (top.has('missingLeases')) scenario.missingLeases = this.enumValue(val('missingLeases'), ['assumed', 'absent'] as const, 'missingLeases');
    if (top.has('binder')) scenario.binder = this.enumValue(val('binder'), ['simplified', 'none'] as const, 'binder') ?? 'simplified';

    scenario.snapshot = this.snapshot(top.get('snapshot'), top.get('objects'));
    const versionPair = top.get('kubernetesVersion');
    scenario.kubernetesVersion = versionPair ? (this.version(versionPair.value) ?? '') : '';
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
    let known: Set<string> | undefined;
    if (top.has('events')) ({ events: scenario.events, known } = parseEvents(this, val('events'), scenario.snapshot, start));
    if (top.has('expect')) scenario.expect = parseExpectations(this, val('expect'), start, known ?? knownObjects(scenario.snapshot));
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
        this.report(
          'version-as-number',
          'error',
          `kubernetesVersion ${written} is read by YAML as the number ${read}; quote it: kubernetesVersion: "${written}"`,
          node,
        );
        return undefined;
      }
      const v = parseKubeVersion(read);
      if (!v) {
        this.report(
          'unsupported-version',
          'error',
          `kubernetesVersion ${read} is not a version from "1.12" to "1.${MAX_MINOR}" (write it as a string, e.g. "1.20": YAML reads 1.20 as 1.2)`,
          node,
        );
        return undefined;
      }
      this.report(
        'version-as-number',
        'warning',
        `kubernetesVersion is a YAML number; quote it ("${read}"): written as a number, 1.20 would read as 1.2`,
        node,
      );
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
          this.snapshotUnread = true;
          continue;
        }
        // the same snapshot named twice (or 200 times) is read once, and looked at once (a stat can cost its size)
        if (inputs.includes(full)) {
          this.report('duplicate-snapshot', 'warning', `snapshot ${JSON.stringify(rel)} is listed more than once; it is read once`, item);
          continue;
        }
        // the scenario named as its own snapshot was read as one Scenario object, and told only "nothing to watch"
        if (this.file !== '-' && full === normalizePath(this.file)) {
          const hint = 'name the cluster export instead (kubectl get nodes,pods,replicasets,daemonsets,leases -A -o yaml > cluster.yaml)';
          this.report('snapshot-is-scenario', 'error', `snapshot ${JSON.stringify(rel)} is this scenario file itself: ${hint}`, item);
          this.snapshotUnread = true;
          continue;
        }
        let st;
        try {
          st = this.fs.stat(full);
        } catch {
          st = undefined;
        }
        if (!st) {
          this.report('file-not-found', 'error', `snapshot ${JSON.stringify(rel)} not found (looked for ${full}, ${this.relativeTo()})`, item);
          this.snapshotUnread = true;
          continue;
        }
        const outside = outsideReason(this.fs, this.dir, full, this.options);
        if (outside) {
          this.report('path-outside', 'error', outside, item);
          this.snapshotUnread = true;
          continue;
        }
        inputs.push(full);
      }
    }
    if (objectsPair) {
      const node = objectsPair.value;
      if (isSeq(node)) inputs.push({ file: this.file, text: this.text, document: this.doc, path: ['objects'] });
      else this.report('wrong-type', 'error', `expected objects as a list of Kubernetes objects, found ${this.describe(node)}`, node);
    }
    if (!pathsPair && !objectsPair)
      this.report('no-snapshot', 'warning', 'the scenario has no snapshot: and no objects:; it starts with an empty cluster', this.doc.contents);
    const cache = this.options.snapshots;
    const key =
      cache && inputs.length > 0 && inputs.every((i) => typeof i === 'string') ? `${this.options.maxFileBytes ?? ''}\0${inputs.join('\0')}` : undefined;
    let snap = key !== undefined ? cache!.get(key) : undefined;
    if (!snap) {
      snap = loadSnapshot(inputs, this.fs, { ...this.options.snapshotLoad, maxFileBytes: this.options.maxFileBytes });
      if (key !== undefined) cache!.set(key, snap);
    }
    this.problems.push(...snap.problems);
    if (snap.problems.some((p) => p.severity === 'error' && FILE_UNREAD.has(p.code))) this.snapshotUnread = true;
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
        if (!isSeq(v)) {
          this.report('wrong-type', 'error', `expected flags as a list such as ["--node-monitor-grace-period=20s"], found ${this.describe(v)}`, v);
          continue;
        }
        for (const item of v.items) {
          const s = this.string(item, 'a flag');
          if (s === undefined) continue;
          if (!s.startsWith('--')) this.report('bad-flag', 'error', `expected a flag of the form --name=value, found ${JSON.stringify(s)}`, item);
          else cm.flags.push({ text: s, position: this.textPos(item) });
        }
      } else if (key === 'featureGates') {
        if (!isMap(v)) {
          this.report('wrong-type', 'error', `expected featureGates as a mapping such as {TaintBasedEvictions: true}, found ${this.describe(v)}`, v);
          continue;
        }
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

  /** Where a relative path was looked for: the scenario's folder, or the current one for a scenario read from standard input (`-`). */
  private relativeTo(): string {
    return this.file === '-' ? 'relative to the current folder: the scenario came from standard input' : 'relative to the scenario file';
  }

  private readFile(full: string, rel: string, node: unknown): string | undefined {
    if (!this.fs) {
      this.report('no-file-system', 'error', `cannot read ${rel}: no file system`, node);
      return undefined;
    }
    let st;
    try {
      st = this.fs.stat(full);
    } catch {
      st = undefined;
    }
    if (!st || st.kind !== 'file') {
      this.report('file-not-found', 'error', `${JSON.stringify(rel)} not found (looked for ${full}, ${this.relativeTo()})`, node);
      return undefined;
    }
    const outside = outsideReason(this.fs, this.dir, full, this.options);
    if (outside) {
      this.report('path-outside', 'error', outside, node);
      return undefined;
    }
    const limit = this.options.maxFileBytes ?? MAX_FILE_BYTES;
    if (st.size > limit) {
      this.report('file-too-large', 'error', `${rel} is ${st.size} bytes; the limit is ${limit} bytes`, node);
      return undefined;
    }
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
    const minor = text !== undefined ? kubeMinor(text) : undefined;
    if (minor === undefined) continue;
    const c = counts.get(minor);
    if (c) c.n++;
    else counts.set(minor, { n: 1, text: text!.trim() });
  }
  let best: number | undefined;
  for (const [minor, c] of counts) if (best === undefined || c.n > counts.get(best)!.n || (c.n === counts.get(best)!.n && minor > best)) best = minor;
  if (best === undefined) return { version: `1.${MAX_MINOR}`, why: 'the newest supported; the snapshot does not say' };
  const clamped = nearestMinor(best);
  if (clamped === best) return { version: `1.${best}`, why: "the version the nodes' kubelets report" };
  const reported = counts.get(best)!.text;
  return {
    version: `1.${clamped}`,
    why: `the nodes' kubelets report ${reported}, outside 1.${MIN_MINOR}–1.${MAX_MINOR}: the nearest simulated version`,
    warning: {
      code: 'version-clamped',
      severity: 'warning',
      message: `the nodes' kubelets report ${reported}, which the engine does not simulate: simulating 1.${clamped}, the nearest supported version (1.${MIN_MINOR} to 1.${MAX_MINOR}); set kubernetesVersion to choose`,
    },
  };
}

// ---------------------------------------------------------------------------

/** True when the text is a scenario (kind: Scenario or our apiVersion), not a snapshot. */
export function isScenarioText(text: string): boolean {
  const head = text.length > 1_000_000 ? text.slice(0, 1_000_000) : text;
  if (/^\s*[{[]/.test(head)) return /"kind"\s*:\s*"Scenario"/.test(head) || head.includes(`"${SCENARIO_API_VERSION}"`);
  // a code fence at the line's start is Markdown (a README that shows a scenario), never a YAML mapping's line
  if (/^```/m.test(head)) return false;
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
      const placed = placeYamlError(text, 0, err.pos, err.message.split('\n')[0], (o) => parser.lines.lineCol(o));
      parser.problems.push({
        code: 'yaml-syntax',
        severity: 'error',
        message: placed.message,
        position: parser.lines.position(file, placed.start, placed.end),
      });
    }
  }
  if (doc.errors.length > 50)
    parser.problems.push({
      code: 'yaml-syntax',
      severity: 'error',
      message: `${doc.errors.length - 50} more YAML syntax errors are not listed`,
      position: { file, line: 1, column: 1 },
    });
  for (const w of doc.warnings)
    parser.problems.push({
      code: 'yaml-warning',
      severity: 'warning',
      message: w.message.split('\n')[0],
      position: parser.lines.position(file, w.pos[0], w.pos[1]),
    });
  let scenario: Scenario;
  try {
    // refused before any recursive walk (toJS) can overflow the stack
    if (deep) return tooDeepScenario(file, doc);
    scenario = parser.parse();
    validateScenario(
      scenario,
      doc,
      (code, severity, message, node) => parser.report(code, severity, message, node),
      (p) => parser.problems.push(p),
    );
  } catch (e) {
    // A bug, not bad input; still report it as data rather than crash the caller.
    parser.problems.push({
      code: 'internal-error',
      severity: 'error',
      message: `the scenario could not be read: ${yamlBuildError(e)}`,
      position: { file, line: 1, column: 1 },
    });
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
  problems.push({
    code: 'version-assumed',
    severity: 'info',
    message: `a plain snapshot: simulating Kubernetes ${assumed.version} (${assumed.why}); write a scenario to choose`,
  });
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
  validateScenario(
    scenario,
    undefined,
    () => {},
    (p) => problems.push(p),
  );
  return scenario;
}

/**
 * Loads a scenario file, or a plain snapshot (file or folder) as a scenario
 * with `plainSnapshot: true`.
 */
export function loadScenario(path: string, fs: InputFs, options: ScenarioOptions = {}): Scenario {
  let st;
  try {
    st = fs.stat(path);
  } catch {
    st = undefined;
  }
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
