/**
 * Reads Chromium's performance trace of the webview bench (bench/webview.ts, `"trace": FILE`): for each update
 * between the prelude's marks `cs:arrived` and `cs:painted`, where the renderer's main thread spent it (self time by
 * event: script, style recalculation, layout, paint…), how many elements the style recalculations and layouts
 * touched, and which of them a script forced (a layout read after a write).
 */

export const TRACE_CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.invalidationTracking',
  'blink.user_timing',
  'v8',
];

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** the thread's CPU time in the event (a wall `dur` under load includes the time the thread waited for a CPU) */
  tdur?: number;
  pid: number;
  tid: number;
  args?: { elementCount?: number; beginData?: { dirtyObjects?: number; totalObjects?: number }; data?: { nodeName?: string; reason?: string } };
}

/** events a script runs in: a style recalculation or layout nested in one was forced by a read */
const SCRIPT = new Set(['FunctionCall', 'EvaluateScript', 'EventDispatch', 'TimerFire', 'FireAnimationFrame', 'v8.callFunction', 'RunMicrotasks']);

const ms = (us: number): string => (us / 1000).toFixed(1);

/** One line per update between the marks, the largest self times first. */
export function pageParts(trace: { traceEvents: TraceEvent[] } | TraceEvent[]): string[] {
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const marks = events.filter((e) => e.name === 'cs:arrived' || e.name === 'cs:painted').sort((a, b) => a.ts - b.ts);
  if (!marks.length) return ['no cs:arrived / cs:painted marks in the trace'];
  const { pid, tid } = marks[0];
  const main = events.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.dur !== undefined).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const invalidations = events.filter((e) => e.name === 'StyleRecalcInvalidationTracking' || e.name === 'LayoutInvalidationTracking');
  const out: string[] = [];
  for (let i = 0; i < marks.length; i++) {
    if (marks[i].name !== 'cs:arrived') continue;
    const end = marks.slice(i + 1).find((m) => m.name === 'cs:painted');
    if (!end) break;
    out.push(partOf(main, marks[i].ts, end.ts) + invalidated(invalidations, marks[i].ts, end.ts));
  }
  return out;
}

function partOf(main: TraceEvent[], from: number, to: number): string {
  const self = new Map<string, number>();
  /** by event, its self CPU time (`tdur`), summed */
  const cpu = new Map<string, number>();
  let styled = 0,
    laidOut = 0,
    forced = 0,
    forcedUs = 0;
  // the events open around the current one, to take children's time off their parents' (self time)
  const stack: { e: TraceEvent; end: number }[] = [];
  for (const e of main) {
    const end = e.ts + e.dur!;
    if (end < from || e.ts > to) continue;
    while (stack.length && stack[stack.length - 1].end <= e.ts) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) self.set(parent.e.name, (self.get(parent.e.name) ?? 0) - e.dur!);
    self.set(e.name, (self.get(e.name) ?? 0) + e.dur!);
    if (parent && parent.e.tdur !== undefined) cpu.set(parent.e.name, (cpu.get(parent.e.name) ?? 0) - (e.tdur ?? 0));
    if (e.tdur !== undefined) cpu.set(e.name, (cpu.get(e.name) ?? 0) + e.tdur);
    if (e.name === 'UpdateLayoutTree') styled += e.args?.elementCount ?? 0;
    if (e.name === 'Layout') laidOut += e.args?.beginData?.dirtyObjects ?? 0;
    if ((e.name === 'UpdateLayoutTree' || e.name === 'Layout') && stack.some((s) => SCRIPT.has(s.e.name))) {
      forced++;
      forcedUs += e.dur!;
    }
    stack.push({ e, end });
  }
  const wrapper = (name: string) => name === 'RunTask' || name === 'ThreadControllerImpl::RunTask';
  // the main thread's work in the window, the frames' waits left out: what the page's code and the browser's rendering cost
  const busy = [...self].filter(([name]) => !wrapper(name)).reduce((a, [, us]) => a + us, 0);
  const busyCpu = [...cpu].filter(([name]) => !wrapper(name)).reduce((a, [, us]) => a + us, 0);
  const part = (names: string[]) => ms(names.reduce((a, n) => a + (cpu.get(n) ?? 0), 0));
  const top = [...self]
    .filter(([name, us]) => us >= 300 && !wrapper(name))
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([name, us]) => `${name} ${ms(us)}`)
    .join(', ');
  return `${ms(to - from)} ms (busy ${ms(busy)}, CPU ${ms(busyCpu)}: script ${part([...SCRIPT, 'HandlePostMessage'])}, style ${part(['UpdateLayoutTree'])}, layout ${part(['Layout'])}, paint ${part(['PrePaint', 'Paint', 'Layerize', 'Commit'])}): ${top}; restyled ${styled} elements, laid out ${laidOut} objects${forced ? `; forced by script ${forced}× (${ms(forcedUs)} ms)` : ''}`;
}

/** What was marked for style recalculation or layout in the window, by reason and element (the most first). */
function invalidated(events: TraceEvent[], from: number, to: number): string {
  const by = new Map<string, number>();
  for (const e of events) {
    if (e.ts < from || e.ts > to) continue;
    const key = `${e.name === 'LayoutInvalidationTracking' ? 'layout' : 'style'}: ${e.args?.data?.reason ?? '?'} ${(e.args?.data?.nodeName ?? '?').slice(0, 60)}`;
    by.set(key, (by.get(key) ?? 0) + 1);
  }
  if (!by.size) return '';
  return `\n      marked: ${[...by]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 12)
    .map(([k, n]) => `${n}× ${k}`)
    .join('; ')}`;
}
