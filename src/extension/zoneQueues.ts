/**
 * The zones' eviction queues as the panel shows them: a count each, and the queued node names of the zones whose queue
 * the user opened (1,650 names at 5,000 nodes in an outage: 47 KB of a 64 KB step back's update). A queue moves by its
 * front (the names the controller takes) and its back (the nodes queued since), a step back the other way: an update
 * whose names for an open queue keep a run of those the panel was last sent says where it lies (`queuedHeld`) and sends
 * only the names before and after it (`queuedBefore`, `queued`); the panel keeps what it holds. Otherwise the names go
 * whole, as does
 * every `zones` message (a queue opened or closed) and every full update (a panel that restarted holds nothing).
 */
import type { ZoneView } from '../engine/simulation/api';
import type { ZoneRow } from '../protocol/webview';

/** A run of names the panel holds: `now` is `before`, then `had` from `from` for `count` names, then the rest. */
interface Kept {
  before: number;
  from: number;
  count: number;
}

/** How many names from `had[from]` and `now[at]` on are the same. */
function runOf(had: readonly string[], from: number, now: readonly string[], at: number): number {
  let n = 0;
  while (from + n < had.length && at + n < now.length && had[from + n] === now[at + n]) n++;
  return n;
}

/**
 * The longest run of `had` that `now` keeps where a queue moves: its front taken and names queued at its back (a step),
 * or names put back at its front and its back taken (a step back). Undefined when neither keeps a name.
 */
function keptOf(had: readonly string[], now: readonly string[]): Kept | undefined {
  if (!had.length || !now.length) return undefined;
  const taken = had.indexOf(now[0]);
  const onward = taken < 0 ? undefined : { before: 0, from: taken, count: runOf(had, taken, now, 0) };
  const putBack = now.indexOf(had[0]);
  const back = putBack < 0 ? undefined : { before: putBack, from: 0, count: runOf(had, 0, now, putBack) };
  const best = !onward ? back : !back ? onward : back.count > onward.count ? back : onward;
  return best && best.count > 0 ? best : undefined;
}

export class ZoneQueues {
  /** the zones whose queued names the webview shows (the others are sent as a count) */
  private readonly open = new Set<string>();
  /** the names the panel holds of each open queue, as last sent */
  private held = new Map<string, readonly string[]>();

  /** The zones with their queues as counts, and the names of the open ones; `zones` is the shown simulation's. */
  rows(zones: (namesOf: (zone: string) => boolean) => ZoneView[]): ZoneRow[] {
    // the engine builds the names only of the open queues (a simulation that does not count gives them all)
    return zones((zone) => this.open.has(zone)).map(({ queued, queuedCount, ...z }) => ({
      ...z,
      queuedCount: queuedCount ?? queued.length,
      queued: this.open.has(z.zone) ? queued : [],
    }));
  }

  /** The webview opened or closed a zone's queue: its names are sent with the updates while it is open. */
  toggle(zone: string, open: boolean): void {
    if (open) this.open.add(zone);
    else this.open.delete(zone);
  }

  /** The zones as they are posted whole (a `zones` message, a full update): the panel holds their names now. */
  whole(zones: ZoneRow[]): ZoneRow[] {
    this.held = new Map(zones.filter((z) => z.queued.length > 0).map((z) => [z.zone, z.queued]));
    return zones;
  }

  /** The zones of an update as posted: an open queue whose names the panel holds in part goes as that part's place and the names around it. */
  posted(zones: ZoneRow[], full: boolean): ZoneRow[] {
    if (full) return this.whole(zones);
    const held = new Map<string, readonly string[]>();
    const out = zones.map((z) => {
      if (!z.queued.length) return z;
      const had = this.held.get(z.zone);
      held.set(z.zone, z.queued);
      const kept = had && keptOf(had, z.queued);
      if (!kept) return z;
      const { before, from, count } = kept;
      return {
        ...z,
        queued: z.queued.slice(before + count),
        queuedHeld: [from, count] as [number, number],
        ...(before ? { queuedBefore: z.queued.slice(0, before) } : {}),
      };
    });
    this.held = held;
    return out;
  }
}
