/**
 * What `node --trace-gc` printed during a bench child's timed part: the lines between the `gc()`
 * the child calls just before it (a "testing" mark-compact) and the ones it calls after (heapUsed).
 * The load's time swings with how many mark-compacts V8 starts while the heap grows (bench/README.md
 * "loadfast"), so bench/ab.ts --gc prints them beside each child's time.
 */
export interface GcSummary {
  scavenges: number;
  scavengeMs: number;
  markCompacts: number;
  markCompactMs: number;
  /** the heap (MB) at the start of each mark-compact */
  markCompactAt: number[];
}

const EVENT = /: (Scavenge|Mark-Compact|Mark-sweep|Minor Mark-Compact)\S* ([\d.]+) \([\d.]+\) -> [\d.]+ \([\d.]+\) MB, ([\d.]+) \//;

export function gcInTimedPart(stdout: string): GcSummary {
  const events: { kind: string; mb: number; ms: number; testing: boolean }[] = [];
  for (const line of stdout.split('\n')) {
    const m = EVENT.exec(line);
    if (m) events.push({ kind: m[1], mb: Number(m[2]), ms: Number(m[3]), testing: line.includes('testing') });
  }
  let end = events.length;
  while (end > 0 && events[end - 1].testing) end--;
  let start = end;
  while (start > 0 && !events[start - 1].testing) start--;
  const out: GcSummary = { scavenges: 0, scavengeMs: 0, markCompacts: 0, markCompactMs: 0, markCompactAt: [] };
  for (const e of events.slice(start, end)) {
    if (e.kind === 'Scavenge') {
      out.scavenges++;
      out.scavengeMs += e.ms;
    } else {
      out.markCompacts++;
      out.markCompactMs += e.ms;
      out.markCompactAt.push(e.mb);
    }
  }
  return out;
}

export function describeGc(g: GcSummary): string {
  return `${g.markCompacts} mark-compacts ${g.markCompactMs.toFixed(0)} ms (at ${g.markCompactAt.map((mb) => mb.toFixed(0)).join(', ') || '-'} MB), ${g.scavenges} scavenges ${g.scavengeMs.toFixed(0)} ms`;
}
