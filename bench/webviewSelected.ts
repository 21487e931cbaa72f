/**
 * The webview bench's "step back with a tainted node selected" (issue 14's done-when: run to the outage, select a tainted
 * node, read why its pods go): after Run Until 5m, the first node tainted NoExecute (by name) is selected, and after
 * a second of reading the Step Back is clicked `steps` times, each at once after the last paint. The selection's why, its
 * machine and its pods are made anew by every step back (Session.selectionMessage). With `pod`, the node's first pod is selected
 * after it, as the code-server walk does (the pod row). The bench's last rows: the selection stays.
 */
import type { Session } from '../src/extension/session';
import { sleep } from './sessionHarness';

export interface SelectedBackContext {
  session: Session;
  /** clicks the panel's button of this action and resolves with the click-to-paint ms */
  clickOn(action: string): Promise<number>;
  /** the per-click figures the bench keeps (the host's part, its CPU, the engine's share), emptied here first */
  hostMs: number[];
  hostCpuMs: number[];
  engineMs: number[];
  toMessage: number[];
  toPaint: number[];
  progress(line: string): void;
}

/** `pod`: the tainted node's first pod selected after it (the walk's last selection: its why asks the ReplicaSet controller and the binder) */
export async function selectedBackClicks(c: SelectedBackContext, steps: number, pod = false) {
  const { session } = c;
  // Run Until 5m, as the code-server walk and issue 14's done-when: the restore's rest there is the dear one (the ReplicaSet
  // controller's take-over after the evictions' countdowns began), not at the outage's first passes
  const run = session.runUntil('5m');
  if (!run.ok) throw new Error(run.message);
  if (run.pending) await session.finishLong({ isCancellationRequested: false });
  while (session.slices.running) await sleep(50);
  const from = session.shown.pass;
  await sleep(1000);
  const names = [...(session.sim.cluster?.nodes.values() ?? [])]
    .filter((n) => n.taints.some((t) => t.effect === 'NoExecute'))
    .map((n) => n.meta.name)
    .sort();
  if (!names.length) throw new Error(`no node is tainted NoExecute at pass ${from}`);
  const node = `Node/${names[0]}`;
  const podRef = pod
    ? session
        .podsOn(names[0])
        .map((p) => p.ref)
        .sort()[0]
    : undefined;
  if (pod && podRef === undefined) throw new Error(`${node} has no pod at pass ${from}`);
  for (const ref of podRef !== undefined ? [node, podRef] : [node]) {
    const selected = session.selectObject(ref);
    if (!selected.ok) throw new Error(selected.message);
    await sleep(1000);
  }
  for (const xs of [c.hostMs, c.hostCpuMs, c.engineMs, c.toMessage, c.toPaint]) xs.splice(0);
  const backs: number[] = [];
  for (let i = 0; i < steps; i++) backs.push(await c.clickOn('stepBack'));
  const ms = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
  const r = { node: podRef ?? node, backs, host: c.hostMs.splice(0), cpu: c.hostCpuMs.splice(0), engine: c.engineMs.splice(0) };
  const what = podRef !== undefined ? `the tainted ${node}'s pod ${podRef}` : `the tainted ${node}`;
  c.progress(`  steps back with ${what} selected (from pass ${from}, at once) ${ms(backs)} ms (host ${ms(r.host)}, CPU ${ms(r.cpu)}: engine ${ms(r.engine)})`);
  c.progress(`    of them, click to the update's arrival in the page ${ms(c.toMessage.splice(0))} ms; then to the paint ${ms(c.toPaint.splice(0))} ms`);
  return r;
}

/**
 * The code-server walk's step back, in its order and at its pace (test/e2e/walk.e2e.mjs, issue 14's done-when as a new
 * user meets it): from pass 25 (the walk steps there from 1m35s), Run Until 5m, then as soon as the answer is painted the
 * node filter typed ("us-east-1b", then "NoExecute"), the first tainted node selected, its first pod, and the Step Back
 * about a second later (the outage zone's queue open, as the walk left it): the pauses are the walk's own at load 2–3 (its clicks' clock readings). The rows above select
 * after a Run Until of 5 passes and three seconds of rest; the walk's click comes while the idle work after a Run Until of
 * 35 passes (the run-ahead's catch-up, its view's alignment, the next pass prepared) is still under way.
 */
export async function walkBackClick(c: SelectedBackContext & { goToPass(n: number): Promise<void> }) {
  const { session } = c;
  await c.goToPass(25);
  // the walk opened the outage zone's queue at 1m35s and left it open: every update carries its names (1,650 at 5 minutes)
  session.zoneQueue('Zone/us-east-1/us-east-1b', true);
  await sleep(3000);
  const run = session.runUntil('5m');
  if (!run.ok) throw new Error(run.message);
  if (run.pending) await session.finishLong({ isCancellationRequested: false });
  while (session.slices.running) await sleep(10);
  const from = session.shown.pass;
  for (const text of ['us-east-1b', 'NoExecute']) {
    await sleep(300);
    session.nodeFilter(text);
  }
  const names = [...(session.sim.cluster?.nodes.values() ?? [])]
    .filter((n) => n.taints.some((t) => t.effect === 'NoExecute'))
    .map((n) => n.meta.name)
    .sort();
  if (!names.length) throw new Error(`no node is tainted NoExecute at pass ${from}`);
  await sleep(300);
  const node = `Node/${names[0]}`;
  if (!session.selectObject(node).ok) throw new Error(`${node} not selected`);
  await sleep(400);
  const podRef = session
    .podsOn(names[0])
    .map((p) => p.ref)
    .sort()[0];
  if (podRef === undefined || !session.selectObject(podRef).ok) throw new Error(`${node}'s pod not selected`);
  await sleep(1000);
  for (const xs of [c.hostMs, c.hostCpuMs, c.engineMs, c.toMessage, c.toPaint]) xs.splice(0);
  const back = await c.clickOn('stepBack');
  const ms = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
  const r = { node: podRef, back, host: c.hostMs.splice(0), cpu: c.hostCpuMs.splice(0), engine: c.engineMs.splice(0) };
  c.progress(
    `  the walk's step back (Run Until 5m from pass 25, filter, ${node}, its pod ${podRef}): ${back.toFixed(0)} ms (host ${ms(r.host)}, CPU ${ms(r.cpu)}: engine ${ms(r.engine)})`,
  );
  c.progress(`    of it, click to the update's arrival in the page ${ms(c.toMessage.splice(0))} ms; then to the paint ${ms(c.toPaint.splice(0))} ms`);
  return r;
}
