/**
 * The options every YAML parse in the engine uses, so no document can choose how it is read:
 * - `schema: 'core'` whatever the document's `%YAML` directive says: a `%YAML 1.1` header
 *   would otherwise turn unquoted timestamps into Date objects (then taken as the zero
 *   time) and `n:` into the key `false`; Kubernetes reads them as strings.
 * - `logLevel: 'error'`: the yaml package would print a raw Node warning to stderr for a
 *   complex key; the loaders report what matters as problems instead.
 * Alias expansion is bounded where values are built (`toJS({ maxAliasCount })`).
 */
import { isMap, isPair, isSeq, type Node as YamlNode } from 'yaml';
import { MAX_NESTING_DEPTH } from '../model/limits';

export const YAML_OPTIONS = { schema: 'core', logLevel: 'error' } as const;

/** Aliases one document may expand: the yaml package's check against alias bombs. */
export const MAX_ALIAS_COUNT = 1000;

/** A clear message for the yaml package's alias-bomb refusal; other errors pass through. */
export function yamlBuildError(e: unknown): string {
  const message = e instanceof Error ? e.message : String(e);
  return /alias count/i.test(message) ? `YAML aliases expand too much (more than ${MAX_ALIAS_COUNT} alias expansions: an alias bomb?); refused` : message;
}

/**
 * The first collection nested deeper than `maxDepth` in a YAML tree, found iteratively
 * before anything recursive (the yaml package's toJS) walks it: toJS overflows the stack
 * somewhere past a thousand levels, at a depth that depends on the process, and no result
 * may depend on that.
 */
export function findTooDeep(root: unknown, maxDepth = MAX_NESTING_DEPTH): YamlNode | undefined {
  const stack: { node: unknown; depth: number }[] = [{ node: root, depth: 0 }];
  while (stack.length) {
    const { node, depth } = stack.pop()!;
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth >= maxDepth) return node;
    for (const item of node.items as unknown[]) {
      if (isPair(item)) stack.push({ node: item.key, depth: depth + 1 }, { node: item.value, depth: depth + 1 });
      else stack.push({ node: item, depth: depth + 1 });
    }
  }
  return undefined;
}

/** A stack overflow inside the yaml package can only come from nesting far past our limit. */
export function isStackOverflow(e: unknown): boolean {
  return e instanceof RangeError && /call stack/i.test(e.message);
}

export const TOO_DEEP_MESSAGE = `nested deeper than ${MAX_NESTING_DEPTH} levels (the simulation's limit; a real object is far shallower)`;

/**
 * A yaml error's first line without the " at line N, column M:" it ends with: the yaml package
 * counts from the start of the text it was given, which for a piece of a file (an item, a
 * document) is not the file's line; the problem's own position says where.
 */
export const yamlErrorText = (message: string): string => message.split('\n')[0].replace(/ at line \d+, column \d+:?\s*$/, '');
