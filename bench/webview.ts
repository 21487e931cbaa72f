/**
 * The webview bench: the real webview bundle (out/webview.js) in Debian's
 * chromium through playwright-core, fed by the real extension Session over the
 * real engine on a generated scenario, timed from the user's input event to
 * the paint after the result (two requestAnimationFrame callbacks).
 *
 *   node --import tsx bench/webview.ts '{"scenario": "outage.yaml", "steps": 10, "runs": 3}'
 *
 * (run by `npm run bench -- --webview`). Prints one JSON line: per run, open to
 * first paint and `replay --steps 1` on the same file; quiet steps, outage
 * steps and filter keystrokes click-to-paint; and beside them the host's own
 * part of each step (Session step + update message + JSON), which is not the step time.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { openScenario } from '../src/extension/openScenario';
import { Session } from '../src/extension/session';
import { IdlePrepare } from '../src/extension/idlePrepare';
import { panelIdleWork, panelOwedWork } from '../src/extension/warmSelection';
import { nextPassInSlices } from '../src/extension/aheadAtOpen';
import { serveWebview } from '../test/webview/harness/page';
import { parseWebviewMessage, type HostMessage } from '../src/protocol/webview';
import { pageParts, TRACE_CATEGORIES } from './webviewTrace';
import { mkdirSync, writeFileSync } from 'node:fs';
import { sleep } from './sessionHarness';
import { selectedBackClicks, walkBackClick } from './webviewSelected';

/** the repository: given by bench/webviewRun.ts when this file runs as a bundle from a temp folder */
let root = resolve(__dirname, '..');
const hr = (): number => Number(process.hrtime.bigint()) / 1e6;

/**
 * `CS_HOST_PROFILE=DIR`: a V8 CPU profile of the host (this process: the Session, its engine and idle work) per click,
 * from the click to the paint, written as DIR/NN-ACTION-from-PASS.cpuprofile (what the page's figures leave unexplained:
 * the host's part in the page is more than the same moves in node, bench/startClicks.ts).
 */
const hostProfile = (() => {
  const dir = process.env.CS_HOST_PROFILE;
  let inspector: import('node:inspector').Session | undefined;
  let n = 0;
  const send = (method: string, params?: object) =>
    new Promise<any>((ok, fail) => inspector!.post(method, params, (e: Error | null, r: unknown) => (e ? fail(e) : ok(r))));
  return {
    async start(): Promise<boolean> {
      if (!dir) return false;
      if (!inspector) {
        const { Session: Inspector } = await import('node:inspector');
        mkdirSync(dir, { recursive: true });
        inspector = new Inspector();
        inspector.connect();
        await send('Profiler.enable');
        await send('Profiler.setSamplingInterval', { interval: 200 });
      }
      await send('Profiler.start');
      return true;
    },
    async stop(label: string): Promise<void> {
      const { profile } = await send('Profiler.stop');
      writeFileSync(join(dir!, `${String(++n).padStart(2, '0')}-${label}.cpuprofile`), JSON.stringify(profile));
    },
  };
})();
const progress = (s: string): boolean => process.stderr.write(`${s}\n`);

interface Args {
  scenario: string;
  steps: number;
  runs: number;
  /**
   * the pass from which outage steps are timed (the passes before it are stepped untimed): the pass in which
   * the outage's kubelets stop (60 s, pass 12), so that the timed steps include the pass in which the zone's
   * nodes go Unknown and MarkPodsNotReady updates their pods, the heaviest of the run
   */
  outageFrom?: number;
  /** print where the page spends the outage steps (a V8 CPU profile of the renderer, self time by function) */
  profile?: boolean;
  /** another build of the webview (an unminified one, for profiles) */
  webviewJs?: string;
  /**
   * the outage steps again, each clicked after this many ms of reading (the host idle meanwhile: its
   * idle preparation and run-ahead work), reported beside the quick clicks; 0 or absent: not measured
   */
  readMs?: number;
  /**
   * a file to write Chromium's performance trace of the outage steps and steps back to; the page's part of each
   * (style, layout, paint, script, and how many elements each restyled or laid out) is printed from it
   */
  trace?: string;
  /**
   * the trace without invalidation tracking (which records a stack for every style and layout invalidation, and
   * inflates the script's time several-fold): for the time of each part; the element counts stay
   */
  traceLight?: boolean;
  /** the session without run-ahead (the setting off): for its memory and its steps */
  noRunAhead?: boolean;
  /** the first step (pass 0) clicked this many ms after the open's paint (the host idle meanwhile); 0 or absent: at once */
  firstReadMs?: number;
  /** the open without the run-ahead's first pass in slices after its messages (aheadAtOpen.ts): left to idle time */
  noAheadAtOpen?: boolean;
  root?: string;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** Self time by function of a CPU profile (Profiler.stop's), the largest first. */
function selfTimes(profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }): [string, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const out = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const f = byId.get(id)!.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    out.set(key, (out.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return [...out].sort((a, b) => b[1] - a[1]);
}

/** Inclusive time by function (each function counted once per sample). */
function totalTimes(profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }): [string, number][] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const out = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const f = byId.get(n)!.callFrame;
      const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.set(key, (out.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
    }
  });
  return [...out].sort((a, b) => b[1] - a[1]);
}

async function main(): Promise<void> {
  const a = JSON.parse(process.argv[2] ?? '{}') as Args;
  if (a.root) root = a.root;
  const served = await serveWebview({ root, prelude: join(root, 'bench', 'webviewPrelude.ts'), webviewJs: a.webviewJs });
  const { browser, origin } = served;

  const runs: Record<string, unknown>[] = [];
  try {
    for (let run = 0; run < a.runs; run++) {
      // the reference for open: the command line's first step on the same file, as users run it
      const t0 = hr();
      const cli = spawnSync(
        process.execPath,
        [join(root, 'bin/controller-stepper.js'), 'replay', a.scenario, '--steps', '1', '--output', 'trace', '--format', 'json'],
        { stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 1 << 20 },
      );
      const replayMs = hr() - t0;
      if (cli.status !== 0) throw new Error(`replay --steps 1 failed: ${cli.stderr}`);
      progress(`run ${run + 1}: replay --steps 1 took ${(replayMs / 1000).toFixed(2)} s`);
      runs.push({ replayMs, ...(await oneRun(browser, origin, a)) });
    }
  } finally {
    await served.close();
  }
  process.stdout.write(`${JSON.stringify({ ok: true, runs })}\n`);
}

async function oneRun(browser: import('playwright-core').Browser, origin: string, a: Args): Promise<Record<string, unknown>> {
  const page: Page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(600_000);
  let queue = Promise.resolve();
  const hostMs: number[] = [];
  /** of the host's part: the engine's step, and the JSON of the messages */
  const engineMs: number[] = [],
    jsonMs: number[] = [];
  let stringifyMs = 0;
  const bytes: number[] = [];
  /** the host's part in CPU time (user + system of this process, every thread) */
  const hostCpuMs: number[] = [];
  let session: Session | undefined;
  // as the extension does (ctx.ts): the engine prepares when the panel has been sent nothing for a while
  /** each slice of the idle preparation that ran, in ms (it holds the host: a click then waits up to one slice) */
  const prepared: number[] = [];
  /** each slice of the work the next steps owe (IdlePrepare's `owed`), run in the page's paint after each message */
  const owedSlices: number[] = [];
  const timedSlice =
    (work: (more: () => boolean) => boolean, into: number[]) =>
    (more: () => boolean): boolean => {
      const t = hr();
      const left = session ? work(more) : false;
      into.push(hr() - t);
      return left;
    };
  const idle = new IdlePrepare(
    timedSlice(
      panelIdleWork(() => session!),
      prepared,
    ),
    () => session?.slices.running ?? true,
    undefined,
    undefined,
    timedSlice(
      panelOwedWork(() => session!),
      owedSlices,
    ),
  );
  // VS Code's postMessage serialises the message; so does this, and the page parses it
  const post = (m: HostMessage) => {
    idle.arm();
    const s0 = hr();
    const text = JSON.stringify(m);
    stringifyMs += hr() - s0;
    if (m.type === 'update') bytes.push(text.length);
    queue = queue
      .then(() =>
        page.evaluate((t) => {
          const start = performance.now();
          const parsed = JSON.parse(t) as { type: string };
          if (parsed.type === 'update') (window as { __evalAt?: unknown }).__evalAt = { start, parsed: performance.now() };
          window.postMessage(parsed, '*');
        }, text),
      )
      .catch((e: Error) => {
        progress(`  posting a ${m.type} message (${text.length} characters) failed: ${e.message.split('\n')[0]}`);
      });
  };
  await page.exposeFunction('__toHost', (text: string) => {
    const m = parseWebviewMessage(JSON.parse(text));
    if (!m || !session) return;
    const t0 = hr();
    const c0 = process.cpuUsage();
    stringifyMs = 0;
    // the engine's part: a step, a step back's goToPass, a reset's restore (of the shown simulation, or of the ahead one a
    // step takes over), or a new simulation (Session.make: a reset before this branch)
    const sims = [session.shownPending ? undefined : session.sim, session.ahead.sim].filter((s) => s !== undefined);
    let stepMs = 0;
    // goToPass steps through sim.step: only the outermost call is counted
    let depth = 0;
    const timed =
      <A extends unknown[], R>(f: (...a: A) => R) =>
      (...args: A): R => {
        const s0 = hr();
        depth++;
        try {
          return f(...args);
        } finally {
          if (--depth === 0) stepMs += hr() - s0;
        }
      };
    const own = sims.map((sim) => ({ sim, step: sim.step, goToPass: sim.goToPass, reset: sim.reset }));
    for (const o of own) {
      o.sim.step = timed(o.step.bind(o.sim));
      o.sim.goToPass = timed(o.goToPass.bind(o.sim));
      if (o.reset) o.sim.reset = timed(o.reset.bind(o.sim));
    }
    const make = session.make;
    (session as { make: typeof make }).make = Object.assign(timed(make), make);
    try {
      session.handle(m, { play() {}, pause() {} });
    } finally {
      // the own properties go: the prototype's methods again
      for (const o of own) {
        delete (o.sim as { step?: unknown }).step;
        delete (o.sim as { goToPass?: unknown }).goToPass;
        delete (o.sim as { reset?: unknown }).reset;
      }
      (session as { make: typeof make }).make = make;
    }
    if (m.type === 'action') {
      const c = process.cpuUsage(c0);
      hostCpuMs.push((c.user + c.system) / 1000);
      hostMs.push(hr() - t0);
      engineMs.push(stepMs);
      jsonMs.push(stringifyMs);
    }
  });

  // open: load the scenario, make the session, load the panel, which says ready and is sent everything
  // The panel opens (empty, "loading") while the scenario loads, and is sent everything when it has
  // loaded: the page is loaded first here, and its ready is answered once the session exists.
  const t0 = Date.now();
  await page.goto(`${origin}/`);
  const opened = openScenario(a.scenario, '');
  session = new Session({ make: opened.make, options: opened.options, settings: { collapseNoise: true, playSpeed: 2 }, post, runAhead: !a.noRunAhead });
  const loadedMs = Date.now() - t0;
  const s0 = hr();
  session.sendAll();
  const sendAllMs = hr() - s0;
  // as ctx.ts opens: the run-ahead's first pass in slices once the open's messages are posted, while the page paints
  if (!a.noRunAhead && !a.noAheadAtOpen) nextPassInSlices(session, () => true);
  const paintedAt = await page.evaluate(() => (window as unknown as { __firstPaint: Promise<number> }).__firstPaint);
  const openMs = paintedAt - t0;
  const openBytes = bytes[0];
  progress(
    `  open to first paint ${(openMs / 1000).toFixed(2)} s (loading ${(loadedMs / 1000).toFixed(2)} s, then the host's first messages ${(sendAllMs / 1000).toFixed(2)} s, ${(openBytes / 1048576).toFixed(1)} MiB)`,
  );

  /** per timed click: from the click to the update message's arrival in the page, and from there to the paint */
  const toMessage: number[] = [],
    toPaint: number[] = [];
  /** per timed click, where its way to the update's arrival went (bench/webviewPrelude.ts's ArrivalWay, the host's part apart) */
  const ways: string[] = [];
  const clickOn = async (action: string): Promise<number> => {
    const profiled = await hostProfile.start();
    const r = await page.evaluate((a) => {
      type Way = { click: number; hostRoundTrip: number; parse: number; dispatch: number };
      const w = window as unknown as { __armClick(): Promise<number>; __split: { toMessage: number; toPaint: number; way?: Way } };
      const p = w.__armClick();
      (document.querySelector(`vscode-button[data-action="${a}"]`) as HTMLElement).click();
      return p.then((ms) => ({ ms, ...w.__split }));
    }, action);
    if (profiled) await hostProfile.stop(`${action}-from-${session!.shown.pass ?? 'start'}`);
    toMessage.push(r.toMessage);
    toPaint.push(r.toPaint);
    const host = hostMs.at(-1) ?? NaN;
    const w = r.way;
    ways.push(
      w
        ? `click ${w.click.toFixed(1)}, binding and CDP ${(w.hostRoundTrip - host).toFixed(1)}, host ${host.toFixed(1)}, parse ${w.parse.toFixed(1)}, dispatch ${w.dispatch.toFixed(1)}`
        : '-',
    );
    return r.ms;
  };
  const step = () => clickOn('step');
  // the first pass registers every node (5,000 NodeRegistered decisions): reported apart from the quiet ones
  if (a.firstReadMs) await sleep(a.firstReadMs);
  const aheadAtFirst = session.ahead.sim ? `${session.ahead.sim.pass}${session.ahead.sim.partDone ? '*' : ''}` : '-';
  const firstStep = await step();
  progress(
    `  first step (pass 0) ${firstStep.toFixed(0)} ms${a.firstReadMs ? ` after ${a.firstReadMs} ms of reading` : ''} (host ${hostMs.at(-1)?.toFixed(0)}: engine ${engineMs.at(-1)?.toFixed(0)}); the ahead simulation at the click: ${aheadAtFirst}`,
  );
  hostMs.splice(0);
  engineMs.splice(0);
  jsonMs.splice(0);
  bytes.splice(0);
  const quiet: number[] = [];
  for (let i = 0; i < a.steps; i++) quiet.push(await step());
  progress(
    `  quiet steps ${quiet.map((x) => x.toFixed(0)).join(', ')} ms (host ${hostMs.map((x) => x.toFixed(0)).join(', ')}: engine ${engineMs.map((x) => x.toFixed(0)).join(', ')}, JSON ${jsonMs.map((x) => x.toFixed(0)).join(', ')})`,
  );
  engineMs.splice(0);
  jsonMs.splice(0);
  const quietHost = hostMs.splice(0);
  const quietBytes = bytes.splice(0);
  // on to the outage: its kubelets stop at 60 s, the nodes go Unknown one grace period (40 s, 8 passes) later,
  // in a pass that is stepped by the user like any other: it is timed too (it was not, before: outageFrom was
  // 20 and the generated 1.31 outage's Unknown pass is 19)
  const from = a.outageFrom ?? 12;
  while ((session.sim.pass ?? -1) < from - 1) await step();
  hostMs.splice(0);
  bytes.splice(0);
  toMessage.splice(0);
  toPaint.splice(0);
  const outage: number[] = [];
  ways.splice(0);
  const cdp = a.profile ? await page.context().newCDPSession(page) : undefined;
  if (a.trace)
    await browser.startTracing(page, { categories: a.traceLight ? TRACE_CATEGORIES.filter((c) => !c.endsWith('invalidationTracking')) : TRACE_CATEGORIES });
  if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  // through the grace period and the Unknown pass, then a.steps more
  const outageSteps = a.steps + 10;
  /** where the ahead simulation stood at each quick click (`*` inside an instant), and the idle work in the pause before it */
  const quickAhead: string[] = [];
  const quickIdle: number[] = [];
  /** the owed work's slices in the pause before each quick click (the first, before the outage steps, holds every one since the open) */
  const quickOwed: number[][] = [];
  for (let i = 0; i < outageSteps; i++) {
    const a = session.ahead.sim;
    quickAhead.push(a ? `${a.pass}${a.partDone ? '*' : ''}` : '-');
    quickIdle.push(prepared.splice(0).reduce((x, y) => x + y, 0));
    quickOwed.push(owedSlices.splice(0));
    outage.push(await step());
  }
  if (cdp) {
    const { profile } = (await cdp.send('Profiler.stop')) as unknown as { profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } };
    progress('  self time:');
    for (const [f, t] of selfTimes(profile).slice(0, 25)) progress(`    ${t.toFixed(1).padStart(8)} ms  ${f}`);
    progress('  inclusive time:');
    for (const [f, t] of totalTimes(profile).slice(0, 40)) progress(`    ${t.toFixed(1).padStart(8)} ms  ${f}`);
  }
  progress(
    `  outage steps ${outage.map((x) => x.toFixed(0)).join(', ')} ms (host ${hostMs.map((x) => x.toFixed(0)).join(', ')}: engine ${engineMs
      .slice(-outageSteps)
      .map((x) => x.toFixed(0))
      .join(', ')}, JSON ${jsonMs
      .slice(-outageSteps)
      .map((x) => x.toFixed(0))
      .join(
        ', ',
      )}); ${await page.evaluate(() => document.getElementsByTagName('*').length)} elements in the page, ${await page.evaluate(() => document.querySelectorAll('#decisions li').length)} in the decision log`,
  );
  const ms = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
  const outageToMessage = toMessage.splice(0);
  const outageToPaint = toPaint.splice(0);
  progress(`    of them, click to the update's arrival in the page ${ms(outageToMessage)} ms; then to the paint ${ms(outageToPaint)} ms`);
  progress(`    the way to the arrival, ms: ${ways.splice(0).join('; ')}`);
  progress(`    the ahead simulation at each quick click: passes ${quickAhead.join(', ')}; the idle work in the pause before it ${ms(quickIdle)} ms`);
  progress(
    `    the owed work (the shown simulation's pending checkpoint) in the pause before each quick click ${ms(quickOwed.map((s) => s.reduce((x, y) => x + y, 0)))} ms, its longest slice ${ms(quickOwed.map((s) => Math.max(0, ...s)))} ms`,
  );
  const outageHost = hostMs.splice(0);
  const outageBytes = bytes.splice(0);
  progress(`    the outage steps' update messages ${outageBytes.map((x) => (x / 1024).toFixed(0)).join(', ')} KiB`);

  // step back from the outage's far end: the engine's goToPass (a checkpoint and the passes after it), the view, the paint
  const stepBackClick = () => clickOn('stepBack');
  engineMs.splice(0);
  jsonMs.splice(0);
  hostCpuMs.splice(0);
  const back: number[] = [];
  for (let i = 0; i < a.steps; i++) back.push(await stepBackClick());
  const backHost = hostMs.splice(0);
  const backEngine = engineMs.splice(0);
  const backJson = jsonMs.splice(0);
  const backCpu = hostCpuMs.splice(0);
  const backBytes = bytes.splice(0);
  const backToMessage = toMessage.splice(0);
  const backToPaint = toPaint.splice(0);
  progress(
    `  steps back ${back.map((x) => x.toFixed(0)).join(', ')} ms (host ${backHost.map((x) => x.toFixed(0)).join(', ')}, CPU ${backCpu.map((x) => x.toFixed(0)).join(', ')}: engine ${backEngine.map((x) => x.toFixed(0)).join(', ')}, JSON ${backJson.map((x) => x.toFixed(0)).join(', ')}; ${backBytes.map((x) => (x / 1024).toFixed(0)).join(', ')} KiB)`,
  );
  progress(`    of them, click to the update's arrival in the page ${ms(backToMessage)} ms; then to the paint ${ms(backToPaint)} ms`);
  progress(`    the way to the arrival, ms: ${ways.splice(0).join('; ')}`);
  if (a.trace) {
    const trace = await browser.stopTracing();
    writeFileSync(a.trace, trace);
    progress(`  Chromium's trace of the outage steps and steps back (${a.trace}), the page's part of each (arrival to paint):`);
    for (const line of pageParts(JSON.parse(trace.toString('utf8')))) progress(`    ${line}`);
  }

  // keystrokes in the node filter: narrowing, then widening again
  await page.locator('#node-filter input').click();
  const keys: number[] = [];
  for (const k of ['u', 'n', 'k', 'n', 'Backspace', 'Backspace', 'Backspace', 'Backspace', 'z', 'Backspace']) {
    // armed and awaited before the key is sent: the page has its listener when the keydown comes
    await page.evaluate(() => {
      const w = window as unknown as { __armKey(): Promise<number>; __key?: Promise<number> };
      w.__key = w.__armKey();
    });
    await page.keyboard.press(k);
    const p = page.evaluate(() => (window as unknown as { __key: Promise<number> }).__key);
    const t = await Promise.race([p, new Promise<number>((r) => setTimeout(() => r(NaN), 60_000))]);
    if (Number.isNaN(t))
      throw new Error(
        `the keystroke ${k} in the node filter was not painted within 60 s (focus on ${await page.evaluate(() => document.activeElement?.id ?? document.activeElement?.tagName)})`,
      );
    keys.push(t);
  }
  progress(`  filter keystrokes ${keys.map((x) => x.toFixed(0)).join(', ')} ms`);
  const filtered = await page.evaluate(() => document.querySelectorAll('#nodes .row').length);
  if (!filtered) throw new Error('the node filter left no rows: the keystrokes did not reach it');
  const domRows = await page.evaluate(() => document.querySelectorAll('.viewport .row').length);
  const domElements = await page.evaluate(() => document.getElementsByTagName('*').length);

  // the outage steps again, as a user clicks them: each after reading the pass (the host idle meanwhile)
  const read = a.readMs ? await readSteps(a.readMs) : undefined;
  async function readSteps(readMs: number) {
    session!.goToPass(from - 1);
    await sleep(readMs);
    for (const xs of [hostMs, engineMs, jsonMs, bytes, toMessage, toPaint]) xs.splice(0);
    const clicks: number[] = [];
    /** where the ahead simulation stood at each click (its pass, * inside an instant), and each pause's idle slices */
    const ahead: string[] = [];
    const longestSlice: number[] = [];
    const idleMs: number[] = [];
    for (let i = 0; i < outageSteps; i++) {
      prepared.splice(0);
      await sleep(readMs);
      const sim = session!.ahead.sim;
      ahead.push(sim ? `${sim.pass}${sim.partDone ? '*' : ''}` : '-');
      longestSlice.push(Math.max(0, ...prepared));
      idleMs.push(prepared.reduce((x, y) => x + y, 0));
      clicks.push(await step());
    }
    const r = {
      readMs,
      clicks,
      host: hostMs.splice(0),
      engine: engineMs.splice(0),
      toMessage: toMessage.splice(0),
      toPaint: toPaint.splice(0),
      ahead,
      longestSlice,
      idleMs,
    };
    progress(
      `  outage steps after ${readMs} ms of reading ${ms(r.clicks)} ms (host ${ms(r.host)}: engine ${ms(r.engine)}); the ahead simulation at the click: passes ${ahead.join(', ')}`,
    );
    progress(`    of them, click to the update's arrival in the page ${ms(r.toMessage)} ms; then to the paint ${ms(r.toPaint)} ms`);
    progress(`    the way to the arrival, ms: ${ways.splice(0).join('; ')}`);
    progress(`    each pause's idle work ${ms(idleMs)} ms, its longest slice ${ms(longestSlice)} ms`);
    return r;
  }
  const start = await startClicks();
  const scrub = await scrubClicks(from + outage.indexOf(Math.max(...outage)));
  const selectedBack = await selectedBackClicks({ session, clickOn, hostMs, hostCpuMs, engineMs, toMessage, toPaint, progress }, a.steps);
  const podBack = await selectedBackClicks({ session, clickOn, hostMs, hostCpuMs, engineMs, toMessage, toPaint, progress }, a.steps, true);
  const goTo = async (n: number) => {
    session!.goToPass(n);
    while (session!.slices.running || session!.shown.pass !== n) await sleep(50);
  };
  const walkBack = await walkBackClick({ session, clickOn, hostMs, hostCpuMs, engineMs, toMessage, toPaint, progress, goToPass: goTo });
  /**
   * Back over the outage's Unknown pass and on again, as a user comparing the passes around it: from two passes after
   * it, three Step Backs and three Steps, each clicked at once after the last paint; then the same, each after a second
   * of reading. Main stepped the Unknown pass again on the way forward (the run-ahead too, in idle time).
   */
  async function scrubClicks(unknown: number) {
    const pause = sleep;
    const round = async (readMs: number) => {
      session!.goToPass(unknown + 2);
      while (session!.slices.running || session!.shown.pass !== unknown + 2) await pause(50);
      await pause(1000);
      for (const xs of [hostMs, hostCpuMs, engineMs, jsonMs, bytes, toMessage, toPaint, ways]) xs.splice(0);
      const backs: number[] = [];
      const steps: number[] = [];
      for (let i = 0; i < 3; i++) {
        await pause(readMs);
        backs.push(await clickOn('stepBack'));
      }
      for (let i = 0; i < 3; i++) {
        await pause(readMs);
        steps.push(await clickOn('step'));
      }
      const r = { backs, steps, host: hostMs.splice(0), cpu: hostCpuMs.splice(0), engine: engineMs.splice(0) };
      progress(
        `  back over the Unknown pass (${unknown}) and on again${readMs ? ` after ${readMs} ms of reading each` : ', at once'}: steps back ${ms(backs)}, steps ${ms(steps)} ms (host ${ms(r.host)}, CPU ${ms(r.cpu)}: engine ${ms(r.engine)})`,
      );
      progress(`    of them, click to the update's arrival in the page ${ms(toMessage.splice(0))} ms; then to the paint ${ms(toPaint.splice(0))} ms`);
      return r;
    };
    return { atOnce: await round(0), read: await round(1000) };
  }
  /**
   * Back onto the start, as a user gets there (issue 14): Step Back from pass 0 clicked at once after the step back onto
   * it, the Step after it, Step Back from pass 0 again after a second of reading and the Step after it after a second
   * and a half (the run-ahead's own start restored in idle time meanwhile, runAhead.ts), and Reset from pass 1 and from
   * pass 20, each after a second of reading. Main made a new simulation for each (session.ts reset).
   */
  async function startClicks() {
    const pause = () => sleep(1000);
    const to = async (n: number) => {
      session!.goToPass(n);
      await pause();
    };
    await to(1);
    await clickOn('stepBack');
    for (const xs of [hostMs, hostCpuMs, engineMs, jsonMs, bytes, toMessage, toPaint, ways]) xs.splice(0);
    const backAtOnce = await clickOn('stepBack');
    const stepAfter = await clickOn('step');
    await pause();
    const backRead = await clickOn('stepBack');
    await pause();
    await sleep(500);
    const stepRead = await clickOn('step');
    await to(1);
    const resetNear = await clickOn('reset');
    await to(20);
    const resetFar = await clickOn('reset');
    const r = {
      backAtOnce,
      stepAfter,
      backRead,
      stepRead,
      resetNear,
      resetFar,
      host: hostMs.splice(0),
      cpu: hostCpuMs.splice(0),
      engine: engineMs.splice(0),
      bytes: bytes.splice(0),
    };
    progress(
      `  onto the start: Step Back from pass 0 at once ${backAtOnce.toFixed(0)} ms, the Step after it ${stepAfter.toFixed(0)}, Step Back from pass 0 after reading ${backRead.toFixed(0)}, the Step after it after reading ${stepRead.toFixed(0)}, Reset from pass 1 ${resetNear.toFixed(0)}, from pass 20 ${resetFar.toFixed(0)} (host ${ms(r.host)}, CPU ${ms(r.cpu)}: engine ${ms(r.engine)}; ${r.bytes.map((x) => (x / 1024).toFixed(0)).join(', ')} KiB)`,
    );
    progress(`    of them, click to the update's arrival in the page ${ms(toMessage.splice(0))} ms; then to the paint ${ms(toPaint.splice(0))} ms`);
    ways.splice(0);
    return r;
  }
  // the host's peak resident memory (KiB on Linux; the open's parse makes it), and what it holds after the
  // steps (both simulations, unless run-ahead is off), after a full collection
  const peakRssMiB = process.resourceUsage().maxRSS / 1024;
  (globalThis as { gc?: () => void }).gc?.();
  const heldMiB = process.memoryUsage();
  const rssEndMiB = heldMiB.rss / 1048576;
  const heapEndMiB = heldMiB.heapUsed / 1048576;
  progress(
    `  the host's peak RSS ${peakRssMiB.toFixed(0)} MiB; after the steps and a full GC: RSS ${rssEndMiB.toFixed(0)} MiB, heap ${heapEndMiB.toFixed(0)} MiB (run-ahead ${a.noRunAhead ? 'off' : 'on'})`,
  );
  idle.dispose();
  await page.close();
  return {
    loadedMs,
    sendAllMs,
    openMs,
    openBytes,
    firstStep,
    pass: session.sim.pass,
    quiet,
    quietHost,
    quietBytes,
    outage,
    outageHost,
    outageBytes,
    outageToMessage,
    outageToPaint,
    back,
    backHost,
    backEngine,
    backCpu,
    backToMessage,
    backToPaint,
    keys,
    domRows,
    domElements,
    read,
    start,
    scrub,
    selectedBack,
    podBack,
    walkBack,
    peakRssMiB,
    rssEndMiB,
    heapEndMiB,
  };
}

main().catch((e) => {
  process.stdout.write(`${JSON.stringify({ ok: false, error: (e as Error).stack ?? String(e) })}\n`);
  process.exitCode = 1;
});
