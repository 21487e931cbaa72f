/**
 * kubectlYaml.ts against the yaml package, for the tests of its subset: the values and ranges it
 * gives, and what the loader makes of a text with it and without it.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { isMap, isSeq, parseAllDocuments, stringify, type Document } from 'yaml';
import { readKubectlYaml } from '../../src/engine/snapshot/kubectlYaml';
import { YAML_OPTIONS } from '../../src/engine/snapshot/yamlOptions';
import { loadSnapshot, type LoadOptions } from '../../src/engine/snapshot/load';
import { MemoryFs } from '../../src/engine/snapshot/source';
import { generateCluster } from '../../src/engine/generate';

/** What the yaml package makes of the text, in the terms kubectlYaml.ts answers in; undefined when it reports anything. */
export function byYamlPackage(text: string) {
  const docs = parseAllDocuments(text, { ...YAML_OPTIONS, prettyErrors: false }) as unknown as Document.Parsed[];
  if (!Array.isArray(docs) || docs.some((d) => d.errors.length || d.warnings.length)) return undefined;
  return docs.map((d) => {
    const c = d.contents!;
    const seq = isSeq(c) ? c : isMap(c) && isSeq(c.get('items', true)) ? c.get('items', true) : undefined;
    return {
      value: d.toJS(),
      start: c.range[0],
      end: c.range[1],
      items: seq && (seq as { items: { range?: number[] }[] }).items.map((n) => (n?.range ? [n.range[0], n.range[1]] : undefined)),
    };
  });
}

/** kubectlYaml.ts gives up, or gives what the yaml package gives: true when it answered. */
export function agrees(text: string, what: string): boolean {
  const fast = readKubectlYaml(text);
  if (!fast) return false;
  const slow = byYamlPackage(text);
  assert.ok(slow, `${what}: read fast, but the yaml package reports a problem`);
  assert.equal(fast.length, slow.length, `${what}: documents`);
  for (let i = 0; i < fast.length; i++) {
    assert.deepEqual(fast[i].value, slow[i].value, `${what}: document ${i}'s value`);
    assert.deepEqual([fast[i].start, fast[i].end], [slow[i].start, slow[i].end], `${what}: document ${i}'s range`);
    const items: number[] | undefined = fast[i].items;
    if (items)
      for (let k = 0; k < items.length / 2; k++)
        if (items[2 * k] >= 0) assert.deepEqual([items[2 * k], items[2 * k + 1]], slow[i].items?.[k], `${what}: document ${i}'s item ${k}`);
  }
  return true;
}

/** Everything a load gives that a user sees: objects with their positions, problems with theirs. */
export function loaded(name: string, text: string, options: LoadOptions) {
  const fs = new MemoryFs({ [name]: text });
  fs.chunkChars = 997;
  const s = loadSnapshot(name, fs, options);
  return {
    objects: s.objects.map((o) => ({ kind: o.kind, name: o.name, position: o.position, object: o.object })),
    problems: s.problems,
    partial: s.partial,
    nodes: [...s.cluster.nodes.keys()],
    pods: [...s.cluster.pods.keys()],
  };
}

/** The loader with and without kubectlYaml.ts, read whole and streamed: the same results. */
export function loadsTheSame(name: string, text: string): void {
  for (const stream of [undefined, 0]) {
    const opts: LoadOptions = stream === undefined ? {} : { streamFilesAbove: stream };
    assert.deepEqual(loaded(name, text, opts), loaded(name, text, { ...opts, kubectlYaml: false }), `${name} (${stream === undefined ? 'whole' : 'streamed'})`);
  }
}

export const smallCluster = () => generateCluster({ nodes: 6, podsPerNode: 3, zones: 3, seed: 7, detail: 'full', format: 'yaml' }).objects;
/** kubectl's List: `- ` at the parent's indentation */
export const kubectlList = (items: unknown[]) => stringify({ apiVersion: 'v1', items, kind: 'List', metadata: { resourceVersion: '' } }, { indentSeq: false });
/** `helm template`'s layout: `---`, then `# Source: ...`, before each document. */
export const helmLike = (objects: unknown[]) => objects.map((o, i) => `---\n# Source: chart/templates/object-${i}.yaml\n${stringify(o)}`).join('');

/** Cases a fast read must take: read fast, the value when given, the yaml package's values and ranges, the loader's positions whole and streamed. */
export function readsFastCases(cases: readonly (readonly [name: string, text: string, value?: unknown])[]): void {
  for (const [name, text, value] of cases) {
    it(name, () => {
      const docs = readKubectlYaml(text);
      assert.ok(docs, 'read fast');
      if (value !== undefined) assert.deepEqual(docs[0].value, value);
      assert.ok(agrees(text, name));
      loadsTheSame('/flow.yaml', text);
    });
  }
}
