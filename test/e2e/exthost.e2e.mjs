// Runs test/e2e/exthost/index.js inside code-server's Node extension host:
// the page URL's payload names the extension (this repository) and the test
// module; VS Code reports the result through window.codeAutomationExit.
// Env: CS_ORIGIN, WS_DIR, EXT_DIR.
import { launchChromium } from './chromium.mjs';
import { format } from 'node:util';

const ORIGIN = process.env.CS_ORIGIN;
const WS_DIR = process.env.WS_DIR;
const EXT_DIR = process.env.EXT_DIR;
const TESTS = `${EXT_DIR}/test/e2e/exthost/index.js`;
const remote = (p) => `vscode-remote://${new URL(ORIGIN).host}${p}`;
const payload = [
  ['extensionDevelopmentPath', remote(EXT_DIR)],
  ['extensionTestsPath', remote(TESTS)],
];
const url = `${ORIGIN}/?folder=${encodeURIComponent(WS_DIR)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;

const t0 = Date.now();
const browser = await launchChromium();
const page = await browser.newPage();
let onExit;
const exitCode = new Promise((resolve) => {
  onExit = resolve;
});
await page.exposeFunction('codeAutomationExit', (code) => onExit(code));
await page.exposeFunction('codeAutomationLog', (type, args) =>
  console.log(type === 'info' || type === 'log' ? format(...args) : `[vscode ${type}] ${format(...args)}`),
);
await page.goto(url);
const code = await Promise.race([exitCode, new Promise((r) => setTimeout(() => r('timeout'), Number(process.env.TIMEOUT_MS || 180_000)))]);
console.log(`extension-host tests exit code: ${code} after ${((Date.now() - t0) / 1000).toFixed(1)}s`);
await browser.close();
process.exit(code === 0 ? 0 : 1);
