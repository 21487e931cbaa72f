/**
 * What a scenario opened in VS Code may read: the workspace's folders always;
 * snapshot:/configFile: paths outside them and the scenario's own folder tree
 * only in a trusted workspace (a scenario from an untrusted pull request must
 * not read ~/.git-credentials into a diagnostic). The CLI's --allow-outside.
 */
import * as vscode from 'vscode';

export function fileAccess(): { allowOutside: boolean; roots: string[] } {
  return { allowOutside: vscode.workspace.isTrusted, roots: (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath) };
}
