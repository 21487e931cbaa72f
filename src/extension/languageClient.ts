/**
 * The language client (issue 4 item 4): starts the language server
 * (out/server.js, built from src/server/server.ts) in its own process over
 * IPC, for YAML and JSON files: scenarios, kubectl snapshots and
 * kube-controller-manager configs (the server decides per document and stays
 * silent on other YAML/JSON). It also registers the command the server's
 * "Step through" code lens runs. extension.ts calls startLanguageClient once
 * and disposes what it returns.
 */
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';
import { COMMAND } from './commandIds';
import { fileAccess } from './fileAccess';
import { LSP_DOCUMENT_LANGUAGES, OPEN_SCENARIO_COMMAND, type ServerInitOptions } from '../protocol/lsp';

export function startLanguageClient(context: vscode.ExtensionContext): vscode.Disposable | undefined {
  const module = vscode.Uri.joinPath(context.extensionUri, 'out', 'server.js').fsPath;
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const initializationOptions: ServerInitOptions = {
    kubernetesVersion: vscode.workspace.getConfiguration('controllerStepper').get<string>('kubernetesVersion') || undefined,
    ...fileAccess(),
  };
  const watcher = vscode.workspace.createFileSystemWatcher('**/*.{yaml,yml,json}');
  const clientOptions: LanguageClientOptions = {
    documentSelector: LSP_DOCUMENT_LANGUAGES.flatMap((language) => [
      { scheme: 'file', language },
      { scheme: 'untitled', language },
    ]),
    initializationOptions,
    diagnosticCollectionName: 'controller-stepper',
    // scenarios read their snapshot and configFile from disk: tell the server when such files change
    synchronize: { fileEvents: watcher },
  };
  const client = new LanguageClient('controllerStepper', 'Controller Stepper Language Server', serverOptions, clientOptions);
  const command = vscode.commands.registerCommand(OPEN_SCENARIO_COMMAND, (uri?: string | vscode.Uri) => {
    const target = typeof uri === 'string' ? vscode.Uri.parse(uri) : uri;
    return vscode.commands.executeCommand(COMMAND.open, target);
  });
  void client.start().catch((e: unknown) => {
    void vscode.window.showWarningMessage(
      `Controller Stepper: the language server did not start (${e instanceof Error ? e.message : String(e)}); diagnostics and hover are off.`,
    );
  });
  return new vscode.Disposable(() => {
    command.dispose();
    void client.stop().finally(() => watcher.dispose());
  });
}
