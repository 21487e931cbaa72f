/**
 * When each object of a `kubectl describe` paste was printed, read from the paste itself.
 *
 * The Events' ages count back from that moment, which describe does not print. Without --at the
 * import's own clock was the only anchor: a paste from 2024 put its events in the week of the
 * import, years after the heartbeats printed beside them, and `compare` refused the scenario.
 * The paste holds enough to do better:
 * - every absolute time an object prints (a node's CreationTimestamp, its Lease's RenewTime, its
 *   conditions' heartbeats and transitions; a pod's Start Time) was in the past when it was
 *   printed, and objects are printed one after another: an object was printed no earlier than
 *   any of its times nor than the object before it;
 * - an age that counts back to a printed time pins the moment: the newest NodeReady or
 *   NodeNotReady event against the Ready condition's LastTransitionTime (the status change both
 *   record), a pod's Scheduled event against its Start Time (the kubelet sets startTime when it
 *   admits the pod the scheduler has just bound).
 * Ages are HumanDuration's (k8s.io/apimachinery/pkg/util/duration): truncated, to the second
 * under 10 minutes, the minute under 8 hours, the hour under 8 days, then the day; the true age
 * is in [shown, shown + that unit).
 */
import { formatTime, seconds, type Micros } from '../model/time';
import type { Line } from './lines';
import { EventsTable, parseRfc1123z, READY_ROW, RFC1123Z_ANY } from './describeText';

export interface PrintedAt {
  time: Micros;
  /** where the time comes from, for the import's warning */
  basis: string;
}

const MINUTE = seconds(60);
const HOUR = seconds(3600);
const DAY = seconds(86_400);

/** How much HumanDuration truncated off an age it printed as `age`. */
export function ageUnit(age: Micros): Micros {
  if (age < seconds(600)) return seconds(1);
  if (age < 8 * HOUR) return MINUTE;
  if (age < 8 * DAY) return HOUR;
  if (age < 8 * 365 * DAY) return DAY;
  return 365 * DAY;
}

/**
 * The moment one described object was printed: no earlier than `after` (the object printed before
 * it) nor than any time it prints, pinned by an age against a printed time where it has one.
 * Undefined when the object gives nothing to go by and nothing came before it.
 */
export function printedAt(block: readonly Line[], kind: 'node' | 'pod', after: PrintedAt | undefined): PrintedAt | undefined {
  let latest: { t: Micros; line: Line } | undefined;
  let section = '';
  let readyTransition: { t: Micros; status: string; line: Line } | undefined;
  let startTime: { t: Micros; line: Line } | undefined;
  const events = new EventsTable();
  /** the newest event of the reason that pins the moment, by its age */
  let pin: { age: Micros; line: Line; reason: string } | undefined;
  for (const line of block) {
    const top = /^([A-Z][A-Za-z -]*):/.exec(line.text);
    if (top) section = top[1];
    if (section !== 'Events') {
      for (const m of line.text.matchAll(RFC1123Z_ANY)) {
        const t = parseRfc1123z(m[0]);
        if (t !== undefined && (!latest || t > latest.t)) latest = { t, line };
      }
    }
    if (kind === 'pod' && section === 'Start Time') {
      const t = parseRfc1123z(line.text.replace(/^Start Time:/, ''));
      if (t !== undefined) startTime = { t, line };
    } else if (kind === 'node' && section === 'Conditions') {
      const m = READY_ROW.exec(line.text);
      const t = m ? parseRfc1123z(m[3]) : undefined;
      if (m && t !== undefined) readyTransition = { t, status: m[1], line };
    } else if (section === 'Events') {
      const row = events.read(line.text);
      if (!row) continue;
      const { reason, age } = row;
      // the Conditions table comes before the Events: the Ready status is known here
      if (age !== undefined && pinning(kind, reason, readyTransition?.status) && (!pin || age < pin.age)) pin = { age, line, reason };
    }
  }
  const own = latest && { time: latest.t, basis: `the latest time it prints (line ${latest.line.n}), which had passed when it was printed` };
  const before = after && { time: after.time, basis: `the time the object before it was printed (${formatTime(after.time)})` };
  const lower = !own ? before : !before || own.time >= before.time ? own : before;
  const base = kind === 'pod' ? startTime : readyTransition;
  if (pin && base) {
    const from = base.t + pin.age;
    const to = from + ageUnit(pin.age);
    const what =
      kind === 'pod'
        ? `the pod's Start Time (line ${base.line.n}) and its Scheduled event's age (line ${pin.line.n})`
        : `the Ready condition's LastTransitionTime (line ${base.line.n}) and its ${pin.reason} event's age (line ${pin.line.n})`;
    // an age that contradicts what the paste prints (another status change after the event) pins nothing
    if (!lower || lower.time < to)
      return !lower || from >= lower.time ? { time: from, basis: `from ${what}` } : { time: lower.time, basis: `${lower.basis}, as ${what} allow` };
  }
  return lower;
}

function pinning(kind: 'node' | 'pod', reason: string, readyStatus: string | undefined): boolean {
  if (kind === 'pod') return reason === 'Scheduled';
  return readyStatus === 'True' ? reason === 'NodeReady' : readyStatus !== undefined && reason === 'NodeNotReady';
}
