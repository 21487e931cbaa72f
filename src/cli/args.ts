/**
 * Command-line arguments, parsed once into a typed form (check at the edge).
 * Unknown options and missing values are usage errors (exit 2).
 */
import { closest } from '../engine/config/suggest';
export interface ParsedArgs {
  command: string;
  files: string[];
  until?: string;
  steps?: number;
  version?: string;
  set: Record<string, string>;
  output: 'trace' | 'state' | 'both';
  /** junit: `test` only (cli.ts refuses it elsewhere) */
  format: 'text' | 'json' | 'yaml' | 'junit';
  object?: string;
  color?: boolean;
  /** text trace: show the monitor-pass ticks too */
  ticks: boolean;
  /** explain, text: every entry of a why-not's lists, not the first 20 and "and N more" */
  lists?: boolean;
  /** generate */
  nodes?: number;
  podsPerNode?: number;
  zones?: number;
  seed?: number;
  outage?: string;
  detail?: 'full' | 'lean';
  out?: string;
  help: boolean;
  /** replay/explain/test guards (cli/guards.ts) */
  maxDecisions?: number;
  maxSeconds?: number;
  /** read a scenario's snapshot:/configFile: paths outside its folder tree */
  allowOutside?: boolean;
}

export class UsageError extends Error {}

type OptionSpec = { name: string; takes: 'string' | 'int' | 'none'; repeat?: boolean };

const OPTIONS: OptionSpec[] = [
  { name: 'until', takes: 'string' },
  { name: 'steps', takes: 'int' },
  { name: 'version', takes: 'string' },
  { name: 'set', takes: 'string', repeat: true },
  { name: 'output', takes: 'string' },
  { name: 'format', takes: 'string' },
  { name: 'object', takes: 'string' },
  { name: 'nodes', takes: 'int' },
  { name: 'pods-per-node', takes: 'int' },
  { name: 'zones', takes: 'int' },
  { name: 'seed', takes: 'int' },
  { name: 'outage', takes: 'string' },
  { name: 'detail', takes: 'string' },
  { name: 'out', takes: 'string' },
  { name: 'max-decisions', takes: 'int' },
  { name: 'max-seconds', takes: 'int' },
  { name: 'color', takes: 'none' },
  { name: 'no-color', takes: 'none' },
  { name: 'ticks', takes: 'none' },
  { name: 'lists', takes: 'none' },
  { name: 'help', takes: 'none' },
  { name: 'allow-outside', takes: 'none' },
];

export function parseArgs(argv: readonly string[]): ParsedArgs {
  const out: ParsedArgs = { command: '', files: [], set: {}, output: 'trace', format: 'text', help: false, ticks: false };
  const raw: Record<string, string[]> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '-h') {
      out.help = true;
      continue;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      const spec = OPTIONS.find((o) => o.name === name);
      if (!spec) throw new UsageError(`unknown option --${name}${suggest(name)}`);
      if (spec.takes === 'none') {
        if (eq >= 0) throw new UsageError(`--${name} takes no value`);
        (raw[name] ??= []).push('');
        continue;
      }
      const value: string | undefined = eq >= 0 ? a.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      if (!spec.repeat && raw[name]) throw new UsageError(`--${name} given twice`);
      (raw[name] ??= []).push(value);
      continue;
    }
    if (!out.command) out.command = a;
    else out.files.push(a);
  }
  const one = (n: string) => raw[n]?.[0];
  const int = (n: string): number | undefined => {
    const v = one(n);
    if (v === undefined) return undefined;
    if (!/^\d+$/.test(v)) throw new UsageError(`--${n} wants a whole number, not "${v}"`);
    return Number(v);
  };
  out.until = one('until');
  out.steps = int('steps');
  out.version = one('version');
  out.object = one('object');
  out.nodes = int('nodes');
  out.podsPerNode = int('pods-per-node');
  out.zones = int('zones');
  out.seed = int('seed');
  out.outage = one('outage');
  out.out = one('out');
  out.maxDecisions = int('max-decisions');
  out.maxSeconds = int('max-seconds');
  for (const n of ['max-decisions', 'max-seconds']) if (int(n) === 0) throw new UsageError(`--${n} must be at least 1`);
  const detail = one('detail');
  if (detail !== undefined) {
    if (detail !== 'full' && detail !== 'lean') throw new UsageError(`--detail is full or lean, not "${detail}"`);
    out.detail = detail;
  }
  out.help ||= Boolean(raw.help);
  out.ticks = Boolean(raw.ticks);
  if (raw.color) out.color = true;
  if (raw['no-color']) out.color = false;
  if (raw['allow-outside']) out.allowOutside = true;
  if (raw.lists) out.lists = true;
  for (const s of raw.set ?? []) {
    const eq = s.indexOf('=');
    if (eq <= 0) throw new UsageError(`--set wants KEY=VALUE, not "${s}"`);
    out.set[s.slice(0, eq)] = s.slice(eq + 1);
  }
  const output = one('output');
  if (output !== undefined) {
    if (output !== 'trace' && output !== 'state' && output !== 'both') throw new UsageError(`--output is trace, state or both, not "${output}"`);
    out.output = output;
  }
  const format = one('format');
  if (format !== undefined) {
    if (format !== 'text' && format !== 'json' && format !== 'yaml' && format !== 'junit')
      throw new UsageError(`--format is text, json or yaml (or junit, for test), not "${format}"`);
    out.format = format;
  }
  return out;
}

function suggest(name: string): string {
  const best = closest(
    name,
    OPTIONS.map((o) => o.name),
  );
  return best ? ` (did you mean --${best}?)` : '';
}
