/**
 * Evidence to a scenario, for the extension: the engine's import of files
 * and folders (engine/import/files.ts, the command line's `import` too), and
 * the questions the Import Evidence command asks when the evidence leaves
 * something to settle: when it was printed (`--at`: ages and year-less log
 * times are read against it) and which version to simulate (`--version`).
 * No vscode here: the command passes its QuickPick and InputBox in as a
 * Prompter, and the tests pass theirs.
 */
import { parseTimestamp, formatTime, type Micros } from '../engine/model/time';
import { MAX_MINOR, MIN_MINOR, parseKubeVersion } from '../engine/versions/table';
import { importEvidenceFiles as importFiles, type EvidenceAccess, type ImportFilesOptions, type ImportOutcome } from '../engine/import/files';

export { evidenceFiles, type EvidenceAccess, type ImportedScenario, type ImportOutcome, type ImportFilesOptions } from '../engine/import/files';

/**
 * Imports the evidence as `controller-stepper import` does; `now` (the wall
 * clock) anchors ages when no `at` is given.
 */
export function importEvidenceFiles(
  paths: readonly string[],
  access: EvidenceAccess,
  now: Micros,
  options: Omit<ImportFilesOptions, 'now'> = {},
): ImportOutcome {
  return importFiles(paths, access, { ...options, now });
}

export interface PickItem<T> {
  label: string;
  description?: string;
  value: T;
}

/** What the command asks with (vscode.window.showQuickPick and showInputBox, or a test's answers). */
export interface Prompter {
  pick<T>(title: string, items: PickItem<T>[]): Promise<T | undefined>;
  /** `validate` gives the message shown under the box while the text is not acceptable */
  input(title: string, placeholder: string, validate: (text: string) => string | undefined): Promise<string | undefined>;
}

/** The buttons offered after an import that assumed the time or the version. */
export const SET_TIME = 'Set the time (--at)…';
export const SET_VERSION = 'Set the version (--version)…';

/** What the import assumed that the user can settle, as a message and its buttons; undefined when nothing. */
export function assumptionsToSettle(outcome: ImportOutcome, now: Micros): { message: string; buttons: string[] } | undefined {
  if (!outcome.ok) return undefined;
  const { at, atInferred, version } = outcome.imported.assumed;
  if (!at && !atInferred && !version) return undefined;
  const what = [
    at ? `times without a date or year were read against now (${formatTime(now)})` : '',
    atInferred ? 'the ages in a kubectl describe paste were read from the times it prints (when it was printed is not in it)' : '',
    version ? 'the version was assumed (the evidence names none)' : '',
  ]
    .filter(Boolean)
    .join('; ');
  return {
    message: `Controller Stepper: ${what}. Import again with the real values?`,
    buttons: [...(at || atInferred ? [SET_TIME] : []), ...(version ? [SET_VERSION] : [])],
  };
}

/** `--at` as the user types it: RFC 3339, checked as typed. */
export function validateAt(text: string): string | undefined {
  return parseTimestamp(text.trim()) === undefined ? 'an RFC 3339 time such as 2026-06-17T13:00:00Z (the time the evidence was printed or saved)' : undefined;
}

/**
 * Asks for what a button offers (one of SET_TIME, SET_VERSION), starting
 * from the options of the import before; undefined when the user cancels.
 */
export async function askImportOptions(
  prompter: Prompter,
  button: string,
  before: Omit<ImportFilesOptions, 'now'> = {},
): Promise<Omit<ImportFilesOptions, 'now'> | undefined> {
  if (button === SET_TIME) {
    const text = await prompter.input('When was the evidence printed or saved? (--at)', '2026-06-17T13:00:00Z', validateAt);
    if (text === undefined) return undefined;
    return { ...before, at: parseTimestamp(text.trim())! };
  }
  if (button === SET_VERSION) {
    const items: PickItem<string>[] = [
      { label: 'From the evidence', description: 'a kubelet or controller version it names, else the default', value: 'auto' },
    ];
    for (let minor = MAX_MINOR; minor >= MIN_MINOR; minor--) items.push({ label: `1.${minor}`, value: `1.${minor}` });
    const picked = await prompter.pick('Which Kubernetes version ran the controllers? (--version)', items);
    if (picked === undefined) return undefined;
    return { ...before, version: picked === 'auto' || !parseKubeVersion(picked) ? undefined : picked };
  }
  return undefined;
}
