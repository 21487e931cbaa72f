/**
 * A made-up update's node list as the host would send it with every row held: the keys, headings and shapes the
 * host's NodeWindow makes, and every item (a page fed made-up messages has no host to ask for a window).
 */
import { NodeWindow } from '../../../src/extension/nodeWindow';
import type { NodeItem, NodeRows } from '../../../src/protocol/webview';

export function allNodeRows(items: NodeItem[]): NodeRows {
  const byRef = new Map(items.map((i) => [i.ref, i]));
  return { ...new NodeWindow().update(byRef, { upsert: items, remove: [] }, true), items };
}
