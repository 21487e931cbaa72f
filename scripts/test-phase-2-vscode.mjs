#!/usr/bin/env node
// Phase run by `npm test` after the browser phase: the extension in a real
// VS Code (code-server 4.100.3, installed outside the repository with the
// Debian packages of scripts/ci-apt-packages.txt when missing; see
// shared/recipes/vscode-e2e). Packages the VSIX and checks its contents,
// installs it into a fresh profile, starts code-server in its own process
// group on 127.0.0.1, runs the UI test and the extension-host tests, and
// kills the group.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync, openSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { ensureChromium, ensureCodeServer, E2E_HOME } from '../test/e2e/install.mjs';
import { missingEntries, unexpectedEntries, zipEntries } from '../test/e2e/vsix.mjs';

const root = new URL('..', import.meta.url).pathname.replace(/\/$/, '');
const t0 = Date.now();
const log = (s) => console.log(`[vscode ${((Date.now() - t0) / 1000).toFixed(1)}s] ${s}`);
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { stdio: 'inherit', cwd: root, ...opts }).status ?? 1;

const CS = ensureCodeServer();
ensureChromium();

if (!['out/extension.js', 'out/webview.js'].every((f) => existsSync(join(root, f)))) {
  if (run('node', ['scripts/build.mjs']) !== 0) process.exit(1);
}

// one folder per run (other runs may be going on at the same time); kept only when something failed
mkdirSync(E2E_HOME, { recursive: true });
const work = mkdtempSync(join(E2E_HOME, 'run-'));
const dirs = { ud: join(work, 'ud'), exts: join(work, 'exts'), ws: join(work, 'ws'), shots: join(work, 'shots'), xdg: join(work, 'xdg') };
for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
const env = {
  ...process.env,
  // the runtime dir holds VS Code's IPC sockets, whose paths must stay under 107 characters
  XDG_CONFIG_HOME: join(dirs.xdg, 'config'),
  XDG_DATA_HOME: join(dirs.xdg, 'data'),
  XDG_CACHE_HOME: join(dirs.xdg, 'cache'),
  XDG_RUNTIME_DIR: mkdtempSync(join(tmpdir(), 'csx-')),
};
chmodSync(env.XDG_RUNTIME_DIR, 0o700);

let failed = 0;

// 1. the VSIX: package, and check it holds what the allow-list says and nothing else
const vsix = join(work, 'controller-stepper.vsix');
log('vsce package');
if (
  run(join(root, 'node_modules/.bin/vsce'), ['package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '-o', vsix], {
    stdio: ['ignore', 'ignore', 'inherit'],
  }) !== 0
) {
  console.error('not ok - vsce package failed');
  process.exit(1);
}
const entries = zipEntries(vsix);
const unexpected = unexpectedEntries(entries);
const missing = missingEntries(entries);
if (unexpected.length || missing.length) {
  failed++;
  console.error(`not ok - the VSIX holds only the allow-list: unexpected ${JSON.stringify(unexpected)}, missing ${JSON.stringify(missing)}`);
} else console.log(`ok - the VSIX holds only the bundles, media, examples and manifest (${entries.length} entries)`);

// 2. fresh profile, the VSIX installed, a workspace with one file
mkdirSync(join(dirs.ud, 'User'), { recursive: true });
writeFileSync(
  join(dirs.ud, 'User', 'settings.json'),
  JSON.stringify(
    {
      'workbench.startupEditor': 'none',
      'telemetry.telemetryLevel': 'off',
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'update.mode': 'none',
      'workbench.tips.enabled': false,
      // CS_THEME: the walk in another theme (its screenshots), e.g. "Default Light Modern"
      ...(process.env.CS_THEME ? { 'workbench.colorTheme': process.env.CS_THEME } : {}),
    },
    null,
    2,
  ),
);
writeFileSync(join(dirs.ws, 'README.md'), '# Controller Stepper e2e workspace\n');
log('install-extension');
if (run(CS, ['--user-data-dir', dirs.ud, '--extensions-dir', dirs.exts, '--install-extension', vsix], { env, stdio: ['ignore', 'ignore', 'inherit'] }) !== 0) {
  console.error('not ok - code-server --install-extension failed');
  process.exit(1);
}

// 3. code-server on a free loopback port, in its own process group
const port = await new Promise((resolve) => {
  const srv = createServer().listen(0, '127.0.0.1', () => {
    const p = srv.address().port;
    srv.close(() => resolve(p));
  });
});
const origin = `http://127.0.0.1:${port}`;
const out = openSync(join(work, 'code-server.log'), 'w');
const cs = spawn(
  CS,
  [
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--user-data-dir',
    dirs.ud,
    '--extensions-dir',
    dirs.exts,
    dirs.ws,
  ],
  { env, detached: true, stdio: ['ignore', out, out] },
);
const killGroup = () => {
  try {
    process.kill(-cs.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
};
process.on('exit', killGroup);
for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, () => {
    killGroup();
    process.exit(1);
  });

let up = false;
for (let i = 0; i < 300 && !up; i++) {
  up = await fetch(`${origin}/healthz`).then(
    (r) => r.ok,
    () => false,
  );
  if (!up) await new Promise((r) => setTimeout(r, 200));
}
if (!up) {
  console.error(`not ok - code-server did not answer on ${origin} (log: ${join(work, 'code-server.log')})`);
  process.exit(1);
}
log(`code-server on ${origin}`);

// 4. the tests
const testEnv = { ...env, CS_URL: `${origin}/?folder=${encodeURIComponent(dirs.ws)}`, CS_ORIGIN: origin, WS_DIR: dirs.ws, EXT_DIR: root, SHOT_DIR: dirs.shots };
// CS_WALK_ONLY=1 (with CS_WALK_DIR): the walk alone, in an extension host that has run nothing before it (a new user's)
const walkOnly = process.env.CS_WALK_DIR && process.env.CS_WALK_ONLY;
if (!walkOnly) {
  log('UI: palette -> example -> run until the taint -> why panel -> step back');
  if (run('node', ['test/e2e/ui.e2e.mjs'], { env: testEnv }) !== 0) failed++;
  log('extension host: commands and tree views');
  if (run('node', ['test/e2e/exthost.e2e.mjs'], { env: testEnv }) !== 0) failed++;
}
// by hand only: a walk through a generated big scenario (test/e2e/walk.e2e.mjs)
if (process.env.CS_WALK_DIR && run('node', ['test/e2e/walk.e2e.mjs'], { env: testEnv }) !== 0) failed++;

killGroup();
if (failed) log(`${failed} suite(s) failed; screenshots in ${dirs.shots}, code-server log in ${work}`);
else if (process.env.CS_KEEP) log(`all passed; screenshots in ${dirs.shots} (CS_KEEP)`);
else {
  log('all passed');
  await new Promise((r) => setTimeout(r, 500)); // let the group exit before removing its folders
  rmSync(work, { recursive: true, force: true });
}
rmSync(env.XDG_RUNTIME_DIR, { recursive: true, force: true });
process.exit(failed ? 1 : 0);
