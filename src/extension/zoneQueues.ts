/**
 * The zones' eviction queues as the panel shows them: a count each, and the queued node names of the zones whose queue
 * the user opened (1,650 names at 5,000 nodes in an outage: 47 KB of a 64 KB step back's update). An update whose names
 * for an open queue are those the panel was last sent says so (`queuedSame`) instead of sending them again; the panel
 * keeps what it holds. Whole names go with every `zones` message (a queue opened or closed) and every full update (a
 * panel that restarted holds nothing).
 */
import type { ZoneView } from '../engine/simulation/api';
import type { ZoneRow } from '../protocol/webview';

const sameNames = (a: readonly string[], b: readonly string[]): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

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

  /** The zones of an update as posted: an open queue the panel holds as it is goes without its names, marked `queuedSame`. */
  posted(zones: ZoneRow[], full: boolean): ZoneRow[] {
    if (full) return this.whole(zones);
    const held = new Map<string, readonly string[]>();
    const out = zones.map((z) => {
      if (!z.queued.length) return z;
      const had = this.held.get(z.zone);
      held.set(z.zone, z.queued);
      return had && sameNames(had, z.queued) ? { ...z, queued: [], queuedSame: true as const } : z;
    });
    this.held = held;
    return out;
  }
}
