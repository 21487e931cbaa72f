/**
 * Lint problems as LSP diagnostics: the document's own at their exact range;
 * problems in files the document names (its snapshot, its configFile) on the
 * key that names them, with the real location as related information.
 */
import { isMap, isScalar, type Node as YamlNode } from 'yaml';
import type { Diagnostic, DiagnosticSeverity, Range } from 'vscode-languageserver';
import type { LintProblem, QuickFix } from '../../engine/lint';
import { basenamePath } from '../../engine/snapshot/source';
import type { Analysis } from './analyze';
import { pathToUri } from './text';

export const DIAGNOSTIC_SOURCE = 'controller-stepper';

const SEVERITY: Record<LintProblem['severity'], DiagnosticSeverity> = { error: 1, warning: 2, info: 3 };

/** What a diagnostic carries for code actions. */
export interface DiagnosticData {
  fixes?: QuickFix[];
}

export function toDiagnostics(a: Analysis): Diagnostic[] {
  return a.problems.map((p) => toDiagnostic(a, p));
}

export function toDiagnostic(a: Analysis, p: LintProblem): Diagnostic {
  const own = !p.position || p.position.file === a.ctx.file;
  const d: Diagnostic = {
    range: own ? (p.position ? a.lines.rangeOf(p.position) : firstLine(a)) : anchorFor(a, p.position!.file),
    severity: SEVERITY[p.severity],
    code: p.code,
    source: DIAGNOSTIC_SOURCE,
    message: own ? p.message : `${basenamePath(p.position!.file)}:${p.position!.line}:${p.position!.column}: ${p.message}`,
  };
  if (!own) {
    const pos = p.position!;
    const start = { line: pos.line - 1, character: pos.column - 1 };
    d.relatedInformation = [
      {
        location: {
          uri: pathToUri(pos.file),
          range: { start, end: pos.endLine !== undefined && pos.endColumn !== undefined ? { line: pos.endLine - 1, character: pos.endColumn - 1 } : start },
        },
        message: p.message,
      },
    ];
  }
  if (p.fixes?.length && own) d.data = { fixes: p.fixes } satisfies DiagnosticData;
  return d;
}

function firstLine(a: Analysis): Range {
  return { start: { line: 0, character: 0 }, end: { line: 0, character: a.lines.line(0).length } };
}

/** The `configFile:` value for problems in the config file; the `snapshot:`/`objects:` key otherwise. */
function anchorFor(a: Analysis, file: string): Range {
  const doc = a.ctx.document;
  const configPath = a.ctx.scenario?.controllerManager.configFile?.path;
  if (doc && isMap(doc.contents)) {
    if (configPath === file) {
      const cm = doc.get('controllerManager', true);
      const v = isMap(cm) ? (cm.get('configFile', true) as YamlNode | undefined) : undefined;
      if (isScalar(v) && v.range) return a.lines.range(v.range[0], v.range[1]);
    }
    for (const key of ['snapshot', 'objects']) {
      const v = doc.get(key, true) as YamlNode | undefined;
      if (v?.range) {
        const pair = doc.contents.items.find((it) => isScalar(it.key) && it.key.value === key);
        const k = pair?.key as YamlNode | undefined;
        if (k?.range) return a.lines.range(k.range[0], k.range[1]);
      }
    }
  }
  return firstLine(a);
}
