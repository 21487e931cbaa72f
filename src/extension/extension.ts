/**
 * The composition root: builds the context and wires commands, tree views,
 * the panel serializer and the language client. Everything registered is
 * disposed with the extension.
 */
import * as vscode from 'vscode';
import { registerScenarioTests, type ScenarioTests } from './scenarioTests';
import { registerCommands } from './commands';
import { Ctx } from './ctx';
import { startLanguageClient } from './languageClient';
import { PANEL_VIEW_TYPE } from './panel';
import { ClusterTree, DecisionsTree } from './trees';
import { watchHost } from './hostMarks';

export const VIEW = { cluster: 'controllerStepper.cluster', decisions: 'controllerStepper.decisions' } as const;

export interface ExtensionApi {
  ctx: Ctx;
  cluster: ClusterTree;
  decisions: DecisionsTree;
  tests: ScenarioTests;
}

export function activate(context: vscode.ExtensionContext): ExtensionApi {
  watchHost();
  const ctx = new Ctx(context.extensionUri);
  const cluster = new ClusterTree(ctx);
  const decisions = new DecisionsTree(ctx);
  const clusterView = vscode.window.createTreeView(VIEW.cluster, { treeDataProvider: cluster, showCollapseAll: true });
  const decisionsView = vscode.window.createTreeView(VIEW.decisions, { treeDataProvider: decisions, showCollapseAll: true });
  const client = startLanguageClient(context);
  const scenarioTests = registerScenarioTests();
  context.subscriptions.push(
    ctx,
    cluster,
    decisions,
    clusterView,
    decisionsView,
    ctx.onDidChange(() => {
      cluster.refresh();
      decisions.refresh();
    }),
    vscode.window.registerWebviewPanelSerializer(PANEL_VIEW_TYPE, ctx.serializer()),
    ...registerCommands(ctx),
    ...(client ? [client] : []),
    ...scenarioTests.disposables,
  );
  // the returned API is for the extension-host tests
  return { ctx, cluster, decisions, tests: scenarioTests.tests };
}

export function deactivate(): void {}
