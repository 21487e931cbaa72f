/**
 * The trace for people (spec 4, `--format text`): one line a decision, in
 * aligned columns (seq, time, pass, controller, action, object, summary),
 * followed by its first `because` check with its values. Colour (ANSI) only
 * when the caller asks for it, e.g. when stdout is a terminal.
 *
 * Text from the input (names, labels, messages) may hold control characters;
 * a terminal would obey them (an ESC sequence can rewrite the screen, a
 * newline can forge a decision line), so the text format shows them escaped.
 * The JSON formats keep every string exact.
 */
import type { Check, Decision } from './decision';
import type { DecisionList } from './decisionLog';
import type { WhyNot } from './whyNot';
import { NOISE_ACTIONS } from './decision';
import { CLOCK_TIME_IN_TEXT, formatOffset } from '../model/offset';

export { formatOffset } from '../model/offset';

export interface TextOptions {
  /** ANSI colours (the command line turns this on for terminals) */
  color?: boolean;
  /** include decisions marked as noise (MonitorPass); default false */
  includeNoise?: boolean;
  /** the scenario's start (RFC3339): times are then shown relative to it, `+1m05s` */
  start?: string;
  /** cut each line to this many characters (a terminal's width), ending it with `…` */
  width?: number;
}

const ANSI = {
  reset: '\x1b[0m',
  dim: '\x1b[2m',
  bold: '\x1b[1m',
  red: '\x1b[31m',
  green: '\x1b[32m',
  yellow: '\x1b[33m',
  blue: '\x1b[34m',
  magenta: '\x1b[35m',
  cyan: '\x1b[36m',
};

const CONTROLLER_COLOR: Record<string, string> = {
  world: ANSI.cyan,
  'node-lifecycle': ANSI.yellow,
  'taint-eviction': ANSI.red,
  replicaset: ANSI.green,
  scheduler: ANSI.blue,
};

const NAMED_ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

// C0 and C1 controls, DEL, and the bidirectional overrides and isolates (which reorder what a terminal shows).
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** The text with every control character written as an escape (`\x1b`, `\n`, `\u202e`), for a terminal. */
export function escapeControl(text: string): string {
  if (!CONTROL.test(text)) return text;
  CONTROL.lastIndex = 0;
  return text.replace(CONTROL, (ch) => {
    const named = NAMED_ESCAPES[ch];
    if (named) return named;
    const code = ch.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** `rule (k=v, k=v)`: a check in one line; nested values as compact JSON. */
export function formatCheck(c: Check): string {
  if (!c.values || Object.keys(c.values).length === 0) return c.rule;
  const parts = Object.entries(c.values).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return `${c.rule} (${parts.join(', ')})`;
}

/**
 * Text for people with each clock time in it read as an offset from the start, the clock time in brackets
 * (`will be deleted at +2m10s (2026-01-01T00:02:10.000Z)`; without `bracketed`, the offset alone), as scenarios are written. The trace keeps its
 * messages as stored (spec 2.1); only what is printed for people changes.
 */
export function timesAsOffsets(text: string, startMs: number, bracketed = true): string {
  if (Number.isNaN(startMs)) return text;
  return text.replace(CLOCK_TIME_IN_TEXT, (t) => {
    const ms = Date.parse(t);
    return Number.isNaN(ms) ? t : bracketed ? `${formatOffset(ms - startMs)} (${t})` : formatOffset(ms - startMs);
  });
}

/** How many decisions the text format leaves out unless asked (the monitor-pass ticks). */
export function countNoise(trace: DecisionList): number {
  let n = 0;
  for (const d of trace) if (NOISE_ACTIONS.has(d.action)) n++;
  return n;
}

export interface TextTrace {
  text: string;
  /** decisions left out as noise */
  hidden: number;
  /** lines cut to `width` */
  cut: number;
}

/** The trace as aligned text lines (each ending in a newline). */
export function formatTraceText(trace: DecisionList, options: TextOptions = {}): string {
  return renderTraceText(trace, options).text;
}

/** formatTraceText with the counts the command line reports (hidden ticks, cut lines). */
export function renderTraceText(trace: DecisionList, options: TextOptions = {}): TextTrace {
  const shown = options.includeNoise ? trace.slice() : trace.filter((d) => !NOISE_ACTIONS.has(d.action));
  const startMs = options.start !== undefined ? Date.parse(options.start) : NaN;
  const time = Number.isNaN(startMs) ? (d: Decision) => d.time : (d: Decision) => formatOffset(Date.parse(d.time) - startMs);
  const rows = shown.map((d) => [String(d.seq), time(d), d.pass === null ? '-' : String(d.pass), d.controller, d.action, escapeControl(d.object)]);
  const widths = [0, 0, 0, 0, 0, 0];
  for (const r of rows)
    r.forEach((cell, i) => {
      if (cell.length > widths[i]) widths[i] = cell.length;
    });
  const width = options.width !== undefined && options.width > 0 ? options.width : Infinity;
  let out = '';
  let cut = 0;
  shown.forEach((d, n) => {
    const cells = rows[n].map((cell, i) => (i === 0 || i === 1 || i === 2 ? cell.padStart(widths[i]) : cell.padEnd(widths[i])));
    // the time column is an offset: the times inside messages are too (the header gives the start once)
    let summary = escapeControl(timesAsOffsets(d.summary, startMs, false));
    let why = d.because.length ? `  because ${escapeControl(timesAsOffsets(formatCheck(d.because[0]), startMs, false))}` : '';
    const prefix = `${cells.join('  ')}  `;
    if (prefix.length + summary.length + why.length > width) {
      cut++;
      if (prefix.length + 1 >= width) {
        // columns alone are wider than the terminal: cut the plain line
        out += `${(prefix + summary + why).slice(0, Math.max(0, width - 1))}…\n`;
        return;
      }
      const room = width - prefix.length - 1;
      if (summary.length >= room) {
        summary = summary.slice(0, room);
        why = '';
      } else why = why.slice(0, room - summary.length);
      why += '…';
    }
    if (options.color) {
      const c = CONTROLLER_COLOR[d.controller] ?? '';
      cells[0] = ANSI.dim + cells[0] + ANSI.reset;
      cells[1] = ANSI.dim + cells[1] + ANSI.reset;
      cells[3] = c + cells[3] + ANSI.reset;
      cells[4] = ANSI.bold + cells[4] + ANSI.reset;
      out += `${cells.join('  ')}  ${summary}${why ? ANSI.dim + why + ANSI.reset : ''}\n`;
    } else {
      out += `${prefix}${summary}${why}\n`.replace(/ +\n$/, '\n');
    }
  });
  return { text: out, hidden: trace.length - shown.length, cut };
}

/** When a why-not's outcome would happen: at a time, only under a condition, or never unless an input changes ('' when none can be named). */
export function formatWhyNotWhen(w: WhyNot): string {
  if (w.wouldFireAt) return `would fire at ${w.wouldFireAt}`;
  if (w.never && w.neverIf) return `never, if ${w.neverIf}`;
  if (w.never) return `never as things stand${w.counterfactual ? ` (it would with ${w.counterfactual.description})` : ''}`;
  if (w.conditional) return `if ${w.conditional.if}: at ${w.conditional.at}`;
  return '';
}

/** One why-not as a line: what, the check that holds it back (with its values), and when. */
export function formatWhyNot(w: WhyNot): string {
  const when = formatWhyNotWhen(w);
  return `${w.what}: ${formatCheck(w.check)}${when ? `; ${when}` : ''}`;
}
