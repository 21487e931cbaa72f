/**
 * A JSON file that is not one value: `kubectl cluster-info dump` printed to stdout (JSON Lists with
 * its containers' logs between them), or one malformed value, whose error is placed.
 */
import type { EngineKind } from '../model/convert';
import type { Severity, SourcePosition } from '../problems';
import { findJsonSyntaxError, skipWs, splitJsonStream } from './positions';
import type { Lines } from './streamPositions';
import { jsonUnit, type Unit } from './unitObjects';

/**
 * The scanner's complaint, with what it most often means when the text ran out (a string never closed, a value
 * missing at the end): an export cut off, as the streamed reader says of a big file (jsonListStream.ts).
 */
function endedEarly(message: string): string {
  return /^unterminated string$|found end of input$/.test(message)
    ? `${message}: the file ends before its JSON does (cut off when it was saved or copied?)`
    : message;
}

/** What reading the values needs of the loader. */
export interface JsonValuesHost {
  partial: boolean;
  problem(code: string, severity: Severity, message: string, position?: SourcePosition): void;
  processUnit(unit: Unit): void;
}

/** Several JSON values with text between them, or one malformed JSON value; `cheap`: every object gets a position. */
export function loadJsonValues(host: JsonValuesHost, file: string, text: string, lines: Lines, fileKind: EngineKind | undefined, cheap: boolean): void {
  const segments = splitJsonStream(text);
  const values = segments.filter((s) => s.kind === 'json');
  if (values.length === 0 || (segments.length === 1 && segments[0].kind !== 'json')) {
    // One malformed JSON document: say where.
    const err = findJsonSyntaxError(text, 0);
    const at = err?.offset ?? 0;
    host.problem(
      'json-syntax',
      'error',
      `${endedEarly(err?.message ?? 'malformed JSON')}; the file is left out`,
      lines.position(file, at, Math.min(at + 1, text.length)),
    );
    host.partial = true;
    return;
  }
  for (const seg of segments) {
    if (seg.kind === 'text') {
      const start = skipWs(text, seg.start);
      let end = seg.end;
      while (end > start && /\s/.test(text[end - 1])) end--;
      const n = lines.lineCol(end).line - lines.lineCol(start).line + 1;
      host.problem(
        'skipped-text',
        'info',
        `skipped ${n} line${n === 1 ? '' : 's'} of text between JSON values (as in the output of kubectl cluster-info dump)`,
        lines.position(file, start, end),
      );
    } else if (seg.kind === 'bad-json') {
      const at = seg.error?.offset ?? seg.start;
      host.problem(
        'json-syntax',
        'error',
        `${endedEarly(seg.error?.message ?? 'malformed JSON')}; this JSON value is left out`,
        lines.position(file, at, Math.min(at + 1, text.length)),
      );
      host.partial = true;
    } else {
      let value: unknown;
      try {
        value = JSON.parse(text.slice(seg.start, seg.end));
      } catch (e) {
        host.problem(
          'json-syntax',
          'error',
          `${e instanceof Error ? e.message : 'malformed JSON'}; this JSON value is left out`,
          lines.position(file, seg.start),
        );
        host.partial = true;
        continue;
      }
      host.processUnit(jsonUnit(file, text, lines, seg.start, value, fileKind, true, cheap));
    }
  }
}
