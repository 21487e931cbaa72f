/**
 * Tabs over panels that share one place (Why and Machine): the chosen one is
 * shown whole, without scrolling past the other.
 */
import { el } from '../dom';

export interface Tab {
  id: string;
  label: string;
  panel: HTMLElement;
  /** told when it is shown or hidden (a panel draws only while shown) */
  shown?(visible: boolean): void;
}

export class Tabs {
  readonly root = el('section', { class: 'tabs', id: 'side-tabs' });
  private readonly bar = el('div', { class: 'tab-bar', role: 'tablist' });
  private readonly buttons = new Map<string, HTMLElement>();
  current: string;

  constructor(private readonly tabs: Tab[]) {
    this.current = tabs[0].id;
    for (const t of tabs) {
      const b = el('button', { type: 'button', role: 'tab', id: `tab-${t.id}`, class: 'tab', 'aria-selected': 'false' }, t.label);
      b.addEventListener('click', () => this.show(t.id));
      // the tabs pattern: arrow keys move between the tabs
      b.addEventListener('keydown', (e) => {
        const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
        if (!step) return;
        e.preventDefault();
        e.stopPropagation();
        const i = this.tabs.findIndex((x) => x.id === this.current);
        const next = this.tabs[(i + step + this.tabs.length) % this.tabs.length];
        this.show(next.id);
        this.buttons.get(next.id)?.focus();
      });
      b.setAttribute('aria-controls', t.panel.id);
      t.panel.setAttribute('aria-labelledby', `tab-${t.id}`);
      this.buttons.set(t.id, b);
      this.bar.append(b);
      t.panel.setAttribute('role', 'tabpanel');
    }
    this.root.append(this.bar, ...tabs.map((t) => t.panel));
    this.show(this.current);
  }

  show(id: string): void {
    this.current = id;
    for (const t of this.tabs) {
      const on = t.id === id;
      this.buttons.get(t.id)?.setAttribute('aria-selected', String(on));
      this.buttons.get(t.id)?.setAttribute('tabindex', on ? '0' : '-1');
      t.panel.hidden = !on;
      t.shown?.(on);
    }
  }
}
