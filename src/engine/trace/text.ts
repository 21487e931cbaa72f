/**
 * The trace for people (spec 4, `--format text`): one line a decision, in
 * aligned columns (seq, time, pass, controller, action, object, summary),
 * followed by its first `because` check with its values. Colour (ANSI) only
 * when the caller asks for it, e.g. when stdout is a terminal.
 */
import type { Check, Decision } from './decision';
import { NOISE_ACTIONS } from './decision';

export interface TextOptions {
  /** ANSI colours (the command line turns this on for terminals) */
  color?: boolean;
  /** include decisions marked as noise (MonitorPass); default false */
  includeNoise?: boolean;
}

const ANSI = { reset: '\x1b[0m', dim: '\x1b[2m', bold: '\x1b[1m', red: '\x1b[31m', green: '\x1b[32m', yellow: '\x1b[33m', blue: '\x1b[34m', magenta: '\x1b[35m', cyan: '\x1b[36m' };

const CONTROLLER_COLOR: Record<string, string> = {
  world: ANSI.cyan, 'node-lifecycle': ANSI.yellow, 'taint-eviction': ANSI.red, replicaset: ANSI.green, scheduler: ANSI.blue,
};

/** `rule (k=v, k=v)`: a check in one line; nested values as compact JSON. */
export function formatCheck(c: Check): string {
  if (!c.values || Object.keys(c.values).length === 0) return c.rule;
  const parts = Object.entries(c.values).map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return `${c.rule} (${parts.join(', ')})`;
}

function columns(d: Decision): string[] {
  return [String(d.seq), d.time, d.pass === null ? '-' : String(d.pass), d.controller, d.action, d.object];
}

/** The trace as aligned text lines (each ending in a newline). */
export function formatTraceText(trace: readonly Decision[], options: TextOptions = {}): string {
  const shown = options.includeNoise ? trace : trace.filter((d) => !NOISE_ACTIONS.has(d.action));
  const rows = shown.map(columns);
  const widths = [0, 0, 0, 0, 0, 0];
  for (const r of rows) r.forEach((cell, i) => { if (cell.length > widths[i]) widths[i] = cell.length; });
  let out = '';
  shown.forEach((d, n) => {
    const r = rows[n];
    const cells = r.map((cell, i) => (i === 0 || i === 2 ? cell.padStart(widths[i]) : cell.padEnd(widths[i])));
    const why = d.because.length ? `  because ${formatCheck(d.because[0])}` : '';
    if (options.color) {
      const c = CONTROLLER_COLOR[d.controller] ?? '';
      cells[0] = ANSI.dim + cells[0] + ANSI.reset;
      cells[1] = ANSI.dim + cells[1] + ANSI.reset;
      cells[3] = c + cells[3] + ANSI.reset;
      cells[4] = ANSI.bold + cells[4] + ANSI.reset;
      out += `${cells.join('  ')}  ${d.summary}${why ? ANSI.dim + why + ANSI.reset : ''}\n`;
    } else {
      out += `${cells.join('  ')}  ${d.summary}${why}\n`;
    }
  });
  return out;
}
