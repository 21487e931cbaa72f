/**
 * The tree views of the activity-bar container: Cluster (zones → nodes →
 * pods, with state icons) and Decisions (by pass). Selecting an item selects
 * it in the panel. Children are computed lazily, so 5,000 nodes cost nothing
 * until a zone is expanded.
 */
import * as vscode from 'vscode';
import type { Decision } from '../engine';
import type { NodeItem, PodItem } from '../protocol/webview';
import type { Ctx } from './ctx';
import { COMMAND } from './commandIds';
import { decisionTreeText } from './decisionText';
import { decisionsIn, isCurrentPass, nodesIn, passesOf, podsOf, zoneOf, zonesOf } from './treeData';

export type ClusterElement = { kind: 'zone'; zone: string } | { kind: 'node'; node: NodeItem } | { kind: 'pod'; pod: PodItem };

const readyIcon: Record<string, vscode.ThemeIcon> = {
  True: new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  False: new vscode.ThemeIcon('error', new vscode.ThemeColor('testing.iconFailed')),
  Unknown: new vscode.ThemeIcon('question', new vscode.ThemeColor('editorWarning.foreground')),
  None: new vscode.ThemeIcon('circle-outline'),
};
const zoneIcon: Record<string, vscode.ThemeIcon> = {
  Initial: new vscode.ThemeIcon('circle-outline'),
  Normal: new vscode.ThemeIcon('pass'),
  PartialDisruption: new vscode.ThemeIcon('warning', new vscode.ThemeColor('editorWarning.foreground')),
  FullDisruption: new vscode.ThemeIcon('error', new vscode.ThemeColor('editorError.foreground')),
};

export class ClusterTree implements vscode.TreeDataProvider<ClusterElement> {
  private readonly emitter = new vscode.EventEmitter<ClusterElement | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(private readonly ctx: Ctx) {}

  refresh(): void {
    this.emitter.fire(undefined);
  }

  getChildren(e?: ClusterElement): ClusterElement[] | Promise<ClusterElement[]> {
    const s = this.ctx.session;
    if (!s) return [];
    // the nodes and one node's pods: the pods' items that wait (Session.podsOn) are not all made on every refresh
    if (!e) return zonesOf(s).map((zone) => ({ kind: 'zone', zone }));
    if (e.kind === 'zone') return nodesIn(s, e.zone).map((node) => ({ kind: 'node', node }));
    if (e.kind === 'node') {
      const pods = podsOf(s, e.node.name);
      const elements = (ps: PodItem[]): ClusterElement[] => ps.map((pod) => ({ kind: 'pod', pod }));
      return Array.isArray(pods) ? elements(pods) : pods.then(elements);
    }
    return [];
  }

  getTreeItem(e: ClusterElement): vscode.TreeItem {
    const s = this.ctx.session;
    if (e.kind === 'zone') {
      const z = s && zoneOf(s, e.zone);
      const item = new vscode.TreeItem(e.zone, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = e.zone;
      item.description = z ? `${z.state} · ${z.nodes} nodes · ${z.notReady} not ready · ${z.evictionRate}/s` : '';
      item.iconPath = zoneIcon[z?.state ?? 'Initial'];
      item.contextValue = 'zone';
      item.command = { command: COMMAND.selectObject, title: 'Select', arguments: [e.zone] };
      return item;
    }
    if (e.kind === 'node') {
      const n = e.node;
      const item = new vscode.TreeItem(n.name, vscode.TreeItemCollapsibleState.Collapsed);
      item.id = n.ref;
      item.description = [`Ready ${n.ready}`, ...n.taints].join(' · ');
      item.tooltip = `${n.ref}\nReady: ${n.ready}\n${n.taints.join('\n')}`;
      item.iconPath = readyIcon[n.ready] ?? readyIcon.None;
      item.contextValue = 'node';
      item.command = { command: COMMAND.selectObject, title: 'Select', arguments: [n.ref] };
      return item;
    }
    const p = e.pod;
    const item = new vscode.TreeItem(p.ref.replace(/^Pod\//, ''), vscode.TreeItemCollapsibleState.None);
    item.id = p.ref;
    item.description = `${p.phase}${p.ready ? ' · ready' : ''}${p.evictionAt ? ` · evicted at ${p.evictionAt}` : ''}`;
    item.iconPath = new vscode.ThemeIcon(p.evictionAt ? 'clock' : 'symbol-method');
    item.contextValue = 'pod';
    item.command = { command: COMMAND.selectObject, title: 'Select', arguments: [p.ref] };
    return item;
  }

  getParent(e: ClusterElement): ClusterElement | undefined {
    const nodes = this.ctx.session?.nodeItems;
    if (e.kind === 'node') return { kind: 'zone', zone: e.node.zone };
    if (e.kind === 'pod') {
      const n = nodes?.get(`Node/${e.pod.node}`);
      return n ? { kind: 'node', node: n } : undefined;
    }
    return undefined;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}

export type DecisionElement = { kind: 'pass'; pass: number; count: number } | { kind: 'decision'; decision: Decision };

export class DecisionsTree implements vscode.TreeDataProvider<DecisionElement> {
  private readonly emitter = new vscode.EventEmitter<DecisionElement | undefined>();
  readonly onDidChangeTreeData = this.emitter.event;

  constructor(private readonly ctx: Ctx) {}

  refresh(): void {
    this.emitter.fire(undefined);
  }

  /** The whole run (not only up to the current position): jumping back to a pass keeps the later ones in view. */
  getChildren(e?: DecisionElement): DecisionElement[] {
    const s = this.ctx.session;
    if (!s) return [];
    const noise = !this.ctx.config.collapseNoise;
    if (!e) return passesOf(s, noise).map(({ pass, count }) => ({ kind: 'pass', pass, count }));
    if (e.kind === 'pass') return decisionsIn(s, e.pass, noise).map((decision) => ({ kind: 'decision', decision }));
    return [];
  }

  getTreeItem(e: DecisionElement): vscode.TreeItem {
    if (e.kind === 'pass') {
      const s = this.ctx.session;
      const current = s !== undefined && isCurrentPass(s, e.pass);
      const item = new vscode.TreeItem(`Pass ${e.pass}`, current ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `pass/${e.pass}`;
      item.description = `${e.count} decision${e.count === 1 ? '' : 's'}${current ? ' · current' : ''}`;
      item.iconPath = current ? new vscode.ThemeIcon('debug-stackframe-focused', new vscode.ThemeColor('debugIcon.startForeground')) : undefined;
      item.contextValue = 'pass';
      item.command = { command: COMMAND.goToPass, title: 'Go to pass', arguments: [e.pass] };
      return item;
    }
    const d = e.decision;
    const item = new vscode.TreeItem(`${d.action} ${d.object}`, vscode.TreeItemCollapsibleState.None);
    item.id = `seq/${d.seq}`;
    Object.assign(item, decisionTreeText(d, (this.ctx.session?.startTime ?? NaN) / 1000));
    item.iconPath = new vscode.ThemeIcon(d.controller === 'world' ? 'globe' : 'debug-breakpoint-log');
    item.contextValue = 'decision';
    item.command = { command: COMMAND.selectDecision, title: 'Show why', arguments: [d.seq] };
    return item;
  }

  dispose(): void {
    this.emitter.dispose();
  }
}
