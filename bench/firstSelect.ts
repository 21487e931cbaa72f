/**
 * The first selections after open, click to paint, in Chromium: the real webview bundle fed by the real
 * extension Session (as bench/webview.ts), the scenario opened, stepped to a pass, the host left idle for
 * `--read-ms` (its idle work running meanwhile, as ctx.ts wires it), then a node, a second node, a pod, a
 * second pod, a zone and a ReplicaSet clicked one after another. Each click is timed from its event to the
 * paint after the host's `selection` message (two animation frames), with the host's part beside it.
 *
 *   flock /tmp/cs-bench.lock node --import tsx bench/firstSelect.ts [SCENARIO] [--pass 25] [--read-ms 3000] [--root DIR]
 *
 * `--root DIR`: another checkout's Session, and `--webview-js FILE` its page's bundle: the A side of a pair.
 * `--rs-not-ready`: the ReplicaSet clicked is the first in view with fewer pods ready than desired (its pods
 * on failing nodes: the why-not asks their deletions), not the first in view. `--rs-first`: the ReplicaSet is
 * clicked first, before the nodes, pods and zone (whose whys warm some of its code). `--cpu-profile FILE`: V8's
 * sampling profile of this process (the host) over the ReplicaSet's click. The host's part is given in wall
 * and CPU ms (CPU: every thread of the process, its GC and compiler threads too).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { writeFileSync } from 'node:fs';
import { Session as Inspector } from 'node:inspector';
import type { Page } from 'playwright-core';
import { serveWebview } from '../test/webview/harness/page';
import { harnessArgs } from './sessionHarness';

/**
 * Clicks `sel` and resolves with ms from the click's event to the paint after the selection message of `ref`, and
 * the page's part of it: from that message's arrival to the paint.
 */
const SELECT_AND_PAINT = `window.__selectAndPaint = (sel, ref) => new Promise((resolve) => {
  let t0 = 0;
  let t1 = 0;
  document.addEventListener('click', (e) => (t0 = e.timeStamp), { capture: true, once: true });
  // the arrival, before the page's own listener (a capture listener runs first at the window)
  const arrived = (e) => {
    if (e.data?.type !== 'selection' || e.data.object !== ref) return;
    t1 = performance.now();
    window.removeEventListener('message', arrived, { capture: true });
  };
  window.addEventListener('message', arrived, { capture: true });
  const onMessage = (e) => {
    if (e.data?.type !== 'selection' || e.data.object !== ref) return;
    window.removeEventListener('message', onMessage);
    requestAnimationFrame(() => requestAnimationFrame(() => resolve([performance.now() - t0, performance.now() - t1])));
  };
  window.addEventListener('message', onMessage);
  document.querySelector(sel).click();
});`;
type Armed = { __selectAndPaint(sel: string, ref: string): Promise<[number, number]> };

const hr = (): number => Number(process.hrtime.bigint()) / 1e6;

async function main(): Promise<void> {
  const { flag, file, root } = harnessArgs(process.argv.slice(2));
  const pass = Number(flag('--pass') ?? 25);
  const readMs = Number(flag('--read-ms') ?? 3000);
  const { openScenario } = await import(`${root}/src/extension/openScenario`);
  const { Session } = await import(`${root}/src/extension/session`);
  const { IdlePrepare } = await import(`${root}/src/extension/idlePrepare`);
  const { parseWebviewMessage } = await import(`${root}/src/protocol/webview`);
  // the page from this checkout's media, its script from `--webview-js` (another checkout's build) when given
  const served = await serveWebview({ root: join(__dirname, '..'), prelude: join(__dirname, 'webviewPrelude.ts'), webviewJs: flag('--webview-js') });
  const load = loadavg()[0];
  try {
    const page: Page = await served.browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.setDefaultTimeout(600_000);
    let session: any;
    let queue = Promise.resolve();
    // the idle work as ctx.ts wires it (a checkout before the warm-up: the session's alone)
    const warm = existsSync(`${root}/src/extension/warmSelection.ts`) ? await import(`${root}/src/extension/warmSelection`) : undefined;
    const work = warm ? warm.panelIdleWork(() => session) : (more: () => boolean) => session.idleSlice(more);
    const idle = new IdlePrepare(
      (more: () => boolean) => (session ? work(more) : false),
      () => session?.slices.running ?? true,
    );
    const post = (m: unknown) => {
      idle.arm();
      const text = JSON.stringify(m);
      queue = queue.then(() => page.evaluate((t) => window.postMessage(JSON.parse(t), '*'), text)).catch(() => undefined);
    };
    let hostMs = NaN;
    let hostCpu = NaN;
    await page.exposeFunction('__toHost', (text: string) => {
      const m = parseWebviewMessage(JSON.parse(text));
      if (!m || !session) return;
      const t0 = hr();
      const c0 = process.cpuUsage();
      session.handle(m, { play() {}, pause() {} });
      hostMs = hr() - t0;
      const c = process.cpuUsage(c0);
      hostCpu = (c.user + c.system) / 1000;
    });
    // a string, not a function: tsx's transform would put its helpers into a serialised function
    await page.addInitScript(SELECT_AND_PAINT);
    await page.goto(`${served.origin}/`);
    const opened = openScenario(file, '', { allowOutside: true });
    session = new Session({ make: opened.make, options: opened.options, settings: { collapseNoise: true, playSpeed: 2 }, post });
    session.sendAll();
    await page.evaluate(() => (window as unknown as { __firstPaint: Promise<number> }).__firstPaint);
    session.goToPass(pass);
    await page.locator('#pass', { hasText: String(pass) }).waitFor();
    // reading: the host's idle work runs, as after a paint in the extension
    await new Promise((r) => setTimeout(r, readMs));
    const nodes = await page.locator('#nodes .node[data-ref]').evaluateAll((es) => es.map((e) => (e as HTMLElement).dataset.ref as string));
    const profileTo = flag('--cpu-profile');
    const inspector = profileTo ? new Inspector() : undefined;
    const send = (method: string, params?: object) => new Promise<any>((ok, fail) => inspector?.post(method, params, (e, r) => (e ? fail(e) : ok(r))));
    const click = async (what: string, selector: string, expect: string): Promise<string> => {
      hostMs = NaN;
      const profiled = inspector && what === 'replicaset';
      if (profiled) {
        inspector.connect();
        await send('Profiler.enable');
        await send('Profiler.setSamplingInterval', { interval: 100 });
        await send('Profiler.start');
      }
      const [ms, pageMs] = await page.evaluate(([sel, ref]) => (window as unknown as Armed).__selectAndPaint(sel, ref), [selector, expect] as const);
      if (profiled && profileTo) writeFileSync(profileTo, JSON.stringify((await send('Profiler.stop')).profile));
      // the page's way back to idle: the next click comes after a pause, as a user's does
      await new Promise((r) => setTimeout(r, 300));
      return `${what} ${ms.toFixed(0)} (host ${hostMs.toFixed(1)}, cpu ${hostCpu.toFixed(0)}; page ${pageMs.toFixed(0)})`;
    };
    const out: string[] = [];
    // --rs-not-ready: the first ReplicaSet in view with fewer pods ready than desired (pods on failing nodes)
    const titles = await page.locator('#replicasets .rs[title]').evaluateAll((es) => es.map((e) => (e as HTMLElement).title));
    const notReady = (t: string): boolean => {
      const m = /desired (\d+), current \d+, ready (\d+)/.exec(t);
      return !!m && Number(m[2]) < Number(m[1]);
    };
    const rs = ((process.argv.includes('--rs-not-ready') && titles.find(notReady)) || titles[0]).split(':')[0];
    const rsFirst = process.argv.includes('--rs-first');
    if (rsFirst) out.push(await click('replicaset', `#replicasets .rs[title^="${rs}:"]`, rs));
    const nodeSel = (ref: string) => `#nodes .node[data-ref="${ref}"]`;
    out.push(await click('node', nodeSel(nodes[0]), nodes[0]));
    out.push(await click('node2', nodeSel(nodes[1]), nodes[1]));
    const pods = await page.locator('#pods .pod .name[title]').evaluateAll((es) => es.map((e) => (e as HTMLElement).title));
    out.push(await click('pod', `#pods .pod .name[title="${pods[0]}"]`, pods[0]));
    out.push(await click('pod2', `#pods .pod .name[title="${pods[1]}"]`, pods[1]));
    const zone = (await page.locator('#zones .zone-card').first().getAttribute('data-ref')) as string;
    out.push(await click('zone', `#zones .zone-card[data-ref="${zone}"]`, zone));
    if (!rsFirst) out.push(await click('replicaset', `#replicasets .rs[title^="${rs}:"]`, rs));
    idle.dispose();
    process.stdout.write(`${JSON.stringify({ root, pass, readMs, load: load.toFixed(2), loadEnd: loadavg()[0].toFixed(2), rs, clicks: out.join(', ') })}\n`);
  } finally {
    await served.close();
  }
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
