/**
 * The fuzzer's minimiser: a failing case made smaller while it still fails the same way. It runs
 * in the fuzzer's main process, whose stack is the default one, on inputs made to break things:
 * so it only loops, stops after a number of tries and a time, and parses a scenario only when
 * the text's nesting is shallow.
 */
import { parse, stringify } from 'yaml';
import type { FuzzCase } from './cases';

/** The deepest flow nesting ({ and [) or block indentation in YAML or JSON text, in one pass without recursion. */
export function nestingOf(text: string): number {
  let depth = 0,
    max = 0,
    indent = 0,
    atLineStart = true;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 10) {
      atLineStart = true;
      indent = 0;
      continue;
    }
    if (atLineStart) {
      if (ch === 32) {
        indent++;
        continue;
      }
      atLineStart = false;
      if (indent / 2 > max) max = indent / 2;
    }
    if (ch === 123 || ch === 91) {
      depth++;
      if (depth > max) max = depth;
    } else if ((ch === 125 || ch === 93) && depth > 0) depth--;
  }
  return max;
}

/** Structures the minimiser will parse and write back itself: far below any stack's limit, whatever the process. */
const MINIMISE_MAX_NESTING = 64;

export interface MinimiseLimits {
  /** runs of the case at most */
  tries: number;
  /** wall-clock milliseconds at most (a hang costs the time limit at every try) */
  millis: number;
}

/**
 * Greedy reduction of a failing case: drop files the entry does not name, then events and
 * expectations one at a time, then halves, quarters, … of the lines of the biggest file, while
 * it still fails the same way. Loops only, bounded by `limits`: the minimiser parses a scenario
 * only when its nesting is shallow and catches what the YAML package throws, so no input can
 * overflow the fuzzer's own stack.
 */
export async function minimise(c: FuzzCase, still: (k: FuzzCase) => Promise<boolean>, limits: MinimiseLimits): Promise<FuzzCase> {
  let best = c;
  let tries = 0;
  const deadline = Date.now() + limits.millis;
  const spent = () => tries >= limits.tries || Date.now() >= deadline;
  const fails = async (k: FuzzCase) => {
    tries++;
    return still(k);
  };
  const withEntry = (k: FuzzCase, text: string): FuzzCase => ({ ...k, files: { ...k.files, [k.entry]: text } });
  const named = Object.fromEntries(Object.entries(best.files).filter(([p]) => p === best.entry || best.files[best.entry].includes(p.replace('/case/', ''))));
  if (!spent() && Object.keys(named).length < Object.keys(best.files).length && (await fails({ ...best, files: named }))) best = { ...best, files: named };
  let current: Record<string, unknown> | undefined;
  if (nestingOf(best.files[best.entry]) <= MINIMISE_MAX_NESTING) {
    try {
      const doc: unknown = parse(best.files[best.entry]);
      if (doc && typeof doc === 'object' && !Array.isArray(doc)) current = doc as Record<string, unknown>;
    } catch {
      current = undefined;
    }
  }
  for (const key of ['events', 'expect'] as const) {
    const list = current?.[key];
    if (!current || !Array.isArray(list)) continue;
    for (let i = list.length - 1; i >= 0 && !spent(); i--) {
      const shorter: Record<string, unknown> = { ...current, [key]: list.filter((_, j) => j !== i) };
      let text: string;
      try {
        text = stringify(shorter, { lineWidth: 0 });
      } catch {
        break;
      }
      const k = withEntry(best, text);
      if (await fails(k)) {
        best = k;
        current = shorter;
        list.splice(i, 1);
      }
    }
  }
  for (let size = 2; !spent() && size < 64; size *= 2) {
    const [path, text] = Object.entries(best.files).sort((x, y) => y[1].length - x[1].length)[0];
    const lines = text.split('\n');
    const chunk = Math.ceil(lines.length / size);
    if (chunk < 1) break;
    for (let s = 0; s < lines.length && !spent(); s += chunk) {
      const k = {
        ...best,
        files: {
          ...best.files,
          [path]: lines
            .slice(0, s)
            .concat(lines.slice(s + chunk))
            .join('\n'),
        },
      };
      if (await fails(k)) {
        best = k;
        break;
      }
    }
  }
  return best;
}
