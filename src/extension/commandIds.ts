/**
 * Every command of the extension: id, palette title, and whether the palette
 * shows it. package.json's `contributes.commands` must match this table
 * (test/extension/manifest.test.ts checks it).
 */
export const CATEGORY = 'Controller Stepper';

export const COMMAND = {
  open: 'controllerStepper.open',
  openExample: 'controllerStepper.openExample',
  importEvidence: 'controllerStepper.importEvidence',
  step: 'controllerStepper.step',
  stepBack: 'controllerStepper.stepBack',
  nextDecision: 'controllerStepper.nextDecision',
  previousDecision: 'controllerStepper.previousDecision',
  runUntil: 'controllerStepper.runUntil',
  togglePlay: 'controllerStepper.togglePlay',
  reset: 'controllerStepper.reset',
  explainObject: 'controllerStepper.explainObject',
  whatIf: 'controllerStepper.whatIf',
  exportTrace: 'controllerStepper.exportTrace',
  exportState: 'controllerStepper.exportState',
  showPanel: 'controllerStepper.showPanel',
  // used by the tree views (and tests); hidden from the palette
  selectObject: 'controllerStepper.selectObject',
  selectDecision: 'controllerStepper.selectDecision',
  goToPass: 'controllerStepper.goToPass',
  showAt: 'controllerStepper.showAt',
  status: 'controllerStepper.status',
} as const;

export type CommandKey = keyof typeof COMMAND;

export const COMMAND_TITLES: Record<CommandKey, { title: string; palette: boolean; icon?: string }> = {
  open: { title: 'Open Scenario or Snapshot…', palette: true, icon: '$(debug-alt)' },
  openExample: { title: 'Open Example…', palette: true },
  importEvidence: { title: 'Import Evidence…', palette: true },
  step: { title: 'Step (Next Monitor Pass)', palette: true, icon: '$(debug-step-over)' },
  stepBack: { title: 'Step Back', palette: true, icon: '$(debug-step-back)' },
  nextDecision: { title: 'Next Decision', palette: true, icon: '$(debug-continue)' },
  previousDecision: { title: 'Previous Decision', palette: true, icon: '$(debug-reverse-continue)' },
  runUntil: { title: 'Run Until…', palette: true },
  togglePlay: { title: 'Play/Pause', palette: true, icon: '$(play)' },
  reset: { title: 'Reset', palette: true, icon: '$(debug-restart)' },
  explainObject: { title: 'Explain Object…', palette: true },
  whatIf: { title: 'Change Setting and Re-run…', palette: true },
  exportTrace: { title: 'Export Trace (JSON Lines)…', palette: true },
  exportState: { title: 'Export State…', palette: true },
  showPanel: { title: 'Show Panel', palette: true },
  selectObject: { title: 'Select Object in Panel', palette: false },
  selectDecision: { title: 'Show Why for Decision', palette: false },
  goToPass: { title: 'Go to Pass', palette: false },
  showAt: { title: 'Show an Object at a Time', palette: false },
  status: { title: 'Status', palette: false },
};
