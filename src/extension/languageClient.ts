/**
 * Where the language client starts (issue 4 item 4). The language server
 * (src/server/) is built separately; until it lands nothing is started here
 * and the extension works without diagnostics. The client, when written,
 * belongs in this file only: extension.ts calls startLanguageClient once and
 * disposes what it returns.
 */
import type * as vscode from 'vscode';

export function startLanguageClient(_context: vscode.ExtensionContext): vscode.Disposable | undefined {
  return undefined;
}
