/**
 * Quick fixes built from a problem's position in the document's text:
 * replace a misspelt name with the suggestion, remove a list entry or a
 * `key: value` line, replace a value.
 */
import type { SourcePosition } from '../problems';
import type { LintContext, LintProblem, QuickFix } from './types';

/** The 0-based [start, end) of a position in the document, when it is in the document and has offsets. */
export function rangeIn(ctx: LintContext, pos: SourcePosition | undefined): [number, number] | undefined {
  if (!pos || pos.file !== ctx.file || pos.offset === undefined) return undefined;
  const end = pos.endOffset ?? pos.offset;
  if (pos.offset < 0 || end > ctx.text.length || end < pos.offset) return undefined;
  return [pos.offset, end];
}

/** `(did you mean X?)` in a message: the suggestion the engine made. */
export function suggestionOf(message: string): string | undefined {
  const m = /\(did you mean ([^?()\s]+)\?\)/.exec(message);
  return m ? m[1] : undefined;
}

/**
 * Replace the misspelt word at the problem's range with the suggestion. For a
 * flag (`--nod-monitor-grace-period=20s`) only the name is replaced; quotes
 * around a key stay.
 */
export function didYouMeanFix(ctx: LintContext, p: LintProblem): QuickFix | undefined {
  const hint = suggestionOf(p.message);
  const r = rangeIn(ctx, p.position);
  if (!hint || !r) return undefined;
  let [start, end] = r;
  let text = ctx.text.slice(start, end);
  const quote = /^["']/.exec(text);
  if (quote && text.endsWith(quote[0]) && text.length >= 2) {
    start++;
    end--;
    text = text.slice(1, -1);
  }
  if (text.startsWith('-')) {
    const nameEnd = text.search(/[=\s]/);
    const name = nameEnd < 0 ? text : text.slice(0, nameEnd);
    return { title: `Change to ${hint}`, edits: [{ offset: start, endOffset: start + name.length, newText: hint }], preferred: true };
  }
  if (text === '' || /\n/.test(text)) return undefined;
  // a key written inside its section, suggested with the section's path (nodeLifecycleController.x): the last part
  // (a taint key's DNS prefix, node.kubernetes.io/, is no section path)
  const replacement = hint.includes('.') && !hint.includes('/') && !text.includes('.') ? hint.slice(hint.lastIndexOf('.') + 1) : hint;
  return { title: `Change to ${replacement}`, edits: [{ offset: start, endOffset: end, newText: replacement }], preferred: true };
}

/** The [start, end) of the whole line holding `offset`, newline included. */
export function lineSpan(text: string, offset: number): [number, number] {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  const nl = text.indexOf('\n', offset);
  return [start, nl < 0 ? text.length : nl + 1];
}

/**
 * Remove the entry at the problem's range when it is alone on its line: a
 * block-list item (`  - --pod-eviction-timeout=5m`) or a `key: value` line.
 * Flow lists (`[a, b]`) lose the entry and its comma.
 */
export function removeEntryFix(ctx: LintContext, p: LintProblem, title: string): QuickFix | undefined {
  const r = rangeIn(ctx, p.position);
  if (!r) return undefined;
  const [ls, le] = lineSpan(ctx.text, r[0]);
  const line = ctx.text.slice(ls, le).replace(/\r?\n$/, '');
  const item = /^\s*-\s+\S/.test(line);
  const keyLine = /^\s*[\w."'-]+\s*:\s*\S[^{[]*$/.test(line) && !/:\s*$/.test(line);
  if (item || keyLine) {
    // only when the entry is all there is on the line (a trailing comment goes with it)
    return { title, edits: [{ offset: ls, endOffset: le, newText: '' }] };
  }
  // flow list: "[--a=1, --b=2]"
  const before = ctx.text.slice(ls, r[0]);
  if (/[[,]\s*["']?$/.test(before)) {
    let s = r[0];
    let e = r[1];
    if (/["']$/.test(before)) s--;
    if (/^["']/.test(ctx.text.slice(e - 1, e)) === false && /^["']/.test(ctx.text.slice(e, e + 1))) e++;
    const after = ctx.text.slice(e);
    const comma = /^\s*,\s*/.exec(after);
    if (comma) e += comma[0].length;
    else {
      const prevComma = /,\s*$/.exec(ctx.text.slice(ls, s));
      if (prevComma) s -= prevComma[0].length;
    }
    return { title, edits: [{ offset: s, endOffset: e, newText: '' }] };
  }
  return undefined;
}

/** Replace the text at [start, end) with `newText`. */
export function replaceFix(title: string, start: number, end: number, newText: string, preferred = true): QuickFix {
  return { title, edits: [{ offset: start, endOffset: end, newText }], preferred };
}

/**
 * The value a problem is about: for a position on a key (`podEvictionTimeout`
 * of `podEvictionTimeout: 5m`) the scalar after its colon on that line;
 * otherwise the position itself. Quotes are left out.
 */
export function valueRange(ctx: LintContext, p: LintProblem): [number, number] | undefined {
  const r = rangeIn(ctx, p.position);
  if (!r) return undefined;
  let [s, e] = r;
  const after = /^["']?\s*:[ \t]*/.exec(ctx.text.slice(e));
  if (after) {
    s = e + after[0].length;
    const nl = ctx.text.indexOf('\n', s);
    e = nl < 0 ? ctx.text.length : nl;
    const line = ctx.text.slice(s, e);
    const comment = line.search(/\s#/);
    if (comment >= 0) e = s + comment;
  }
  while (e > s && /\s/.test(ctx.text[e - 1])) e--;
  if (e - s >= 2 && /["']/.test(ctx.text[s]) && ctx.text[e - 1] === ctx.text[s]) {
    s++;
    e--;
  }
  return e > s ? [s, e] : undefined;
}
