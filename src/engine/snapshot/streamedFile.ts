/**
 * A file read as a stream of chunks, never held whole: a JSON List item by
 * item (jsonListStream.ts), YAML document by document and a YAML List's items
 * one by one (yamlListStream.ts). Problems are placed while the item or
 * document they are in is at hand.
 */
import { parse } from 'yaml';
import { isEngineKind, type EngineKind } from '../model/convert';
import { JsonListReader, type Chunk, type ListItem, type TextPoint } from './jsonListStream';
import { ShiftedLines, StreamedListPositions, type Lines } from './streamPositions';
import { MAX_YAML_DOCUMENT_CHARS } from './yamlDocStream';
import { yamlStreamPieces } from './yamlListStream';
import { MAX_ALIAS_COUNT, YAML_OPTIONS } from './yamlOptions';
import { isObject, openUnit, type Unit, type UnitHost } from './unitObjects';

/** syntax errors listed per file; the rest are counted */
export const MAX_SYNTAX_PROBLEMS = 50;

/** What reading a stream needs of the loader: a YAML piece is read as a YAML text is. */
export interface StreamHost extends UnitHost {
  loadYaml(file: string, text: string, lines: Lines, fileKind: EngineKind | undefined, detach?: boolean, asItem?: boolean): void;
}

/** A JSON List (or array) item by item: each item parsed alone, converted, placed, and let go. */
export function streamJson(host: StreamHost, file: string, chunks: Iterable<Chunk>, fileKind: EngineKind | undefined): void {
  let positions = new StreamedListPositions(['items']);
  const unit: Unit = {
    file,
    value: undefined,
    base: [],
    get lines() {
      return positions;
    },
    locate: (paths) => positions.locate(paths),
    cheap: false,
    fileKind,
    stream: false,
  };
  const u = openUnit(host, unit);
  let item: ((value: unknown, index: number) => void) | undefined;
  /** items without kind met before the List's kind (kubectl prints `kind` after `items`): read at the end */
  const later: ListItem[] = [];
  let listKind: string | undefined;
  let syntaxErrors = 0;
  const reader = new JsonListReader({
    head: (keys) => {
      if (typeof keys.kind === 'string') listKind = keys.kind;
    },
    item: (it) => {
      if (it.index === 0 && reader.isTopArray) {
        positions = new StreamedListPositions([]);
        item = (v, i) => u.object(v, i, undefined, undefined);
      }
      if (reader.start) positions.list = reader.start;
      positions.enter(it);
      // once one item waits, the ones after it wait too: the objects keep the file's order, as read whole
      if (later.length > 0 || (!item && listKind === undefined && !(isObject(it.value) && typeof it.value.kind === 'string' && it.value.kind))) {
        later.push({ ...it, text: '' });
      } else {
        (item ??= u.list(listKind ?? 'List'))(it.value, it.index);
        u.place();
      }
      positions.leave();
    },
    error: (e) => {
      host.partial = true;
      if (++syntaxErrors > MAX_SYNTAX_PROBLEMS) return;
      host.problem('json-syntax', 'error', e.message, { file, line: e.at.line, column: e.at.column, offset: e.at.offset });
    },
  });
  for (const chunk of chunks) reader.push(chunk);
  const summary = reader.end();
  if (reader.start) positions.list = reader.start;
  if (syntaxErrors > MAX_SYNTAX_PROBLEMS)
    host.problem('json-syntax', 'error', `${syntaxErrors - MAX_SYNTAX_PROBLEMS} more JSON syntax errors in this file are not listed`, {
      file,
      line: 1,
      column: 1,
    });
  if (summary.shape === 'object') {
    // one object, not a List: small, its text was the top-level keys
    u.object(summary.keys, -1, undefined, undefined);
  } else if (later.length) {
    const kind = typeof summary.keys.kind === 'string' && summary.keys.kind.endsWith('List') ? summary.keys.kind : 'List';
    const late = u.list(kind);
    for (const it of later) late(it.value, it.index);
  }
  u.close();
}

/**
 * YAML, document by document, and a List document (`kubectl get -o yaml`) item by item
 * (yamlListStream.ts): each piece parsed alone, with the file's lines and columns.
 */
export function streamYaml(host: StreamHost, file: string, chunks: Iterable<Chunk>, fileKind: EngineKind | undefined): void {
  /** items of a typed List without kind: read once the List's kind is known (kubectl prints it after the items) */
  let later: { text: string; at: TextPoint }[] = [];
  for (const split of yamlStreamPieces(chunks)) {
    if ('tooLong' in split) {
      host.problem(
        'file-too-large',
        'error',
        `a YAML document or List item of ${formatBytes(split.chars)} characters is left out: each is parsed whole (the yaml package builds its whole tree at once), up to ${formatBytes(MAX_YAML_DOCUMENT_CHARS)}. Export as JSON (-o json), which is read item by item, or split it`,
        { file, line: split.tooLong.line, column: 1, offset: split.tooLong.offset },
      );
      host.partial = true;
      continue;
    }
    if ('item' in split) {
      const { text, at } = split.item;
      // once one item waits, the ones after it wait too: the objects keep the file's order, as read whole
      if (later.length > 0 || !new RegExp(`^ {${split.indent + 2}}kind:[ \\t]*\\S`, 'm').test(text)) later.push({ text, at });
      else host.loadYaml(file, text, new ShiftedLines(text, at), fileKind, true, true);
      continue;
    }
    if ('listEnd' in split) {
      const kind = listKindOf(split.listEnd.text);
      const itemKind = kind && kind !== 'List' && kind.endsWith('List') ? kind.slice(0, -4) : undefined;
      // the List's kind names its items' kind, as a file's name can
      const hint = itemKind && isEngineKind(itemKind) ? itemKind : fileKind;
      for (const it of later) host.loadYaml(file, it.text, new ShiftedLines(it.text, it.at), hint, true, true);
      later = [];
      continue;
    }
    const { text, at } = split.piece;
    host.loadYaml(file, text, new ShiftedLines(text, at), fileKind, true);
  }
}

/** The `kind` of a List's own keys (its items left out), or undefined. */
function listKindOf(text: string): string | undefined {
  try {
    const v = parse(text, { ...YAML_OPTIONS, prettyErrors: false, maxAliasCount: MAX_ALIAS_COUNT }) as { kind?: unknown } | null;
    return typeof v?.kind === 'string' ? v.kind : undefined;
  } catch {
    return undefined;
  }
}

export function formatBytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let u = 0;
  let v = n;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${n} bytes` : `${v.toFixed(1).replace(/\.0$/, '')} ${units[u]}`;
}

/** The first character (or byte) that is not a blank or a BOM: 0 for a NUL (binary), -1 when there is none. */
export function firstNonBlank(chunk: Chunk): number {
  for (let i = 0; i < chunk.length; i++) {
    const c = typeof chunk === 'string' ? chunk.charCodeAt(i) : chunk[i];
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0xfeff || c === 0xef || c === 0xbb || c === 0xbf) continue;
    return c;
  }
  return -1;
}

export function* concatIterators<T>(head: T[], rest: Iterator<T>): Generator<T> {
  yield* head;
  for (let r = rest.next(); !r.done; r = rest.next()) yield r.value;
}

/**
 * The chunks joined into one text, as `readText` would give it, or, when they come to more than
 * `limit` characters, the chunks as a stream again (those joined so far, then the rest).
 */
export function joinUpTo(chunks: Iterable<string>, limit: number): string | Iterable<string> {
  const it = chunks[Symbol.iterator]();
  const seen: string[] = [];
  let length = 0;
  for (let r = it.next(); !r.done; r = it.next()) {
    seen.push(r.value);
    length += r.value.length;
    if (length > limit) return { [Symbol.iterator]: () => concatIterators(seen, it) };
  }
  return seen.length === 1 ? seen[0] : seen.join('');
}
