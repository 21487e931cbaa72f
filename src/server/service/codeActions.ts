/** Quick fixes: the lint problems' fixes as code actions over the diagnostics in the request. */
import type { CodeAction, Diagnostic, Range, TextEdit } from 'vscode-languageserver';
import type { QuickFix } from '../../engine/lint';
import type { Analysis } from './analyze';
import { toDiagnostics, type DiagnosticData } from './diagnostics';

const overlaps = (a: Range, b: Range): boolean =>
  !(
    a.end.line < b.start.line ||
    (a.end.line === b.start.line && a.end.character < b.start.character) ||
    b.end.line < a.start.line ||
    (b.end.line === a.start.line && b.end.character < a.start.character)
  );

const sameRange = (a: Range, b: Range): boolean =>
  a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;

export function codeActions(a: Analysis, range: Range, context: Diagnostic[] = []): CodeAction[] {
  // The diagnostics the client sent (with their data), else ours at the range.
  const mine = toDiagnostics(a);
  const asked = context.length ? context : mine.filter((d) => overlaps(d.range, range));
  const out: CodeAction[] = [];
  for (const d of asked) {
    let fixes = (d.data as DiagnosticData | undefined)?.fixes;
    if (!fixes) fixes = (mine.find((m) => m.code === d.code && sameRange(m.range, d.range))?.data as DiagnosticData | undefined)?.fixes;
    for (const f of fixes ?? []) out.push(toAction(a, f, d));
  }
  return out;
}

function toAction(a: Analysis, f: QuickFix, d: Diagnostic): CodeAction {
  const edits: TextEdit[] = f.edits.map((e) => ({ range: a.lines.range(e.offset, e.endOffset), newText: e.newText }));
  return { title: f.title, kind: 'quickfix', diagnostics: [d], isPreferred: f.preferred ?? false, edit: { changes: { [a.uri]: edits } } };
}
