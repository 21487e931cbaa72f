/**
 * `kubectl describe node` text (k8s.io/kubectl/pkg/describe, NodeDescriber):
 * `Name:`, the `Lease:` block's RenewTime, the `Conditions:` table
 * (LastHeartbeatTime and LastTransitionTime in RFC1123Z with the printing
 * machine's zone offset) and the `Events:` table (Type, Reason, Age, From,
 * Message; ages such as `2m` or `2m (x3 over 10m)` read back from --at).
 * Several nodes described one after another are read in turn.
 *
 * What it shows: a Ready condition the controller set to Unknown
 * (NodeStatusUnknown, at its transition time) keeps the kubelet's last
 * heartbeat; with the Lease's RenewTime, the later of the two is where the
 * kubelet stopped.
 */
import type { Micros } from '../model/time';
import type { Line } from './lines';
import { meaningOf } from './eventReasons';
import { addMeaning } from './meaning';
import { anchorProblem, EventsTable, parseRfc1123z, READY_ROW } from './describeText';
import { evidenceOf, type Evidence, type ImportResult } from './types';
import type { ImportOptions } from './options';

export const DESCRIBE_NODE_START = /^Name:\s+(\S+)\s*$/;
export function importDescribeNode(file: string, lines: Iterable<Line>, options: ImportOptions, into: ImportResult): number {
  let node = '';
  let section = '';
  let renew: { t: Micros; ev: Evidence } | undefined;
  let events = new EventsTable();
  let count = 0;
  let warnedAnchor = false;
  const finishNode = (ready?: { status: string; reason: string; heartbeat: Micros; transition: Micros; ev: Evidence }) => {
    if (!ready) return;
    if (ready.status === 'Unknown') {
      into.decisions.push({ time: ready.transition, controller: 'node-lifecycle', action: 'NodeStatusUnknown', object: `Node/${node}`, evidence: ready.ev });
      const last = renew && renew.t > ready.heartbeat ? renew : { t: ready.heartbeat, ev: ready.ev };
      into.observations.push({ kind: 'heartbeat', time: last.t, node, via: last === renew ? 'lease' : 'status', mark: 'stop', evidence: last.ev });
    } else if (ready.status === 'False') {
      into.observations.push({ kind: 'condition', time: ready.transition, node, type: 'Ready', status: 'False', reason: 'kubelet event', evidence: ready.ev });
    }
  };
  let ready: Parameters<typeof finishNode>[0];
  let pending: { name: string; line: Line } | undefined;
  for (const line of lines) {
    count = line.n;
    const name = DESCRIBE_NODE_START.exec(line.text);
    if (name) {
      finishNode(ready);
      ready = undefined;
      renew = undefined;
      events = new EventsTable();
      node = '';
      pending = { name: name[1], line };
      section = '';
      continue;
    }
    // `Roles:` follows the name only for a node (describe pod has `Namespace:`)
    if (pending && /^Roles:/.test(line.text)) {
      node = pending.name;
      into.observations.push({ kind: 'node-seen', node, evidence: evidenceOf(file, pending.line.n, pending.line.text, 'describe-node') });
      pending = undefined;
    } else if (pending && /^Namespace:/.test(line.text)) {
      pending = undefined;
    }
    if (!node) continue;
    const top = /^([A-Z][A-Za-z ]*):/.exec(line.text);
    if (top) section = top[1];
    if (section === 'Lease') {
      const m = /^\s+RenewTime:\s+(.*)$/.exec(line.text);
      const t = m ? parseRfc1123z(m[1]) : undefined;
      if (t !== undefined) renew = { t, ev: evidenceOf(file, line.n, line.text, 'describe-node') };
    } else if (section === 'Conditions') {
      const m = READY_ROW.exec(line.text);
      if (m)
        ready = {
          status: m[1],
          heartbeat: parseRfc1123z(m[2])!,
          transition: parseRfc1123z(m[3])!,
          reason: m[4],
          ev: evidenceOf(file, line.n, line.text, 'describe-node'),
        };
    } else if (section === 'Events') {
      const row = events.read(line.text);
      if (!row || row.age === undefined || options.anchor === undefined) continue;
      if (!options.anchorGiven && !warnedAnchor) {
        warnedAnchor = true;
        into.problems.push(anchorProblem({ ...options, anchor: options.anchor }, 'event ages', file, line));
      }
      addMeaning(
        meaningOf({ reason: row.reason, kind: 'Node', namespace: '', name: node, message: row.message, component: row.from.replace(/,.*$/, '') }),
        options.anchor - row.age,
        evidenceOf(file, line.n, line.text, 'describe-node'),
        into,
      );
    }
  }
  finishNode(ready);
  return count;
}
