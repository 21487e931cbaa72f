/**
 * The timeline scrubber over the monitor passes: the passes holding decisions
 * are marked; moving the scrubber or clicking a mark jumps there (goToPass).
 */
import { el, replace } from '../dom';
import type { Host } from '../host';
import type { Store } from '../state';

export class Timeline {
  readonly root = el('footer', { id: 'timeline', class: 'panel', 'aria-label': 'Timeline' });
  private readonly range = el('input', { id: 'scrubber', type: 'range', min: 0, max: 0, step: 1, value: 0, 'aria-label': 'monitor pass' });
  private readonly marks = el('div', { id: 'marks', class: 'marks' });
  private readonly label = el('span', { id: 'scrubber-label' });

  constructor(private readonly store: Store, private readonly host: Host) {
    this.range.addEventListener('input', () => this.label.replaceChildren(`pass ${this.range.value}`));
    this.range.addEventListener('change', () => this.host.post({ type: 'goToPass', pass: Number(this.range.value) }));
    this.root.append(el('div', { class: 'row' }, el('span', null, 'Timeline'), this.label), this.range, this.marks);
  }

  render(): void {
    const s = this.store;
    const max = Math.max(s.lastPass, s.pass ?? 0, 1);
    this.range.max = String(max);
    if (document.activeElement !== this.range) this.range.value = String(s.pass ?? 0);
    this.label.replaceChildren(s.pass === null ? 'before pass 0' : `pass ${s.pass} of ${max}`);
    const marks = [...s.passMarks.entries()].sort((a, b) => a[0] - b[0]);
    replace(this.marks, ...marks.map(([pass, n]) => {
      const m = el('button', { class: `mark${pass === s.pass ? ' current' : ''}`, type: 'button', 'data-pass': pass, title: `pass ${pass}: ${n} decision${n === 1 ? '' : 's'}` });
      m.style.left = `${(pass / max) * 100}%`;
      m.addEventListener('click', () => this.host.post({ type: 'goToPass', pass }));
      return m;
    }));
  }
}
