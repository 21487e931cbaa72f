// Debian's chromium for the code-server suites (ui.e2e.mjs, walk.e2e.mjs, exthost.e2e.mjs), headless and offline:
// no sandbox (CI runs as root), no GPU, and none of the browser's own network traffic.
import { chromium } from 'playwright-core';

export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
