/**
 * The panel's side of a list whose items come only for the rows in view (the
 * host's RowWindow): when the rows drawn lack items it has not asked for, it
 * asks for them and a margin around them, one request at a time per rows.
 */
import { MAX_WINDOW } from '../protocol/lists';

/** rows asked for beyond those drawn, each way: a scroll of a few screens needs no new window */
const WINDOW_MARGIN = 80;

export class WindowAsker {
  /** the window last asked for, until its answer came: rows in it are not asked for again */
  private asked = new Set<string>();
  private asking = 0;

  constructor(
    private readonly held: (ref: string) => boolean,
    private readonly post: (refs: string[]) => void,
  ) {}

  /** The rows `first` to before `end` of `refs` are drawn: asks for them when one lacks its item. `refs` may hold gaps (headings: ''). */
  shown(refs: readonly string[], first: number, end: number): void {
    let missing = false;
    for (let i = first; i < end && !missing; i++) missing = refs[i] !== '' && !this.held(refs[i]) && !this.asked.has(refs[i]);
    if (!missing) return;
    const from = Math.max(0, first - WINDOW_MARGIN);
    const window = refs
      .slice(from, Math.min(refs.length, end + WINDOW_MARGIN))
      .filter((r) => r !== '')
      .slice(0, MAX_WINDOW);
    this.asked = new Set(window);
    this.asking++;
    this.post(window);
  }

  /** An answer to a window came: once the last one has, every row may be asked for again. */
  answered(): void {
    if (this.asking > 0 && --this.asking === 0) this.asked.clear();
  }

  /** The keys changed (or another scenario): a window asked for before may name rows that went. */
  forget(all = false): void {
    this.asked.clear();
    if (all) this.asking = 0;
  }
}
