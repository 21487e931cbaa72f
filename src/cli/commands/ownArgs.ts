/**
 * The options of `import` and `compare`, parsed here so the shared parser
 * (args.ts) stays as it is: the same rules (unknown options and missing
 * values are usage errors, exit 2), `--name value` or `--name=value`.
 */
export class OwnUsageError extends Error {}

export interface OwnOptions {
  files: string[];
  one: Record<string, string | undefined>;
  many: Record<string, string[] | undefined>;
  help: boolean;
  /** --allow-outside: the scenario may read files outside its folder tree */
  allowOutside: boolean;
}

export function ownOptions(argv: readonly string[], spec: Record<string, 'one' | 'repeat'>): OwnOptions {
  const out: OwnOptions = { files: [], one: {}, many: {}, help: false, allowOutside: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h' || a === '--help') {
      out.help = true;
      continue;
    }
    if (a === '--color' || a === '--no-color') continue;
    if (a === '--allow-outside') {
      out.allowOutside = true;
      continue;
    }
    if (!a.startsWith('--')) {
      out.files.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
    const kind = spec[name];
    if (!kind)
      throw new OwnUsageError(
        `unknown option --${name}; this command takes ${Object.keys(spec)
          .map((k) => `--${k}`)
          .join(', ')}`,
      );
    const value = eq >= 0 ? a.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new OwnUsageError(`--${name} needs a value`);
    if (kind === 'repeat') (out.many[name] ??= []).push(value);
    else {
      if (out.one[name] !== undefined) throw new OwnUsageError(`--${name} given twice`);
      out.one[name] = value;
    }
  }
  return out;
}
