/**
 * The webview's entry point: the only file that calls acquireVsCodeApi. Wires
 * the host's messages to the app and the app's messages to the host.
 */
import { App } from './app';
import { registerToolkit } from './toolkit';
import type { HostMessage, WebviewMessage, WebviewPersistedState } from '../protocol/webview';

interface VsCodeApi {
  postMessage(m: WebviewMessage): void;
  getState(): unknown;
  setState(s: WebviewPersistedState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

registerToolkit();
const vscode = acquireVsCodeApi();
const app = new App(document.getElementById('app') ?? document.body, {
  post: (m) => vscode.postMessage(m),
  saveState: (s) => vscode.setState(s),
});
window.addEventListener('message', (e: MessageEvent) => {
  const m = e.data as HostMessage;
  if (!(m && typeof m === 'object' && typeof m.type === 'string')) return;
  app.receive(m);
  // after the paint of a full update (an open), the host makes what that paint did not need (the pods' items)
  if (m.type === 'update' && m.full) requestAnimationFrame(() => requestAnimationFrame(() => vscode.postMessage({ type: 'painted' })));
});
window.addEventListener('keydown', (e) => app.key(e));
vscode.postMessage({ type: 'ready' });
