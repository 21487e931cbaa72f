/**
 * The cluster state for people: zones, then each node with its Ready status
 * and taints and how many pods it still runs, then ReplicaSets.
 */
import type { StateView } from '../engine';
import { escapeControl } from '../engine/trace/text';
import { zoneTitle } from '../engine/model/zoneTitle';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the state export's objects, of every kind, read field by field
type Obj = Record<string, any>;

export function formatStateText(state: StateView, color: boolean): string {
  const bold = (s: string) => (color ? `\x1b[1m${s}\x1b[0m` : s);
  const lines: string[] = [bold(`State at ${state.time}`), '', bold('Zones')];
  const zoneRows = state.zones.map((z) => [
    zoneTitle(z.zone),
    z.state,
    `${z.nodes} nodes`,
    `${z.notReady} not ready`,
    `rate ${z.evictionRate}/s`,
    queuedText(z.queued),
  ]);
  lines.push(...table(zoneRows));
  const items = state.objects.items as Obj[];
  const podsByNode = new Map<string, number>();
  for (const p of items.filter((o) => o.kind === 'Pod')) {
    const n = p.spec?.nodeName ?? '(pending)';
    podsByNode.set(n, (podsByNode.get(n) ?? 0) + 1);
  }
  lines.push('', bold('Nodes'));
  const nodeRows = items
    .filter((o) => o.kind === 'Node')
    .sort((a, b) => naturalCompare(a.metadata?.name ?? '', b.metadata?.name ?? ''))
    .map((n) => {
      const ready = (n.status?.conditions ?? []).find((c: Obj) => c.type === 'Ready')?.status ?? '-';
      const taints = (n.spec?.taints ?? []).map((t: Obj) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`).join(', ');
      return [n.metadata?.name ?? '?', `Ready=${ready}`, `${podsByNode.get(n.metadata?.name) ?? 0} pods`, taints || 'no taints'];
    });
  lines.push(...table(nodeRows));
  const pending = podsByNode.get('(pending)');
  if (pending) lines.push(`(${pending} pods not bound to any node)`);
  const rss = items.filter((o) => o.kind === 'ReplicaSet');
  if (rss.length) {
    lines.push('', bold('ReplicaSets'));
    lines.push(
      ...table(
        rss.map((r) => [
          `${r.metadata?.namespace}/${r.metadata?.name}`,
          `desired ${r.spec?.replicas ?? 1}`,
          `current ${r.status?.replicas ?? 0}`,
          `ready ${r.status?.readyReplicas ?? 0}`,
          `available ${r.status?.availableReplicas ?? 0}`,
        ]),
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Names shown of a zone's queue: a queue of 1,650 nodes in an outage would be one line of 80,000 characters. */
export const QUEUED_SHOWN = 5;

function queuedText(queued: readonly string[]): string {
  if (!queued.length) return '';
  const more = queued.length - QUEUED_SHOWN;
  return `queued ${queued.length}: ${queued.slice(0, QUEUED_SHOWN).join(', ')}${more > 0 ? `, … (${more} more; --format json lists them all)` : ''}`;
}

/** Node names in the order people number them: node-9, node-10, node-100 (not node-10, node-100, node-9). */
function naturalCompare(a: string, b: string): number {
  const key = (s: string) => s.replace(/\d+/g, (d) => (d.length >= 16 ? d : d.padStart(16, '0')));
  const ka = key(a),
    kb = key(b);
  return ka < kb ? -1 : ka > kb ? 1 : 0;
}

function table(rows: string[][]): string[] {
  const widths: number[] = [];
  rows = rows.map((r) => r.map(escapeControl));
  for (const r of rows)
    r.forEach((c, i) => {
      widths[i] = Math.max(widths[i] ?? 0, c.length);
    });
  return rows.map((r) => `  ${r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ')}`.trimEnd());
}
