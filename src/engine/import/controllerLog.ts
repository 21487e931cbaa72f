/**
 * kube-controller-manager logs (klog text, structured, JSON; bare or inside
 * journald prefixes and docker json-file objects) -> real decisions and
 * observations. Which lines mean what is klogPatterns.ts; the events the
 * controller manager logs are read with the same table as `kubectl get events`.
 *
 * klog's header has no year: it comes from the line itself when a wrapper
 * gives the full time, else from a full date elsewhere in the file (klog
 * prints `as of 2019-06-17 13:01:21`, taints' `TimeAdded:2019-05-16 ...`),
 * else from the import's anchor (--at), and the choice is reported. Times
 * are taken as UTC, as the controller manager's container logs them.
 */
import { daysFromCivil, formatTime, type Micros } from '../model/time';
import type { Problem } from '../problems';
import { isPasteNoise, type Line } from './lines';
import { parseKlog, type KlogLine } from './klogLine';
import { matchKlog, wordingMinors } from './klogPatterns';
import { meaningOf } from './eventReasons';
import { evidenceOf, type ImportResult } from './types';
import type { ImportOptions } from './options';
import { addMeaning } from './meaning';

interface Pending {
  line: Line;
  klog: KlogLine;
}

export function importControllerLog(file: string, lines: Iterable<Line>, options: ImportOptions, into: ImportResult): number {
  const pending: Pending[] = [];
  const years = new Map<string, number>();
  let count = 0;
  for (const line of lines) {
    count = line.n;
    for (const m of line.text.matchAll(/\b((?:19|20)\d\d)-(\d\d)-(\d\d)[ T]\d\d:\d\d/g)) years.set(`${Number(m[2])}-${Number(m[3])}`, Number(m[1]));
    if (isPasteNoise(line.text)) continue;
    const k = parseKlog(line.text);
    if (!k) {
      if (/^[IWEF]\d{0,4}( |$)|^[IWEF]\d\d\d\d \d/.test(line.text.trim())) {
        into.problems.push(warn('cut-line', `${file}`, line.n, `a klog line cut short (${JSON.stringify(line.text.trim().slice(0, 40))}): skipped`));
      }
      continue;
    }
    if ('broken' in k) {
      into.problems.push(warn('broken-line', file, line.n, `${k.broken}: skipped`));
      continue;
    }
    pending.push({ line, klog: k });
  }
  if (!pending.length) return count;

  const yearOf = chooseYear(file, pending, years, options, into.problems);
  let leaderSeen = false;
  const nodesSeen = new Set<string>();
  for (const { line, klog } of pending) {
    const time = klog.absolute ?? timeIn(yearOf(klog), klog);
    const named = klog.kv?.node;
    if (named && !nodesSeen.has(named)) {
      nodesSeen.add(named);
      into.observations.push({ kind: 'node-seen', node: named, evidence: evidenceOf(file, line.n, line.text, 'controller-manager-log') });
    }
    const hit = matchKlog(klog);
    if (!hit) continue;
    const ev = evidenceOf(file, line.n, line.text, 'controller-manager-log');
    const findings = hit.pattern.read(klog, hit.m);
    const minors = findings.some((f) => 'decision' in f || 'healthy' in f) ? wordingMinors(hit.pattern, klog, hit.m) : undefined;
    if (minors) into.observations.push({ kind: 'wording', minors, evidence: ev });
    for (const f of findings) {
      if ('decision' in f) {
        for (let i = 0; i < (f.times ?? 1); i++) into.decisions.push({ time, ...f.decision, evidence: ev });
      } else if ('event' in f) {
        addMeaning(meaningOf({ ...f.event, component: 'kube-controller-manager' }), time, { ...ev, channel: 'event' }, into);
      } else if ('leader' in f) {
        // the first leader in a log is the process that wrote it starting; later ones are failovers
        into.observations.push({ kind: 'restart', time, identity: leaderSeen ? f.leader : `${f.leader} (start of this log)`, evidence: ev });
        leaderSeen = true;
      } else if ('healthy' in f) {
        into.observations.push({ kind: 'condition', time, node: f.healthy, type: 'Ready', status: 'True', reason: 'controller saw Ready again', evidence: ev });
      }
    }
  }
  return count;
}

function timeIn(year: number, k: KlogLine): Micros {
  return daysFromCivil(year, k.month, k.day) * 86_400_000_000 + k.timeOfDay;
}

function chooseYear(file: string, pending: Pending[], years: Map<string, number>, options: ImportOptions, problems: Problem[]): (k: KlogLine) => number {
  const wrapped = pending.find((p) => p.klog.absolute !== undefined);
  if (wrapped) {
    const y = new Date(wrapped.klog.absolute! / 1000).getUTCFullYear();
    return () => y;
  }
  for (const p of pending) {
    const y = years.get(`${p.klog.month}-${p.klog.day}`);
    if (y !== undefined) return () => y;
  }
  if (options.anchor !== undefined) {
    const a = new Date(options.anchor / 1000);
    const ay = a.getUTCFullYear(),
      am = a.getUTCMonth() + 1;
    problems.push({
      code: 'year-assumed',
      severity: options.anchorGiven ? 'info' : 'warning',
      message: `klog times have no year and none was found in the log: taken from ${options.anchorGiven ? '--at' : 'today'} (${formatTime(options.anchor)}); a month after that one is taken as the year before. Give --at to anchor it`,
      position: { file, line: pending[0].line.n, column: 1 },
    });
    return (k) => (k.month > am ? ay - 1 : ay);
  }
  problems.push({
    code: 'year-assumed',
    severity: 'warning',
    message: 'klog times have no year and no anchor was given: 1970 is used; give --at',
    position: { file, line: pending[0].line.n, column: 1 },
  });
  return () => 1970;
}

function warn(code: string, file: string, line: number, message: string): Problem {
  return { code, severity: 'warning', message, position: { file, line, column: 1 } };
}
