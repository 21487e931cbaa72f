/**
 * A message of the trace as the panel shows it: the clock times the engine
 * wrote into it read as offsets from the start, as scenarios are written
 * (`will be deleted at +8m50s`), each with its clock time on hover. The
 * trace keeps its messages as stored; only the display changes.
 */
import { el, type Child } from '../dom';
import { timesAsOffsets } from '../time';

export function timedText(message: string, start: string | undefined): Child[] {
  return timesAsOffsets(message, start).map((p) => (p.time ? el('span', { class: 'time', title: p.time }, p.text) : p.text));
}
