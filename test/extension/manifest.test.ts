import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CATEGORY, COMMAND, COMMAND_TITLES } from '../../src/extension/commandIds';

const pkg = JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8'));

test('every command in the table is contributed with its title and category, and nothing else', () => {
  const contributed = pkg.contributes.commands.map((c: { command: string; title: string; category: string }) => [c.command, c.title, c.category]);
  const table = Object.entries(COMMAND).map(([k, id]) => [id, COMMAND_TITLES[k as keyof typeof COMMAND].title, CATEGORY]);
  assert.deepEqual(contributed.sort(), table.sort());
});

test('commands meant for the tree views only are hidden from the palette', () => {
  const hidden = pkg.contributes.menus.commandPalette
    .filter((m: { when: string }) => m.when === 'false')
    .map((m: { command: string }) => m.command)
    .sort();
  const expected = Object.entries(COMMAND_TITLES)
    .filter(([, v]) => !v.palette)
    .map(([k]) => COMMAND[k as keyof typeof COMMAND])
    .sort();
  assert.deepEqual(hidden, expected);
});

test('keybindings step only while the panel has focus', () => {
  for (const k of pkg.contributes.keybindings) assert.equal(k.when, "activeWebviewPanelId == 'controllerStepper.panel'");
  assert.deepEqual(
    pkg.contributes.keybindings.map((k: { command: string }) => k.command).sort(),
    [COMMAND.nextDecision, COMMAND.previousDecision, COMMAND.step, COMMAND.stepBack, COMMAND.togglePlay].sort(),
  );
});

test('the settings the extension reads are declared', () => {
  assert.deepEqual(Object.keys(pkg.contributes.configuration.properties).sort(), [
    'controllerStepper.collapseTickNoise',
    'controllerStepper.kubernetesVersion',
    'controllerStepper.playSpeed',
    'controllerStepper.runAhead',
  ]);
});

test('the engine range is no newer than the VS Code the tests run (1.100)', () => {
  const m = /^\^?(\d+)\.(\d+)\./.exec(pkg.engines.vscode);
  assert.ok(m);
  assert.equal(Number(m[1]), 1);
  assert.ok(Number(m[2]) <= 100);
});

test('the panel revives after a reload: its serializer is activated by the panel type', () => {
  assert.ok(pkg.activationEvents.includes('onWebviewPanel:controllerStepper.panel'));
  assert.equal(pkg.main, './out/extension.js');
});
