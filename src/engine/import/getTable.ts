/**
 * `kubectl get nodes` and `kubectl get pods [-A] -o wide` pasted as tables
 * (k8s.io/kubernetes pkg/printers/internalversion/printers.go, the Node and
 * Pod column definitions): columns by the header's positions. They carry no
 * times a decision can be placed at, but they say which nodes exist and
 * where each pod ran (the NODE column of -o wide), which the rest of the
 * evidence often leaves out, and a node table's VERSION is its kubelet's
 * (status.nodeInfo.kubeletVersion): the cluster's version when nothing else
 * names one, as a snapshot's nodes give it. Its STATUS (Ready, NotReady,
 * SchedulingDisabled) is the nodes' state when it was printed, for the nodes
 * no snapshot holds (infer.ts); a pods table's rows of pods that had not
 * ended make those pods where no snapshot holds them.
 */
import type { Line } from './lines';
import { isPasteNoise } from './lines';
import { evidenceOf, type ImportResult } from './types';

/** STATUS values of a pod that has ended (its phase Succeeded or Failed, or the reason kubectl prints for one) */
const ENDED =
  /^(Completed|Succeeded|Error|Failed|Evicted|OOMKilled|ContainerStatusUnknown|Shutdown|NodeShutdown|Terminated|OutOf\w+|UnexpectedAdmissionError|NodeAffinity)$/;

export const GET_TABLE_HEADER = /^\s*(NAMESPACE\s+)?NAME\s+(READY\s+STATUS\s+RESTARTS\s+AGE|STATUS\s+ROLES\s+AGE\s+VERSION)\b/;

export function importGetTable(file: string, lines: Iterable<Line>, into: ImportResult): number {
  let columns: { name: string; start: number }[] | undefined;
  let kind: 'pods' | 'nodes' = 'pods';
  let count = 0;
  const versions = new Set<string>();
  for (const line of lines) {
    count = line.n;
    if (GET_TABLE_HEADER.test(line.text)) {
      columns = [...line.text.matchAll(/\S+(?: \S+)*/g)].map((m) => ({ name: m[0], start: m.index! }));
      kind = columns.some((c) => c.name === 'ROLES') ? 'nodes' : 'pods';
      continue;
    }
    if (!columns || isPasteNoise(line.text)) continue;
    // a header like "NOMINATED NODE" is one column: split only on runs of two or more spaces
    const cell = (name: string): string | undefined => {
      const i = columns!.findIndex((c) => c.name === name);
      if (i < 0) return undefined;
      return line.text.slice(columns![i].start, i + 1 < columns!.length ? columns![i + 1].start : undefined).trim() || undefined;
    };
    // `kubectl get all` prefixes names with their resource (`pod/web-1`)
    const name = cell('NAME')?.replace(/^(pods?|nodes?)\//, '');
    if (!name || /\s/.test(name)) {
      into.problems.push({
        code: 'cut-line',
        severity: 'warning',
        message: 'a table row that does not line up with the header (cut off, or another table): skipped',
        position: { file, line: line.n, column: 1 },
      });
      continue;
    }
    const ev = evidenceOf(file, line.n, line.text, 'get-table');
    if (kind === 'nodes') {
      into.observations.push({ kind: 'node-seen', node: name, evidence: ev });
      // kubectl's printNode: each condition as Type or NotType (Ready only, now), Unknown when there is none, then
      // SchedulingDisabled for a cordoned node
      const status = (cell('STATUS') ?? '').split(',');
      const ready = status.includes('Ready') ? 'Ready' : status.includes('NotReady') ? 'NotReady' : status.includes('Unknown') ? 'Unknown' : undefined;
      if (ready) into.observations.push({ kind: 'node-status', node: name, ready, unschedulable: status.includes('SchedulingDisabled'), evidence: ev });
      const version = cell('VERSION');
      if (version && /^v?\d+\.\d+/.test(version) && !versions.has(version)) {
        versions.add(version);
        into.observations.push({ kind: 'version', version, evidence: ev });
      }
      continue;
    }
    const node = cell('NODE');
    if (node && node !== '<none>') {
      const ns = cell('NAMESPACE');
      // kubectl's printPod: the phase, or the reason of a container or of the pod; an ended pod is no pod to make
      const status = cell('STATUS') ?? '';
      const [up, all] = (cell('READY') ?? '').split('/').map(Number);
      const listed = ENDED.test(status) ? undefined : { ready: all > 0 && up === all };
      into.observations.push({ kind: 'pod-on-node', pod: `Pod/${ns ? `${ns}/` : ''}${name}`, node, ...(listed ? { listed } : {}), evidence: ev });
      into.observations.push({ kind: 'node-seen', node, evidence: ev });
    }
  }
  return count;
}
