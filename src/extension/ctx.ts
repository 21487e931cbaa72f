/**
 * The extension's context: the open session, its panel, the player, the
 * settings and the output channel. Commands are factories over this object
 * (commands.ts); extension.ts only wires.
 */
import { fileAccess } from './fileAccess';
import * as vscode from 'vscode';
import { basename } from 'node:path';
import { formatProblem, type Problem } from '../engine';
import { parsePersistedState, type WebviewMessage } from '../protocol/webview';
import { onConfigChange, readConfig, type Config } from './config';
import { openScenario, openScenarioText } from './openScenario';
import { askImportOptions, assumptionsToSettle, importEvidenceFiles, type ImportFilesOptions, type Prompter } from './evidence';
import { nodeFs, readChunks } from '../platform/nodeFs';
import { StepperPanel, type PanelHandler } from './panel';
import { Session, type SessionResult } from './session';
import { IdlePrepare } from './idlePrepare';
import { panelIdleWork, panelOwedWork } from './warmSelection';
import { loadProgressPlace, PaintWait } from './loadProgress';
import { nextPassInSlices } from './aheadAtOpen';
import { inputBytes } from '../engine/snapshot/inputSize';

export class Ctx implements vscode.Disposable {
  session?: Session;
  panel?: StepperPanel;
  file?: string;
  /** the scenario's text, when it has no file of its own (an imported scenario in an untitled editor) */
  text?: string;
  /** untitled editors holding imported scenarios, and where each is taken to live */
  readonly imported = new Map<string, string>();
  /** the problems of the last import, on the evidence files */
  readonly importProblems: vscode.DiagnosticCollection;
  config: Config = readConfig();
  readonly output: vscode.OutputChannel;
  private player?: ReturnType<typeof setInterval>;
  /** the cancellation of the long run under way (see run) */
  private running?: vscode.CancellationTokenSource;
  private sessionSub?: { dispose(): void };
  /** the panel's paint of an opened scenario, which ends the load's progress (loadProgress.ts) */
  private readonly paintWait = new PaintWait();
  /** an open's load is under way (openWithProgress): a page that says it is ready then waits for its end */
  /** the name of the scenario being loaded, while a load is under way */
  private loading?: string;
  /** the session just opened, whose run-ahead makes its first pass once the page has been sent the open (startAheadAtOpen) */
  private aheadAtOpen?: Session;
  /** the engine's preparation while the panel is idle (idlePrepare.ts), for the current session */
  private idle?: IdlePrepare;
  private readonly changed = new vscode.EventEmitter<void>();
  /** fires when the session changes or moves (tree views listen) */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  /**
   * The status bar's word on the position shown ("Ran until +5m00s", a run that found nothing): it stands
   * while that position does, and goes with the next step, jump or scenario (a timed one outlived them).
   */
  private positionNote?: { dispose(): void; at: string };

  constructor(readonly extensionUri: vscode.Uri) {
    this.output = vscode.window.createOutputChannel('Controller Stepper');
    this.importProblems = vscode.languages.createDiagnosticCollection('controller-stepper-import');
    this.disposables.push(
      this.output,
      this.importProblems,
      this.changed,
      onConfigChange(() => {
        this.config = readConfig();
        if (this.session) {
          this.session.settings = { collapseNoise: this.config.collapseNoise, playSpeed: this.config.playSpeed };
          this.session.ahead.setEnabled(this.config.runAhead);
          this.session.post({ type: 'settings', settings: this.session.settings });
          if (this.player) this.restartPlayer();
        }
        this.changed.fire();
      }),
    );
  }

  /**
   * Opens a scenario as the user asked for it: the open panel drops the old scenario at once and says
   * "loading", and VS Code shows progress while the (synchronous) load runs: a notification for a big
   * input, the status bar for a small one (loadProgress.ts), until the panel has painted the new scenario.
   */
  async openWithProgress(path: string, text?: string): Promise<boolean> {
    this.pause();
    // A window without the panel gets it now, marked loading, not after the load (9 s at 5,000 nodes in code-server,
    // with nothing on screen but the notification): its page boots while the load holds the extension host.
    const made = !this.panel || this.panel.isDisposed;
    if (made) this.panel = this.attach((h) => StepperPanel.create(this.extensionUri, `Stepper: loading ${basename(path)}`, h, true));
    this.loading = basename(path);
    this.panel?.post({ type: 'loading', name: this.loading });
    try {
      return await this.loadWithProgress(path, text, made);
    } finally {
      this.loading = undefined;
    }
  }

  private async loadWithProgress(path: string, text: string | undefined, made: boolean): Promise<boolean> {
    const notify = loadProgressPlace(inputBytes(path, nodeFs(), text)) === 'notification';
    return vscode.window.withProgress(
      {
        location: notify ? vscode.ProgressLocation.Notification : vscode.ProgressLocation.Window,
        title: `Controller Stepper: loading ${basename(path)}…`,
        cancellable: notify,
      },
      async (_progress, token) => {
        // let the progress and the panel's "loading" paint before the load holds the extension host: a panel made for this
        // load is waited for until its page is ready (about 0.1 s; at most 5 s: at load 7-9 on two cores a page took
        // over 1 s), else its "loading" could come too early for it and its `ready` only after the load; the page says
        // "Loading…" from its HTML meanwhile (webviewHtml's flag), and names the file once told
        if (made) await this.panel?.whenReady(5000);
        await new Promise((r) => setTimeout(r, 50));
        const painted = this.paintWait.expect();
        // the load itself is one synchronous parse: a Cancel is heard before it, or keeps the scenario shown before
        const ok = !token.isCancellationRequested && this.open(path, undefined, text, () => token.isCancellationRequested);
        // from here a page that says it is ready is sent what is open
        this.loading = undefined;
        // nothing was opened: a panel made for this load goes (the one before was closed), else it shows its scenario again
        if (!ok) {
          if (made) this.panel?.dispose();
          else this.session?.sendAll();
        }
        // the progress ends with the paint of the new scenario (a panel out of sight paints nothing; one made for this
        // load is in sight, though the extension host, held by the load, may not have heard so yet)
        else if (made || this.panel?.panel.visible) await painted;
        return ok;
      },
    );
  }

  /** Opens a scenario or snapshot in the panel (creating or reusing it). Returns false when it could not be loaded. */
  open(path: string, revive?: { panel?: vscode.WebviewPanel; pass?: number | null; selected?: string }, text?: string, cancelled?: () => boolean): boolean {
    let opened;
    try {
      opened = text !== undefined ? openScenarioText(text, path, fileAccess()) : openScenario(path, this.config.kubernetesVersion, fileAccess());
    } catch (e) {
      void vscode.window.showErrorMessage(`Controller Stepper: cannot open ${path}: ${(e as Error).message}`);
      return false;
    }
    if (cancelled?.()) return false;
    this.pause();
    this.sessionSub?.dispose();
    this.idle?.dispose();
    this.session?.close();
    const idle = (this.idle = new IdlePrepare(
      panelIdleWork(() => session),
      () => session.slices.running,
      undefined,
      undefined,
      panelOwedWork(() => session),
    ));
    const session = new Session({
      make: opened.make,
      options: opened.options,
      settings: { collapseNoise: this.config.collapseNoise, playSpeed: this.config.playSpeed },
      runAhead: this.config.runAhead,
      post: (m) => {
        this.panel?.post(m);
        idle.arm();
      },
    });
    this.session = session;
    this.file = path;
    this.text = text;
    this.dropPositionNote();
    this.sessionSub = session.onDidChange(() => {
      if (this.positionNote && this.positionNote.at !== this.positionKey()) this.dropPositionNote();
      this.changed.fire();
    });
    const problems = session.sim.problems;
    if (problems.length) {
      this.output.appendLine(`${basename(path)}: ${problems.length} problem(s)`);
      for (const p of problems) this.output.appendLine(`  ${formatProblem(p)}`);
    }
    if (problems.some((p) => p.severity === 'error')) {
      void vscode.window.showWarningMessage(
        `Controller Stepper: ${basename(path)} has ${problems.filter((p) => p.severity === 'error').length} error(s); see the panel's Problems and the output channel.`,
      );
    }
    // a saved pass is the webview's word: only a pass the simulation reaches is gone to (else it opens at the start)
    if (revive?.pass !== undefined && revive.pass !== null) {
      const problem = session.passProblem(revive.pass);
      if (problem) this.output.appendLine(`${basename(path)}: the saved position is not restored. ${problem}`);
      else session.sim.goToPass(revive.pass);
    }
    if (revive?.selected) session.selected = revive.selected;
    this.aheadAtOpen = this.config.runAhead ? session : undefined;
    const title = `Stepper: ${opened.scenario.name || basename(path)}`;
    if (revive?.panel) {
      const revived = revive.panel;
      this.panel?.dispose();
      this.panel = this.attach((h) => new StepperPanel(revived, this.extensionUri, h));
    } else if (this.panel && !this.panel.isDisposed) {
      this.panel.panel.title = title;
      this.panel.reveal();
      // a page made for this load and still booting asks for everything when it is ready (Session.handle's `ready`)
      if (this.panel.ready) {
        session.sendAll();
        this.startAheadAtOpen();
      }
    } else {
      this.panel = this.attach((h) => StepperPanel.create(this.extensionUri, title, h));
    }
    this.panel.panel.title = title;
    this.changed.fire();
    return true;
  }

  /** The run-ahead's first pass for the session just opened, once the open's messages are posted (aheadAtOpen.ts). */
  private startAheadAtOpen(): void {
    const s = this.aheadAtOpen;
    this.aheadAtOpen = undefined;
    if (s) nextPassInSlices(s, () => this.session === s);
  }

  /** Wires a panel to the context; a panel that is no longer the current one is ignored. */
  private attach(make: (h: PanelHandler) => StepperPanel): StepperPanel {
    let me: StepperPanel | undefined;
    // eslint-disable-next-line prefer-const -- make() may call onMessage before it returns, when a const would not be initialised
    me = make({
      onMessage: (m: WebviewMessage) => {
        if (this.panel !== me) return;
        // a page made for a load that is under way is told so (a `loading` posted before it listened is lost), and is sent
        // the new scenario once it is opened (open), not the old one
        if (m.type === 'ready' && this.loading !== undefined) {
          me!.post({ type: 'loading', name: this.loading });
          return;
        }
        if (m.type === 'painted') this.paintWait.painted();
        void this.run((s) => s.handle(m, { play: () => this.play(), pause: () => this.pause(), dropEvidence: (uris) => this.dropEvidence(uris) }));
        if (m.type === 'ready') this.startAheadAtOpen();
      },
      onDispose: () => {
        if (this.panel !== me) return;
        this.pause();
        this.panel = undefined;
      },
    });
    return me;
  }

  /**
   * Runs a session call that may run the engine long (Run Until, a pass far ahead, a what-if, a
   * 100,000-replica scale-up): the engine runs in slices, and when the first slice does not finish it
   * VS Code shows a cancellable progress; Cancel leaves the run where it stopped. The extension host
   * takes its events between slices, so it never freezes for longer than one.
   */
  async run(call: (s: Session) => SessionResult): Promise<SessionResult | undefined> {
    const s = this.session;
    if (!s) return undefined;
    // a second run while one is under way: it is refused, and the first one's slicing is left alone
    if (s.slices.running) return this.report(call(s));
    const source = new vscode.CancellationTokenSource();
    this.running = source;
    s.slices.begin(source.token);
    try {
      let r = call(s);
      if (r.ok && r.pending) {
        r = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: 'Controller Stepper: running', cancellable: true },
          (progress, token) => {
            token.onCancellationRequested(() => source.cancel());
            return s.finishLong(source.token, (at) => progress.report({ message: `at ${at}` }));
          },
        );
      }
      return this.report(r);
    } finally {
      s.slices.end();
      if (this.running === source) this.running = undefined;
      source.dispose();
    }
  }

  /** Cancels the long run under way, as its progress notification's Cancel does. */
  cancelRun(): boolean {
    if (!this.running) return false;
    this.running.cancel();
    return true;
  }

  /** Shows a failed result where the user is looking: in the panel's status line and as a status bar message. */
  report(r: SessionResult | undefined): SessionResult | undefined {
    if (!r) return r;
    if (!r.ok) this.session?.post({ type: 'error', message: r.message });
    if (r.message) {
      this.dropPositionNote();
      const shown = vscode.window.setStatusBarMessage(`Controller Stepper: ${r.message}`);
      this.positionNote = { dispose: () => shown.dispose(), at: this.positionKey() };
    }
    return r;
  }

  private positionKey(): string {
    // (the shown position, not its simulation, which may be still being made: swapAtOpen.ts)
    return this.session ? `${this.session.shown.pass}@${this.session.shown.now}` : '';
  }

  private dropPositionNote(): void {
    this.positionNote?.dispose();
    this.positionNote = undefined;
  }

  /** The session, or a message saying to open a scenario first. */
  need(): Session | undefined {
    if (!this.session)
      void vscode.window.showInformationMessage(
        'Controller Stepper: open a scenario or snapshot first (Controller Stepper: Open Scenario or Snapshot…, or Open Example).',
      );
    return this.session;
  }

  ensurePanel(): void {
    const s = this.session;
    if (!s || !this.file) return;
    // The session stays, with its position, selection and run-ahead: the new page is sent all of it when it says it
    // is ready, as a page made again when its tab comes back is. (The scenario was loaded again: 8 s at 5,000 nodes,
    // with no progress shown, on a Step after closing the panel.)
    if (!this.panel || this.panel.isDisposed)
      this.panel = this.attach((h) => StepperPanel.create(this.extensionUri, `Stepper: ${s.scenario.name || basename(this.file!)}`, h));
    else this.panel.reveal();
  }

  get playing(): boolean {
    return this.player !== undefined;
  }

  play(): void {
    if (this.player || !this.session) return;
    this.restartPlayer();
    this.session.post({ type: 'playing', playing: true });
  }

  private restartPlayer(): void {
    if (this.player) clearInterval(this.player);
    this.player = setInterval(
      () => {
        const s = this.session;
        if (!s) return this.pause();
        const before = s.shown.now;
        s.step();
        if (s.shown.now === before) this.pause();
      },
      Math.max(20, 1000 / this.config.playSpeed),
    );
  }

  pause(): void {
    if (!this.player) return;
    clearInterval(this.player);
    this.player = undefined;
    this.session?.post({ type: 'playing', playing: false });
  }

  /**
   * Imports evidence (files or folders) into a scenario: its problems go to the Problems view (on the
   * evidence files, at their lines) and the output channel; the scenario opens in an untitled YAML
   * editor (readable, editable: Open Scenario on it runs the edited text) and in the stepping panel.
   */
  async importEvidence(paths: readonly string[], options: Omit<ImportFilesOptions, 'now'> = {}): Promise<boolean> {
    this.pause();
    const now = Date.now() * 1000;
    const outcome = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `Controller Stepper: importing ${paths.length === 1 ? basename(paths[0]) : `${paths.length} files`}…`,
      },
      async () => {
        await new Promise((r) => setTimeout(r, 50));
        return importEvidenceFiles(paths, { fs: nodeFs(), readChunks }, now, options);
      },
    );
    // the CLI's --at and --version, offered when the evidence left them to assume (not awaited: nothing waits on the answer)
    const settle = assumptionsToSettle(outcome, now);
    if (settle) {
      void vscode.window.showInformationMessage(settle.message, ...settle.buttons).then(async (button) => {
        const next = button && (await askImportOptions(vscodePrompter, button, options));
        if (next) await this.importEvidence(paths, next);
      });
    }
    const problems = outcome.ok ? outcome.imported.problems : outcome.problems;
    this.showImportProblems(problems);
    if (!outcome.ok) {
      const first = problems.find((p) => p.severity === 'error') ?? problems[0];
      void vscode.window.showErrorMessage(`Controller Stepper: cannot import: ${outcome.message}${first ? ` (${formatProblem(first)})` : ''}`);
      return false;
    }
    const im = outcome.imported;
    this.output.appendLine(
      `Imported ${im.files.length} file(s) into ${im.name}: ${im.inputs.map((i) => `${basename(i.file)} (${i.format}, ${i.lines} lines)`).join(', ')}`,
    );
    const doc = await vscode.workspace.openTextDocument({ language: 'yaml', content: im.text });
    this.imported.set(doc.uri.toString(), im.file);
    if (!this.open(im.file, undefined, im.text)) return false;
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: false });
    if (problems.length)
      void vscode.window.showWarningMessage(`Controller Stepper: the import has ${problems.length} warning(s), the first: ${formatProblem(problems[0])}`);
    return true;
  }

  /** Files dropped onto the panel (their URIs, from the webview): imported as evidence. */
  dropEvidence(uris: readonly string[]): SessionResult {
    const paths: string[] = [];
    for (const u of uris) {
      try {
        const uri = vscode.Uri.parse(u, true);
        if (uri.scheme === 'file') paths.push(uri.fsPath);
      } catch {
        // not a URI: skipped
      }
    }
    if (!paths.length) return { ok: false, message: 'Drop files or folders from the explorer (with Shift held) to import them as evidence.' };
    void this.importEvidence(paths);
    return { ok: true, message: `Importing ${paths.length} dropped file(s)…` };
  }

  private showImportProblems(problems: readonly Problem[]): void {
    this.importProblems.clear();
    const byFile = new Map<string, vscode.Diagnostic[]>();
    for (const p of problems) {
      this.output.appendLine(`  ${formatProblem(p)}`);
      if (!p.position) continue;
      const line = Math.max(0, p.position.line - 1);
      const col = Math.max(0, p.position.column - 1);
      const d = new vscode.Diagnostic(
        new vscode.Range(line, col, line, Number.MAX_SAFE_INTEGER),
        p.message,
        p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning,
      );
      d.code = p.code;
      d.source = 'controller-stepper import';
      byFile.set(p.position.file, [...(byFile.get(p.position.file) ?? []), d]);
    }
    for (const [file, ds] of byFile) this.importProblems.set(vscode.Uri.file(file), ds);
  }

  /** The serializer: revives the panel after a reload from the state the webview saved. */
  serializer(): vscode.WebviewPanelSerializer {
    return {
      deserializeWebviewPanel: async (panel, raw) => {
        const state = parsePersistedState(raw);
        if (!state.file || !this.open(state.file, { panel, pass: state.pass, selected: state.selected })) panel.dispose();
      },
    };
  }

  dispose(): void {
    this.pause();
    this.dropPositionNote();
    this.sessionSub?.dispose();
    this.idle?.dispose();
    this.session?.close();
    this.panel?.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}

/** The Import Evidence questions, asked with VS Code's QuickPick and InputBox. */
const vscodePrompter: Prompter = {
  pick: async (title, items) =>
    (
      await vscode.window.showQuickPick(
        items.map((i) => ({ label: i.label, description: i.description, value: i.value })),
        { title, ignoreFocusOut: true },
      )
    )?.value,
  input: async (title, placeHolder, validate) => vscode.window.showInputBox({ title, placeHolder, ignoreFocusOut: true, validateInput: validate }),
};
