/** Assumptions the loader made, problems found in the input, and the last what-if comparison. */
import { el, replace } from '../dom';
import type { Host } from '../host';
import type { Store } from '../state';
import { offsetText } from '../time';
import { timedText } from './timedText';

export class Notes {
  readonly root = el('section', { id: 'notes', class: 'panel', 'aria-label': 'Assumptions' });
  private readonly assumptions = el('ul', { id: 'assumptions' });
  private readonly problems = el('ul', { id: 'problems' });
  private readonly whatIf = el('div', { id: 'whatif' });
  /** the scenario and comparison last drawn: they change with an open and a what-if, not with a step */
  private drawn: [unknown, unknown] | undefined;

  constructor(
    private readonly store: Store,
    private readonly host: Host,
  ) {
    this.root.append(
      el('h2', null, 'Assumptions'),
      this.assumptions,
      el('h2', null, 'Problems in the input'),
      this.problems,
      el('h2', null, 'What-if'),
      this.whatIf,
    );
  }

  render(): void {
    const s = this.store;
    const init = s.init;
    if (this.drawn && this.drawn[0] === init && this.drawn[1] === s.whatIf) return;
    this.drawn = [init, s.whatIf];
    replace(
      this.assumptions,
      ...(init?.assumptions ?? []).map((a) => {
        const li = el('li', { class: 'assumption', 'data-seq': a.seq }, a.text);
        if (a.seq !== undefined) li.addEventListener('click', () => this.host.post({ type: 'selectDecision', seq: a.seq as number }));
        return li;
      }),
    );
    replace(
      this.problems,
      ...(init?.problems.length
        ? init.problems.map((p) => el('li', { class: `problem ${p.severity}` }, `${p.where ? `${p.where}: ` : ''}${p.severity} ${p.code}: ${p.message}`))
        : [el('li', { class: 'hint' }, 'none')]),
    );
    const c = s.whatIf;
    if (!c) {
      replace(this.whatIf, el('p', { class: 'hint' }, 'Change a setting in the toolbar and re-run to compare the two traces.'));
      return;
    }
    const list = (title: string, items: { time: string; action: string; object: string }[], id: string) =>
      el(
        'div',
        { id },
        el('h3', null, `${title} (${items.length})`),
        el('ul', null, ...items.slice(0, 200).map((d) => el('li', null, this.at(d.time), ` ${d.action} ${d.object}`))),
      );
    replace(
      this.whatIf,
      el(
        'p',
        { id: 'whatif-summary' },
        `${c.setting}=${c.value}, both runs until `,
        this.at(c.until),
        `: ${c.same} decisions the same, ${c.moved.length} at other times, ${c.onlyOriginal.length} only originally, ${c.onlyChanged.length} only with the change.`,
      ),
      c.firstDifference
        ? el('p', { id: 'whatif-first' }, 'First difference: ', ...timedText(c.firstDifference, this.store.init?.startTime))
        : el('p', { id: 'whatif-first' }, 'The traces are the same.'),
      el(
        'div',
        { id: 'whatif-moved' },
        el('h3', null, `At other times (${c.moved.length})`),
        el('ul', null, ...c.moved.slice(0, 200).map((m) => el('li', null, `${m.action} ${m.object}: `, this.at(m.original), ' → ', this.at(m.changed)))),
      ),
      list('Only originally', c.onlyOriginal, 'whatif-only-original'),
      list(`Only with ${c.setting}=${c.value}`, c.onlyChanged, 'whatif-only-changed'),
    );
  }

  /** A time of the what-if as an offset from the start, the clock time on hover. */
  private at(time: string): HTMLElement {
    return el('span', { class: 'time', title: time }, offsetText(time, this.store.init?.startTime));
  }
}
