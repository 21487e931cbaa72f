/**
 * Times as scenarios are written: offsets from the start (`+1m05s`), with the
 * absolute RFC3339 time kept for hover titles. The offset itself is the
 * engine's (a leaf module the webview may bundle), so the panel and the
 * command line print a time alike.
 */
import { CLOCK_TIME_IN_TEXT, formatOffset } from '../engine/model/offset';

export { formatOffset };
export { naturalCompare, naturalKey, sortNaturally } from '../protocol/naturalOrder';

/** The offset of an RFC3339 time from the scenario's start, or the time itself when either does not parse. */
export function offsetText(time: string, start: string | undefined): string {
  const t = Date.parse(time);
  const s = start ? Date.parse(start) : NaN;
  return Number.isFinite(t) && Number.isFinite(s) ? formatOffset(t - s) : time;
}

/**
 * A message cut around the clock times in it: `{text}` runs and `{text, time}` parts, `text` being the
 * offset to show and `time` the clock time for its hover. A message without a time is one run, unchanged.
 */
export function timesAsOffsets(message: string, start: string | undefined): { text: string; time?: string }[] {
  const parts: { text: string; time?: string }[] = [];
  let last = 0;
  for (const m of message.matchAll(CLOCK_TIME_IN_TEXT)) {
    const shown = offsetText(m[0], start);
    if (shown === m[0]) continue;
    if (m.index > last) parts.push({ text: message.slice(last, m.index) });
    parts.push({ text: shown, time: m[0] });
    last = m.index + m[0].length;
  }
  if (last < message.length || !parts.length) parts.push({ text: message.slice(last) });
  return parts;
}

/** The message with its clock times as offsets, each with its clock time in brackets (for a title, where nothing hovers). */
export function offsetsInText(message: string, start: string | undefined): string {
  return timesAsOffsets(message, start)
    .map((p) => (p.time ? `${p.text} (${p.time})` : p.text))
    .join('');
}
