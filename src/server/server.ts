/**
 * The language server process (out/server.js): LSP over IPC or stdio, wired
 * to the pure language service in service/. Nothing else happens here.
 */
import { createConnection, ProposedFeatures, TextDocuments, TextDocumentSyncKind, type InitializeResult } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { nodeFs } from '../platform/nodeFs';
import type { ServerInitOptions } from '../protocol/lsp';
import { createLanguageService, type LanguageService } from './service';

const connection = createConnection(ProposedFeatures.all);
const documents = new TextDocuments(TextDocument);
let service: LanguageService = createLanguageService({ fs: nodeFs() });

connection.onInitialize((params): InitializeResult => {
  const init = (params.initializationOptions ?? {}) as ServerInitOptions;
  service = createLanguageService({ fs: nodeFs(), defaultVersion: init.kubernetesVersion || undefined });
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

const validate = (doc: TextDocument): void => {
  void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics: service.diagnostics(doc.uri, doc.getText()) });
};
documents.onDidChangeContent((e) => validate(e.document));
documents.onDidClose((e) => {
  service.close(e.document.uri);
  void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
});

// A snapshot or config file a scenario names changed on disk: check the open documents again.
connection.onDidChangeWatchedFiles(() => {
  service.filesChanged();
  for (const doc of documents.all()) validate(doc);
});

const text = (uri: string): string | undefined => documents.get(uri)?.getText();
connection.onHover((p) => { const t = text(p.textDocument.uri); return t === undefined ? null : service.hover(p.textDocument.uri, t, p.position); });
connection.onCompletion((p) => { const t = text(p.textDocument.uri); return t === undefined ? [] : service.completion(p.textDocument.uri, t, p.position); });
connection.onCodeLens((p) => { const t = text(p.textDocument.uri); return t === undefined ? [] : service.codeLenses(p.textDocument.uri, t); });
connection.onDefinition((p) => { const t = text(p.textDocument.uri); return t === undefined ? [] : service.definition(p.textDocument.uri, t, p.position); });
connection.onDocumentSymbol((p) => { const t = text(p.textDocument.uri); return t === undefined ? [] : service.documentSymbols(p.textDocument.uri, t); });
connection.onCodeAction((p) => { const t = text(p.textDocument.uri); return t === undefined ? [] : service.codeActions(p.textDocument.uri, t, p.range, p.context.diagnostics); });

documents.listen(connection);
connection.listen();
