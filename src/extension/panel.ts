/**
 * The Controller Stepper webview panel: one per window, showing the current
 * session. Messages from the webview are checked at the edge
 * (parseWebviewMessage) before the session acts on them. The panel can be
 * revived after a reload by the serializer (see ctx.ts).
 */
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import { parseWebviewMessage, type HostMessage } from '../protocol/webview';
import { STYLE_SHEETS, webviewHtml } from './webviewHtml';
import { mark, marking, profileFrom, profileTo } from './hostMarks';

export const PANEL_VIEW_TYPE = 'controllerStepper.panel';

export interface PanelHandler {
  /** a checked message from the webview */
  onMessage(m: NonNullable<ReturnType<typeof parseWebviewMessage>>): void;
  onDispose(): void;
}

export function panelOptions(extensionUri: vscode.Uri): vscode.WebviewOptions & vscode.WebviewPanelOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'out'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

export class StepperPanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private disposed = false;
  /** messages the webview rejected at the edge (kept for the extension-host tests) */
  rejected = 0;
  /** the page said it is ready: a message posted now is read (one posted before it, the page asks again with `ready`) */
  ready = false;
  private readonly readyWaiters: (() => void)[] = [];

  /** `loading`: made for a load under way (webviewHtml's flag) */
  static create(extensionUri: vscode.Uri, title: string, handler: PanelHandler, loading = false): StepperPanel {
    const panel = vscode.window.createWebviewPanel(
      PANEL_VIEW_TYPE,
      title,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      panelOptions(extensionUri),
    );
    return new StepperPanel(panel, extensionUri, handler, loading);
  }

  constructor(
    readonly panel: vscode.WebviewPanel,
    extensionUri: vscode.Uri,
    handler: PanelHandler,
    loading = false,
  ) {
    const webview = panel.webview;
    webview.options = panelOptions(extensionUri);
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon.svg');
    webview.html = webviewHtml({
      cspSource: webview.cspSource,
      nonce: randomBytes(18).toString('base64url'),
      scriptUri: webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'out', 'webview.js')).toString(),
      styleUris: STYLE_SHEETS.map((name) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'css', name)).toString()),
      loading,
    });
    this.disposables.push(
      webview.onDidReceiveMessage((raw: unknown) => {
        const m = parseWebviewMessage(raw);
        if (marking) {
          mark(`taken ${m?.type ?? 'rejected'}${m?.type === 'action' ? ` ${m.action}` : ''}`);
          if (m) profileFrom(m.type, m.type === 'action' ? m.action : undefined);
        }
        if (!m) {
          this.rejected++;
          return;
        }
        if (m.type === 'ready') {
          this.ready = true;
          for (const w of this.readyWaiters.splice(0)) w();
        }
        handler.onMessage(m);
      }),
      panel.onDidDispose(() => {
        this.disposed = true;
        handler.onDispose();
        this.dispose();
      }),
    );
  }

  /** Resolves once the page has said it is ready, or after `ms`. */
  whenReady(ms: number): Promise<void> {
    if (this.ready || this.disposed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.readyWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  get isDisposed(): boolean {
    return this.disposed;
  }

  post(m: HostMessage): void {
    if (marking) mark(`post ${m.type}${m.type === 'update' && m.full ? ' full' : ''}`);
    if (!this.disposed) void this.panel.webview.postMessage(m);
    if (marking) {
      if (m.type === 'update') profileTo();
      mark(`posted ${m.type}: ${JSON.stringify(m).length} chars`);
    }
  }

  reveal(): void {
    if (!this.disposed) this.panel.reveal(undefined, true);
  }

  dispose(): void {
    if (!this.disposed) {
      this.disposed = true;
      this.panel.dispose();
    }
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
