import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Every .ts/.tsx file under `dir`, recursively. */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? sourceFiles(p) : /\.tsx?$/.test(n) ? [p] : [];
  });
}

export const IMPORT = /(?:import|export)\s+(type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]|require\(\s*['"]([^'"]+)['"]\s*\)|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** The file a relative specifier names, as the bundler resolves it (`x` -> x.ts, x.tsx or x/index.ts). */
export function resolveSpecifier(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  return [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((p) => existsSync(p) && statSync(p).isFile());
}

/** file (relative to `root`) -> the files of ours it imports, type-only imports included: a cycle of types is a cycle of modules to read. */
export function importGraph(root: string, files: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = new Set<string>();
    for (const m of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = m[2] ?? m[3] ?? m[4];
      if (!spec?.startsWith('.')) continue;
      const target = resolveSpecifier(file, spec);
      if (target) targets.add(relative(root, target));
    }
    graph.set(relative(root, file), [...targets].sort());
  }
  return graph;
}

/**
 * The import cycles: strongly connected components of more than one file, or
 * a file that imports itself (Tarjan's algorithm). Each is sorted, and the
 * list is sorted by its first file, so that a failure reads the same each run.
 */
export function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  // iterative, so that a long chain of imports cannot overflow the stack
  for (const startNode of graph.keys()) {
    if (index.has(startNode)) continue;
    const work: { node: string; edge: number }[] = [{ node: startNode, edge: 0 }];
    index.set(startNode, next);
    low.set(startNode, next++);
    stack.push(startNode);
    onStack.add(startNode);
    while (work.length) {
      const top = work[work.length - 1];
      const edges = graph.get(top.node) ?? [];
      if (top.edge < edges.length) {
        const w = edges[top.edge++];
        if (!index.has(w)) {
          index.set(w, next);
          low.set(w, next++);
          stack.push(w);
          onStack.add(w);
          work.push({ node: w, edge: 0 });
        } else if (onStack.has(w)) {
          low.set(top.node, Math.min(low.get(top.node)!, index.get(w)!));
        }
        continue;
      }
      work.pop();
      if (work.length) {
        const parent = work[work.length - 1].node;
        low.set(parent, Math.min(low.get(parent)!, low.get(top.node)!));
      }
      if (low.get(top.node) !== index.get(top.node)) continue;
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== top.node);
      if (component.length > 1 || edges.includes(top.node)) out.push(component.sort());
    }
  }
  return out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
