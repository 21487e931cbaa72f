import type { UpdateMessage } from '../../src/protocol/webview';

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
