/**
 * Reads the `configFile:` of a scenario: a KubeControllerManagerConfiguration
 * (kubecontrollermanager.config.k8s.io/v1alpha1, YAML or JSON) or the
 * kube-controller-manager static Pod manifest, whose container command/args
 * flags are read. Values keep the position they were found at.
 */
import { placeYamlError } from '../snapshot/unclosedFlow';
import { LineCounter, isMap, isScalar, isSeq, parseAllDocuments, type Node } from 'yaml';
import type { Problem, SourcePosition } from '../problems';
import { shellWords, type Word } from './flags';
import { closest } from './suggest';
import { YAML_OPTIONS } from '../snapshot/yamlOptions';
import { SETTINGS } from './settings';

export interface ValueAt {
  value: unknown;
  position?: SourcePosition;
}

export interface ConfigFileResult {
  form: 'KubeControllerManagerConfiguration' | 'Pod' | 'unknown';
  /** scenario key -> value (from a KubeControllerManagerConfiguration) */
  settings: Record<string, ValueAt>;
  featureGates: Record<string, ValueAt>;
  controllers?: ValueAt;
  /** command-line words (from a static Pod manifest), binary name included */
  words: Word[];
  problems: Problem[];
}

/** Sections of KubeControllerManagerConfiguration that the simulation does not model (ignored without a warning). */
const OTHER_SECTIONS = new Set([
  'apiVersion',
  'kind',
  'attachDetachController',
  'csrSigningController',
  'cronJobController',
  'daemonSetController',
  'deploymentController',
  'statefulSetController',
  'deprecatedController',
  'endpointController',
  'endpointSliceController',
  'endpointSliceMirroringController',
  'ephemeralVolumeController',
  'garbageCollectorController',
  'horizontalPodAutoscalerController',
  'hpaController',
  'jobController',
  'legacySATokenCleaner',
  'namespaceController',
  'nodeIPAMController',
  'persistentVolumeBinderController',
  'podGCController',
  'replicationController',
  'resourceQuotaController',
  'saController',
  'serviceController',
  'ttlAfterFinishedController',
  'validatingAdmissionPolicyStatusController',
  'cloudProvider',
  'externalCloudVolumePlugin',
  'serviceAccountController',
  'debugging',
  'componentConfig',
]);

/** Fields of the modelled sections that the simulation does not use (ignored without a warning). */
const OTHER_FIELDS: Record<string, Set<string>> = {
  generic: new Set([
    'port',
    'address',
    'minResyncPeriod',
    'clientConnection',
    'controllerStartInterval',
    'debugging',
    'leaderMigrationEnabled',
    'leaderMigration',
  ]),
  'generic.leaderElection': new Set(['leaderElect', 'renewDeadline', 'retryPeriod', 'resourceLock', 'resourceName', 'resourceNamespace']),
  kubeCloudShared: new Set([
    'cloudProvider',
    'externalCloudVolumePlugin',
    'useServiceAccountCredentials',
    'allowUntaggedCloud',
    'routeReconciliationPeriod',
    'clusterName',
    'clusterCIDR',
    'allocateNodeCIDRs',
    'cidrAllocatorType',
    'configureCloudRoutes',
    'nodeSyncPeriod',
  ]),
  nodeLifecycleController: new Set(),
  replicaSetController: new Set(),
};

export function readControllerManagerConfigFile(file: string, text: string): ConfigFileResult {
  const result: ConfigFileResult = { form: 'unknown', settings: {}, featureGates: {}, words: [], problems: [] };
  const lc = new LineCounter();
  const docs = parseAllDocuments(text, { ...YAML_OPTIONS, lineCounter: lc, prettyErrors: false });
  const pos = (range: readonly number[] | null | undefined): SourcePosition | undefined => {
    if (!range) return undefined;
    const a = lc.linePos(range[0]);
    const b = lc.linePos(range[1] ?? range[0]);
    return { file, line: a.line, column: a.col, endLine: b.line, endColumn: b.col, offset: range[0], endOffset: range[1] };
  };
  const problem = (code: string, severity: Problem['severity'], message: string, range?: readonly number[] | null): void => {
    result.problems.push({ code, severity, message, position: pos(range) ?? { file, line: 1, column: 1 } });
  };

  const list = Array.isArray(docs) ? docs : [docs];
  for (const doc of list) {
    for (const e of doc.errors) {
      const placed = placeYamlError(text, doc.range?.[0] ?? 0, e.pos, e.message, (o) => {
        const p = lc.linePos(o);
        return { line: p.line, column: p.col };
      });
      problem('yaml-syntax', 'error', placed.message, [placed.start, placed.end]);
    }
  }
  if (result.problems.length) return result;

  for (const doc of list) {
    const root = doc.contents;
    if (!isMap(root)) continue;
    const kind = (root as MapNode).get('kind') as unknown;
    // kube-controller-manager's /configz: {"kubecontrollermanager.config.k8s.io": {...}} ("componentconfig" before 1.12),
    // the configuration it runs with, without apiVersion or kind
    const configz = kind === undefined ? configzBody(root as MapNode) : undefined;
    if (configz) {
      result.form = 'KubeControllerManagerConfiguration';
      readKcmConfig(configz, '', result, pos, problem);
      return result;
    }
    if (kind === 'KubeControllerManagerConfiguration') {
      result.form = 'KubeControllerManagerConfiguration';
      const apiVersion = (root as MapNode).get('apiVersion') as unknown;
      if (typeof apiVersion === 'string' && !/^(kubecontrollermanager\.config\.k8s\.io|componentconfig)\/v1alpha1$/.test(apiVersion)) {
        const item = root.items.find((p) => isScalar(p.key) && p.key.value === 'apiVersion');
        problem(
          'unknown-api-version',
          'warning',
          `apiVersion ${apiVersion} is not kubecontrollermanager.config.k8s.io/v1alpha1; reading it as that`,
          (item?.value as Node | null)?.range,
        );
      }
      readKcmConfig(root as MapNode, '', result, pos, problem);
      return result;
    }
    if (kind === 'Pod') {
      result.form = 'Pod';
      readStaticPod(root as MapNode, result, pos, problem);
      return result;
    }
  }
  problem('bad-config-file', 'error', 'expected a KubeControllerManagerConfiguration or the kube-controller-manager static Pod manifest (kind: Pod)');
  return result;
}

type MapNode = import('yaml').YAMLMap<unknown, unknown>;
type Pos = (range: readonly number[] | null | undefined) => SourcePosition | undefined;
type Report = (code: string, severity: Problem['severity'], message: string, range?: readonly number[] | null) => void;

/** config path -> scenario key, for the modelled fields */
const PATH_TO_KEY = new Map(SETTINGS.filter((s) => s.configPath && s.component === 'kube-controller-manager').map((s) => [s.configPath!, s.key]));

/**
 * Upstream's KubeControllerManagerConfiguration and its sections have no json tags (kubernetes
 * staging/src/k8s.io/kube-controller-manager/config/v1alpha1/types.go), so it is written with the Go
 * field names (`NodeLifecycleController: {NodeMonitorGracePeriod: 40s}`, as /configz prints it), and
 * Go's decoder matches names regardless of case: a name is found here the same way, and reported by
 * the spelling this tool documents.
 */
const CANONICAL = new Map<string, string>();
for (const path of [...PATH_TO_KEY.keys(), 'featureGates', 'generic.controllers', ...OTHER_SECTIONS, ...Object.keys(OTHER_FIELDS)])
  CANONICAL.set(path.toLowerCase(), path);
for (const [section, fields] of Object.entries(OTHER_FIELDS)) for (const f of fields) CANONICAL.set(`${section}.${f}`.toLowerCase(), `${section}.${f}`);

/** The configuration inside a /configz answer, if `root` is one. */
function configzBody(root: MapNode): MapNode | undefined {
  if (root.items.length !== 1) return undefined;
  const [pair] = root.items;
  if (!isScalar(pair.key) || !isMap(pair.value)) return undefined;
  const body = pair.value as MapNode;
  const group = String(pair.key.value);
  if (group === 'kubecontrollermanager.config.k8s.io') return body;
  // kube-scheduler's /configz used "componentconfig" too: only a body with a section of kube-controller-manager's is its
  const ours = body.items.some((p) => isScalar(p.key) && /^(generic|kubecloudshared|\w+controller)$/i.test(String(p.key.value)));
  return group === 'componentconfig' && ours ? body : undefined;
}

function readKcmConfig(map: MapNode, prefix: string, out: ConfigFileResult, pos: Pos, report: Report): void {
  for (const pair of map.items) {
    if (!isScalar(pair.key)) continue;
    const given = String(pair.key.value);
    const written = prefix ? `${prefix}.${given}` : given;
    const known = CANONICAL.get(written.toLowerCase());
    const path = known ?? written;
    const name = known ? known.slice(known.lastIndexOf('.') + 1) : given;
    const valueNode = pair.value as Node | null;
    if (path === 'featureGates') {
      if (isMap(valueNode)) {
        for (const g of valueNode.items) {
          if (!isScalar(g.key)) continue;
          const v = g.value as Node | null;
          out.featureGates[String(g.key.value)] = { value: isScalar(v) ? v.value : v?.toJSON(), position: pos(v?.range ?? g.key.range) };
        }
      } else report('wrong-type', 'error', 'featureGates must be a map of gate names to true/false', valueNode?.range);
      continue;
    }
    if (path === 'generic.controllers') {
      out.controllers = { value: valueNode?.toJSON(), position: pos(valueNode?.range) };
      continue;
    }
    const key = PATH_TO_KEY.get(path);
    if (key) {
      out.settings[key] = { value: isScalar(valueNode) ? valueNode.value : valueNode?.toJSON(), position: pos(valueNode?.range) };
      continue;
    }
    if (!prefix && OTHER_SECTIONS.has(name)) continue;
    if (OTHER_FIELDS[path] !== undefined) {
      if (isMap(valueNode)) readKcmConfig(valueNode as MapNode, path, out, pos, report);
      else report('wrong-type', 'error', `${path} must be a map of fields`, valueNode?.range ?? pair.key.range);
      continue;
    }
    if (OTHER_FIELDS[prefix]?.has(name)) continue;
    const near = [...PATH_TO_KEY.keys(), 'featureGates', 'generic.controllers']
      .filter((p) => p.startsWith(prefix ? prefix + '.' : ''))
      .map((p) => p.slice(prefix ? prefix.length + 1 : 0).split('.')[0]);
    const near1 = closest(name, [...new Set([...near, ...(prefix ? [] : [...OTHER_SECTIONS])])]);
    // files written for releases whose v1alpha1 fields had no json tags say NodeLifecycleController; Go decodes any case, so the hint (the quick fix writes it) keeps the file's
    const hint = near1 && /^[A-Z]/.test(name) ? near1[0].toUpperCase() + near1.slice(1) : near1;
    report('unknown-field', 'warning', `unknown field ${path}${hint ? ` (did you mean ${prefix ? prefix + '.' : ''}${hint}?)` : ''}; ignored`, pair.key.range);
  }
}

function readStaticPod(root: MapNode, out: ConfigFileResult, pos: Pos, report: Report): void {
  const spec = root.get('spec');
  const containers = isMap(spec) ? spec.get('containers') : undefined;
  if (!isSeq(containers) || containers.items.length === 0) {
    report('bad-config-file', 'error', 'the Pod has no spec.containers', (spec as Node | undefined)?.range);
    return;
  }
  const words = (c: unknown, field: string): { text: string; position?: SourcePosition }[] => {
    if (!isMap(c)) return [];
    const seq = c.get(field);
    if (!isSeq(seq)) return [];
    return seq.items.filter(isScalar).map((s) => ({ text: String(s.value), position: pos(s.range) }));
  };
  const isKcm = (c: unknown): boolean => {
    if (!isMap(c)) return false;
    const name = String(c.get('name') ?? '');
    const image = String(c.get('image') ?? '');
    const cmd = words(c, 'command')
      .map((w) => w.text)
      .join(' ');
    return /kube-controller-manager/.test(name) || /kube-controller-manager/.test(image) || /kube-controller-manager/.test(cmd);
  };
  const candidates = containers.items.filter(isKcm);
  const container = candidates[0] ?? (containers.items.length === 1 ? containers.items[0] : undefined);
  if (!container) {
    report('bad-config-file', 'error', 'no kube-controller-manager container in the Pod (by name, image or command)', containers.range);
    return;
  }
  // `command: ["/bin/sh", "-c", "kube-controller-manager --a=b ..."]` is read as the words of that line.
  out.words = [...words(container, 'command'), ...words(container, 'args')].flatMap((w) =>
    /\s/.test(w.text.trim()) && /kube-controller-manager|^--/.test(w.text.trim()) ? shellWords(w.text).map((text) => ({ text, position: w.position })) : [w],
  );
  if (!out.words.length)
    report('bad-config-file', 'warning', 'the kube-controller-manager container has no command or args: nothing to read', (container as Node).range);
}
