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
import { importEvidenceFiles } from './evidence';
import { nodeFs, readChunks } from '../platform/nodeFs';
import { StepperPanel, type PanelHandler } from './panel';
import { Session, type SessionResult } from './session';

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
  private sessionSub?: { dispose(): void };
  private readonly changed = new vscode.EventEmitter<void>();
  /** fires when the session changes or moves (tree views listen) */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];

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
          this.session.post({ type: 'settings', settings: this.session.settings });
          if (this.player) this.restartPlayer();
        }
        this.changed.fire();
      }),
    );
  }

  /**
   * Opens a scenario as the user asked for it: the open panel drops the old scenario at once and says
   * "loading", and VS Code shows progress while the (synchronous) load runs.
   */
  async openWithProgress(path: string, text?: string): Promise<boolean> {
    this.pause();
    this.panel?.post({ type: 'loading', name: basename(path) });
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Controller Stepper: loading ${basename(path)}…` }, async () => {
      // let the progress and the panel's "loading" paint before the load holds the extension host
      await new Promise((r) => setTimeout(r, 50));
      const ok = this.open(path, undefined, text);
      // nothing was opened: the panel shows the scenario it had again
      if (!ok) this.session?.sendAll();
      return ok;
    });
  }

  /** Opens a scenario or snapshot in the panel (creating or reusing it). Returns false when it could not be loaded. */
  open(path: string, revive?: { panel?: vscode.WebviewPanel; pass?: number | null; selected?: string }, text?: string): boolean {
    let opened;
    try {
      opened = text !== undefined ? openScenarioText(text, path, fileAccess()) : openScenario(path, this.config.kubernetesVersion, fileAccess());
    } catch (e) {
      void vscode.window.showErrorMessage(`Controller Stepper: cannot open ${path}: ${(e as Error).message}`);
      return false;
    }
    this.pause();
    this.sessionSub?.dispose();
    const session = new Session({
      make: opened.make,
      options: opened.options,
      settings: { collapseNoise: this.config.collapseNoise, playSpeed: this.config.playSpeed },
      post: (m) => this.panel?.post(m),
    });
    this.session = session;
    this.file = path;
    this.text = text;
    this.sessionSub = session.onDidChange(() => this.changed.fire());
    const problems = session.sim.problems;
    if (problems.length) {
      this.output.appendLine(`${basename(path)}: ${problems.length} problem(s)`);
      for (const p of problems) this.output.appendLine(`  ${formatProblem(p)}`);
    }
    if (problems.some((p) => p.severity === 'error')) {
      void vscode.window.showWarningMessage(`Controller Stepper: ${basename(path)} has ${problems.filter((p) => p.severity === 'error').length} error(s); see the panel's Problems and the output channel.`);
    }
    // a saved pass is the webview's word: only a pass the simulation reaches is gone to (else it opens at the start)
    if (revive?.pass !== undefined && revive.pass !== null) {
      const problem = session.passProblem(revive.pass);
      if (problem) this.output.appendLine(`${basename(path)}: the saved position is not restored. ${problem}`);
      else session.sim.goToPass(revive.pass);
    }
    if (revive?.selected) session.selected = revive.selected;
    const title = `Stepper: ${opened.scenario.name || basename(path)}`;
    if (revive?.panel) {
      const revived = revive.panel;
      this.panel?.dispose();
      this.panel = this.attach((h) => new StepperPanel(revived, this.extensionUri, h));
    } else if (this.panel && !this.panel.isDisposed) {
      this.panel.panel.title = title;
      this.panel.reveal();
      session.sendAll();
    } else {
      this.panel = this.attach((h) => StepperPanel.create(this.extensionUri, title, h));
    }
    this.panel.panel.title = title;
    this.changed.fire();
    return true;
  }

  /** Wires a panel to the context; a panel that is no longer the current one is ignored. */
  private attach(make: (h: PanelHandler) => StepperPanel): StepperPanel {
    let me: StepperPanel | undefined;
    // eslint-disable-next-line prefer-const -- make() may call onMessage before it returns, when a const would not be initialised
    me = make({
      onMessage: (m: WebviewMessage) => {
        if (this.panel === me) this.report(this.session?.handle(m, { play: () => this.play(), pause: () => this.pause(), dropEvidence: (uris) => this.dropEvidence(uris) }));
      },
      onDispose: () => {
        if (this.panel !== me) return;
        this.pause();
        this.panel = undefined;
      },
    });
    return me;
  }

  /** Shows a failed result where the user is looking: in the panel's status line and as a status bar message. */
  report(r: SessionResult | undefined): SessionResult | undefined {
    if (!r) return r;
    if (!r.ok) {
      this.session?.post({ type: 'error', message: r.message });
      vscode.window.setStatusBarMessage(`Controller Stepper: ${r.message}`, 5000);
    } else if (r.message) {
      vscode.window.setStatusBarMessage(`Controller Stepper: ${r.message}`, 5000);
    }
    return r;
  }

  /** The session, or a message saying to open a scenario first. */
  need(): Session | undefined {
    if (!this.session) void vscode.window.showInformationMessage('Controller Stepper: open a scenario or snapshot first (Controller Stepper: Open Scenario or Snapshot…, or Open Example).');
    return this.session;
  }

  ensurePanel(): void {
    if (!this.session || !this.file) return;
    if (!this.panel || this.panel.isDisposed) this.open(this.file, { pass: this.session.sim.pass, selected: this.session.selected }, this.text);
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
    this.player = setInterval(() => {
      const s = this.session;
      if (!s) return this.pause();
      const before = s.sim.now;
      s.step();
      if (s.sim.now === before) this.pause();
    }, Math.max(20, 1000 / this.config.playSpeed));
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
  async importEvidence(paths: readonly string[]): Promise<boolean> {
    this.pause();
    const outcome = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Controller Stepper: importing ${paths.length === 1 ? basename(paths[0]) : `${paths.length} files`}…` }, async () => {
      await new Promise((r) => setTimeout(r, 50));
      return importEvidenceFiles(paths, { fs: nodeFs(), readChunks }, Date.now() * 1000);
    });
    const problems = outcome.ok ? outcome.imported.problems : outcome.problems;
    this.showImportProblems(problems);
    if (!outcome.ok) {
      const first = problems[0];
      void vscode.window.showErrorMessage(`Controller Stepper: cannot import: ${outcome.message}${first ? ` (${formatProblem(first)})` : ''}`);
      return false;
    }
    const im = outcome.imported;
    this.output.appendLine(`Imported ${im.files.length} file(s) into ${im.name}: ${im.inputs.map((i) => `${basename(i.file)} (${i.format}, ${i.lines} lines)`).join(', ')}`);
    const doc = await vscode.workspace.openTextDocument({ language: 'yaml', content: im.text });
    this.imported.set(doc.uri.toString(), im.file);
    if (!this.open(im.file, undefined, im.text)) return false;
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true, preview: false });
    if (problems.length) void vscode.window.showWarningMessage(`Controller Stepper: the import has ${problems.length} warning(s), the first: ${formatProblem(problems[0])}`);
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
      const d = new vscode.Diagnostic(new vscode.Range(line, col, line, Number.MAX_SAFE_INTEGER), p.message, p.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
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
    this.sessionSub?.dispose();
    this.panel?.dispose();
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
