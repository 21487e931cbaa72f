// ESLint for the TypeScript sources, tests, benches and scripts: typescript-eslint's
// recommended rules without type information (a lint run stays quick on a 2-core
// machine; `tsc --noEmit` does the type checking), and the changes below, each with
// its reason.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    // generated bundles, installed packages, and inputs whose bytes the tests rely on
    ignores: ['out/**', 'node_modules/**', 'test/fixtures/**', 'test/fuzz-corpus/**', 'examples/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A leading underscore marks what an interface hands over and this implementation does not
      // use (a controller's `_memory`, a callback's `_seq`); anything else unused is reported.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // `ok ? ready++ : notReady++` and `lease ? renew(n) : post(n)` choose between two statements.
      '@typescript-eslint/no-unused-expressions': ['error', { allowTernary: true }],
      // `let me; me = make({ onMessage: () => ... me ... })`: a callback given to the call that makes
      // a value may run before that call returns, when a const would not be initialised yet.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // Big texts are dropped on purpose (`text = ''`) so that the garbage collector can free a
      // 400 MiB snapshot while the function goes on; the rule calls those assignments useless.
      'no-useless-assignment': 'off',
    },
  },
  {
    // Node scripts and the CommonJS files that VS Code's test runner and `bin` load with require().
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The extension-host tests run inside VS Code, where the page's `document` exists too.
    files: ['test/e2e/**'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // The benches read their child processes' JSON reports, whose shape is the child's.
    files: ['bench/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The fuzzer writes numbers beyond a double (1e400) on purpose, to see how the loader takes them.
    files: ['test/fuzz/**'],
    rules: { 'no-loss-of-precision': 'off' },
  },
);
