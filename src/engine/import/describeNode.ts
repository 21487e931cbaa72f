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
import { daysFromCivil, formatTime, type Micros } from '../model/time';
import type { Line } from './lines';
import { meaningOf } from './eventReasons';
import { addMeaning } from './meaning';
import { parseAge } from './eventsTable';
import { evidenceOf, type Evidence, type ImportResult } from './types';
import type { ImportOptions } from './options';

export const DESCRIBE_NODE_START = /^Name:\s+(\S+)\s*$/;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** RFC1123Z as kubectl describe prints times: `Tue, 19 Mar 2024 11:02:21 +0000`. */
export function parseRfc1123z(text: string): Micros | undefined {
  const m = /^(?:\w{3}, )?(\d{1,2}) (\w{3}) (\d{4}) (\d\d):(\d\d):(\d\d) ([+-])(\d\d)(\d\d)$/.exec(text.trim());
  if (!m) return undefined;
  const month = MONTHS.indexOf(m[2]) + 1;
  if (!month) return undefined;
  const offset = (m[7] === '-' ? -1 : 1) * (Number(m[8]) * 3600 + Number(m[9]) * 60);
  const s = daysFromCivil(Number(m[3]), month, Number(m[1])) * 86_400 + Number(m[4]) * 3600 + Number(m[5]) * 60 + Number(m[6]) - offset;
  return s * 1_000_000;
}

export function importDescribeNode(file: string, lines: Iterable<Line>, options: ImportOptions, into: ImportResult): number {
  let node = '';
  let section = '';
  let renew: { t: Micros; ev: Evidence } | undefined;
  let eventColumns: { name: string; start: number }[] | undefined;
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
      eventColumns = undefined;
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
      const m =
        /^\s+Ready\s+(True|False|Unknown)\s+(\w{3}, \d{1,2} \w{3} \d{4} \d\d:\d\d:\d\d [+-]\d{4})\s+(\w{3}, \d{1,2} \w{3} \d{4} \d\d:\d\d:\d\d [+-]\d{4})\s+(\S+)/.exec(
          line.text,
        );
      if (m)
        ready = {
          status: m[1],
          heartbeat: parseRfc1123z(m[2])!,
          transition: parseRfc1123z(m[3])!,
          reason: m[4],
          ev: evidenceOf(file, line.n, line.text, 'describe-node'),
        };
    } else if (section === 'Events') {
      if (/^\s+Type\s+Reason\s+Age\s+From\s+Message/.test(line.text)) {
        eventColumns = [...line.text.matchAll(/\S+/g)].map((m) => ({ name: m[0], start: m.index! }));
        continue;
      }
      if (!eventColumns || /^\s+-+/.test(line.text) || !line.text.trim()) continue;
      const cell = (i: number) => line.text.slice(eventColumns![i].start, i + 1 < eventColumns!.length ? eventColumns![i + 1].start : undefined).trim();
      const age = parseAge(cell(2).split(' ')[0]);
      if (age === undefined || options.anchor === undefined) continue;
      if (!options.anchorGiven && !warnedAnchor) {
        warnedAnchor = true;
        into.problems.push(
          options.anchorBasis
            ? {
                code: 'anchor-inferred',
                severity: 'warning',
                message: `event ages read back from ${formatTime(options.anchor)}, when it was printed by its own times: ${options.anchorBasis}; give --at if you know the time it was printed`,
                position: { file, line: line.n, column: 1 },
              }
            : {
                code: 'anchor-assumed',
                severity: 'warning',
                message: `event ages read back from the time of the import (${formatTime(options.anchor)}): give --at, the time it was printed`,
                position: { file, line: line.n, column: 1 },
              },
        );
      }
      addMeaning(
        meaningOf({ reason: cell(1), kind: 'Node', namespace: '', name: node, message: cell(4), component: cell(3).replace(/,.*$/, '') }),
        options.anchor - age,
        evidenceOf(file, line.n, line.text, 'describe-node'),
        into,
      );
    }
  }
  finishNode(ready);
  return count;
}
