/**
 * A running kubelet whose posts come too far apart to keep its node Ready: in a version that
 * heartbeats with Leases, a kubelet that renews no Lease (`kubelet: stop, only: lease`, or a
 * `start, only: status` after a stop) posts an unchanged status only every
 * nodeStatusReportFrequency (5m by default), far beyond nodeMonitorGracePeriod. The controller then
 * sets Ready to Unknown between two posts; the kubelet sees that Unknown and re-posts Ready=True,
 * and the node flaps. "Running: Ready stays as it is" was said for such a node (the hunt with
 * partial kubelet events: one-node-stops with node-a4 `stop only: lease` at +45s said so at +2m40s;
 * its Ready went Unknown at +3m20s, +4m20s, …).
 */
import { formatTime, type Micros } from '../../model/time';
import type { KubeletFacts, WhyNot } from '../../trace/whyNot';
import { probeExpired } from './guards';

/** The monitor passes as the why-not walks them: the first at or after `t` and the first past `deadline` where `guard` holds. */
export interface PassGrid {
  atOrAfter(t: Micros): Micros;
  firstWhere(guard: (t: Micros) => boolean, deadline: Micros): Micros;
}

/** How many posts the walk follows before it takes the kubelet to keep the node up (the pattern repeats well before). */
const POSTS_FOLLOWED = 64;

/**
 * The monitor pass that sets Ready to Unknown although the kubelet runs, from the probe `probe`:
 * the first pass past probe + grace that no post or renewal before it (at its very instant too:
 * the kubelet comes first) moved the probe on from. Each one read moves probeTimestamp to the pass
 * that reads it (tryUpdateNodeHealth). Undefined when its posts and renewals keep the node up.
 */
export function lapseOf(k: KubeletFacts, probe: Micros, grace: number, passes: PassGrid): Micros | undefined {
  let post = k.nextPost;
  let renew = k.nextRenew;
  // a world that tells no schedule (running, nothing more): taken to keep the node up, as before
  if (post === undefined && renew === undefined) return undefined;
  let p = probe;
  for (let i = 0; i < POSTS_FOLLOWED; i++) {
    const at = passes.firstWhere((t) => probeExpired(t, p, grace), p + grace);
    const next = Math.min(post ?? Infinity, renew ?? Infinity);
    if (next > at) return at;
    p = Math.max(p, passes.atOrAfter(next));
    if (post !== undefined && post <= next) post = k.postEvery ? post + k.postEvery : undefined;
    if (renew !== undefined && renew <= next) renew = k.renewEvery ? renew + k.renewEvery : undefined;
    // the probe now stands at or after `next`: a cadence whose next post or renewal comes within the
    // grace period, and every one after it too, moves the probe on before every deadline from here
    if (keepsUp(post, k.postEvery, next, grace) || keepsUp(renew, k.renewEvery, next, grace)) return undefined;
  }
  return undefined;
}

function keepsUp(due: Micros | undefined, every: number | undefined, last: Micros, grace: number): boolean {
  return due !== undefined && every !== undefined && every > 0 && every < grace && due - last < grace;
}

/**
 * The kubelet's re-post after the controller's Unknown at the pass `unknownAt`: at its first
 * status update tick after it (its plain posts fall on those ticks), with Ready as it posts it.
 */
export function repostAfter(k: KubeletFacts, unknownAt: Micros): Micros | undefined {
  if (k.nextPost === undefined || !k.updateEvery) return undefined;
  return k.nextPost + (Math.floor((unknownAt - k.nextPost) / k.updateEvery) + 1) * k.updateEvery;
}

/** When the kubelet next posts Ready=True (its status posts running, a re-post due after someone else's Ready), if it does. */
export function repostOfReady(k: KubeletFacts): Micros | undefined {
  return k.postsReady === 'True' ? k.nextPost : undefined;
}

/** A bound at the pass that reads a node's re-post of Ready (the why-not's readyAgain, masterAhead's end of the mode), where `change` comes: nothing comes before it. */
export function readyAgainBound(back: { node: string; repost: Micros; at: Micros }, change: string): Partial<WhyNot> {
  const at = formatTime(back.at);
  const why = `the kubelet of ${back.node} re-posts Ready=True at ${formatTime(back.repost)}`;
  return { conditional: { if: `${change} at ${at} (${why}), and its zone's rate and queue let it through at once`, at } };
}
