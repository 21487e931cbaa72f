/**
 * Where the caret is in a YAML document: the path of keys and indices to the
 * node under it (hover, definition), or, where there is no node yet (a new
 * line being typed), the path of the keys above it by indentation
 * (completion), as yaml-language-server does.
 */
import { isMap, isPair, isScalar, isSeq, type Document, type Node as YamlNode } from 'yaml';

export type YamlPath = (string | number)[];

export interface NodeAt {
  path: YamlPath;
  /** true when the caret is on a key (the last path segment) */
  inKey: boolean;
  /** the scalar under the caret, if any */
  scalar?: { value: unknown; start: number; end: number };
}

const within = (r: readonly number[] | undefined | null, offset: number): boolean => !!r && offset >= r[0] && offset <= r[1];

/** The node at `offset` (caret before or inside it). */
export function nodeAt(doc: Document, offset: number): NodeAt | undefined {
  const path: YamlPath = [];
  let node: unknown = doc.contents;
  for (let depth = 0; depth < 200; depth++) {
    if (isMap(node)) {
      let next: unknown;
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const k = pair.key as YamlNode | null;
        const v = pair.value as YamlNode | null;
        if (k && within(k.range, offset) && isScalar(k)) {
          path.push(String(k.value));
          return { path, inKey: true, scalar: { value: k.value, start: k.range![0], end: k.range![1] } };
        }
        if (v && within(v.range, offset)) {
          path.push(isScalar(k) ? String(k.value) : '?');
          next = v;
          break;
        }
      }
      if (next === undefined) return { path, inKey: false };
      node = next;
    } else if (isSeq(node)) {
      const i = node.items.findIndex((it) => within((it as YamlNode | null)?.range, offset));
      if (i < 0) return { path, inKey: false };
      path.push(i);
      node = node.items[i];
    } else if (isScalar(node)) {
      const r = node.range!;
      return { path, inKey: false, scalar: { value: node.value, start: r[0], end: r[1] } };
    } else {
      return { path, inKey: false };
    }
  }
  return undefined;
}

/**
 * The keys above a line by indentation: `['events', '-']` for a key typed at
 * column `col` inside an item of `events:`. `-` marks a list item. When the
 * line being typed starts an item itself (`  - ki|`), pass `startsItem` with
 * `col` the dash's column.
 */
export function keysAbove(lines: readonly string[], lineNo: number, col: number, startsItem = false): string[] {
  const out: string[] = startsItem ? ['-'] : [];
  let lastWasItem = startsItem;
  for (let n = lineNo - 1; n >= 0 && (col > 0 || lastWasItem); n--) {
    const line = lines[n];
    if (/^\s*(#.*)?$/.test(line)) continue;
    const indent = line.length - line.trimStart().length;
    const item = /^(\s*)-(\s+)(.*)$/.exec(line);
    if (item) {
      const dash = item[1].length;
      const content = dash + 1 + item[2].length;
      if (!lastWasItem && content === col) {
        // the first key of the item we are in
        out.unshift('-');
        col = dash;
        lastWasItem = true;
      }
      continue; // a sibling item, or an item of a list nested deeper
    }
    const key = /^\s*([\w.-]+|"[^"]*"|'[^']*'):\s*(#.*)?$/.exec(line);
    if (key && (indent < col || (indent === col && lastWasItem))) {
      out.unshift(unquote(key[1]));
      col = indent;
      lastWasItem = false;
      continue;
    }
    if (indent < col) {
      col = indent;
      lastWasItem = false;
    }
  }
  return out;
}

const unquote = (s: string): string => (/^["']/.test(s) ? s.slice(1, -1) : s);
