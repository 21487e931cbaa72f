/**
 * `kubectl get events [-A]` as a text table (what people paste): columns
 * found by the header's positions, as kubectl's tabwriter aligns them
 * (k8s.io/kubectl/pkg/cmd/get, the Event table of
 * pkg/printers/internalversion/printers.go: LAST SEEN, TYPE, REASON, OBJECT,
 * [SUBOBJECT, SOURCE], MESSAGE, [FIRST SEEN, COUNT, NAME]; NAMESPACE with -A).
 * Times are ages (`7m24s`, `49m`, `3d`) read back from the anchor: `--at`,
 * the time the table was printed. kubectl rounds ages (HumanDuration: whole
 * minutes past 10m, hours past 3h), so such times are that coarse, and the
 * import says so.
 */
import { formatTime, seconds, type Duration, type Micros } from '../model/time';
import type { Line } from './lines';
import { isPasteNoise } from './lines';
import { meaningOf } from './eventReasons';
import { addMeaning } from './meaning';
import { evidenceOf, type ImportResult } from './types';
import type { ImportOptions } from './options';

export const EVENTS_TABLE_HEADER = /^\s*(NAMESPACE\s+)?LAST SEEN\s+TYPE\s+REASON\s+OBJECT\s+/;

const KINDS: Record<string, string> = {
  pod: 'Pod',
  node: 'Node',
  replicaset: 'ReplicaSet',
  deployment: 'Deployment',
  statefulset: 'StatefulSet',
  daemonset: 'DaemonSet',
  lease: 'Lease',
};

/** kubectl's ages: `45s`, `7m24s`, `49m`, `3h5m`, `2d`, `5d3h`, `2y`. */
export function parseAge(text: string): Duration | undefined {
  const m = /^(?:(\d+)y)?(?:(\d+)d)?(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/.exec(text.trim());
  if (!m || !text.trim()) return undefined;
  const [, y, d, h, mi, s] = m.map((x) => Number(x ?? 0));
  return seconds((((y * 365 + d) * 24 + h) * 60 + mi) * 60 + s);
}

export function importEventsTable(file: string, lines: Iterable<Line>, options: ImportOptions, into: ImportResult): number {
  let columns: { name: string; start: number }[] | undefined;
  let count = 0;
  let coarse = false;
  const anchor: Micros | undefined = options.anchor;
  if (anchor === undefined) {
    into.problems.push({
      code: 'no-anchor',
      severity: 'warning',
      message: 'a table of ages without --at: nothing to read them from',
      position: { file, line: 1, column: 1 },
    });
    return 0;
  }
  if (!options.anchorGiven) {
    into.problems.push({
      code: 'anchor-assumed',
      severity: 'warning',
      message: `ages read back from the time of the import (${formatTime(anchor)}): give --at, the time the table was printed`,
      position: { file, line: 1, column: 1 },
    });
  }
  for (const line of lines) {
    count = line.n;
    if (!columns) {
      if (EVENTS_TABLE_HEADER.test(line.text)) columns = [...line.text.matchAll(/\S+(?: \S+)*/g)].map((m) => ({ name: m[0], start: m.index! }));
      continue;
    }
    if (isPasteNoise(line.text)) continue;
    const cell = (name: string): string | undefined => {
      const i = columns!.findIndex((c) => c.name === name);
      if (i < 0) return undefined;
      const end = i + 1 < columns!.length ? columns![i + 1].start : undefined;
      return line.text.slice(columns![i].start, end).trim();
    };
    const objectCell = cell('OBJECT') ?? '';
    const slash = objectCell.indexOf('/');
    const ageCell = cell('LAST SEEN') ?? '';
    const age = parseAge(ageCell);
    const message = cell('MESSAGE') ?? '';
    if (slash >= 0 && message && age === undefined && /^\S+$/.test(ageCell)) {
      // the row is whole: only its age cannot be read (kubectl prints `<unknown>` for an event without a time)
      into.problems.push({
        code: 'bad-age',
        severity: 'warning',
        message: `LAST SEEN ${JSON.stringify(ageCell)} is not an age as kubectl prints one (45s, 7m24s, 3h5m, 2d): this row has no time and is skipped`,
        position: { file, line: line.n, column: columns.find((c) => c.name === 'LAST SEEN')!.start + 1 },
      });
      continue;
    }
    if (slash < 0 || age === undefined || !message) {
      into.problems.push({
        code: 'cut-line',
        severity: 'warning',
        message: 'a table row with its columns missing (cut off?): skipped',
        position: { file, line: line.n, column: 1 },
      });
      continue;
    }
    if (age >= seconds(600)) coarse = true;
    const time = anchor - age;
    const kind = KINDS[objectCell.slice(0, slash).toLowerCase().replace(/\..*$/, '')] ?? objectCell.slice(0, slash);
    const ev = evidenceOf(file, line.n, line.text, 'events-table');
    addMeaning(
      meaningOf({
        reason: cell('REASON') ?? '',
        kind,
        namespace: cell('NAMESPACE') ?? '',
        name: objectCell.slice(slash + 1),
        message,
        component: (cell('SOURCE') ?? '').replace(/,.*$/, ''),
      }),
      time,
      ev,
      into,
    );
  }
  if (coarse) {
    into.problems.push({
      code: 'coarse-ages',
      severity: 'info',
      message: `ages of 10m and more are rounded by kubectl: those times (counted back from ${formatTime(anchor)}) are good to the minute`,
      position: { file, line: 1, column: 1 },
    });
  }
  return count;
}
