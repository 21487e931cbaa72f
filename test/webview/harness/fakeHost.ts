/**
 * The browser harness's host: the extension's own Session (the same typed
 * protocol, the same edge validator) over the scripted FakeSimulation, in the
 * page instead of an extension host. Bundled by the browser test and loaded
 * before out/webview.js; it provides acquireVsCodeApi as VS Code does.
 */
import { Session } from '../../../src/extension/session';
import { parseWebviewMessage, type WebviewMessage } from '../../../src/protocol/webview';
import { FakeSimulation, HOSTILE_NAMES, PLAIN_NAMES } from '../../extension/fakeSimulation';

declare global {
  interface Window {
    acquireVsCodeApi(): { postMessage(m: unknown): void; getState(): unknown; setState(s: unknown): void };
    harness: {
      received: WebviewMessage[];
      rejected: unknown[];
      state: unknown;
      session: Session;
      sent: { type: string; bytes: number; nodes?: number; posted?: boolean }[];
    };
  }
}

const hostile = location.hash === '#hostile';
const names = hostile ? HOSTILE_NAMES : PLAIN_NAMES;
const extraNodes = location.hash === '#big' ? 5000 : 0;
// posted: on the page's window, after which a message the test posts is delivered after it
const sent: { type: string; bytes: number; nodes?: number; posted?: boolean }[] = [];
const session = new Session({
  make: (o) => new FakeSimulation(names, o, extraNodes),
  settings: { collapseNoise: true, playSpeed: 4 },
  // as VS Code delivers host messages: a message event on the webview's window, JSON-serialised
  post: (m) => {
    const text = JSON.stringify(m);
    const record: (typeof sent)[number] = { type: m.type, bytes: text.length, ...(m.type === 'update' ? { nodes: m.nodes.items.length } : {}) };
    sent.push(record);
    setTimeout(() => {
      window.postMessage(JSON.parse(text), '*');
      record.posted = true;
    }, 0);
  },
});
let timer: ReturnType<typeof setInterval> | undefined;
const actions = {
  play() {
    if (timer) return;
    timer = setInterval(() => session.step(), 250);
    session.post({ type: 'playing', playing: true });
  },
  pause() {
    if (timer) clearInterval(timer);
    timer = undefined;
    session.post({ type: 'playing', playing: false });
  },
};
window.harness = { received: [], rejected: [], state: undefined, session, sent };
let acquired = false;
window.acquireVsCodeApi = () => {
  if (acquired) throw new Error('acquireVsCodeApi called twice');
  acquired = true;
  return {
    postMessage(raw: unknown) {
      const m = parseWebviewMessage(JSON.parse(JSON.stringify(raw)));
      if (!m) {
        window.harness.rejected.push(raw);
        return;
      }
      window.harness.received.push(m);
      setTimeout(() => {
        const r = session.handle(m, actions);
        if (!r.ok) session.post({ type: 'error', message: r.message });
      }, 0);
    },
    getState: () => window.harness.state,
    setState: (s: unknown) => {
      window.harness.state = s;
    },
  };
};
