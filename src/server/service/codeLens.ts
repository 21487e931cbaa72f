/** The "Step through" code lens on scenario files: opens the scenario in the Controller Stepper panel. */
import type { CodeLens } from 'vscode-languageserver';
import { OPEN_SCENARIO_COMMAND } from '../../protocol/lsp';
import type { Analysis } from './analyze';

export function codeLenses(a: Analysis): CodeLens[] {
  if (a.kind !== 'scenario') return [];
  // on the `kind: Scenario` line when there is one, else the first line
  let line = 0;
  const m = /^kind:/m.exec(a.text);
  if (m) line = a.lines.positionAt(m.index).line;
  return [
    {
      range: { start: { line, character: 0 }, end: { line, character: a.lines.line(line).length } },
      command: { title: 'Step through', command: OPEN_SCENARIO_COMMAND, arguments: [a.uri] },
    },
  ];
}
