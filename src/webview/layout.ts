/**
 * Resizable columns, as VS Code's split views: a sash between two panes is
 * dragged (or moved with the arrow keys when focused) to give one more room;
 * a double click gives the columns their first widths back. The widths live in
 * the grid's template, so the panes reflow their content (the facts wrap, the
 * lists keep their rows whole) instead of being cut.
 */
import { el } from './dom';

const MIN_PANE_PX = 180;
const SASH_PX = 5;
const KEY_STEP_PX = 24;

export function splitColumns(container: HTMLElement): void {
  const panes = Array.from(container.children) as HTMLElement[];
  if (panes.length < 2) return;
  container.classList.add('split');
  let widths: number[] | undefined;
  const apply = () => {
    if (!widths) {
      container.style.gridTemplateColumns = '';
      return;
    }
    const cols = widths
      .slice(0, -1)
      .map((w) => `${Math.round(w)}px ${SASH_PX}px`)
      .join(' ');
    container.style.gridTemplateColumns = `${cols} minmax(${MIN_PANE_PX}px, 1fr)`;
  };
  const measure = () => panes.map((p) => p.getBoundingClientRect().width);
  const move = (i: number, dx: number) => {
    widths ??= measure();
    const a = widths[i] + dx,
      b = widths[i + 1] - dx;
    if (a < MIN_PANE_PX || b < MIN_PANE_PX) return;
    widths[i] = a;
    widths[i + 1] = b;
    apply();
  };
  for (let i = 0; i < panes.length - 1; i++) {
    const sash = el('div', {
      class: 'sash',
      role: 'separator',
      'aria-orientation': 'vertical',
      tabindex: 0,
      'aria-label': 'resize the columns',
      title: 'Drag to resize; double-click to reset',
    });
    panes[i].after(sash);
    sash.addEventListener('pointerdown', (ev) => {
      ev.preventDefault();
      sash.setPointerCapture(ev.pointerId);
      sash.classList.add('active');
      let x = ev.clientX;
      const onMove = (e: PointerEvent) => {
        move(i, e.clientX - x);
        x = e.clientX;
      };
      const onUp = () => {
        sash.classList.remove('active');
        sash.removeEventListener('pointermove', onMove);
        sash.removeEventListener('pointerup', onUp);
        sash.removeEventListener('pointercancel', onUp);
      };
      sash.addEventListener('pointermove', onMove);
      sash.addEventListener('pointerup', onUp);
      sash.addEventListener('pointercancel', onUp);
    });
    sash.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
        e.preventDefault();
        e.stopPropagation();
        move(i, e.key === 'ArrowLeft' ? -KEY_STEP_PX : KEY_STEP_PX);
      }
    });
    sash.addEventListener('dblclick', () => {
      widths = undefined;
      apply();
    });
  }
}
