/** Composes the views over one store; every host message re-renders what it touches. */
import { el } from './dom';
import type { Host } from './host';
import { Store } from './state';
import type { HostMessage } from '../protocol/webview';
import { Toolbar } from './views/toolbar';
import { ClusterView } from './views/cluster';
import { DecisionLog } from './views/decisionLog';
import { WhyPanel } from './views/why';
import { MachinePanel } from './views/machine';
import { Timeline } from './views/timeline';
import { Notes } from './views/notes';
import { Tabs } from './views/tabs';
import { splitColumns } from './layout';
import { acceptDrops } from './views/drop';

export class App {
  readonly store = new Store();
  private readonly toolbar: Toolbar;
  private readonly cluster: ClusterView;
  private readonly log: DecisionLog;
  private readonly why: WhyPanel;
  private readonly machine: MachinePanel;
  private readonly timeline: Timeline;
  private readonly notes: Notes;
  private readonly side: Tabs;
  /** "loading NAME": while a scenario loads, in place of the one before */
  private readonly loading = el('p', { id: 'loading', class: 'loading', role: 'status', 'aria-live': 'polite' });

  constructor(
    root: HTMLElement,
    private readonly host: Host,
  ) {
    this.toolbar = new Toolbar(this.store, host);
    this.cluster = new ClusterView(this.store, host);
    this.log = new DecisionLog(this.store, host);
    this.why = new WhyPanel(this.store, host);
    this.machine = new MachinePanel(this.store, host);
    this.timeline = new Timeline(this.store, host);
    this.notes = new Notes(this.store, host);
    this.side = new Tabs([
      { id: 'why', label: 'Why', panel: this.why.root },
      {
        id: 'machine',
        label: 'Machine',
        panel: this.machine.root,
        shown: (on) => {
          this.machine.visible = on;
          this.machine.render();
        },
      },
    ]);
    const columns = el('main', { class: 'columns' }, this.cluster.root, this.log.root, el('div', { class: 'side' }, this.side.root, this.notes.root));
    splitColumns(columns);
    root.append(this.loading, this.toolbar.root, columns, this.timeline.root);
    acceptDrops(document.body, host);
    // a page made for a load under way says so from its first paint: the host's `loading`, which names the file, may
    // come only after the load (webviewHtml's flag)
    if (document.body.dataset.loading !== undefined) this.store.loading = document.body.dataset.loading = 'the scenario';
    this.render();
  }

  receive(m: HostMessage): void {
    if (m.type !== 'error') this.store.error = undefined;
    // another scenario: what the user typed for the old one goes too
    if (m.type === 'loading' || m.type === 'init') {
      this.log.reset();
      this.toolbar.reset();
      this.cluster.reset();
    }
    this.store.apply(m);
    if (m.type === 'update' || m.type === 'error') this.toolbar.answered();
    // a window's answer (a filter's, which says its filter, answers no window)
    if (m.type === 'replicaSets' || (m.type === 'nodes' && m.filter === undefined)) this.cluster.answered(m.type);
    this.render();
    if (m.type === 'select') this.cluster.reveal(m.object);
    if (m.type === 'update' || m.type === 'init' || m.type === 'select') {
      this.host.saveState({ file: this.store.init?.scenario.file, pass: this.store.pass, selected: this.store.selection.object });
    }
    document.body.dataset.pass = String(this.store.pass);
    if (this.store.loading) document.body.dataset.loading = this.store.loading;
    else delete document.body.dataset.loading;
  }

  render(): void {
    this.loading.hidden = !this.store.loading;
    this.loading.textContent = this.store.loading ? `Loading ${this.store.loading}…` : '';
    this.toolbar.render();
    this.cluster.render();
    this.log.render();
    this.why.render();
    this.machine.render();
    this.timeline.render();
    this.notes.render();
  }

  /** Keyboard stepping while the panel has focus (the extension's keybindings cover the editor side). */
  key(e: KeyboardEvent): void {
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'VSCODE-TEXT-FIELD')) return;
    const map: Record<string, () => void> = {
      ArrowRight: () => this.toolbar.act(e.shiftKey ? 'nextDecision' : 'step'),
      ArrowLeft: () => this.toolbar.act(e.shiftKey ? 'previousDecision' : 'stepBack'),
      ' ': () => this.toolbar.act(this.store.playing ? 'pause' : 'play'),
    };
    const f = map[e.key];
    if (f) {
      e.preventDefault();
      f();
    }
  }
}
