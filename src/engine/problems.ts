/**
 * Problems are data, never exceptions: every bad input becomes one of these,
 * with a stable code and the position it was found at, and loading goes on.
 */
export type Severity = 'error' | 'warning' | 'info';

export interface SourcePosition {
  /** the file as the user named it (or `<inline>`, `<stdin>`) */
  file: string;
  /** 1-based */
  line: number;
  /** 1-based */
  column: number;
  endLine?: number;
  endColumn?: number;
  /** 0-based character offsets into the file, when known (the language server uses them) */
  offset?: number;
  endOffset?: number;
}

export interface Problem {
  /** stable, e.g. `yaml-syntax`, `unknown-field`, `bad-duration`, `unknown-node` */
  code: string;
  severity: Severity;
  message: string;
  position?: SourcePosition;
}

export function formatProblem(p: Problem): string {
  const where = p.position ? `${p.position.file}:${p.position.line}:${p.position.column}: ` : '';
  return `${where}${p.severity} ${p.code}: ${p.message}`;
}

/** `first`, then each of `more` not already there (by code and message): the same problem found twice is said once. */
export function withoutRepeats(first: readonly Problem[], more: Iterable<Problem>): Problem[] {
  const out = [...first];
  const seen = new Set(out.map((p) => `${p.code}|${p.message}`));
  for (const p of more) {
    const k = `${p.code}|${p.message}`;
    if (!seen.has(k)) {
      seen.add(k);
      out.push(p);
    }
  }
  return out;
}

export const hasErrors = (problems: readonly Problem[]): boolean => problems.some((p) => p.severity === 'error');
