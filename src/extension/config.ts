/**
 * The extension's settings, read once per use and checked: a bad value in
 * settings.json falls back to the default instead of reaching the session.
 */
import * as vscode from 'vscode';
import type { UiSettings } from '../protocol/webview';

export const SECTION = 'controllerStepper';

export interface Config extends UiSettings {
  /** the Kubernetes version for plain snapshots (scenarios name their own); empty: the loader's guess */
  kubernetesVersion: string;
  /** keep the next pass computed in idle time (a second simulation: its memory) */
  runAhead: boolean;
}

export function readConfig(): Config {
  const c = vscode.workspace.getConfiguration(SECTION);
  const speed = c.get<unknown>('playSpeed');
  const version = c.get<unknown>('kubernetesVersion');
  return {
    kubernetesVersion: typeof version === 'string' && /^1\.\d{1,2}$/.test(version.trim()) ? version.trim() : '',
    playSpeed: typeof speed === 'number' && Number.isFinite(speed) && speed > 0 ? Math.min(speed, 50) : 2,
    collapseNoise: c.get<unknown>('collapseTickNoise') !== false,
    runAhead: c.get<unknown>('runAhead') !== false,
  };
}

export function onConfigChange(listener: () => void): vscode.Disposable {
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(SECTION)) listener();
  });
}
