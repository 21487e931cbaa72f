import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix, relative, resolve } from 'node:path';
import { commentsOf } from './comments';

// File names in comments and in .vscodeignore go stale when a file is renamed or split; these
// tests hold them to the files that exist.
const root = resolve(__dirname, '../..');
/** shared/ (the spec and design notes) sits beside the checkout, in CI as on a developer's machine */
const shared = [resolve(root, '../shared'), '/work/shared'].find((d) => existsSync(join(d, 'design')));

function walk(dir: string, base = dir): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    if (n === 'node_modules' || n === '.git' || n === 'out') return [];
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p, base) : [relative(base, p).split('\\').join('/')];
  });
}

/**
 * Stale names found in files that other work in progress is editing or deleting: to be mended
 * there, and this list emptied once it is merged. Nothing may be added to it.
 */
const STALE_IN_OTHER_AREAS: readonly string[] = [
  // an absolute path: design/performance-notes.md (in shared/)
  'src/engine/controllers/taintEviction/machine.ts: /work/shared/design/performance-notes.md',
  // kubectlEvents.ts and controllerLog.ts
  'src/engine/import/eventReasons.ts: events.ts',
  'src/engine/import/eventReasons.ts: klog.ts',
];

const repoFiles = walk(root);
const sharedFiles = shared ? walk(shared) : [];
const topFolders = new Set(repoFiles.filter((f) => f.includes('/')).map((f) => f.slice(0, f.indexOf('/'))));

const CODE = /\.(ts|tsx|mjs|cjs|js|md)$/;
const NAME = /(?<![\w@./-])((?:\.{1,2}\/|\/)?[\w.-]+(?:\/[\w.-]+)*\.(?:ts|tsx|mjs|cjs|js|md|json|ya?ml|css|html))(?![\w/-])/g;

/**
 * The file names a comment gives. Code and documents (`.ts`, `.md`…) are always ours to check;
 * a data file name (`nodes.json`) only when it starts with one of the repository's folders
 * (`examples/outage-1.31.yaml`), since prose names made-up files as examples too.
 */
export function namesIn(comment: string, folders: ReadonlySet<string>): string[] {
  const withoutUrls = comment.replace(/\b[a-z][a-z+.-]*:\/\/\S+/gi, ' ');
  const out: string[] = [];
  for (const m of withoutUrls.matchAll(NAME)) {
    const name = m[1];
    if (CODE.test(name) || folders.has(name.replace(/^\.\//, '').split('/')[0])) out.push(name);
  }
  return out;
}

/** Why a name does not resolve, or undefined when it names a file: from the commenting file's folder, from the root, or as the end of a path in the repository or in shared/. */
export function unresolved(name: string, from: string, repo: readonly string[], sharedDocs: readonly string[]): string | undefined {
  if (name.startsWith('/')) return 'an absolute path: name it from the repository (or shared/)';
  // the build's bundles (scripts/build.mjs), absent until it runs
  if (/^(\.\/)?out\/[\w-]+\.js$/.test(name))
    return readFileSync(join(root, 'scripts/build.mjs'), 'utf8').includes(name.replace(/^\.\//, '')) ? undefined : 'not a bundle that scripts/build.mjs writes';
  const fromDir = posix.normalize(posix.join(posix.dirname(from), name));
  const plain = posix.normalize(name);
  const suffix = (f: string) => f === plain || f.endsWith(`/${plain}`);
  if (repo.includes(fromDir) || repo.some(suffix) || sharedDocs.some(suffix)) return undefined;
  return 'no such file';
}

describe('file names in comments', () => {
  const cases: { name: string; comment: string; from: string; stale: string[] }[] = [
    { name: 'a file that exists, named from its folder', comment: '// see controllerPlan.ts', from: 'src/engine/simulation/x.ts', stale: [] },
    { name: 'a path that ends a real path', comment: '/** (controllers/controllerHost.ts) */', from: 'src/cli/x.ts', stale: [] },
    { name: 'a renamed file', comment: '// the contract, controllers/host.ts', from: 'src/engine/simulation/x.ts', stale: ['controllers/host.ts'] },
    { name: 'a file that never existed', comment: '// kept in step by klog.ts', from: 'src/engine/import/x.ts', stale: ['klog.ts'] },
    { name: 'an absolute path', comment: '// /work/shared/design/performance-notes.md', from: 'src/x.ts', stale: ['/work/shared/design/performance-notes.md'] },
    {
      name: "a file in a URL is upstream's",
      comment: '// https://github.com/kubernetes/website/blob/main/feature-gates/NodeLease.md',
      from: 'src/x.ts',
      stale: [],
    },
    { name: 'a made-up data file in prose is not a reference', comment: '// file names such as `nodes.json`', from: 'src/x.ts', stale: [] },
    {
      name: 'a data file under one of our folders is',
      comment: '// examples/no-such-example.yaml',
      from: 'src/x.ts',
      stale: ['examples/no-such-example.yaml'],
    },
  ];
  for (const c of cases) {
    it(c.name, () => {
      const stale = namesIn(c.comment, topFolders).filter((n) => unresolved(n, c.from, repoFiles, sharedFiles));
      assert.deepEqual(stale, c.stale);
    });
  }

  it('comments in src/ and bench/ name files that exist', () => {
    const stale: string[] = [];
    for (const file of repoFiles.filter((f) => /^(src|bench)\//.test(f) && /\.(ts|tsx|mjs|cjs|js)$/.test(f))) {
      const text = readFileSync(join(root, file), 'utf8');
      for (const c of commentsOf(file, text)) {
        for (const name of namesIn(c.text, topFolders)) {
          const why = unresolved(name, file, repoFiles, sharedFiles);
          const line = c.line + c.text.slice(0, c.text.indexOf(name)).split('\n').length - 1;
          if (why && !STALE_IN_OTHER_AREAS.includes(`${file}: ${name}`)) stale.push(`${file}:${line}: ${name}: ${why}`);
        }
      }
    }
    assert.deepEqual(stale, []);
  });

  it('each known stale name is still there (else take it off STALE_IN_OTHER_AREAS)', () => {
    const gone = STALE_IN_OTHER_AREAS.filter((entry) => {
      const [file, name] = entry.split(': ');
      const text = existsSync(join(root, file)) ? readFileSync(join(root, file), 'utf8') : '';
      return !commentsOf(file, text).some((c) => namesIn(c.text, topFolders).includes(name) && unresolved(name, file, repoFiles, sharedFiles));
    });
    assert.deepEqual(gone, []);
  });

  it('only comments are read: a file name in a string or a template is not checked', () => {
    const text = "const a = 'gone.ts'; // real.ts\nconst b = `x // y.ts`;\n/* z.ts */\n";
    assert.deepEqual(
      commentsOf('x.ts', text).map((c) => c.text),
      ['// real.ts', '/* z.ts */'],
    );
  });
});

/** A .vscodeignore pattern as a regular expression over paths from the root (vsce's minimatch, as far as this file uses it). */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    if (ch === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else re += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

describe('.vscodeignore', () => {
  const cases: { glob: string; path: string; matches: boolean }[] = [
    { glob: '**', path: 'src/engine/index.ts', matches: true },
    { glob: 'media/**', path: 'media/icon.svg', matches: true },
    { glob: 'media/**', path: 'src/media/icon.svg', matches: false },
    { glob: 'out/extension.js', path: 'out/extension.js', matches: true },
    { glob: 'out/*.js', path: 'out/sub/x.js', matches: false },
    { glob: 'README.md', path: 'docs/README.md', matches: false },
  ];
  for (const c of cases)
    it(`${c.glob} ${c.matches ? 'matches' : 'does not match'} ${c.path}`, () => assert.equal(globToRegExp(c.glob).test(c.path), c.matches));

  it('every pattern matches a file (the bundles: one that scripts/build.mjs writes), or a comment says why not', () => {
    const lines = readFileSync(join(root, '.vscodeignore'), 'utf8').split('\n');
    const comments = lines.filter((l) => l.trim().startsWith('#')).join('\n');
    const build = readFileSync(join(root, 'scripts/build.mjs'), 'utf8');
    const bundles = [...build.matchAll(/out: '([^']+)'/g)].map((m) => m[1]);
    const candidates = [...repoFiles, ...bundles];
    const unmatched = lines
      .map((l, i) => ({ line: i + 1, pattern: l.trim().replace(/^!/, '') }))
      .filter((p) => p.pattern && !p.pattern.startsWith('#'))
      .filter((p) => !candidates.some((f) => globToRegExp(p.pattern).test(f)) && !comments.includes(`${p.pattern}:`))
      .map((p) => `.vscodeignore:${p.line}: ${p.pattern} matches no file`);
    assert.deepEqual(unmatched, []);
  });

  it('the files its comments name exist', () => {
    const text = readFileSync(join(root, '.vscodeignore'), 'utf8');
    const stale = text.split('\n').flatMap((l, i) =>
      l.trim().startsWith('#')
        ? namesIn(l, topFolders)
            .filter((n) => unresolved(n, '.vscodeignore', repoFiles, sharedFiles))
            .map((n) => `.vscodeignore:${i + 1}: ${n}`)
        : [],
    );
    assert.deepEqual(stale, []);
  });
});
