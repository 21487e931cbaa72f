/**
 * A host that answers nothing, as the extension host while a load holds it: the page's messages are kept in
 * `window.posted`, and only what the test posts reaches the page.
 */
declare global {
  interface Window {
    posted: unknown[];
    acquireVsCodeApi(): { postMessage(m: unknown): void; getState(): unknown; setState(s: unknown): void };
  }
}

window.posted = [];
window.acquireVsCodeApi = () => ({
  postMessage: (m: unknown) => void window.posted.push(m),
  getState: () => undefined,
  setState: () => undefined,
});

export {};
