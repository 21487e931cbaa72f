/**
 * The language server process (out/server.js): LSP over IPC or stdio, wired
 * to the pure language service in service/. The same bundle is the worker
 * thread that lints a scenario with its big snapshot in the background.
 */
import { statSync } from 'node:fs';
import { isMainThread } from 'node:worker_threads';
import { createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind, type Diagnostic, type InitializeResult } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { nodeFs } from '../platform/nodeFs';
import type { ServerInitOptions } from '../protocol/lsp';
import { BackgroundDiagnostics, createLanguageService, type LanguageService } from './service';
import { LintWorker, serveLintRequests } from './lintWorker';

if (!isMainThread) serveLintRequests();
else serve();

function serve(): void {
  const connection = createConnection(ProposedFeatures.all);
  const documents = new TextDocuments(TextDocument);
  let service: LanguageService = createLanguageService({ fs: nodeFs() });
  let access: { allowOutside?: boolean; roots?: string[] } = {};
  let defaultVersion: string | undefined;

  const publish = (uri: string, diagnostics: Diagnostic[], version?: number) => void connection.sendDiagnostics({ uri, version, diagnostics });
  const worker = new LintWorker(__filename);
  const background = new BackgroundDiagnostics({
    lint: (job, stamps) => worker.lint(job, stamps),
    names: (files, names) => service.setNames(files, names),
    stamp: (path) => {
      try {
        const s = statSync(path);
        return `${s.size}:${s.mtimeMs}`;
      } catch {
        return undefined;
      }
    },
    done: (uri, text, problems) => {
      const doc = documents.get(uri);
      if (doc && doc.getText() === text) publish(uri, service.toDiagnostics(uri, text, problems), doc.version);
    },
  });

  connection.onInitialize((params): InitializeResult => {
    const init = (params.initializationOptions ?? {}) as ServerInitOptions;
    defaultVersion = init.kubernetesVersion || undefined;
    access = { allowOutside: init.allowOutside, roots: init.roots };
    service = createLanguageService({ fs: nodeFs(), defaultVersion, allowOutside: init.allowOutside, roots: init.roots });
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        completionProvider: { triggerCharacters: [':', ' ', '-', '/', '['] },
        codeLensProvider: { resolveProvider: false },
        definitionProvider: true,
        documentSymbolProvider: true,
        codeActionProvider: { codeActionKinds: ['quickfix'] },
      },
      serverInfo: { name: 'controller-stepper' },
    };
  });

  // A document naming a big snapshot gets its diagnostics from the background run; every other one at once.
  const validate = (doc: TextDocument): void => {
    const uri = doc.uri,
      text = doc.getText();
    const deferred = service.deferred(uri, text);
    if (!deferred.length) return publish(uri, service.diagnostics(uri, text), doc.version);
    const kept = background.request({ uri, text, version: defaultVersion, ...access }, deferred);
    if (kept) publish(uri, service.toDiagnostics(uri, text, kept), doc.version);
  };
  documents.onDidChangeContent((e) => validate(e.document));
  documents.onDidClose((e) => {
    service.close(e.document.uri);
    background.forget(e.document.uri);
    // no open document needs the big snapshot the worker holds parsed
    if (!background.documents) worker.close();
    publish(e.document.uri, []);
  });

  // A snapshot or config file a scenario names changed on disk: check the open documents again
  // (a big snapshot is linted again only when its size or mtime changed).
  connection.onDidChangeWatchedFiles(() => {
    service.filesChanged();
    for (const doc of documents.all()) validate(doc);
  });

  const text = (uri: string): string | undefined => documents.get(uri)?.getText();
  connection.onHover((p) => {
    const t = text(p.textDocument.uri);
    return t === undefined ? null : service.hover(p.textDocument.uri, t, p.position);
  });
  connection.onCompletion((p) => {
    const t = text(p.textDocument.uri);
    return t === undefined ? [] : service.completion(p.textDocument.uri, t, p.position);
  });
  connection.onCodeLens((p) => {
    const t = text(p.textDocument.uri);
    return t === undefined ? [] : service.codeLenses(p.textDocument.uri, t);
  });
  connection.onDefinition((p) => {
    const t = text(p.textDocument.uri);
    return t === undefined ? [] : service.definition(p.textDocument.uri, t, p.position);
  });
  connection.onDocumentSymbol((p) => {
    const t = text(p.textDocument.uri);
    return t === undefined ? [] : service.documentSymbols(p.textDocument.uri, t);
  });
  connection.onCodeAction((p) => {
    const t = text(p.textDocument.uri);
    return t === undefined ? [] : service.codeActions(p.textDocument.uri, t, p.range, p.context.diagnostics);
  });

  documents.listen(connection);
  connection.listen();
}
