/**
 * The timeline scrubber over the monitor passes, with a time axis in offsets
 * from the start (`+1m`), the scenario's events marked (what the user wrote in
 * `events:`) and the passes holding decisions marked; moving the scrubber or
 * clicking a mark jumps there (goToPass).
 */
import { el, replace, text } from '../dom';
import type { Host } from '../host';
import type { Store } from '../state';
import { formatOffset } from '../time';

const DEFAULT_PERIOD_MS = 5_000;
/** axis steps a user reads at a glance, in ms */
const STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400].map((s) => s * 1000);
const MAX_TICKS = 8;
/** real marks closer than this (percent of the track) are set side by side */
const NEAR_PERCENT = 0.8;

/** The tick step for a span: the smallest "round" step that gives at most MAX_TICKS ticks. */
export function tickStep(spanMs: number): number {
  for (const s of STEPS) if (spanMs / s <= MAX_TICKS) return s;
  return Math.ceil(spanMs / MAX_TICKS / 86_400_000) * 86_400_000;
}

export class Timeline {
  readonly root = el('footer', { id: 'timeline', class: 'panel', 'aria-label': 'Timeline' });
  private readonly range = el('input', { id: 'scrubber', type: 'range', min: 0, max: 0, step: 1, value: 0, 'aria-label': 'monitor pass' });
  private readonly marks = el('div', { id: 'marks', class: 'marks' });
  private readonly events = el('div', { id: 'events', class: 'marks events', 'aria-label': 'scenario events' });
  /** the scenario's events after the last pass, named past the track's end (going there runs the passes before them) */
  private readonly later = el('button', { id: 'events-later', class: 'event-later', type: 'button' });
  private readonly axis = el('div', { id: 'axis', class: 'axis', 'aria-hidden': 'true' });
  private readonly label = el('span', { id: 'scrubber-label' });
  /** the real decisions (the scenario's `reality:`) at their times, up to now: matched, only real, only simulated */
  private readonly reality = el('div', { id: 'reality', class: 'reality-lane', 'aria-label': 'reality: the real decisions' });
  private readonly realitySummary = el('span', { id: 'reality-summary', class: 'reality-summary' });
  private realityKey = '';
  private marksKey = '';
  private axisKey = '';
  private eventsKey = '';
  /** the elements of the ticks, events and marks drawn, by what they show (see `keyed`) */
  private readonly ticks = new Map<string, HTMLElement>();
  private readonly eventMarks = new Map<string, HTMLElement>();
  private readonly passMarks = new Map<string, HTMLElement>();

  constructor(
    private readonly store: Store,
    private readonly host: Host,
  ) {
    this.range.addEventListener('input', () => text(this.label, this.passText(Number(this.range.value))));
    this.range.addEventListener('change', () => this.host.post({ type: 'goToPass', pass: Number(this.range.value) }));
    this.marks.addEventListener('click', (ev) => {
      const m = (ev.target as HTMLElement).closest('.mark') as HTMLElement | null;
      if (m?.dataset.pass) this.host.post({ type: 'goToPass', pass: Number(m.dataset.pass) });
    });
    this.later.hidden = true;
    this.events.append(this.later);
    this.events.addEventListener('click', (ev) => {
      const m = (ev.target as HTMLElement).closest('.event-mark, .event-later') as HTMLElement | null;
      if (m?.dataset.pass) this.host.post({ type: 'goToPass', pass: Number(m.dataset.pass) });
    });
    this.reality.addEventListener('click', (ev) => {
      const m = (ev.target as HTMLElement).closest('.reality-mark') as HTMLElement | null;
      if (m?.dataset.index) this.host.post({ type: 'selectReality', index: Number(m.dataset.index) });
      else if (m?.dataset.seq) this.host.post({ type: 'selectDecision', seq: Number(m.dataset.seq) });
    });
    this.root.append(
      el('div', { class: 'row' }, el('span', null, 'Timeline'), this.label, this.realitySummary),
      this.range,
      el('div', { class: 'track' }, this.events, this.marks, this.reality, this.axis),
    );
  }

  private get periodMs(): number {
    return this.store.init?.scenario.monitorPeriodMs || DEFAULT_PERIOD_MS;
  }

  private passText(pass: number | null): string {
    const max = this.max();
    // the track ends where the run has got to, not at an end of the scenario (the panel runs on as far as it is stepped):
    // "pass 2 of 2" read as the end of the simulation
    return pass === null ? 'before pass 0' : `pass ${pass}, ${formatOffset(pass * this.periodMs)} (run so far: to pass ${max})`;
  }

  private max(): number {
    return Math.max(this.store.lastPass, this.store.pass ?? 0, 1);
  }

  render(): void {
    const s = this.store;
    const max = this.max();
    const period = this.periodMs;
    this.range.max = String(max);
    if (document.activeElement !== this.range) this.range.value = String(s.pass ?? 0);
    text(this.label, this.passText(s.pass));
    const at = (pass: number) => `${Math.min(100, (pass / max) * 100)}%`;

    // every step moves the end of the track (the last pass grows): the ticks, events and marks kept are moved, not made
    // again (18 ticks and every mark were taken out and made anew at every step)
    const axisKey = `${max}\u0000${period}`;
    const moved = axisKey !== this.axisKey;
    if (moved) {
      this.axisKey = axisKey;
      const span = max * period;
      const step = tickStep(span);
      const ticks: [string, () => HTMLElement, number][] = [];
      for (let t = 0; t <= span; t += step) {
        // a label centred on a tick near the right end would stick out of the panel (the page scrolled sideways by
        // half a label): those end at their tick instead
        const cls = t > span * 0.9 ? 'tick end' : 'tick';
        const label = formatOffset(t);
        ticks.push([`${cls}\u0000${label}`, () => el('span', { class: cls }, label), t / period]);
      }
      keyed(this.axis, this.ticks, ticks, at);
    }

    const start = s.init ? Date.parse(s.init.startTime) : NaN;
    const events = (s.init?.scenario.events ?? []).map((e, i) => {
      const offset = Date.parse(e.at) - start;
      // the event applies at its instant; the first pass at or after it shows its consequences
      return { ...e, key: `${i}\u0000${e.at}\u0000${e.text}`, offset, pass: Math.max(0, Math.ceil(offset / period)) };
    });
    const eventsKey = `${axisKey}\u0000${s.init?.startTime}\u0000${events.length}\u0000${events.map((e) => `${e.at} ${e.text}`).join(',')}`;
    if (eventsKey !== this.eventsKey) {
      this.eventsKey = eventsKey;
      // an event after the track's end is not drawn at the end (it read as happening there): the marker past the end names it
      const later = events.filter((e) => e.offset > max * period);
      keyed(
        this.events,
        this.eventMarks,
        events
          .filter((e) => e.offset <= max * period)
          .map((e) => {
            const make = () =>
              el('button', {
                class: 'event-mark',
                type: 'button',
                'data-pass': e.pass,
                title: `${formatOffset(e.offset)} (${e.at}): ${e.text}`,
                'aria-label': `${formatOffset(e.offset)} ${e.text}`,
              });
            return [e.key, make, e.offset / period];
          }),
        at,
      );
      this.later.hidden = later.length === 0;
      if (later.length) {
        const first = later.reduce((a, b) => (b.offset < a.offset ? b : a));
        const what = later.map((e) => `${formatOffset(e.offset)} (${e.at}): ${e.text}`).join('; ');
        text(this.later, `${formatOffset(first.offset)} \u25b8`);
        this.later.dataset.pass = String(first.pass);
        this.later.title = `later in the scenario, past the last pass: ${what}`;
        this.later.setAttribute(
          'aria-label',
          `${later.length} later scenario event${later.length === 1 ? '' : 's'}, the first at ${formatOffset(first.offset)} ${first.text}`,
        );
      }
    }

    const marks = [...s.passMarks.entries()].sort((a, b) => a[0] - b[0]);
    const marksKey = `${axisKey}\u0000${marks.map(([p, n]) => `${p}:${n}`).join(',')}`;
    if (marksKey !== this.marksKey) {
      this.marksKey = marksKey;
      keyed(
        this.marks,
        this.passMarks,
        marks.map(([pass, n]) => {
          const title = `pass ${pass}, ${formatOffset(pass * period)}: ${n} decision${n === 1 ? '' : 's'}`;
          return [`${pass}\u0000${title}`, () => el('button', { class: 'mark', type: 'button', 'data-pass': pass, title }), pass];
        }),
        at,
      );
    }
    for (const m of Array.from(this.marks.children)) (m as HTMLElement).classList.toggle('current', Number((m as HTMLElement).dataset.pass) === s.pass);
    this.renderReality(start, at);
  }

  /** The reality lane: each real decision at or before the current time at its own time, and the simulated ones reality lacks. */
  private renderReality(start: number, at: (pass: number) => string): void {
    const s = this.store;
    const lane = s.init?.reality;
    this.reality.hidden = !lane;
    if (!lane) {
      text(this.realitySummary, '');
      this.realityKey = '';
      return;
    }
    const now = s.time ? Date.parse(s.time) : start;
    const period = this.periodMs;
    const real = lane.real.filter((r) => Date.parse(r.at) <= now);
    const onlySim = lane.onlySimulated.filter((o) => Date.parse(o.at) <= now);
    const key = `${this.axisKey}\u0000${real.length}\u0000${onlySim.length}\u0000${start}`;
    if (key !== this.realityKey) {
      this.realityKey = key;
      const pos = (iso: string) => at((Date.parse(iso) - start) / period);
      // real decisions closer than a mark's width (a pod's Events 200 ms apart) are set side by side, not on top of each other
      let prevLeft = -Infinity;
      let nudge = 0;
      replace(
        this.reality,
        ...real.map((r) => {
          const what = `${r.action} ${r.object}${r.detail ? ` ${r.detail}` : ''}`;
          const how = r.status === 'matched' ? `matched #${r.seq} (${r.delta})` : `only real: ${(r.reasons ?? []).join('; ')}`;
          const m = el('button', {
            class: `reality-mark ${r.status === 'matched' ? 'matched' : 'only-real'}`,
            type: 'button',
            'data-index': r.index,
            'data-status': r.status,
            'data-seq': r.seq,
            title: `real ${formatOffset(Date.parse(r.at) - start)} (${r.at}): ${what}; ${how}`,
            'aria-label': `real ${what}, ${r.status === 'matched' ? `matched decision ${r.seq}` : 'only real'}`,
          });
          m.style.left = pos(r.at);
          const left = parseFloat(m.style.left);
          nudge = left - prevLeft < NEAR_PERCENT ? nudge + 1 : 0;
          if (nudge === 0) prevLeft = left;
          if (nudge) m.style.marginLeft = `${nudge * 9 - 4}px`;
          return m;
        }),
        ...onlySim.map((o) => {
          const m = el('button', {
            class: 'reality-mark only-simulated',
            type: 'button',
            'data-seq': o.seq,
            'data-status': 'onlySimulated',
            title: `simulated only ${formatOffset(Date.parse(o.at) - start)} (${o.at}): #${o.seq} ${o.action} ${o.object}; ${o.reasons.join('; ')}`,
            'aria-label': `only simulated ${o.action} ${o.object}`,
          });
          m.style.left = pos(o.at);
          return m;
        }),
      );
      const matched = real.filter((r) => r.status === 'matched').length;
      text(
        this.realitySummary,
        `reality so far: ${matched} matched · ${real.length - matched} only real · ${onlySim.length} only simulated (of ${lane.real.length} real, within ${lane.tolerance})`,
      );
    }
    const selected = s.reality;
    for (const m of Array.from(this.reality.children) as HTMLElement[]) {
      const cur = selected?.real
        ? m.dataset.index === String(selected.real.index)
        : selected?.status === 'onlySimulated' && m.dataset.seq === String(selected.seq);
      m.classList.toggle('current', !!cur);
    }
  }
}

/** the `left` each kept element was given (the style reads it back normalised) */
const placed = new WeakMap<HTMLElement, string>();

/**
 * Makes `parent`'s children the elements of `items` ([key, make, position in passes]), in order: an element whose key
 * was drawn is kept (moved to its position, when the track's end moved), the others made; those no longer listed go.
 */
function keyed(parent: HTMLElement, drawn: Map<string, HTMLElement>, items: [string, () => HTMLElement, number][], at: (pass: number) => string): void {
  const keys = new Set(items.map((it) => it[0]));
  for (const [key, e] of drawn)
    if (!keys.has(key)) {
      e.remove();
      drawn.delete(key);
    }
  let prev: HTMLElement | undefined;
  for (const [key, make, pass] of items) {
    let e = drawn.get(key);
    if (!e) {
      e = make();
      drawn.set(key, e);
    }
    if ((prev ? prev.nextElementSibling : parent.firstElementChild) !== e) {
      if (prev) prev.after(e);
      else parent.prepend(e);
    }
    const left = at(pass);
    if (placed.get(e) !== left) {
      placed.set(e, left);
      e.style.left = left;
    }
    prev = e;
  }
}
