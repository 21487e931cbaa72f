/**
 * `lintDocument(uri, text, kind?, fs?, options?)`: every problem in one
 * document, from the rules in rules/ (one file each), sorted by position.
 * The language server publishes these as diagnostics (with the quick fixes
 * as code actions); the command line's `validate` prints them
 * (`lintFile(path, fs, options)` reads the file or folder first).
 */
import { formatProblem, type Problem } from '../problems';
import { loadSnapshot } from '../snapshot/load';
import { LineIndex } from '../snapshot/positions';
import { scenarioFromSnapshot } from '../snapshot/scenario';
import { STREAM_FILES_ABOVE, type InputFs } from '../snapshot/source';
import { MAX_MINOR, kubeVersion, parseKubeVersion } from '../versions/table';
import { resolveConfig } from '../config/resolve';
import { buildLintContext, detectDocumentKind, uriToPath } from './context';
import { heartbeatMultipleRule } from './rules/heartbeatMultiple';
import { http2GraceRule } from './rules/http2Grace';
import { leasesRule } from './rules/leases';
import { referencesRule } from './rules/references';
import { schemaRule } from './rules/schema';
import { emptySnapshotRule } from './rules/emptySnapshot';
import { replicaSetsRule } from './rules/replicaSets';
import { settingsRule } from './rules/settings';
import { snapshotFilesRule } from './rules/snapshotFiles';
import type { DocumentKind, LintContext, LintOptions, LintProblem, LintRule } from './types';

export type { DocumentKind, LintContext, LintOptions, LintProblem, LintRule, QuickFix, TextEdit } from './types';
export { buildLintContext, detectDocumentKind, uriToPath, versionFromImage } from './context';

/** Every rule, in the order their problems are listed at one position. */
export const LINT_RULES: readonly LintRule[] = [
  schemaRule,
  referencesRule,
  snapshotFilesRule,
  settingsRule,
  heartbeatMultipleRule,
  http2GraceRule,
  leasesRule,
  replicaSetsRule,
  emptySnapshotRule,
];

export interface LintResult {
  problems: LintProblem[];
  context: LintContext;
}

/** Runs the rules over a context (for callers that built one, such as the language server). */
export function runRules(ctx: LintContext): LintProblem[] {
  const out: LintProblem[] = [];
  const seen = new Set<string>();
  for (const rule of LINT_RULES) {
    if (!rule.kinds.includes(ctx.kind)) continue;
    let found: LintProblem[];
    try {
      found = rule.run(ctx);
    } catch (e) {
      found = [
        {
          code: 'internal-error',
          severity: 'error',
          message: `lint rule ${rule.id} failed: ${e instanceof Error ? e.message : String(e)}`,
          position: { file: ctx.file, line: 1, column: 1 },
        },
      ];
    }
    for (const p of found) {
      clampToText(ctx, p);
      const key = `${p.code}\u0000${p.message}\u0000${p.position?.file}\u0000${p.position?.offset ?? p.position?.line}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(p);
    }
  }
  return sortProblems(out, ctx.file);
}

/** Keeps a position in the document inside its text (YAML reports errors at the end of input one past it). */
function clampToText(ctx: LintContext, p: LintProblem): void {
  const pos = p.position;
  if (!pos || pos.file !== ctx.file || pos.offset === undefined || !ctx.text) return;
  const len = ctx.text.length;
  const end = pos.endOffset ?? pos.offset;
  if (pos.offset <= len && end <= len) return;
  const s = Math.min(pos.offset, len);
  p.position = ctx.lines.position(ctx.file, s, Math.max(s, Math.min(end, len)));
}

/** The document's own problems first, in text order; then other files', by file and line. */
export function sortProblems<P extends Problem>(problems: P[], file: string): P[] {
  const rank = (p: P) => (p.position?.file === file || !p.position ? 0 : 1);
  return problems
    .map((p, i) => ({ p, i }))
    .sort(
      (a, b) =>
        rank(a.p) - rank(b.p) ||
        (a.p.position?.file ?? '').localeCompare(b.p.position?.file ?? '') ||
        (a.p.position?.line ?? 0) - (b.p.position?.line ?? 0) ||
        (a.p.position?.column ?? 0) - (b.p.position?.column ?? 0) ||
        a.i - b.i,
    )
    .map((x) => x.p);
}

/** Lints a document and returns the context too (hover, completion and the rest read it). */
export function lintDocumentWithContext(uri: string, text: string, kind?: DocumentKind, fs?: InputFs, options: LintOptions = {}): LintResult {
  const file = uriToPath(uri);
  const ctx = buildLintContext(file, text, kind ?? detectDocumentKind(text), fs, options);
  return { problems: runRules(ctx), context: ctx };
}

/**
 * Every problem in one document: a scenario, a kubectl snapshot, a
 * KubeControllerManagerConfiguration or a kube-controller-manager static Pod
 * manifest (`kind` is detected from the text when not given). Files the
 * document names (`snapshot:`, `configFile:`) are read through `fs`, relative
 * to the document. Never throws on bad input.
 */
export function lintDocument(uri: string, text: string, kind?: DocumentKind, fs?: InputFs, options: LintOptions = {}): LintProblem[] {
  return lintDocumentWithContext(uri, text, kind, fs, options).problems;
}

export interface LintFileOptions extends LintOptions {
  /** `--version`: overrides the version the document names */
  versionOverride?: string;
  /** `--set key=value` overrides */
  set?: Record<string, string>;
}

/**
 * The command line's `validate`: the problems of a file (any document kind)
 * or a folder (a snapshot), exactly as the language server reports them for
 * the same text. `--version` / `--set` are applied as `replay` applies them.
 */
export function lintFile(path: string, fs: InputFs, options: LintFileOptions = {}): LintProblem[] {
  const st = fs.stat(path);
  const version = options.versionOverride ?? options.version;
  // a file too big to read whole can only be a snapshot, which the loader streams
  if (!st || st.kind === 'dir' || (st.size > STREAM_FILES_ABOVE && fs.readChunks)) {
    const snapshot = loadSnapshot(path, fs);
    const scenario = scenarioFromSnapshot(snapshot, path);
    const v = (version !== undefined ? parseKubeVersion(version) : undefined) ?? parseKubeVersion(scenario.kubernetesVersion) ?? kubeVersion(MAX_MINOR);
    const ctx: LintContext = {
      file: path,
      text: '',
      kind: 'snapshot',
      lines: new LineIndex(''),
      version: v,
      versionFrom: version ? 'option' : 'assumed',
      scenario,
      resolved: resolveConfig(scenario.controllerManager, scenario.kubelet, v, options.set),
      fs,
    };
    return runRules(ctx);
  }
  let text: string;
  try {
    text = fs.readText(path);
  } catch (e) {
    // as the loader says it (snapshot/load.ts): the command line's validate and the server get a problem, not a throw
    const why = e instanceof Error ? e.message : String(e);
    return [{ code: 'unreadable-file', severity: 'error', message: `${path}: cannot read the file (${why})`, position: { file: path, line: 1, column: 1 } }];
  }
  const kind = detectDocumentKind(text);
  const ctx = buildLintContext(path, text, kind, fs, { version, allowOutside: options.allowOutside, roots: options.roots });
  if (options.versionOverride !== undefined || options.set) {
    const v = (options.versionOverride !== undefined ? parseKubeVersion(options.versionOverride) : undefined) ?? ctx.version;
    ctx.version = v;
    if (options.versionOverride !== undefined) ctx.versionFrom = 'option';
    const input =
      ctx.scenario && kind === 'scenario'
        ? ctx.scenario.controllerManager
        : { settings: {}, featureGates: {}, flags: [], configFile: kind === 'kcm-config' || kind === 'kcm-pod' ? { path, text } : undefined };
    ctx.resolved = resolveConfig(input, ctx.scenario?.kubelet ?? {}, v, options.set);
  }
  const problems = runRules(ctx);
  if (options.versionOverride !== undefined && !parseKubeVersion(options.versionOverride)) {
    problems.unshift({
      code: 'unknown-version',
      severity: 'error',
      message: `--version ${JSON.stringify(options.versionOverride)} is not a supported version (1.12 to 1.${MAX_MINOR})`,
    });
  }
  return problems;
}

/** `file:line:column: severity code: message`, one line a problem (the command line's text output). */
export const formatLintProblem = formatProblem;
