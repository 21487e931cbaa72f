/**
 * The why panel: for a decision, its checks with the values they saw, the
 * chain of causes back to the world event (each a link), the machine
 * transition and the upstream source; for an object, what happened to it and
 * why what did not happen has not (yet).
 */
import { camelCaseBreaks, el, replace, type Child } from '../dom';
import type { Host } from '../host';
import type { Store } from '../state';
import type { Check, Decision } from '../../engine/trace/decision';
import type { WhyNot, WhyNotCheck } from '../../engine/trace/whyNot';
import { offsetsInText, offsetText } from '../time';
import { timedText } from './timedText';

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** A value as text; with the scenario's start, its RFC3339 times (alone, or inside a list or object) as offsets (`+1m05s`). */
export function formatValue(v: unknown, start?: string): string {
  const time = (x: unknown): unknown => (start !== undefined && typeof x === 'string' && RFC3339.test(x) ? offsetText(x, start) : x);
  if (v === null) return 'null';
  if (v === undefined) return '';
  if (typeof v === 'object') return JSON.stringify(v, (_k, x: unknown) => time(x));
  return String(time(v));
}

export class WhyPanel {
  readonly root = el('section', { id: 'why', class: 'panel', 'aria-label': 'Why' });
  private readonly body = el('div', { id: 'why-body' });
  /** the why-not paths the user opened, by object and outcome (a re-render keeps them open) */
  private readonly openPaths = new Set<string>();

  constructor(
    private readonly store: Store,
    private readonly host: Host,
  ) {
    this.root.append(this.body);
  }

  private link(d: Decision): HTMLElement {
    const b = el(
      'button',
      { class: 'link cause', 'data-seq': d.seq, type: 'button', title: `${d.time}: ${offsetsInText(d.summary, this.store.init?.startTime)}` },
      `#${d.seq} ${offsetText(d.time, this.store.init?.startTime)} ${d.controller} ${d.action} ${d.object}`,
    );
    b.addEventListener('click', () => this.host.post({ type: 'selectDecision', seq: d.seq }));
    return b;
  }

  private objectLink(ref: string): HTMLElement {
    const b = el('button', { class: 'link object-link', 'data-ref': ref, type: 'button' }, ref);
    b.addEventListener('click', () => this.host.post({ type: 'selectObject', object: ref }));
    return b;
  }

  private values(c: Check): Child[] {
    return c.values
      ? Object.entries(c.values).flatMap(([k, v]) => [el('span', { class: 'value-pair' }, el('span', { class: 'k' }, k), '=', this.value(v)), ' '])
      : [];
  }

  /** A check's value; RFC3339 times in it read as offsets from the start (as scenarios are written), the value as the engine gave it on hover. */
  private value(v: unknown): HTMLElement {
    const exact = formatValue(v);
    const shown = formatValue(v, this.store.init?.startTime);
    return shown === exact ? el('span', { class: 'v' }, exact) : el('span', { class: 'v', title: exact }, shown);
  }

  /** A time of the why-not as an offset from the start (`+6m00s`), the clock time on hover. */
  private at(time: string): HTMLElement {
    return el('span', { class: 'time', title: time }, offsetText(time, this.store.init?.startTime));
  }

  /** When it would happen: at a time (certain), under a condition the world decides, or never unless an input changes. */
  private when(w: WhyNot): HTMLElement {
    if (w.wouldFireAt) return el('div', { class: 'why-not-when', 'data-state': 'at' }, 'would fire at ', this.at(w.wouldFireAt));
    if (w.conditional)
      return el(
        'div',
        { class: 'why-not-when', 'data-state': 'conditional' },
        'if ',
        ...timedText(w.conditional.if, this.store.init?.startTime),
        ': at ',
        this.at(w.conditional.at),
      );
    if (w.never && w.neverIf)
      return el('div', { class: 'why-not-when', 'data-state': 'never' }, 'never, if ', ...timedText(w.neverIf, this.store.init?.startTime));
    if (w.never)
      return el(
        'div',
        { class: 'why-not-when', 'data-state': 'never' },
        'never as things stand',
        w.counterfactual ? ` (it would with ${w.counterfactual.description})` : '',
      );
    return el('div', { class: 'why-not-when hint', 'data-state': 'unknown' }, 'no time can be named');
  }

  private pathCheck(c: WhyNotCheck, blocking: boolean): HTMLElement {
    return el(
      'li',
      { class: `path-check${blocking ? ' blocking' : ''}`, 'data-state': c.holds ? 'holds' : 'fails' },
      el('span', { class: 'holds', 'aria-label': c.holds ? 'holds' : 'does not hold' }, c.holds ? '✓ ' : '✗ '),
      el('span', { class: 'rule' }, (!c.holds && c.unmet) || c.rule),
      ...this.values(c),
      el('span', { class: 'upstream' }, `[${c.upstream}]`),
      el('span', { class: 'guard hint' }, ` guard ${c.guard}`),
    );
  }

  /** One why-not: what, the check that holds it back (values, upstream), when, its path (collapsible) and the node's answer under a pod's. */
  private whyNot(w: WhyNot, key: string): HTMLElement {
    const b = w.blocking;
    const blocking = b ?? w.check;
    const rule = b ? (!b.holds && b.unmet) || b.rule : w.check.rule;
    let path: HTMLElement | null = null;
    if (w.path?.length) {
      const d = el(
        'details',
        { class: 'why-not-path', open: this.openPaths.has(key) },
        el('summary', null, `Path: ${w.path.length} check${w.path.length === 1 ? '' : 's'}`),
        el('ol', { class: 'checks' }, ...w.path.map((c, i, all) => this.pathCheck(c, i === all.findIndex((x) => !x.holds)))),
      );
      d.addEventListener('toggle', () => {
        if (d.open) this.openPaths.add(key);
        else this.openPaths.delete(key);
      });
      path = d;
    }
    return el(
      'li',
      { class: 'why-not-item check', 'data-ref': w.object, 'data-status': w.outcome },
      el(
        'div',
        { class: 'why-not-head' },
        w.outcome ? el('span', { class: 'outcome chip', title: 'outcome' }, ...camelCaseBreaks(w.outcome)) : null,
        w.outcome ? ' ' : null,
        el('span', { class: 'action' }, w.what),
        ': ',
        el('span', { class: 'blocking', title: b ? `the first check that does not hold (guard ${b.guard})` : undefined }, rule),
        ' ',
        ...this.values(blocking),
        b ? el('span', { class: 'upstream' }, `[${b.upstream}]`) : null,
      ),
      this.when(w),
      ...this.wholeLists(w, key),
      path,
      w.via
        ? el(
            'div',
            { class: 'why-not-via' },
            'via ',
            w.via.object ? this.objectLink(w.via.object) : null,
            ':',
            el('ol', { class: 'via' }, this.whyNot(w.via, `${key}/via`)),
          )
        : null,
    );
  }

  /** A list the check's values cut at 20 ("and N more"), whole on demand: one collapsed list per value, its state kept as the path's. */
  private wholeLists(w: WhyNot, key: string): HTMLElement[] {
    return Object.entries(w.lists ?? {}).map(([name, items]) => {
      const id = `${key}/list/${name}`;
      const d = el(
        'details',
        { class: 'why-not-list', open: this.openPaths.has(id) },
        el('summary', null, `All ${items.length} ${name}`),
        el('ol', { class: 'whole-list' }, ...items.map((v) => el('li', null, this.value(v)))),
      );
      d.addEventListener('toggle', () => {
        if (d.open) this.openPaths.add(id);
        else this.openPaths.delete(id);
      });
      return d;
    });
  }

  private checks(cs: Check[], id: string): HTMLElement {
    return el('ol', { class: 'checks', id }, ...cs.map((c) => el('li', { class: 'check' }, el('span', { class: 'rule' }, c.rule), ...this.values(c))));
  }

  /** Where a pod came from: its ReplicaSet, the PodsCreated that made it, and the eviction it answers. */
  private lineage(): Child[] {
    const l = this.store.lineage;
    if (!l) return [];
    return [
      el('h3', null, 'Lineage'),
      el(
        'ol',
        { id: 'why-lineage', class: 'lineage' },
        el('li', { class: 'lineage-owner' }, 'owned by ', this.objectLink(l.replicaSet)),
        l.created
          ? el('li', { class: 'lineage-created' }, 'created by ', this.link(l.created))
          : el('li', { class: 'lineage-created hint' }, 'in the snapshot from the start (not created during the run)'),
        ...l.answers.map((a) =>
          el(
            'li',
            { class: 'lineage-answers' },
            a.action === 'PodEvicted' || a.action === 'ObjectDeleted' || a.action === 'PodsDeleted' ? 'replacing: ' : 'because of: ',
            this.link(a),
            ' ',
            ...timedText(a.summary, this.store.init?.startTime),
          ),
        ),
      ),
    ];
  }

  /**
   * The selection against reality: the real decision a simulated one matched (its evidence: file:line
   * and the line), or, when they differ, the likely reason.
   */
  private reality(): Child[] {
    const r = this.store.reality;
    if (!r) return [];
    const head =
      r.status === 'matched'
        ? 'Reality: matched'
        : r.status === 'onlyReal'
          ? 'Reality: only real (the simulation did not do this)'
          : 'Reality: only simulated (the evidence shows no such decision)';
    const parts: Child[] = [el('h3', null, head)];
    if (r.real) {
      const e = r.real;
      const m = /^(.*?:\d+): ([\s\S]*)$/.exec(e.evidence ?? '');
      parts.push(
        el(
          'p',
          { class: 'reality-real', id: 'why-reality-real' },
          this.at(e.at),
          ' ',
          el('span', { class: 'action' }, e.action),
          ' ',
          this.objectLink(e.object),
          e.detail ? ` ${e.detail}` : '',
          e.controller ? ` (${e.controller})` : '',
          r.status === 'matched' && r.seq !== undefined ? ` — simulated #${r.seq}, ${e.delta ?? ''}` : '',
        ),
        e.evidence
          ? el(
              'p',
              { class: 'evidence', id: 'why-evidence' },
              el('span', { class: 'evidence-where' }, m ? m[1] : ''),
              el('span', { class: 'evidence-text' }, m ? m[2] : e.evidence),
            )
          : el('p', { class: 'hint', id: 'why-evidence' }, 'No evidence line was given for this entry.'),
      );
    }
    if (r.alsoMatched?.length) {
      parts.push(
        el('p', null, `It also matched ${r.alsoMatched.length} more real decision${r.alsoMatched.length === 1 ? '' : 's'}:`),
        el(
          'ul',
          { id: 'why-reality-also' },
          ...r.alsoMatched.map((a) =>
            el('li', null, `${a.at} ${a.action} ${a.object} (${a.delta ?? ''}): `, el('span', { class: 'evidence-where' }, a.evidence ?? '')),
          ),
        ),
      );
    }
    if (r.reasons.length)
      parts.push(el('p', null, 'Likely:'), el('ul', { id: 'why-reality-reasons', class: 'reasons' }, ...r.reasons.map((x) => el('li', null, x))));
    return [
      el(
        'div',
        { id: 'why-reality', class: r.status === 'matched' ? 'matched' : r.status === 'onlyReal' ? 'only-real' : 'only-simulated', 'data-status': r.status },
        ...parts,
      ),
    ];
  }

  render(): void {
    const s = this.store;
    const parts: Child[] = [];
    if (s.decision && s.selection.seq === s.decision.decision.seq) {
      const { decision: d, chain } = s.decision;
      const world = chain.find((c) => c.controller === 'world');
      parts.push(
        el('div', { class: 'why-head', id: 'why-decision' }, el('span', { class: 'action' }, d.action), ' ', this.objectLink(d.object), ' ', this.at(d.time)),
        el('p', { class: 'summary', id: 'why-summary' }, ...timedText(d.summary, s.init?.startTime)),
        ...this.reality(),
        el('h3', null, 'Because'),
        this.checks(d.because, 'why-checks'),
        el('h3', null, 'Caused by'),
        chain.length
          ? el(
              'ol',
              { id: 'why-causes', class: 'causes' },
              ...chain.map((c) =>
                el('li', { class: c === world ? 'world-event' : undefined }, this.link(c), c === world ? el('span', { class: 'chip' }, 'world event') : null),
              ),
            )
          : el(
              'p',
              { id: 'why-causes', class: 'hint' },
              d.controller === 'world' ? 'This is a world event (the scenario).' : 'No earlier decision led to this one.',
            ),
        el('h3', null, 'Machine'),
        d.machine
          ? el(
              'p',
              { id: 'why-machine' },
              `${d.machine.id}: `,
              el('span', { class: 'state' }, d.machine.from),
              ' → ',
              el('span', { class: 'state' }, d.machine.to),
              ` on ${d.machine.event}`,
            )
          : el('p', { id: 'why-machine', class: 'hint' }, 'No machine transition.'),
        el('h3', null, 'Upstream'),
        el('p', { id: 'why-source', class: 'source' }, d.source),
        ...(s.lineage && s.selection.object === d.object ? this.lineage() : []),
      );
    } else if (s.explanation && s.selection.object === s.explanation.object) {
      const e = s.explanation;
      parts.push(el('div', { class: 'why-head', id: 'why-object' }, e.object, e.exists ? '' : ' (no longer exists)'));
      parts.push(...this.reality());
      parts.push(el('h3', null, 'What happened'));
      parts.push(
        e.happened.length
          ? el(
              'ol',
              { id: 'why-happened' },
              ...e.happened.map((h) => el('li', null, this.link(h.decision), ' ', ...timedText(h.decision.summary, s.init?.startTime))),
            )
          : el('p', { id: 'why-happened', class: 'hint' }, 'Nothing has happened to it yet.'),
      );
      parts.push(el('h3', null, 'Why not'));
      parts.push(
        e.whyNot.length
          ? el('ol', { id: 'why-not' }, ...e.whyNot.map((w, i) => this.whyNot(w, `${e.object}\u0000${w.outcome ?? i}`)))
          : el('p', { id: 'why-not', class: 'hint' }, 'Nothing is held back.'),
      );
      parts.push(...this.lineage());
    } else if (s.reality?.real) {
      // a real decision on an object the simulation does not have
      parts.push(el('div', { class: 'why-head', id: 'why-object' }, s.reality.real.object, ' (not in the simulation)'), ...this.reality());
    } else if (s.loading) {
      parts.push(el('p', { class: 'hint' }, `Loading ${s.loading}…`));
    } else if (s.waiting && s.selection.object) {
      parts.push(el('p', { id: 'why-waiting', class: 'hint' }, `Working out why for ${s.selection.object}: the start is still being prepared…`));
    } else {
      parts.push(el('p', { class: 'hint' }, 'Select a decision, node, pod, zone or ReplicaSet.'));
    }
    replace(this.body, ...parts);
  }
}
