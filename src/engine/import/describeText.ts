/**
 * What every `kubectl describe` importer reads the same way (k8s.io/kubectl/pkg/describe): times in
 * RFC1123Z with the printing machine's zone offset, a node's Ready condition row, the Events table
 * (Type, Reason, Age, From, Message, columns by the header's positions), and the warning that says
 * what its ages were read back from.
 */
import { daysFromCivil, formatTime, type Micros } from '../model/time';
import type { Problem } from '../problems';
import type { Line } from './lines';
import { parseAge } from './eventsTable';
import type { ImportOptions } from './options';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const RFC1123Z_TEXT = String.raw`\w{3}, \d{1,2} \w{3} \d{4} \d\d:\d\d:\d\d [+-]\d{4}`;

/** Every RFC1123Z time in a line. */
export const RFC1123Z_ANY = new RegExp(RFC1123Z_TEXT, 'g');

/** A node's Ready row of the Conditions table: status, LastHeartbeatTime, LastTransitionTime, Reason. */
export const READY_ROW = new RegExp(String.raw`^\s+Ready\s+(True|False|Unknown)\s+(${RFC1123Z_TEXT})\s+(${RFC1123Z_TEXT})\s+(\S+)`);

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

export interface EventRow {
  reason: string;
  /** the Age column's first value (`2m` of `2m (x3 over 10m)`: the last occurrence), undefined when not an age */
  age: Micros | undefined;
  from: string;
  message: string;
}

/** An object's Events table read line by line: its header sets the columns (where each starts), its rows are read under them. */
export class EventsTable {
  private columns?: number[];

  /** The row the line is, or undefined for the header, its rule line, blank lines and lines before the header. */
  read(text: string): EventRow | undefined {
    if (/^\s+Type\s+Reason\s+Age\s+From\s+Message/.test(text)) {
      this.columns = [...text.matchAll(/\S+/g)].map((m) => m.index!);
      return undefined;
    }
    const columns = this.columns;
    if (!columns || /^\s+-+/.test(text) || !text.trim()) return undefined;
    const cell = (i: number) => text.slice(columns[i], i + 1 < columns.length ? columns[i + 1] : undefined).trim();
    return { reason: cell(1), age: parseAge(cell(2).split(' ')[0]), from: cell(3), message: cell(4) };
  }
}

/**
 * The warning of ages read without --at: from when the text was printed by its own times
 * (`options.anchorBasis`, describeClock.ts), else from the import's clock. `what`: what was read back.
 */
export function anchorProblem(options: ImportOptions & { anchor: Micros }, what: string, file: string, line: Line): Problem {
  const position = { file, line: line.n, column: 1 };
  return options.anchorBasis
    ? {
        code: 'anchor-inferred',
        severity: 'warning',
        message: `${what} read back from ${formatTime(options.anchor)}, when it was printed by its own times: ${options.anchorBasis}; give --at if you know the time it was printed`,
        position,
      }
    : {
        code: 'anchor-assumed',
        severity: 'warning',
        message: `${what} read back from the time of the import (${formatTime(options.anchor)}): give --at, the time it was printed`,
        position,
      };
}
