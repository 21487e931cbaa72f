import type { HostMessage, NodePodCount, UpdateMessage } from '../../src/protocol/webview';

/** An update message with nothing in it at pass 0, with `over` on top: what a test needs of the host's update. */
export function emptyUpdate(over: Partial<UpdateMessage> = {}): UpdateMessage {
  return {
    type: 'update',
    full: false,
    time: 'T',
    pass: 0,
    lastPass: 0,
    zones: [],
    nodes: { items: [] },
    podCounts: { upsert: [], remove: [] },
    replicaSets: { items: [] },
    decisions: [],
    passMarks: [],
    ...over,
  };
}

/** The pod counts the webview holds after these messages (a full update starts again), by node ref. */
export function heldPodCounts(sent: readonly HostMessage[]): NodePodCount[] {
  const out = new Map<string, NodePodCount>();
  for (const m of sent) {
    if (m.type !== 'update') continue;
    const u = m as UpdateMessage;
    if (u.full) out.clear();
    for (const ref of u.podCounts.remove) out.delete(ref);
    for (const c of u.podCounts.upsert) out.set(c.ref, c);
  }
  return [...out.values()].sort((a, b) => (a.ref < b.ref ? -1 : 1));
}
