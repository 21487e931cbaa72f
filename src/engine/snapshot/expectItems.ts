/**
 * The `expect:` entries of scenario text, found without reading its snapshot: what an editor
 * lists as tests while the user types (a 400 MiB snapshot must not be loaded to show them).
 * Each entry keeps its index in the list as written, the index the run's results carry
 * (ExpectationResult.index), so a result finds its entry again.
 */
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { isScenarioText } from './scenario';
import { YAML_OPTIONS } from './yamlOptions';

export interface ExpectItem {
  /** the entry's index in the `expect:` list as written */
  index: number;
  /** the entry on one line, as written (`at: 1m5s, node: node-a1, ready: Unknown`) */
  label: string;
  /** offsets of the entry's text */
  start: number;
  end: number;
}

const MAX_LABEL = 120;

/** The entries, in file order; undefined when the text is not a scenario or has no `expect:` list. */
export function expectItems(text: string): ExpectItem[] | undefined {
  if (!isScenarioText(text)) return undefined;
  const doc = parseDocument(text, { ...YAML_OPTIONS, prettyErrors: false, keepSourceTokens: false });
  if (!isMap(doc.contents)) return undefined;
  const list = doc.contents.items.find((p) => isScalar(p.key) && p.key.value === 'expect')?.value;
  if (!isSeq(list)) return undefined;
  const out: ExpectItem[] = [];
  list.items.forEach((item, index) => {
    const range = (item as { range?: [number, number, number] } | null)?.range;
    if (!range) return;
    let end = range[1];
    while (end > range[0] && /\s/.test(text[end - 1])) end--;
    out.push({ index, label: labelOf(item, text.slice(range[0], end)), start: range[0], end });
  });
  return out;
}

/** `key: value` pairs joined on one line (a flow mapping's braces dropped), or the text squeezed. */
function labelOf(item: unknown, source: string): string {
  let label: string;
  if (isMap(item) && item.items.every((p) => isScalar(p.key) && (p.value === null || isScalar(p.value))))
    label = item.items
      .map((p) => `${String((p.key as { value: unknown }).value)}: ${p.value === null ? '' : String((p.value as { value: unknown }).value)}`)
      .join(', ');
  else label = source.replace(/^\{\s*|\s*\}$/g, '').replace(/\s+/g, ' ');
  return label.length > MAX_LABEL ? `${label.slice(0, MAX_LABEL - 1)}…` : label;
}
