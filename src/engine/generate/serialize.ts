/**
 * Writing a generated cluster as kubectl does: `-o json` (a `kind: List`,
 * 4-space indent, as kubectl's printer; indent 0 gives one line, as `jq -c`)
 * or `-o yaml`. The chunked writers let a caller stream a 150,000-pod list to
 * a file one item at a time instead of building one string of several hundred
 * megabytes; joined, the chunks are exactly the text the whole-list writers
 * return (`JSON.stringify(list, null, indent)` plus a newline).
 */
import { stringify } from 'yaml';
import type { KObject } from '../model/types';

export type OutputFormat = 'json' | 'yaml';

/** The `kind: List` kubectl prints for `get a,b,c -o json|yaml`. */
export function clusterList(items: KObject[]): KObject {
  return { apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } };
}

/** The List's text, one chunk per item (plus the head and the tail). */
export function* listChunks(items: Iterable<KObject>, format: OutputFormat, indent = 4): Generator<string> {
  if (format === 'json' && indent === 0) {
    let first = true;
    for (const item of items) {
      yield `${first ? '{"apiVersion":"v1","items":[' : ','}${JSON.stringify(item)}`;
      first = false;
    }
    yield `${first ? '{"apiVersion":"v1","items":[' : ''}],"kind":"List","metadata":{"resourceVersion":""}}\n`;
    return;
  }
  if (format === 'json') {
    const i1 = ' '.repeat(indent),
      i2 = i1 + i1;
    const nested = `\n${i2}`;
    let first = true;
    for (const item of items) {
      yield `${first ? `{\n${i1}"apiVersion": "v1",\n${i1}"items": [\n` : ',\n'}${i2}${JSON.stringify(item, null, indent).replaceAll('\n', nested)}`;
      first = false;
    }
    yield `${first ? `{\n${i1}"apiVersion": "v1",\n${i1}"items": [],` : `\n${i1}],`}\n${i1}"kind": "List",\n${i1}"metadata": {\n${i2}"resourceVersion": ""\n${i1}}\n}\n`;
    return;
  }
  let first = true;
  for (const item of items) {
    const lines = yamlText(item).replace(/\n$/, '').split('\n');
    yield `${first ? 'apiVersion: v1\nitems:\n' : ''}${lines.map((l, i) => (i === 0 ? `- ${l}` : l === '' ? l : `  ${l}`)).join('\n')}\n`;
    first = false;
  }
  yield `${first ? 'apiVersion: v1\nitems: []\n' : ''}kind: List\nmetadata:\n  resourceVersion: ""\n`;
}

/** The objects as a multi-document YAML stream (`---` before each), one chunk per object. */
export function* yamlDocumentChunks(items: Iterable<KObject>): Generator<string> {
  for (const item of items) yield `---\n${yamlText(item)}`;
}

/** The whole List as one string. */
export function renderList(items: Iterable<KObject>, format: OutputFormat, indent = 4): string {
  let out = '';
  for (const chunk of listChunks(items, format, indent)) out += chunk;
  return out;
}

/** One object (e.g. a scenario) as JSON or YAML. */
export function renderObject(object: KObject, format: OutputFormat, indent = 4): string {
  return format === 'json' ? `${JSON.stringify(object, null, indent || undefined)}\n` : yamlText(object);
}

function yamlText(object: unknown): string {
  // lineWidth 0: the yaml package never folds. go-yaml (kubectl) folds a string at a space past
  // column 80, and no generated value has one there (generate.test.ts checks), so the text is the same.
  return stringify(object, { lineWidth: 0, minContentWidth: 0 });
}

type J = Record<string, unknown>;

/**
 * A deep copy with every object's keys sorted, as kubectl prints objects it
 * decoded into maps (and as encoding/json orders map keys).
 */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  const src = value as J;
  const out: J = {};
  for (const k of Object.keys(src).sort()) out[k] = sortKeys(src[k]);
  return out;
}
