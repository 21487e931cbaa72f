/**
 * Roughly how many bytes loading a path reads, from stats alone (a scenario's own text, small, is parsed for
 * its `snapshot:` paths): for a caller choosing how to show the wait before a load it cannot interrupt (the
 * panel shows a notification only for a load long enough to need one: VS Code keeps a notification's
 * progress on screen for at least 800 ms, over a scenario painted long before). Never used for a decision:
 * a path that cannot be read counts 0, and the loader reports it.
 */
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { isScenarioText } from './scenario';
import { dirnamePath, joinPath, resolveFrom, type InputFs } from './source';
import { YAML_OPTIONS } from './yamlOptions';

/** A scenario file larger than this is counted by its size (its objects are most of it), not parsed here. */
const PARSED_SCENARIO_BYTES = 1 << 20;
/** Folders deeper than this are not counted (the loader stops at its own depth, a loop never ends). */
const MAX_DEPTH = 8;

/** The bytes of `path` (a file, a folder's files, or a scenario and its snapshots); `text`: the scenario's, when it has no file. */
export function inputBytes(path: string, fs: InputFs, text?: string): number {
  if (text !== undefined) return text.length + (isScenarioText(text) ? snapshotBytes(text, path, fs) : 0);
  return bytesOf(path, fs, 0, true);
}

function bytesOf(path: string, fs: InputFs, depth: number, scenarioMayBe: boolean): number {
  let st;
  try {
    st = fs.stat(path);
  } catch {
    return 0;
  }
  if (!st) return 0;
  if (st.kind === 'dir') {
    if (depth >= MAX_DEPTH) return 0;
    let names: string[];
    try {
      names = fs.list(path);
    } catch {
      return 0;
    }
    return names.filter((n) => !n.startsWith('.')).reduce((sum, n) => sum + bytesOf(joinPath(path, n), fs, depth + 1, false), 0);
  }
  if (!scenarioMayBe || st.size > PARSED_SCENARIO_BYTES) return st.size;
  let own: string;
  try {
    own = fs.readText(path);
  } catch {
    return st.size;
  }
  return st.size + (isScenarioText(own) ? snapshotBytes(own, path, fs) : 0);
}

/** The bytes of the snapshots a scenario's text names (`snapshot:`, one path or a list), relative to its file. */
function snapshotBytes(text: string, file: string, fs: InputFs): number {
  let top;
  try {
    top = parseDocument(text, YAML_OPTIONS).contents;
  } catch {
    return 0;
  }
  if (!isMap(top)) return 0;
  const node = top.get('snapshot', true);
  const items = isSeq(node) ? node.items : [node];
  const dir = dirnamePath(file);
  const paths = new Set(items.filter(isScalar).flatMap((i) => (typeof i.value === 'string' && i.value ? [resolveFrom(dir, i.value)] : [])));
  return [...paths].reduce((sum, p) => sum + bytesOf(p, fs, 0, false), 0);
}
