/** How views talk to the extension host: typed messages only. */
import type { WebviewMessage, WebviewPersistedState } from '../protocol/webview';

export interface Host {
  post(m: WebviewMessage): void;
  saveState(s: WebviewPersistedState): void;
}
