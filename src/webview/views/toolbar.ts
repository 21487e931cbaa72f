import { el, replace, text } from '../dom';
import type { Host } from '../host';
import type { Store } from '../state';
import type { WebviewAction } from '../../protocol/webview';
import { offsetText } from '../time';

const BUTTONS: { action: WebviewAction; label: string; title: string }[] = [
  { action: 'reset', label: 'Reset', title: 'Start the scenario again' },
  { action: 'previousDecision', label: '⇤ Previous decision', title: 'Back to the previous pass that holds a decision' },
  { action: 'stepBack', label: '◀ Step back', title: 'Back one monitor pass' },
  { action: 'step', label: 'Step ▶', title: 'Run the next monitor pass' },
  { action: 'nextDecision', label: 'Next decision ⇥', title: 'Run until the next decision' },
  { action: 'play', label: 'Play', title: 'Step continuously' },
];

/**
 * The actions that move the position. One is under way from its click to the host's answer (an update, or an error):
 * the quick click onto the pass in which 1,667 nodes go Unknown takes the engine over a second at 5,000 nodes, and
 * the panel showed nothing meanwhile. A click meanwhile waits for it (one: the last clicked) and goes with the answer.
 */
const MOVES: ReadonlySet<WebviewAction> = new Set(['step', 'stepBack', 'nextDecision', 'previousDecision', 'reset']);

export class Toolbar {
  readonly root = el('header', { class: 'toolbar', role: 'toolbar' });
  private readonly time = el('span', { id: 'time', class: 'value' });
  private readonly pass = el('span', { id: 'pass', class: 'value' });
  private readonly version = el('span', { id: 'version', class: 'value' });
  private readonly name = el('span', { id: 'scenario-name', class: 'value' });
  private readonly settings = el('div', { id: 'settings', class: 'settings' });
  private readonly play: HTMLElement;
  private readonly runUntil = el('vscode-text-field', {
    id: 'run-until',
    // short enough to show whole in a narrow panel; the forms it takes in full on hover
    placeholder: '10m or next TaintAdded',
    title: 'Run until a time (10m, 1m30s, an RFC3339 time) or a decision (next TaintAdded on node-a1)',
  });
  private readonly whatIfKey = el('select', { id: 'whatif-key', 'aria-label': 'setting' });
  private readonly whatIfValue = el('vscode-text-field', { id: 'whatif-value', placeholder: 'new value' });
  private readonly status = el('span', { id: 'status', 'aria-live': 'polite' });
  /** shown while a move is under way (media/css/busy.css shows it after a moment: a quick step does not flash it) */
  private readonly busy = el('div', { id: 'busy', class: 'busy-bar', role: 'progressbar', 'aria-label': 'under way' });
  private readonly buttons: HTMLElement[];
  private keysShown = '';
  /** the move posted and not answered yet, and the one clicked meanwhile */
  private underWay?: WebviewAction;
  private queued?: WebviewAction;

  constructor(
    private readonly store: Store,
    private readonly host: Host,
  ) {
    const buttons = BUTTONS.map((b) => {
      const btn = el('vscode-button', { 'data-action': b.action, title: b.title, appearance: b.action === 'step' ? 'primary' : 'secondary' }, b.label);
      btn.addEventListener('click', () => this.act(b.action === 'play' && this.store.playing ? 'pause' : b.action));
      return btn;
    });
    this.buttons = buttons;
    this.busy.hidden = true;
    this.play = buttons[buttons.length - 1];
    const runBtn = el('vscode-button', { id: 'run-until-go', appearance: 'secondary' }, 'Run until');
    runBtn.addEventListener('click', () => this.submitRunUntil());
    this.runUntil.addEventListener('keydown', (e) => {
      if ((e as KeyboardEvent).key === 'Enter') this.submitRunUntil();
    });
    const whatIfBtn = el(
      'vscode-button',
      { id: 'whatif-go', appearance: 'secondary', title: 'Re-run the scenario with this setting changed and compare the traces' },
      'Re-run with',
    );
    whatIfBtn.addEventListener('click', () => {
      const key = this.whatIfKey.value;
      const value = String((this.whatIfValue as unknown as { value: string }).value ?? '').trim();
      if (key && value) this.host.post({ type: 'whatIf', key, value });
    });
    replace(
      this.root,
      this.busy,
      el('div', { class: 'row' }, ...buttons),
      el(
        'div',
        { class: 'row facts' },
        el('span', null, 'scenario ', this.name),
        el('span', null, 'time ', this.time),
        el('span', null, 'pass ', this.pass),
        el('span', null, 'Kubernetes ', this.version),
      ),
      el(
        'div',
        { class: 'row' },
        this.runUntil,
        runBtn,
        el('span', { class: 'sep' }),
        whatIfBtn,
        this.whatIfKey,
        el('span', null, '='),
        this.whatIfValue,
        this.status,
      ),
      el('details', { class: 'settings-box' }, el('summary', null, 'Settings in force'), this.settings),
    );
  }

  /** Forgets the Run-until text and a move under way (another scenario was opened). */
  reset(): void {
    (this.runUntil as unknown as { value: string }).value = '';
    this.underWay = this.queued = undefined;
    this.showBusy();
  }

  /** A toolbar action, clicked or by key: a move waits while another is under way. */
  act(action: WebviewAction): void {
    if (MOVES.has(action) && this.underWay) this.queued = action;
    else {
      if (MOVES.has(action)) this.underWay = action;
      this.host.post({ type: 'action', action });
    }
    this.showBusy();
  }

  /** The host answered (an update or an error): the move is done, and the one clicked meanwhile goes. */
  answered(): void {
    if (!this.underWay) return;
    const next = this.queued;
    this.underWay = this.queued = undefined;
    if (next) this.act(next);
    else this.showBusy();
  }

  private showBusy(): void {
    this.busy.hidden = !this.underWay;
    this.busy.setAttribute('aria-label', this.underWay ? `${this.underWay} under way${this.queued ? `, then ${this.queued}` : ''}` : '');
    if (this.underWay) this.root.setAttribute('aria-busy', 'true');
    else this.root.removeAttribute('aria-busy');
    for (const b of this.buttons) {
      const action = b.dataset.action;
      b.classList.toggle('busy', action === this.underWay);
      b.classList.toggle('queued', action === this.queued);
    }
  }

  private submitRunUntil(): void {
    const value = String((this.runUntil as unknown as { value: string }).value ?? '').trim();
    if (value) this.host.post({ type: 'runUntil', text: value });
  }

  render(): void {
    const s = this.store;
    // as scenarios are written (`at: 30s`); the clock time on hover
    text(this.time, s.time ? offsetText(s.time, s.init?.startTime) : '—');
    if (this.time.title !== s.time) this.time.title = s.time;
    text(this.pass, s.pass === null ? 'none yet' : String(s.pass));
    text(this.play, s.playing ? 'Pause' : 'Play');
    this.play.setAttribute('data-playing', String(s.playing));
    text(this.status, s.error ?? '');
    const init = s.init;
    if (!init) return;
    text(this.version, init.scenario.kubernetesVersion);
    text(this.name, init.scenario.name);
    const keys = JSON.stringify([init.whatIfKeys, init.scenario.settings, init.scenario.overrides]);
    if (keys === this.keysShown) return;
    this.keysShown = keys;
    replace(this.whatIfKey, ...init.whatIfKeys.map((k) => el('option', { value: k.key }, `${k.key} (${k.value})`)));
    replace(
      this.settings,
      el(
        'table',
        null,
        ...Object.entries(init.scenario.settings).map(([k, v]) =>
          el(
            'tr',
            { class: k in init.scenario.overrides ? 'override' : undefined },
            el('td', null, k),
            el('td', null, v),
            el('td', null, k in init.scenario.overrides ? 'what-if' : ''),
          ),
        ),
      ),
    );
  }
}
