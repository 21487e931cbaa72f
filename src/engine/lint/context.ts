/**
 * Builds a LintContext from a document's text: detects what the document is,
 * parses it with the engine's own loader and config reader (so positions and
 * problems are the engine's), picks the version and resolves the settings.
 */
import { parseAllDocuments, parseDocument } from 'yaml';
import { readControllerManagerConfigFile } from '../config/configFile';
import { resolveConfig } from '../config/resolve';
import { loadSnapshot } from '../snapshot/load';
import { LineIndex } from '../snapshot/positions';
import { isScenarioText, parseScenario, scenarioFromSnapshot } from '../snapshot/scenario';
import type { InputFs } from '../snapshot/source';
import { MAX_MINOR, kubeVersion, parseKubeVersion } from '../versions/table';
import type { KubeVersion } from '../versions/types';
import { YAML_OPTIONS } from '../snapshot/yamlOptions';
import type { DocumentKind, LintContext, LintOptions } from './types';

/** A `file:` URI or a path, as a path the loader reads (`file:///a%20b/c.yaml` -> `/a b/c.yaml`). */
export function uriToPath(uri: string): string {
  if (!/^file:/i.test(uri)) return uri;
  let p = uri.replace(/^file:(\/\/[^/]*)?/i, '');
  try {
    p = decodeURIComponent(p);
  } catch {
    /* keep as written */
  }
  // file:///c:/x -> c:/x
  if (/^\/[A-Za-z]:[/\\]/.test(p)) p = p.slice(1);
  return p;
}

/**
 * A kube-controller-manager container in a Pod's text: its image, its name,
 * or the binary as the first command word (not, say, `manager:
 * kube-controller-manager` in managedFields).
 *
 * Line-anchored (`^` with the m flag) and with no `\s` that can run across lines where a
 * match may start: `(^|\n)\s*` tried every newline against every later one, so 100,000
 * blank lines took seconds; each start now scans at most its own line.
 */
const KCM_CONTAINER =
  /^[ \t]*(-[ \t]+)?(image:[ \t]*["']?\S*\/kube-controller-manager[:@"'\s]|name:[ \t]*["']?kube-controller-manager["']?[ \t]*\r?$|-[ \t]+["']?(\S*\/)?kube-controller-manager["']?[ \t]*\r?$)|"image"\s*:\s*"[^"\n]*\/kube-controller-manager[:@"]|"command"\s*:\s*\[\s*"(\S*\/)?kube-controller-manager"/m;

/** What a document is, from its text (a cheap look at kind/apiVersion, no full parse). */
export function detectDocumentKind(text: string): DocumentKind {
  if (isScenarioText(text)) return 'scenario';
  const head = text.length > 200_000 ? text.slice(0, 200_000) : text;
  // kube-controller-manager's /configz answer: its configuration under the group's name, without kind
  // (the second run of spaces only after a brace: `^\s*\{?\s*` tried every split of a run of blank lines between its two
  // \s*, 11.7 s for a document opening with 150,000 of them, on every change the language server read)
  if (/^\s*(?:\{\s*)?["']?(kubecontrollermanager\.config\.k8s\.io|componentconfig)["']?\s*:/.test(head)) return 'kcm-config';
  if (/^\s*[{[]/.test(head)) {
    if (/"kind"\s*:\s*"KubeControllerManagerConfiguration"/.test(head)) return 'kcm-config';
    const kinds = [...head.matchAll(/"kind"\s*:\s*"(\w+)"/g)].map((m) => m[1]);
    if (kinds[0] === 'Pod' && !kinds.some((k) => /List$|^Node$/.test(k)) && KCM_CONTAINER.test(head)) return 'kcm-pod';
    return 'snapshot';
  }
  if (/^kind:[ \t]*["']?KubeControllerManagerConfiguration["']?[ \t]*(#.*)?$/m.test(head)) return 'kcm-config';
  const tops = head.match(/^kind:.*$/gm) ?? [];
  if (tops.length === 1 && /^kind:[ \t]*["']?Pod["']?[ \t]*(#.*)?$/.test(tops[0]) && KCM_CONTAINER.test(head)) return 'kcm-pod';
  return 'snapshot';
}

/** The version a static Pod manifest's image names (`registry.k8s.io/kube-controller-manager:v1.27.3`). */
export function versionFromImage(text: string): KubeVersion | undefined {
  const m = /kube-controller-manager(?:-amd64|-arm64)?:v?(1\.\d{1,2}(?:\.\d+)?)/.exec(text);
  return m ? parseKubeVersion(m[1]) : undefined;
}

export function buildLintContext(file: string, text: string, kind: DocumentKind, fs: InputFs | undefined, options: LintOptions): LintContext {
  const lines = new LineIndex(text);
  const optionVersion = options.version !== undefined ? parseKubeVersion(options.version) : undefined;
  const newest = kubeVersion(MAX_MINOR);
  switch (kind) {
    case 'scenario': {
      const parsed = parseScenario(text, file, fs, {
        snapshots: options.snapshots,
        snapshotLoad: options.snapshotLoad,
        allowOutside: options.allowOutside,
        roots: options.roots,
      });
      const scenario = parsed.scenario;
      // the parser fills in an assumed version when the file names none; the option wins over that assumption
      const written = parsed.document?.get('kubernetesVersion') !== undefined;
      const fromDoc = written ? parseKubeVersion(scenario.kubernetesVersion) : undefined;
      const version = fromDoc ?? optionVersion ?? parseKubeVersion(scenario.kubernetesVersion) ?? newest;
      const resolved = resolveConfig(scenario.controllerManager, scenario.kubelet, version);
      return {
        file,
        text,
        kind,
        lines,
        version,
        versionFrom: fromDoc ? 'document' : optionVersion ? 'option' : 'assumed',
        scenario,
        parsed,
        resolved,
        document: parsed.document,
        fs,
      };
    }
    case 'snapshot': {
      const snapshot = loadSnapshot({ file, text }, fs);
      const scenario = scenarioFromSnapshot(snapshot, file);
      const version = optionVersion ?? parseKubeVersion(scenario.kubernetesVersion) ?? newest;
      const resolved = resolveConfig(scenario.controllerManager, scenario.kubelet, version);
      const document = /^\s*[{[]/.test(text) ? undefined : firstYamlDocument(text);
      return { file, text, kind, lines, version, versionFrom: optionVersion ? 'option' : 'assumed', scenario, resolved, document, fs };
    }
    case 'kcm-config':
    case 'kcm-pod': {
      const configFile = readControllerManagerConfigFile(file, text);
      const image = kind === 'kcm-pod' ? versionFromImage(text) : undefined;
      const version = image ?? optionVersion ?? newest;
      const resolved = resolveConfig({ settings: {}, featureGates: {}, flags: [], configFile: { path: file, text } }, {}, version);
      return {
        file,
        text,
        kind,
        lines,
        version,
        versionFrom: image ? 'image' : optionVersion ? 'option' : 'assumed',
        configFile,
        resolved,
        document: parseDocument(text, { ...YAML_OPTIONS, prettyErrors: false }),
        fs,
      };
    }
  }
}

function firstYamlDocument(text: string) {
  try {
    const docs = parseAllDocuments(text, { ...YAML_OPTIONS, prettyErrors: false });
    const list = Array.isArray(docs) ? docs : [docs];
    return list.length === 1 ? list[0] : undefined;
  } catch {
    return undefined;
  }
}
