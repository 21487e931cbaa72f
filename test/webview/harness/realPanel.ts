/**
 * The extension's side of one panel, as Ctx wires it, for the browser suites
 * that run the real host: the extension's Session over the real engine in
 * this process, its messages delivered to the page as VS Code delivers them
 * (JSON, a message event on the webview's window, in order), and the page's
 * messages checked at the edge (parseWebviewMessage) before the Session
 * handles them. Serve the page with `serveWebview({ prelude: false })`.
 */
import { basename } from 'node:path';
import { before, after } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { openScenario, type Opened } from '../../../src/extension/openScenario';
import { serveWebview, type Served } from './page';
import { Session, type SessionResult } from '../../../src/extension/session';
import { parseWebviewMessage, type HostMessage, type WebviewMessage } from '../../../src/protocol/webview';

export interface RealPanelOptions {
  /** what Ctx does with dropped evidence files (the default refuses, as a panel without the extension would) */
  dropEvidence?(uris: string[]): SessionResult;
}

export class RealPanel {
  session?: Session;
  /** what the page posted, after the edge check */
  readonly received: WebviewMessage[] = [];
  /** what the host posted to the page, in order */
  readonly sent: HostMessage[] = [];
  /** the page's uncaught exceptions */
  readonly errors: string[] = [];
  private chain: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly page: Page,
    private readonly o: RealPanelOptions,
  ) {}

  /** Opens a page on `origin` whose host is a Session over `load()`'s scenario, and waits for its first paint. */
  static async open(browser: Browser, origin: string, load: () => Opened, o: RealPanelOptions = {}): Promise<RealPanel> {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(15_000);
    const p = new RealPanel(page, o);
    page.on('pageerror', (e) => p.errors.push(e.message));
    if (process.env.DEBUG_PANEL) page.on('console', (m) => console.log('console:', m.text()));
    await page.exposeBinding('__toHost', (_source, raw: unknown) => p.fromWebview(raw));
    // a string, not a function: the test runner's transform would put helpers into a serialised function
    await page.addInitScript(
      `window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__toHost(JSON.parse(JSON.stringify(m))), getState: () => undefined, setState: () => {} });`,
    );
    p.load(load());
    await page.goto(`${origin}/index.html`);
    await page.locator('#scenario-name', { hasText: p.session?.sim.scenario.name ?? '' }).waitFor();
    await p.settled();
    return p;
  }

  private readonly post = (m: HostMessage): void => {
    const text = JSON.stringify(m);
    this.sent.push(JSON.parse(text) as HostMessage);
    this.chain = this.chain.then(() => this.page.evaluate((t) => window.postMessage(JSON.parse(t), '*'), text)).catch(() => {});
  };

  private load(o: Opened): void {
    this.session = new Session({ make: o.make, options: o.options, settings: { collapseNoise: true, playSpeed: 2 }, post: this.post });
  }

  /** Another scenario into the open panel, as Ctx.openWithProgress does: "loading", then the new session's everything. */
  async openAnother(file: string, load: () => Opened, whileLoading?: () => Promise<void>): Promise<void> {
    this.post({ type: 'loading', name: basename(file) });
    await this.settled();
    if (whileLoading) await whileLoading();
    this.load(load());
    this.session?.sendAll();
    await this.settled();
  }

  /** while held, the page's messages wait here, as they wait in an extension host busy with a long step */
  private held?: WebviewMessage[];

  /** The host takes the page's messages but answers none until `release`. */
  hold(): void {
    this.held ??= [];
  }

  /** The host answers what came while held, in order, and what comes after at once. */
  async release(): Promise<void> {
    const held = this.held ?? [];
    this.held = undefined;
    for (const m of held) this.answer(m);
    await this.settled();
  }

  private fromWebview(raw: unknown): void {
    const m = parseWebviewMessage(raw);
    if (!m || !this.session) return;
    this.received.push(m);
    if (this.held) this.held.push(m);
    else this.answer(m);
  }

  private answer(m: WebviewMessage): void {
    if (!this.session) return;
    const r = this.session.handle(m, { play() {}, pause() {}, dropEvidence: this.o.dropEvidence });
    if (!r.ok) this.post({ type: 'error', message: r.message });
  }

  /** Every host message posted so far has been handled by the page. */
  async settled(): Promise<void> {
    await this.chain;
    await this.page.evaluate(`new Promise((r) => {
      window.addEventListener('message', function h(e) {
        if (e.data !== '__settled') return;
        window.removeEventListener('message', h);
        r();
      });
      window.postMessage('__settled', '*');
    })`);
    await this.chain;
  }

  /** Waits for the clock time HH:MM:SS (the toolbar shows the offset; its title, the clock time), then for the host's messages. */
  async at(time: string): Promise<void> {
    await this.page.locator(`#time[title*="T${time}."]`).waitFor();
    await this.settled();
  }

  async runUntil(text: string): Promise<void> {
    await this.page.locator('#run-until input').fill(text);
    await this.page.locator('#run-until-go').click();
  }

  async text(selector: string): Promise<string> {
    return this.page.locator(selector).innerText();
  }

  /**
   * What a virtual list shows: the text of its rows that reach into its box, its scroll offset and its height. Rows
   * drawn in the margin below the view are not compared: how many the list keeps there depends on whether it shrank
   * before or after its rows were drawn (it does not redraw to drop them), which the user never sees.
   */
  async shownRows(selector: string): Promise<string> {
    return this.page.locator(selector).evaluate((v) => {
      const box = v.getBoundingClientRect();
      const rows = Array.from(v.querySelectorAll<HTMLElement>('[data-ref]')).filter((r) => {
        const b = r.getBoundingClientRect();
        return b.bottom > box.top && b.top < box.bottom;
      });
      const spacer = v.querySelector<HTMLElement>('.spacer');
      return [`top ${v.scrollTop}, height ${spacer?.style.height}`, ...rows.map((r) => r.innerText)].join('\n');
    });
  }

  async close(): Promise<void> {
    await this.page.close();
  }
}

/**
 * A test file's page server (started before its tests, closed after them) and a function that
 * opens a scenario file on it in a RealPanel: what each file that drives the real Session repeated.
 */
export function realPanelsOnServedPage(): (file: string, o?: RealPanelOptions) => Promise<RealPanel> {
  let served: Served | undefined;
  before(async () => {
    served = await serveWebview({ prelude: false });
  });
  after(async () => {
    await served?.close();
  });
  return (file, o) => {
    if (!served) throw new Error('realPanelsOnServedPage: the page is served only while the tests run');
    return RealPanel.open(served.browser, served.origin, () => openScenario(file, ''), o);
  };
}
