/**
 * A flow collection left open (`- {at: 30s, kubelet: stop` without its `}`, or continued on a line indented too
 * little) is reported by the yaml package where it gave up: the start of the next line that is not indented enough,
 * or the end of the file. The `{` or `[` it complains of is often on the line above, so the loaders place the problem
 * there and say where the parser stopped. Scenario timelines are written by hand in flow style, where this happens.
 */
import { Parser } from 'yaml';

/** The parser's complaints that a flow collection was not closed (messages of yaml's BAD_INDENT and MISSING_CHAR). */
const UNCLOSED = /^Flow (map|sequence) in block collection must be sufficiently indented and end with a [}\]]|^Expected flow (map|sequence) to end with [}\]]/;

/** Text the CST is made again for, at most: a document of a big export is not parsed twice for a better position. */
const MAX_REPARSE_CHARS = 1 << 20;

interface UnclosedFlow {
  /** offset of the `{` or `[` in the text given */
  offset: number;
  char: '{' | '[';
}

/**
 * The flow collection the error at `errorAt` complains of, when `message` (the yaml package's, first line) says one
 * was not closed: the innermost collection still open at `errorAt`, of the kind named, among those that start at
 * or after `from` (the document's start). Undefined when the message is another, or the text is too long to look.
 */
function unclosedFlow(text: string, from: number, errorAt: number, message: string): UnclosedFlow | undefined {
  const m = UNCLOSED.exec(message);
  if (!m || errorAt <= from || errorAt - from > MAX_REPARSE_CHARS) return undefined;
  const char = (m[1] ?? m[2]) === 'map' ? '{' : '[';
  let found: UnclosedFlow | undefined;
  // depth first, in text order: the last match is the innermost open collection before the error
  const visit = (token: unknown): void => {
    if (!token || typeof token !== 'object') return;
    const t = token as { type?: string; offset?: number; start?: { source?: string }; end?: { source?: string }[] };
    if (t.type === 'flow-collection' && t.start?.source === char && !t.end?.some((e) => e.source === (char === '{' ? '}' : ']'))) {
      found = { offset: from + (t.offset ?? 0), char };
    }
    for (const v of Object.values(token)) {
      if (Array.isArray(v)) for (const item of v) visit(item);
      else if (v && typeof v === 'object') visit(v);
    }
  };
  // the text up to where the parser gave up: what comes after cannot close what is open there
  for (const token of new Parser().parse(text.slice(from, errorAt))) visit(token);
  return found;
}

/**
 * A yaml syntax error as the loaders report it (`pos`: the yaml package's range): at the open `{`/`[` when the error
 * says it was never closed, with where the parser stopped, else the yaml package's own message and range.
 */
export function placeYamlError(
  text: string,
  from: number,
  pos: readonly [number, number],
  message: string,
  lineCol: (offset: number) => { line: number; column: number },
): { message: string; start: number; end: number } {
  const open = unclosedFlow(text, from, pos[0], message);
  if (!open) return { message, start: pos[0], end: Math.max(pos[0], pos[1]) };
  const stop = lineCol(pos[0]);
  const kind = open.char === '{' ? 'flow map' : 'flow sequence';
  const close = open.char === '{' ? '}' : ']';
  // the same complaint when the closing bracket never comes and when a line it continues on is indented too little
  return {
    message: `the ${kind} opened here with "${open.char}" is not closed by line ${stop.line}, column ${stop.column}: end it with "${close}", and indent any line it continues on past the line it starts on (yaml: ${message})`,
    start: open.offset,
    end: open.offset + 1,
  };
}
