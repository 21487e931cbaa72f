// Installs what the browser and real-VS-Code suites need, when it is missing:
// the Debian packages of scripts/ci-apt-packages.txt (chromium, code-server's
// native build dependencies, ripgrep) and code-server 4.100.3 from npm, outside
// the repository. Idempotent: when everything is present it only checks.
// Recipe: shared/recipes/vscode-e2e/README.md (ripgrep seed, npx yes, unsafe perm).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, copyFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export const CODE_SERVER_VERSION = '4.100.3';
export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
const root = new URL('../..', import.meta.url).pathname;
export const E2E_HOME = process.env.CONTROLLER_STEPPER_E2E_HOME || join(homedir(), '.cache', 'controller-stepper-e2e');
export const CODE_SERVER_DIR = join(E2E_HOME, `code-server-${CODE_SERVER_VERSION}`);
export const CODE_SERVER = join(CODE_SERVER_DIR, 'node_modules', '.bin', 'code-server');

const log = (s) => console.log(`[install] ${s}`);

function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...opts });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}`);
}

/**
 * Runs a command whose progress is thousands of lines (apt-get, dpkg): its
 * output is kept, and shown (the last lines) only when it fails, so that
 * `npm test` stays readable.
 */
function quietly(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
  if (r.status !== 0) {
    const tail = `${r.stdout ?? ''}${r.stderr ?? ''}`.trimEnd().split('\n').slice(-40).join('\n');
    throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}${r.error ? ` (${r.error.message})` : ''}; its last lines:\n${tail}`);
  }
}

export function aptPackages() {
  return readFileSync(join(root, 'scripts', 'ci-apt-packages.txt'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

export function missingAptPackages(pkgs = aptPackages()) {
  return pkgs.filter((p) => spawnSync('dpkg', ['-s', p], { stdio: 'ignore' }).status !== 0);
}

export function ensureAptPackages(pkgs = aptPackages()) {
  const need = missingAptPackages(pkgs);
  if (!need.length) return;
  if (process.getuid?.() !== 0) throw new Error(`missing Debian packages (need root to install): ${need.join(' ')}`);
  log(`apt-get install ${need.join(' ')} (output shown only on failure)`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  quietly('apt-get', ['update', '-qq'], { env });
  quietly('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...need], { env });
  log(`installed ${need.length} package(s)`);
}

export function ensureChromium() {
  ensureAptPackages(['chromium']);
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} not found`);
  return CHROMIUM;
}

export function ensureCodeServer() {
  ensureAptPackages();
  if (existsSync(CODE_SERVER)) return CODE_SERVER;
  log(`npm install code-server@${CODE_SERVER_VERSION} into ${CODE_SERVER_DIR}`);
  // @vscode/ripgrep's postinstall downloads rg from GitHub; it first looks in its
  // cache, which we seed with Debian's rg (the same 13.0.0).
  const cache = join(tmpdir(), 'vscode-ripgrep-cache-1.15.11');
  const rgDir = join(E2E_HOME, 'rg');
  mkdirSync(cache, { recursive: true });
  mkdirSync(rgDir, { recursive: true });
  copyFileSync('/usr/bin/rg', join(rgDir, 'rg'));
  sh('tar', ['czf', join(cache, 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz'), '-C', rgDir, 'rg']);
  mkdirSync(CODE_SERVER_DIR, { recursive: true });
  sh('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', '--no-save', `code-server@${CODE_SERVER_VERSION}`], {
    cwd: CODE_SERVER_DIR,
    // unsafe_perm: code-server's postinstall refuses root without it; yes: node-pty's `npx node-gyp`.
    env: { ...process.env, npm_config_unsafe_perm: 'true', npm_config_yes: 'true' },
  });
  if (!existsSync(CODE_SERVER)) throw new Error('code-server did not install');
  return CODE_SERVER;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureCodeServer();
  ensureChromium();
  log(`ready: ${CODE_SERVER}, ${CHROMIUM}`);
}
