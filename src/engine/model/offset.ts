/**
 * Times as scenarios are written: an offset from the start (`+1m05s`). The command line, the
 * extension and the webview print every time through this one formatter, so a decision reads the
 * same in a shell and in the panel. It imports nothing: the webview bundles it (the layering lets
 * the webview take the engine's leaf modules, which cannot bring the engine in with them).
 */

/**
 * Go-style, zero-padded after the first part (`+0s`, `+45s`, `+1m05s`, `+1h00m05.1s`), so a column
 * of them reads in order; milliseconds when there are some; `-…` before the start.
 */
export function formatOffset(ms: number): string {
  if (!Number.isFinite(ms)) return '';
  const sign = ms < 0 ? '-' : '+';
  let rest = Math.abs(Math.round(ms));
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = Math.floor(rest / 1000);
  const frac = rest - s * 1000;
  const sec = `${h || m ? String(s).padStart(2, '0') : s}${frac ? `.${String(frac).padStart(3, '0').replace(/0+$/, '')}` : ''}s`;
  if (h) return `${sign}${h}h${String(m).padStart(2, '0')}m${sec}`;
  if (m) return `${sign}${m}m${sec}`;
  return `${sign}${sec}`;
}

/** An RFC3339 UTC time as the trace writes it (formatTime), inside a message or a value. */
export const CLOCK_TIME_IN_TEXT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z\b/g;
