/**
 * A scenario's `expect:` entries in VS Code's Testing view: one test per entry, under its file,
 * found from the text alone (the snapshot is read only when the tests run), run by the same
 * engine call as `controller-stepper test` (checkExpectations, on a worker thread: expectationRun.ts),
 * with the finding and where to look for the why. The open editor's text is what runs, saved or not.
 */
import * as vscode from 'vscode';
import { formatProblem, type Problem } from '../engine';
import { expectItems, type ExpectItem } from '../engine/snapshot/expectItems';
import { LineIndex } from '../engine/snapshot/positions';
import { COMMAND } from './commandIds';
import { fileAccess } from './fileAccess';
import { runExpectationsInWorker, type ExpectationJob } from './expectationRun';
import { whyCommand } from '../engine/simulation/explainCommand';
import { timesAsOffsets } from '../engine/trace/text';
import * as path from 'node:path';

export type Outcome =
  | { state: 'passed' }
  /** show: the arguments of the failure's "Show why in the panel" link (COMMAND.showAt) */
  | { state: 'failed'; message: string; show?: [file: string, at: string, object: string] }
  | { state: 'errored'; message: string }
  | { state: 'skipped' };

export interface ScenarioTests {
  controller: vscode.TestController;
  /** the last run's outcome of each test, by its id (for the extension-host tests) */
  outcomes: Map<string, Outcome>;
  /** finds the workspace's scenarios (the Testing view asks for it when first shown) */
  discover(): Promise<void>;
  /** the Run profile (the extension-host tests run and cancel one file's entries through it) */
  profile: vscode.TestRunProfile;
}

/** Scenario files are small; a YAML file above this is a snapshot, not looked into. */
const MAX_SCENARIO_BYTES = 2 * 1024 * 1024;
const YAML_FILES = '**/*.{yaml,yml}';
/** the worker bundle, beside this one in out/ (scripts/build.mjs) */
const WORKER_ENTRY = path.join(__dirname, 'expectationWorker.js');

export function registerScenarioTests(): { tests: ScenarioTests; disposables: vscode.Disposable[] } {
  const controller = vscode.tests.createTestController('controllerStepper.expectations', 'Controller Stepper scenarios');
  const outcomes = new Map<string, Outcome>();

  const update = (uri: vscode.Uri, text: string) => {
    const items = expectItems(text);
    if (!items?.length) {
      controller.items.delete(uri.toString());
      return;
    }
    let file = controller.items.get(uri.toString());
    if (!file) {
      file = controller.createTestItem(uri.toString(), vscode.workspace.asRelativePath(uri), uri);
      controller.items.add(file);
    }
    const lines = new LineIndex(text);
    file.children.replace(items.map((i) => entryItem(controller, uri, i, lines)));
  };
  const readAndUpdate = async (uri: vscode.Uri) => {
    try {
      const open = vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString());
      if (!open && (await vscode.workspace.fs.stat(uri)).size > MAX_SCENARIO_BYTES) return controller.items.delete(uri.toString());
      update(uri, await currentText(uri));
    } catch {
      controller.items.delete(uri.toString());
    }
  };
  const discover = async () => {
    for (const uri of await vscode.workspace.findFiles(YAML_FILES, '**/{node_modules,.git}/**', 5000)) await readAndUpdate(uri);
  };
  controller.resolveHandler = async (item) => {
    if (!item) await discover();
  };
  const isYamlDoc = (d: vscode.TextDocument) => d.uri.scheme === 'file' && /\.ya?ml$/i.test(d.uri.fsPath) && d.getText().length <= MAX_SCENARIO_BYTES;
  for (const d of vscode.workspace.textDocuments) if (isYamlDoc(d)) update(d.uri, d.getText());

  const profile = controller.createRunProfile('Run', vscode.TestRunProfileKind.Run, (request, token) => runTests(controller, outcomes, request, token), true);

  const watcher = vscode.workspace.createFileSystemWatcher(YAML_FILES);
  const disposables: vscode.Disposable[] = [
    controller,
    watcher,
    watcher.onDidCreate((u) => void readAndUpdate(u)),
    watcher.onDidChange((u) => void readAndUpdate(u)),
    watcher.onDidDelete((u) => controller.items.delete(u.toString())),
    vscode.workspace.onDidOpenTextDocument((d) => isYamlDoc(d) && update(d.uri, d.getText())),
    vscode.workspace.onDidChangeTextDocument((e) => isYamlDoc(e.document) && update(e.document.uri, e.document.getText())),
  ];
  return { tests: { controller, outcomes, discover, profile }, disposables };
}

function entryItem(controller: vscode.TestController, uri: vscode.Uri, i: ExpectItem, lines: LineIndex): vscode.TestItem {
  const item = controller.createTestItem(`${uri.toString()}#expect-${i.index}`, i.label, uri);
  const at = (offset: number) => {
    const p = lines.lineCol(offset);
    return new vscode.Position(p.line - 1, p.column - 1);
  };
  item.range = new vscode.Range(at(i.start), at(i.end));
  item.sortText = String(i.index).padStart(6, '0');
  return item;
}

/** The file's text as the editor holds it (saved or not), else as saved. */
async function currentText(uri: vscode.Uri): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  return open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

const indexOf = (item: vscode.TestItem) => Number(/#expect-(\d+)$/.exec(item.id)?.[1] ?? -1);

async function runTests(
  controller: vscode.TestController,
  outcomes: Map<string, Outcome>,
  request: vscode.TestRunRequest,
  token: vscode.CancellationToken,
): Promise<void> {
  const run = controller.createTestRun(request);
  const excluded = new Set((request.exclude ?? []).map((t) => t.id));
  // each file once, with the entries asked for (a file asked for is all its entries)
  const byFile = new Map<string, { file: vscode.TestItem; entries: vscode.TestItem[] }>();
  const add = (t: vscode.TestItem) => {
    if (excluded.has(t.id)) return;
    const file = t.parent ?? t;
    const group = byFile.get(file.id) ?? { file, entries: [] };
    byFile.set(file.id, group);
    const entries: vscode.TestItem[] = [];
    if (t.parent) entries.push(t);
    else t.children.forEach((c) => void (excluded.has(c.id) || entries.push(c)));
    for (const e of entries) if (!group.entries.includes(e)) group.entries.push(e);
  };
  if (request.include) request.include.forEach(add);
  else controller.items.forEach(add);

  const report = (t: vscode.TestItem, o: Outcome, messages?: vscode.TestMessage[]) => {
    outcomes.set(t.id, o);
    if (o.state === 'passed') run.passed(t);
    else if (o.state === 'skipped') run.skipped(t);
    else if (o.state === 'failed') run.failed(t, messages ?? []);
    else run.errored(t, messages ?? []);
  };
  for (const { file, entries } of byFile.values()) {
    if (token.isCancellationRequested) {
      for (const e of entries) report(e, { state: 'skipped' });
      continue;
    }
    for (const e of entries) run.started(e);
    const uri = file.uri!;
    const job: ExpectationJob = { text: await currentText(uri), file: uri.fsPath, access: fileAccess() };
    let cancelRun = () => {};
    const cancelled = token.onCancellationRequested(() => cancelRun());
    const answer = await runExpectationsInWorker(WORKER_ENTRY, job, (cancel) => (cancelRun = cancel));
    cancelled.dispose();
    if (answer.kind === 'cancelled') {
      for (const e of entries) report(e, { state: 'skipped' });
    } else if (answer.kind === 'failed') {
      const message = `the scenario could not be run: ${answer.message}`;
      for (const e of entries) report(e, { state: 'errored', message }, [new vscode.TestMessage(message)]);
    } else if (answer.kind === 'errors') {
      const errors = answer.errors;
      const message = `the scenario has ${errors.length} error(s); nothing was run:\n${errors.map((p) => formatProblem(p)).join('\n')}`;
      for (const e of entries)
        report(
          e,
          { state: 'errored', message },
          errors.map((p) => problemMessage(p, uri)),
        );
    } else {
      for (const e of entries) {
        const r = answer.results.find((x) => x.index === indexOf(e));
        if (!r) report(e, { state: 'skipped' });
        else if (r.ok) report(e, { state: 'passed' });
        else {
          const command = whyCommand(uri.fsPath, r);
          const why = command
            ? `\nwhy: open the scenario (Controller Stepper: Open Scenario), run until ${r.at} and select ${r.object}; or run ${command}`
            : '';
          // times as the expectations write them (offsets from the start), as the command line's test prints them
          const startMs = Date.parse(answer.start);
          const [description, found] = [r.description, r.actual ?? '?'].map((t) => timesAsOffsets(t, startMs));
          const message = `${description}\nfound: ${found}${why}`;
          const m = new vscode.TestMessage(failureMarkdown(description, found, uri.fsPath, r.at, r.object));
          if (e.range) m.location = new vscode.Location(uri, e.range);
          report(e, { state: 'failed', message, ...(r.object ? { show: [uri.fsPath, r.at, r.object] as [string, string, string] } : {}) }, [m]);
        }
      }
    }
  }
  run.end();
}

/** The failure as the Testing view's peek shows it, with a link that opens the panel at the expectation's time. */
function failureMarkdown(description: string, found: string, file: string, at: string, object?: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendText(`${description}\nfound: ${found}\n`);
  if (object) {
    const args = encodeURIComponent(JSON.stringify([file, at, object]));
    md.appendMarkdown(`\n[Show why in the panel](command:${COMMAND.showAt}?${args} "${at}: ${object}")`);
    md.isTrusted = { enabledCommands: [COMMAND.showAt] };
  }
  return md;
}

function problemMessage(p: Problem, uri: vscode.Uri): vscode.TestMessage {
  const m = new vscode.TestMessage(formatProblem(p));
  const pos = p.position;
  if (pos && pos.file === uri.fsPath) {
    const start = new vscode.Position(pos.line - 1, pos.column - 1);
    m.location = new vscode.Location(vscode.Uri.file(pos.file), new vscode.Range(start, start));
  }
  return m;
}
