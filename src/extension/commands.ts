/**
 * The commands, each a factory over the context. Arguments, when given (the
 * explorer/editor menus pass a Uri, the tree views pass a ref, tests pass
 * values), skip the prompts; results are returned so tests can check them.
 */
import * as vscode from 'vscode';
import { basename, dirname, join } from 'node:path';
import { readdirSync } from 'node:fs';
import { stringify as toYaml } from 'yaml';
import { formatTime, formatWhyNot, timesAsOffsets, traceToJsonLines, type Explanation } from '../engine';
import { explainShown, objectPickOf, stateShown } from './afterStart';
import type { WhatIfComparison } from '../protocol/webview';
import type { Ctx } from './ctx';
import { parseRunUntil } from './runUntil';
import type { Session, SessionResult } from './session';
import { COMMAND, type CommandKey } from './commandIds';

export interface Status {
  file?: string;
  scenario?: string;
  pass: number | null;
  time?: string;
  trace: number;
  panelOpen: boolean;
  playing: boolean;
  selected?: string;
}

type Factory = (ctx: Ctx) => (...args: never[]) => unknown;

const SCENARIO_FILTERS = { 'Scenarios and snapshots': ['yaml', 'yml', 'json'], 'All files': ['*'] };

function status(ctx: Ctx): Status {
  const s = ctx.session;
  return {
    file: ctx.file,
    scenario: s?.scenario.name,
    pass: s ? s.shown.pass : null,
    time: s ? formatTime(s.shown.now) : undefined,
    trace: s ? s.shown.trace.length : 0,
    panelOpen: !!ctx.panel && !ctx.panel.isDisposed,
    playing: ctx.playing,
    selected: s?.selected,
  };
}

/** Runs a session method and reports the result; returns the status after it. */
const stepping = (run: (s: Session) => SessionResult) => (ctx: Ctx) => async (): Promise<Status & { result?: SessionResult }> => {
  if (!ctx.need()) return status(ctx);
  ctx.ensurePanel();
  const result = await ctx.run(run);
  return { ...status(ctx), result };
};

function examplesDir(ctx: Ctx): string {
  return vscode.Uri.joinPath(ctx.extensionUri, 'examples').fsPath;
}

async function pickObject(ctx: Ctx, placeHolder: string): Promise<string | undefined> {
  const s = ctx.session;
  if (!s) return undefined;
  // (a Thenable: the quick pick shows its progress while the start is made, swapAtOpen.ts)
  const items: Thenable<vscode.QuickPickItem[]> = objectPickOf(s).then((x) => x ?? []);
  const picked = await vscode.window.showQuickPick(items, { placeHolder, matchOnDescription: true, ignoreFocusOut: true });
  return picked?.label;
}

export const COMMANDS: Record<CommandKey, Factory> = {
  open:
    (ctx) =>
    async (uri?: vscode.Uri): Promise<boolean> => {
      let target = uri instanceof vscode.Uri ? uri : undefined;
      if (!target) {
        const doc = vscode.window.activeTextEditor?.document;
        const picked = await vscode.window.showOpenDialog({
          canSelectFiles: true,
          canSelectFolders: true,
          canSelectMany: false,
          openLabel: 'Step through',
          filters: SCENARIO_FILTERS,
          defaultUri: doc && doc.uri.scheme === 'file' ? vscode.Uri.file(dirname(doc.uri.fsPath)) : undefined,
        });
        target = picked?.[0];
      }
      if (!target) return false;
      // an imported scenario in its untitled editor, perhaps edited: run the text as it is now
      if (target.scheme === 'untitled') {
        const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === target!.toString());
        const file = ctx.imported.get(target.toString());
        if (!doc || !file) return false;
        return ctx.openWithProgress(file, doc.getText());
      }
      return ctx.openWithProgress(target.fsPath);
    },

  importEvidence:
    (ctx) =>
    async (uri?: vscode.Uri | string, selected?: (vscode.Uri | string)[]): Promise<boolean> => {
      // the explorer passes the clicked item and the selection; tests pass paths
      const given = (Array.isArray(selected) && selected.length ? selected : uri !== undefined ? [uri] : [])
        .map((u) => (u instanceof vscode.Uri ? u.fsPath : typeof u === 'string' ? u : undefined))
        .filter((p): p is string => !!p);
      let paths = given;
      if (!paths.length) {
        const picked = await vscode.window.showOpenDialog({
          canSelectFiles: true,
          canSelectFolders: true,
          canSelectMany: true,
          openLabel: 'Import evidence',
          title: 'Evidence: kube-controller-manager logs, kubectl get events, audit logs, describe node, cluster-info dump (files or folders)',
        });
        paths = (picked ?? []).map((u) => u.fsPath);
      }
      if (!paths.length) return false;
      return ctx.importEvidence(paths);
    },

  openExample:
    (ctx) =>
    async (name?: string): Promise<boolean> => {
      const dir = examplesDir(ctx);
      let files: string[] = [];
      try {
        files = readdirSync(dir)
          .filter((f) => /\.ya?ml$/.test(f))
          .sort();
      } catch {
        files = [];
      }
      if (!files.length) {
        void vscode.window.showErrorMessage('Controller Stepper: no examples found in the extension.');
        return false;
      }
      let file = typeof name === 'string' ? files.find((f) => f === name || f.replace(/\.ya?ml$/, '') === name) : undefined;
      if (!file) {
        const picked = await vscode.window.showQuickPick(
          files.map((f) => ({ label: f.replace(/\.ya?ml$/, ''), description: f })),
          { placeHolder: 'Open an example scenario', ignoreFocusOut: true },
        );
        file = picked?.description;
      }
      if (!file) return false;
      return ctx.openWithProgress(join(dir, file));
    },

  step: stepping((s) => s.step()),
  stepBack: stepping((s) => s.stepBack()),
  nextDecision: stepping((s) => s.nextDecision()),
  previousDecision: stepping((s) => s.previousDecision()),
  reset: stepping((s) => s.reset()),

  runUntil:
    (ctx) =>
    async (text?: string): Promise<Status & { result?: SessionResult }> => {
      const s = ctx.need();
      if (!s) return status(ctx);
      let input = typeof text === 'string' ? text : undefined;
      if (input === undefined) {
        input = await vscode.window.showInputBox({
          title: 'Run Until',
          prompt: 'A time (10m from the start, or RFC3339) or a decision (next TaintAdded on node-a1)',
          placeHolder: 'next TaintAdded on node-a1',
          // the panel's webview takes focus when it finishes loading, which would close the box under the user's typing
          ignoreFocusOut: true,
          validateInput: (v) => {
            const r = parseRunUntil(v, s.startTime);
            return r.ok ? undefined : r.message;
          },
        });
      }
      if (input === undefined) return status(ctx);
      ctx.ensurePanel();
      const result = await ctx.run((x) => x.runUntil(input));
      return { ...status(ctx), result };
    },

  togglePlay: (ctx) => (): Status => {
    if (!ctx.need()) return status(ctx);
    ctx.ensurePanel();
    if (ctx.playing) ctx.pause();
    else ctx.play();
    return status(ctx);
  },

  explainObject:
    (ctx) =>
    async (ref?: string): Promise<Explanation | undefined> => {
      const s = ctx.need();
      if (!s) return undefined;
      const object = typeof ref === 'string' ? ref : await pickObject(ctx, 'Explain which object?');
      if (!object) return undefined;
      ctx.ensurePanel();
      s.selectObject(object);
      const e = await explainShown(s, object);
      if (!e) return undefined;
      // times as offsets from the start, the clock time in brackets, as `explain` prints them
      const start = s.startTime / 1000;
      ctx.output.appendLine(`Explain ${object} at ${timesAsOffsets(formatTime(s.shown.now), start)}`);
      for (const h of e.happened)
        ctx.output.appendLine(
          timesAsOffsets(
            `  ${h.decision.time} ${h.decision.action}: ${h.decision.summary}${h.chain.length ? ` (after ${h.chain.map((c) => c.action).join(' → ')})` : ''}`,
            start,
          ),
        );
      // as `explain` prints it (a pod's check already carries its node's answer)
      for (const w of e.whyNot) ctx.output.appendLine(`  not ${timesAsOffsets(formatWhyNot(w), start)}`);
      return e;
    },

  whatIf:
    (ctx) =>
    async (key?: string, value?: string): Promise<WhatIfComparison | undefined> => {
      const s = ctx.need();
      if (!s) return undefined;
      let k = typeof key === 'string' ? key : undefined;
      if (!k) {
        const keys = s.initMessage().whatIfKeys;
        const picked = await vscode.window.showQuickPick(
          keys.map((x) => ({ label: x.key, description: `now ${x.value}` })),
          { placeHolder: 'Which setting to change?', ignoreFocusOut: true },
        );
        k = picked?.label;
      }
      if (!k) return undefined;
      let v = typeof value === 'string' ? value : undefined;
      if (v === undefined)
        v = await vscode.window.showInputBox({ title: `Re-run with ${k} =`, value: s.scenarioInfo().settings[k] ?? '', ignoreFocusOut: true });
      if (v === undefined) return undefined;
      ctx.ensurePanel();
      const r = await ctx.run((x) => x.whatIf(k, v));
      if (r?.ok && s.lastComparison) {
        const c = s.lastComparison;
        ctx.output.appendLine(`What-if ${k}=${v} until ${c.until}: ${r.message}`);
        if (c.firstDifference) ctx.output.appendLine(`  first difference: ${c.firstDifference}`);
        return c;
      }
      return undefined;
    },

  exportTrace:
    (ctx) =>
    async (uri?: vscode.Uri): Promise<string | undefined> => {
      const s = ctx.need();
      if (!s || !ctx.file) return undefined;
      const target =
        uri instanceof vscode.Uri
          ? uri
          : await vscode.window.showSaveDialog({
              defaultUri: vscode.Uri.file(join(dirname(ctx.file), `${basename(ctx.file).replace(/\.(ya?ml|json)$/, '')}.trace.jsonl`)),
              filters: { 'JSON Lines': ['jsonl'] },
            });
      if (!target) return undefined;
      await vscode.workspace.fs.writeFile(target, Buffer.from(traceToJsonLines(s.shown.trace), 'utf8'));
      vscode.window.setStatusBarMessage(`Controller Stepper: trace written to ${target.fsPath}`, 5000);
      return target.fsPath;
    },

  exportState:
    (ctx) =>
    async (uri?: vscode.Uri, format?: string): Promise<string | undefined> => {
      const s = ctx.need();
      if (!s || !ctx.file) return undefined;
      const formats = [
        { label: 'List (YAML)', id: 'yaml', description: 'the objects as kubectl get -o yaml prints them' },
        { label: 'List (JSON)', id: 'json', description: 'the objects as kubectl get -o json prints them' },
        { label: 'State (JSON)', id: 'state', description: 'time, zones and objects, as controller-stepper replay --output state --format json' },
      ];
      const f =
        typeof format === 'string'
          ? formats.find((x) => x.id === format)
          : await vscode.window.showQuickPick(formats, { placeHolder: 'Export the state as', ignoreFocusOut: true });
      if (!f) return undefined;
      const ext = f.id === 'yaml' ? 'yaml' : 'json';
      const target =
        uri instanceof vscode.Uri
          ? uri
          : await vscode.window.showSaveDialog({
              defaultUri: vscode.Uri.file(join(dirname(ctx.file), `${basename(ctx.file).replace(/\.(ya?ml|json)$/, '')}.state.${ext}`)),
            });
      if (!target) return undefined;
      const state = await stateShown(s);
      if (!state) return undefined;
      const text = f.id === 'yaml' ? toYaml(state.objects) : `${JSON.stringify(f.id === 'state' ? state : state.objects, null, 2)}\n`;
      await vscode.workspace.fs.writeFile(target, Buffer.from(text, 'utf8'));
      vscode.window.setStatusBarMessage(`Controller Stepper: state written to ${target.fsPath}`, 5000);
      return target.fsPath;
    },

  showPanel: (ctx) => (): Status => {
    if (ctx.need()) ctx.ensurePanel();
    return status(ctx);
  },

  selectObject:
    (ctx) =>
    (ref?: string): Status => {
      const s = ctx.session;
      if (s && typeof ref === 'string') {
        ctx.ensurePanel();
        s.selectObject(ref);
      }
      return status(ctx);
    },

  selectDecision:
    (ctx) =>
    async (seq?: number): Promise<Status> => {
      if (ctx.session && typeof seq === 'number') {
        ctx.ensurePanel();
        await ctx.run((s) => s.selectDecision(seq));
      }
      return status(ctx);
    },

  goToPass:
    (ctx) =>
    async (pass?: number): Promise<Status> => {
      if (ctx.session && typeof pass === 'number') {
        ctx.ensurePanel();
        await ctx.run((s) => s.goToPass(pass));
      }
      return status(ctx);
    },

  /** a failed expectation's link (the Testing view): its scenario open, run to its time, its object selected */
  showAt:
    (ctx) =>
    async (file?: string, at?: string, object?: string): Promise<Status> => {
      if (typeof file !== 'string' || typeof at !== 'string') return status(ctx);
      const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === file);
      // the editor's text is what the test ran; a session already on that file and text is kept
      const text = doc?.isDirty ? doc.getText() : undefined;
      if ((ctx.file !== file || ctx.text !== text || !ctx.session) && !(await ctx.openWithProgress(file, text))) return status(ctx);
      ctx.ensurePanel();
      // Run Until goes forward only: a session already past the time starts again
      const t = Date.parse(at);
      if (ctx.session && Number.isFinite(t) && t * 1000 < ctx.session.shown.now) await ctx.run((s) => s.reset());
      await ctx.run((s) => s.runUntil(at));
      if (typeof object === 'string') ctx.session?.selectObject(object);
      return status(ctx);
    },

  status: (ctx) => (): Status => status(ctx),
};

export function registerCommands(ctx: Ctx): vscode.Disposable[] {
  return (Object.keys(COMMANDS) as CommandKey[]).map((k) => vscode.commands.registerCommand(COMMAND[k], COMMANDS[k](ctx) as (...args: unknown[]) => unknown));
}
