/**
 * The language service: pure functions from a document (URI + text) to
 * diagnostics, code actions, hover, completion, code lenses, definitions and
 * symbols. No LSP connection here: src/server/server.ts wires these to one.
 */
import type { CodeAction, CodeLens, CompletionItem, Diagnostic, DocumentSymbol, Hover, Location, Position, Range } from 'vscode-languageserver';
import { Analyzer, type ServiceOptions } from './analyze';
import { codeActions } from './codeActions';
import { codeLenses } from './codeLens';
import { completion } from './completion';
import { definition } from './definition';
import { toDiagnostics } from './diagnostics';
import { hover } from './hover';
import { documentSymbols } from './symbols';
import type { LintProblem } from '../../engine/lint';

export type { ServiceOptions } from './analyze';
export { relevantKind } from './analyze';
export { DIAGNOSTIC_SOURCE } from './diagnostics';
export { BackgroundDiagnostics, type BackgroundLintJob, type SnapshotNames } from './background';
import type { SnapshotNames } from './background';

export interface LanguageService {
  /** the document's problems, with the files it names; the big ones (deferred) are left out: see `deferred` */
  diagnostics(uri: string, text: string): Diagnostic[];
  /** the big files the document names that its quick answers did not read (their diagnostics come from a background run) */
  deferred(uri: string, text: string): string[];
  /** problems found by a full lint of `text` (the background run), as diagnostics of the document */
  toDiagnostics(uri: string, text: string, problems: LintProblem[]): Diagnostic[];
  codeActions(uri: string, text: string, range: Range, diagnostics?: Diagnostic[]): CodeAction[];
  hover(uri: string, text: string, position: Position): Hover | null;
  completion(uri: string, text: string, position: Position): CompletionItem[];
  codeLenses(uri: string, text: string): CodeLens[];
  definition(uri: string, text: string, position: Position): Location[];
  documentSymbols(uri: string, text: string): DocumentSymbol[];
  /**
   * The names in big files the quick answers do not read (from the background run that parsed them):
   * completion offers them. One set is kept, for the files named last.
   */
  setNames(files: readonly string[], names: SnapshotNames): void;
  /** drop what is kept for a closed document */
  close(uri: string): void;
  /** drop everything kept: files on disk changed (a scenario's snapshot or configFile) */
  filesChanged(): void;
}

export function createLanguageService(options: ServiceOptions = {}): LanguageService {
  const analyzer = new Analyzer(options);
  let kept: { files: string; names: SnapshotNames } | undefined;
  const namesFor = (a: { deferred: string[] }): SnapshotNames | undefined =>
    kept && a.deferred.length && kept.files === a.deferred.join('\u0000') ? kept.names : undefined;
  const with_ = <T>(uri: string, text: string, none: T, f: (a: NonNullable<ReturnType<Analyzer['analyze']>>) => T): T => {
    const a = analyzer.analyze(uri, text);
    return a ? f(a) : none;
  };
  return {
    diagnostics: (uri, text) => with_(uri, text, [], toDiagnostics),
    deferred: (uri, text) => with_(uri, text, [], (a) => a.deferred),
    toDiagnostics: (uri, text, problems) => with_(uri, text, [], (a) => toDiagnostics({ ...a, problems })),
    codeActions: (uri, text, range, diagnostics) => with_(uri, text, [], (a) => codeActions(a, range, diagnostics)),
    hover: (uri, text, position) => with_(uri, text, null, (a) => hover(a, position)),
    completion: (uri, text, position) => with_(uri, text, [], (a) => completion(a, position, namesFor(a))),
    codeLenses: (uri, text) => with_(uri, text, [], codeLenses),
    definition: (uri, text, position) => with_(uri, text, [], (a) => definition(a, position)),
    documentSymbols: (uri, text) => with_(uri, text, [], documentSymbols),
    setNames: (files, names) => {
      kept = { files: files.join('\u0000'), names };
    },
    close: (uri) => analyzer.forget(uri),
    filesChanged: () => analyzer.forgetAll(),
  };
}
