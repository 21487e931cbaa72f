/**
 * `kubectl describe` output: objects one after another, each from its
 * `Name:` line, a node's followed by `Roles:`, a pod's by `Namespace:`
 * (`kubectl describe nodes,pods` prints both kinds in one paste). Each
 * object's lines go to its importer; an object of another kind is skipped
 * with a note.
 */
import type { Line } from './lines';
import { importDescribeNode } from './describeNode';
import { importDescribePod } from './describePod';
import { printedAt, type PrintedAt } from './describeClock';
import type { ImportResult } from './types';
import type { ImportOptions } from './options';

export const DESCRIBE_START = /^Name:\s+(\S+)\s*$/;

export function importDescribe(file: string, lines: Iterable<Line>, options: ImportOptions, into: ImportResult): { lines: number; kinds: Set<'node' | 'pod'> } {
  const kinds = new Set<'node' | 'pod'>();
  let block: Line[] = [];
  let count = 0;
  const problemsBefore = into.problems.length;
  let printed: PrintedAt | undefined;
  // each object's ages count back from when it was printed: without --at, read that from the paste
  const optionsFor = (kind: 'node' | 'pod'): ImportOptions => {
    if (options.anchorGiven) return options;
    printed = printedAt(block, kind, printed);
    return printed ? { ...options, anchor: printed.time, anchorBasis: printed.basis } : options;
  };
  const flush = () => {
    if (block.length < 2) {
      block = [];
      return;
    }
    const second = block[1].text;
    if (/^Roles:/.test(second)) {
      kinds.add('node');
      importDescribeNode(file, block, optionsFor('node'), into);
    } else if (/^Namespace:/.test(second)) {
      kinds.add('pod');
      importDescribePod(file, block, optionsFor('pod'), into);
    } else {
      into.problems.push({
        code: 'unknown-kind',
        severity: 'info',
        message: `${block[0].text.trim()}: not a node or a pod (describe prints ${/^Labels:/.test(second) ? 'a cluster-scoped object' : 'another kind'}); skipped`,
        position: { file, line: block[0].n, column: 1 },
      });
    }
    block = [];
  };
  for (const line of lines) {
    count = line.n;
    if (DESCRIBE_START.test(line.text)) flush();
    if (block.length || DESCRIBE_START.test(line.text)) block.push(line);
  }
  flush();
  // each object's importer warns of its anchor: once a file is enough, with how many more there were
  for (const code of ['anchor-assumed', 'anchor-inferred']) {
    let first: ImportResult['problems'][number] | undefined;
    let more = 0;
    for (let i = problemsBefore; i < into.problems.length; i++) {
      if (into.problems[i].code !== code) continue;
      if (first) {
        into.problems.splice(i--, 1);
        more++;
      } else first = into.problems[i];
    }
    if (first && more) first.message += ` (and ${more} more object${more === 1 ? '' : 's'} of this file, each read from its own lines)`;
  }
  return { lines: count, kinds };
}
