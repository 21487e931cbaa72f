/**
 * The rounds of kubelets that post too seldom (kubeletLapse.ts), followed ahead: each goes Unknown at a pass past its
 * probe + grace, re-posts Ready=True at its next status update tick, is read Ready again by the pass at or after that,
 * and goes Unknown again at the first pass past that read + grace (its re-post restarts its report cadence, so its next
 * plain post comes a whole period after the re-post). masterAhead.ts asks whether, from the instant the other nodes are
 * all down, the lapsing ones are ever down together by a time named: the mode begins only then (all-zones-down,
 * HUNT_PARTIAL seed 1063: node-a6 and node-a3, started `only: status` at +45s and +3m, flap out of step and are never
 * down together after +3m; a pod's deletion at +7m55s came then, while the reader, following one round, said no time).
 */
import type { Micros } from '../model/time';
import type { KubeletFacts } from '../trace/whyNot';
import { repostAfter } from '../controllers/nodeLifecycle/kubeletLapse';

/** A node whose kubelet posts too seldom: its next Unknown pass, or down now with its re-post of Ready to come. */
export interface Lapsing {
  node: string;
  k: KubeletFacts;
  /** the pass that sets it Unknown next; -Infinity when it is down now (its re-post comes at `k.nextPost`) */
  unknownAt: Micros;
}

/** How many rounds per node are followed before the answer is taken as unknown (a named time is minutes away). */
const ROUNDS = 256;

/**
 * The first pass in [from, until] at which every lapsing node is down, undefined when there is none, or null when the
 * rounds cannot be followed (no re-post of Ready to read, no pass known, a plain post that could come before a lapse).
 */
export function firstAllDown(
  lapsing: readonly Lapsing[],
  from: Micros,
  until: Micros,
  grace: number,
  passAtOrAfter: (t: Micros) => Micros | undefined,
): Micros | undefined | null {
  const downs: [Micros, Micros][][] = [];
  for (const l of lapsing) {
    const rounds = roundsOf(l, until, grace, passAtOrAfter);
    if (rounds === null) return null;
    downs.push(rounds);
  }
  const starts = [from, ...downs.flatMap((d) => d.map(([start]) => start)).filter((t) => t > from && t <= until)].sort((a, b) => a - b);
  return starts.find((t) => t <= until && downs.every((d) => d.some(([start, end]) => start <= t && t < end)));
}

/** The node's down spans [Unknown, read Ready again) that begin by `until`; null when they cannot be followed. */
function roundsOf(l: Lapsing, until: Micros, grace: number, passAtOrAfter: (t: Micros) => Micros | undefined): [Micros, Micros][] | null {
  const { k } = l;
  const out: [Micros, Micros][] = [];
  let down = l.unknownAt;
  let repost = down === -Infinity ? k.nextPost : repostAfter(k, down);
  for (let i = 0; i < ROUNDS; i++) {
    if (k.postsReady !== 'True' || repost === undefined || !k.postEvery) {
      out.push([down, Infinity]);
      return out;
    }
    const read = passAtOrAfter(repost);
    if (read === undefined) return null;
    out.push([down, read]);
    const next = passAtOrAfter(read + grace + 1);
    if (next === undefined) return null;
    // a plain post before that pass would move the probe on: not a lapse this reader follows
    if (repost + k.postEvery <= next) return null;
    if (next > until) return out;
    down = next;
    repost = repostAfter({ ...k, nextPost: repost + k.postEvery }, down);
  }
  return null;
}
