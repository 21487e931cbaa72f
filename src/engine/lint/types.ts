/**
 * The lint layer: pure rules over one document (a scenario, a snapshot, a
 * KubeControllerManagerConfiguration or a kube-controller-manager static Pod
 * manifest), each `(ctx) => LintProblem[]` with exact positions. The language
 * server and the command line's `validate` both run them through
 * `lintDocument` (index.ts), so both report the same problems.
 */
import type { Document } from 'yaml';
import type { ResolvedConfig } from '../config/resolve';
import type { ConfigFileResult } from '../config/configFile';
import type { Problem } from '../problems';
import type { LineIndex } from '../snapshot/positions';
import type { ParsedScenario, ScenarioOptions } from '../snapshot/scenario';
import type { InputFs } from '../snapshot/source';
import type { LoadedSnapshot, Scenario } from '../snapshot/types';
import type { KubeVersion } from '../versions/types';

/** What a document is: decides which rules apply. */
export type DocumentKind = 'scenario' | 'snapshot' | 'kcm-config' | 'kcm-pod';

/** A replacement of `[offset, endOffset)` of the document's text (0-based UTF-16 offsets). */
export interface TextEdit {
  offset: number;
  endOffset: number;
  newText: string;
}

/** A quick fix: edits to the linted document only. */
export interface QuickFix {
  title: string;
  edits: TextEdit[];
  /** the fix to offer first (the language server marks it preferred) */
  preferred?: boolean;
}

/** A problem with the quick fixes that apply to it (none when no fix is obvious). */
export interface LintProblem extends Problem {
  fixes?: QuickFix[];
}

export interface LintOptions {
  /** the Kubernetes version to check against when the document does not name one (e.g. `1.31`) */
  version?: string;
  /** snapshots already loaded, reused by scenarios that name the same files (see ScenarioOptions.snapshots) */
  snapshots?: Map<string, LoadedSnapshot>;
  /** how a scenario's `snapshot:` files are loaded (ScenarioOptions.snapshotLoad) */
  snapshotLoad?: ScenarioOptions['snapshotLoad'];
  /** read snapshot:/configFile: paths outside the scenario's folder tree (ScenarioOptions.allowOutside) */
  allowOutside?: boolean;
  /** folders besides the scenario's whose trees may be read: the workspace (ScenarioOptions.roots) */
  roots?: readonly string[];
}

/** Everything the rules read, computed once per document. */
export interface LintContext {
  /** the document's path (problems in this file are the document's own) */
  file: string;
  text: string;
  kind: DocumentKind;
  lines: LineIndex;
  /** the version the document is checked against */
  version: KubeVersion;
  /** how the version was chosen, for messages */
  versionFrom: 'document' | 'option' | 'image' | 'assumed';
  /** the scenario (for snapshots, the plain-snapshot scenario the loader builds) */
  scenario?: Scenario;
  /** scenario documents: the parser's result, with the YAML document */
  parsed?: ParsedScenario;
  /** KubeControllerManagerConfiguration / static Pod documents: the reader's result */
  configFile?: ConfigFileResult;
  /** settings resolved for `version` (defaults, config file, scenario keys, flags) */
  resolved?: ResolvedConfig;
  /** the YAML document, when the text is YAML (scenario, config files) */
  document?: Document.Parsed;
  fs?: InputFs;
}

export interface LintRule {
  /** stable, names the file the rule lives in */
  id: string;
  /** which documents it applies to */
  kinds: readonly DocumentKind[];
  /** the problem codes it reports (for docs and tests) */
  codes: readonly string[];
  run(ctx: LintContext): LintProblem[];
}
