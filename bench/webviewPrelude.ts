/**
 * Loaded before the real webview bundle in the webview bench (bench/webview.ts):
 * acquireVsCodeApi as VS Code provides it, relaying to the real extension
 * Session in node, and the clocks: from an input event's timeStamp to after
 * the next paint (two requestAnimationFrame callbacks after the host's update
 * message was handled).
 */
type W = Window & {
  acquireVsCodeApi(): unknown;
  __toHost(text: string): Promise<void>;
  /** resolves with ms from the next click's event to the paint after the next update message */
  __armClick(): Promise<number>;
  /** of the last click: ms from its event to the update message's arrival in the page, and from there to the paint */
  __split: { toMessage: number; toPaint: number; way?: ArrivalWay };
  /** set by the bench's post (page.evaluate) when it carries an update: when it began, and when its JSON was parsed */
  __evalAt?: { start: number; parsed: number };
  /** resolves with ms from the next keydown's event to the paint after the host's answer to the filter it changes */
  __armKey(): Promise<number>;
  /** resolves with performance.timeOrigin + now at the paint after the first update message (open) */
  __firstPaint: Promise<number>;
};
const w = window as unknown as W;

/** Where the click to the update's arrival went (performance.now() differences, ms). */
interface ArrivalWay {
  /** the click's event to the page's message to the host (the webview's click handler) */
  click: number;
  /** that message to the start of the page.evaluate that carries the update: the binding, the host, the CDP call back */
  hostRoundTrip: number;
  /** the update's JSON.parse in the page */
  parse: number;
  /** parsed to the message event: postMessage's structured clone and the task's wait */
  dispatch: number;
}
/** when the page last posted to the host (performance.now()) */
let postedAt = 0;

w.acquireVsCodeApi = () => ({
  postMessage: (m: unknown) => {
    postedAt = performance.now();
    void w.__toHost(JSON.stringify(m));
  },
  getState: () => undefined,
  setState: () => undefined,
});

const afterPaint = (f: () => void) => requestAnimationFrame(() => requestAnimationFrame(f));
let updateWaiters: (() => void)[] = [];
/** when the update message the waiters wait for arrived (performance.now()) */
let arrived = 0;
// registered before the webview's own listener: the frames are requested before it renders, and run after
window.addEventListener('message', (e: MessageEvent) => {
  if ((e.data as { type?: string } | null)?.type !== 'update' || !updateWaiters.length) return;
  arrived = performance.now();
  // for the bench's Chromium trace: what lies between these two marks is the page's part
  performance.mark('cs:arrived');
  const ws = updateWaiters;
  updateWaiters = [];
  afterPaint(() => {
    performance.mark('cs:painted');
    ws.forEach((f) => f());
  });
});
w.__split = { toMessage: NaN, toPaint: NaN };

// armed before the webview starts: the first update cannot arrive before it
w.__firstPaint = new Promise((resolve) => updateWaiters.push(() => resolve(performance.timeOrigin + performance.now())));

w.__armClick = () =>
  new Promise((resolve) => {
    let t0 = 0;
    document.addEventListener(
      'click',
      (e) => {
        t0 = e.timeStamp;
        postedAt = NaN;
      },
      { capture: true, once: true },
    );
    updateWaiters.push(() => {
      const now = performance.now();
      const ev = w.__evalAt;
      const way = ev && { click: postedAt - t0, hostRoundTrip: ev.start - postedAt, parse: ev.parsed - ev.start, dispatch: arrived - ev.parsed };
      w.__split = { toMessage: arrived - t0, toPaint: now - arrived, way };
      resolve(now - t0);
    });
  });

// the text is inserted and the input event handled in the keydown's task; the host filters the node list and answers
// with the keys it keeps (a `nodes` message), whose handling is painted in the frames requested when it arrives
let keyWaiters: (() => void)[] = [];
window.addEventListener('message', (e: MessageEvent) => {
  if ((e.data as { type?: string } | null)?.type !== 'nodes' || !keyWaiters.length) return;
  const ws = keyWaiters;
  keyWaiters = [];
  afterPaint(() => ws.forEach((f) => f()));
});
w.__armKey = () =>
  new Promise((resolve) => {
    document.addEventListener(
      'keydown',
      (e) => {
        const t0 = e.timeStamp;
        keyWaiters.push(() => resolve(performance.now() - t0));
      },
      { capture: true, once: true },
    );
  });
