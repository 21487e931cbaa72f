/**
 * The fuzzer's inputs: a case is a few in-memory files (a scenario and its snapshots) and a
 * horizon. Cases are generated from a seed alone, so the two processes that run them (to
 * compare their traces) generate the same ones: grammar-aware mutations of the bundled
 * examples and of the real exports in ../shared/fixtures/real, plus the trap classes of
 * issue 17 (hostile numbers, durations, times, depth, size, YAML tricks).
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse, stringify } from 'yaml';
import { mulberry32 } from '../helpers/random';

export interface FuzzCase {
  id: number;
  /** what was done to the base, for the report */
  recipe: string[];
  /** path -> text, all under /case */
  files: Record<string, string>;
  entry: string;
  /** simulated time to run past the start, in seconds */
  horizonSeconds: number;
}

const ROOT = join(__dirname, '..', '..');
const EXAMPLES = join(ROOT, 'examples');
const REAL = join(ROOT, '..', 'shared', 'fixtures', 'real');

/** Mulberry32: small, seedable, the same in every process (the tests' own). */
export const rng = mulberry32;

interface Base {
  name: string;
  files: Record<string, string>;
  entry: string;
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const n of readdirSync(dir).sort()) {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (/\.(ya?ml|json)$/.test(n)) out.push(p);
  }
  return out;
}

let bases: Base[] | undefined;
/** The examples (with their clusters) and one scenario around each real export. */
export function loadBases(): Base[] {
  if (bases) return bases;
  bases = [];
  const clusters: Record<string, string> = {};
  for (const f of walk(join(EXAMPLES, 'clusters'))) clusters[`/case/${relative(EXAMPLES, f)}`] = readFileSync(f, 'utf8');
  for (const f of readdirSync(EXAMPLES)
    .filter((n) => n.endsWith('.yaml'))
    .sort()) {
    bases.push({ name: f, entry: '/case/scenario.yaml', files: { ...clusters, '/case/scenario.yaml': readFileSync(join(EXAMPLES, f), 'utf8') } });
  }
  if (existsSync(REAL)) {
    for (const f of walk(REAL)) {
      const rel = relative(REAL, f).replace(/[^\w.-]/g, '_');
      const scenario = `apiVersion: controllerstepper.io/v1alpha1\nkind: Scenario\nmetadata: {name: real}\nsnapshot: ./${rel}\n`;
      bases.push({ name: `real/${rel}`, entry: '/case/scenario.yaml', files: { [`/case/${rel}`]: readFileSync(f, 'utf8'), '/case/scenario.yaml': scenario } });
    }
  }
  return bases;
}

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
const int = (r: Rand, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));

const DURATIONS = [
  '5s',
  '40s',
  '1m',
  '5m',
  '500ms',
  '1us',
  '0s',
  '-5s',
  '99999999999999999999h',
  '2562047h47m16.854775807s',
  '1.5h',
  '.5s',
  'abc',
  '1e3s',
  `${'9'.repeat(2000)}s`,
  '100ms',
  '2s',
  '10s',
];
const FLOATS: unknown[] = [0.1, 0.01, 0, 1, 1e400, -1, 0.55, 1e-9, 'NaN', '.inf', 1e308];
const INTS: unknown[] = [0, 1, 2, 5, 50, 500, 2147483647, 2147483648, -1, 1e9, 3.5, '7'];
const SETTINGS: Record<string, readonly unknown[]> = {
  nodeMonitorPeriod: DURATIONS,
  nodeMonitorGracePeriod: DURATIONS,
  nodeStartupGracePeriod: DURATIONS,
  podEvictionTimeout: DURATIONS,
  nodeEvictionRate: FLOATS,
  secondaryNodeEvictionRate: FLOATS,
  unhealthyZoneThreshold: FLOATS,
  largeClusterSizeThreshold: INTS,
  burstReplicas: INTS,
  concurrentReplicaSetSyncs: INTS,
  enableTaintManager: [true, false, 'maybe'],
};
const ATS: readonly unknown[] = [
  '0s',
  '10s',
  '30s',
  '1m',
  '2m30s',
  '5m',
  '9m',
  '100000h',
  '.inf',
  '9007199254740992us',
  '-1s',
  30,
  '2026-01-01T00:03:00Z',
  '2300-01-01T00:00:00Z',
  '1h',
];
const REPLICAS: readonly unknown[] = [0, 1, 3, 8, 50, 500, 3000, 2147483648, 1e9, -1, 'many'];
const NAMES = ['node-a1', 'node-a2', 'node-b1', 'node-c1', 'NODE_A', 'no-such-node', 'x'.repeat(300)];
const TIMES = ['2026-01-01T00:00:00Z', '2300-01-01T00:00:00Z', '9999-12-31T23:59:59Z', '0001-01-01T00:00:00Z', '1970-01-01T00:00:00Z', 'yesterday', null];

/**
 * A deeply nested value, as a marker that `expandDeep` turns into flow text after the file is
 * written: the generator never builds or stringifies the deep value itself, so generating a
 * case cannot depend on the stack (the two fuzz processes have different stack sizes).
 */
function nest(depth: number, array: boolean): unknown {
  return `DEEP_${depth}_${array ? 'a' : 'o'}`;
}

function expandDeep(text: string): string {
  return text.replace(/"?DEEP_(\d+)_([ao])"?/g, (_, n: string, kind: string) => {
    const depth = Number(n);
    return kind === 'a' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  });
}

/** A random event in the scenario grammar, mostly well-formed, sometimes a trap. */
function randomEvent(r: Rand, nodes: string[], pods: string[], rss: string[]): Record<string, unknown> {
  const at = r() < 0.8 ? `${int(r, 0, 540)}s` : pick(r, ATS);
  const node = nodes.length && r() < 0.85 ? pick(r, nodes) : pick(r, NAMES);
  switch (int(r, 0, 10)) {
    case 0:
      return { at, kubelet: 'stop', nodes: [node] };
    case 1:
      return { at, kubelet: 'start', nodes: [node] };
    case 2:
      return { at, node, condition: { type: 'Ready', status: pick(r, ['True', 'False', 'Unknown']) } };
    case 3:
      return {
        at,
        node,
        taint: {
          key: pick(r, ['example.com/m', 'node.kubernetes.io/unreachable', 'bad key', 'a/b/c']),
          effect: pick(r, ['NoExecute', 'NoSchedule', 'Sometimes']),
        },
      };
    case 4:
      return { at, scale: { replicaSet: rss.length ? pick(r, rss) : 'default/web', replicas: pick(r, REPLICAS) } };
    case 5:
      return { at, delete: pods.length && r() < 0.7 ? `Pod/${pick(r, pods)}` : `Node/${node}` };
    case 6: {
      const name = pick(r, ['fuzz-pod', 'Fuzz_Pod', 'p'.repeat(260)]);
      // the first name with an ownerReference to a ReplicaSet that does not exist (a pod owner problem), drawing nothing more
      const owners =
        name === 'fuzz-pod' ? { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'gone', uid: 'gone-uid', controller: true }] } : {};
      return {
        at,
        apply: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name, namespace: 'default', labels: { app: 'web' }, ...owners },
          spec: {
            nodeName: r() < 0.5 ? node : undefined,
            tolerations:
              r() < 0.3
                ? [
                    {
                      key: 'node.kubernetes.io/unreachable',
                      operator: 'Exists',
                      effect: 'NoExecute',
                      tolerationSeconds: pick(r, [0, 30, 1e308, -5, 9223372036854775807]),
                    },
                  ]
                : undefined,
          },
        },
      };
    }
    case 7:
      return {
        at,
        patch: {
          object: `Node/${node}`,
          merge:
            r() < 0.2
              ? { status: nest(pick(r, [50, 150, 3000]), r() < 0.5) }
              : { metadata: { labels: { [pick(r, ['topology.kubernetes.io/zone', 'bad key!', 'k'])]: pick(r, ['zone-x', 'v'.repeat(70), '']) } } },
        },
      };
    case 8:
      return {
        at,
        fail: { verb: pick(r, ['create', 'delete', 'update', 'patch']), resource: pick(r, ['pods', 'nodes', 'replicasets']), count: pick(r, [1, 3, 100, -1]) },
      };
    case 9:
      return { at, restartControllerManager: r() < 0.5 ? true : { failover: true } };
    default:
      return { at, kubelet: 'stop', zone: pick(r, ['us-east-1a', 'zone-a', 'nowhere']) };
  }
}

function randomExpectation(r: Rand, nodes: string[]): Record<string, unknown> {
  const at = r() < 0.8 ? `${int(r, 0, 600)}s` : pick(r, ATS);
  return r() < 0.5
    ? { at, node: nodes.length ? pick(r, nodes) : 'node-a1', hasTaint: 'node.kubernetes.io/unreachable:NoExecute' }
    : { at, node: nodes.length ? pick(r, nodes) : 'node-a1', ready: 'Unknown' };
}

/** Names found in a snapshot's text, cheaply (the generator does not load it). */
function namesIn(text: string): { nodes: string[]; pods: string[]; rss: string[] } {
  const nodes = new Set<string>(),
    pods = new Set<string>(),
    rss = new Set<string>();
  for (const m of text.matchAll(/kind:\s*"?(Node|Pod|ReplicaSet)"?[\s\S]{0,400}?name:\s*"?([\w.-]+)"?(?:[\s\S]{0,200}?namespace:\s*"?([\w.-]+)"?)?/g)) {
    if (m[1] === 'Node') nodes.add(m[2]);
    else if (m[1] === 'Pod') pods.add(`${m[3] ?? 'default'}/${m[2]}`);
    else rss.add(`${m[3] ?? 'default'}/${m[2]}`);
    if (nodes.size + pods.size + rss.size > 200) break;
  }
  return { nodes: [...nodes], pods: [...pods], rss: [...rss] };
}

/** Mutations of one snapshot object: the API-validation traps. */
function mutateObject(r: Rand, obj: Record<string, unknown>, recipe: string[]): void {
  const md = (obj.metadata ??= {}) as Record<string, unknown>;
  const spec = (obj.spec ??= {}) as Record<string, unknown>;
  const op = int(r, 0, 8);
  recipe.push(`object-${op}`);
  switch (op) {
    case 0:
      md.name = pick(r, ['UPPER_case', 'a'.repeat(254), '', 'ok-name', '-leading']);
      break;
    case 1:
      md.labels = { ...(md.labels as object), [pick(r, ['a/b/c', 'good', '-bad', 'x'.repeat(64)])]: pick(r, ['v', 'v'.repeat(64), 'has space']) };
      break;
    case 2:
      spec.replicas = pick(r, REPLICAS);
      break;
    case 3:
      spec.tolerations = [
        { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: pick(r, [1e308, -1, 0, 600, 9.3e18]) },
      ];
      break;
    case 4:
      md.annotations = {
        ...(md.annotations as object),
        'controller.kubernetes.io/pod-deletion-cost': pick(r, ['99999999999999999999', '-5', 'abc', '2147483647']),
      };
      break;
    case 5:
      obj.status = { deep: nest(pick(r, [99, 101, 2000, 20000]), r() < 0.5) };
      break;
    case 6:
      md.annotations = { note: 'n'.repeat(pick(r, [1000, 300_000, 1_600_000])) };
      break;
    case 7:
      md.creationTimestamp = pick(r, TIMES);
      break;
    default:
      spec.taints = [{ key: pick(r, ['ok/key', 'bad key', '']), value: pick(r, ['v', 'x'.repeat(70)]), effect: pick(r, ['NoExecute', 'Never']) }];
      break;
  }
}

/** Text-level traps: what a parser sees before any grammar. */
function mutateText(r: Rand, text: string, recipe: string[]): string {
  const op = int(r, 0, 7);
  recipe.push(`text-${op}`);
  switch (op) {
    case 0:
      return text.slice(0, int(r, 0, text.length));
    case 1: {
      const i = int(r, 0, text.length);
      return text.slice(0, i) + pick(r, ['\u001b[2J', '\u0007', '\u0000', '&a [*a]', '{{{', ': :', '\t', '"', '\ufeff']) + text.slice(i);
    }
    case 2:
      return `%YAML 1.1\n---\n${text}`;
    case 3:
      return `${text}\n? [a, b]\n: c\n`;
    case 4:
      return `x0: &a0 [y,y,y,y,y,y,y,y,y]\n${Array.from({ length: 6 }, (_, i) => `x${i + 1}: &a${i + 1} [${Array(9).fill(`*a${i}`).join(',')}]`).join('\n')}\n`;
    case 5:
      return '\n'.repeat(100_000) + text;
    case 6:
      return `"${'\\"'.repeat(50_000)}`;
    default:
      return text.replace(/\n/g, '\r\n');
  }
}

/** The case with this id, from the seed alone. */
export function makeCase(seed: number, id: number): FuzzCase {
  const r = rng((seed * 1_000_003) ^ (id * 7919));
  const base = pick(r, loadBases());
  const files = { ...base.files };
  const recipe = [base.name];
  let doc: Record<string, unknown>;
  try {
    doc = (parse(files[base.entry]) ?? {}) as Record<string, unknown>;
  } catch {
    doc = {};
  }
  const snapPath = typeof doc.snapshot === 'string' ? `/case/${String(doc.snapshot).replace(/^\.\//, '')}` : undefined;
  const names = snapPath && files[snapPath] ? namesIn(files[snapPath]) : { nodes: [], pods: [], rss: [] };
  const mutations = int(r, 1, 4);
  let textTrap = false;
  let snapEdit: { json: boolean; doc: unknown; changed: boolean } | undefined;
  for (let m = 0; m < mutations; m++) {
    const op = int(r, 0, 11);
    switch (op) {
      case 0:
      case 1: {
        const key = pick(r, Object.keys(SETTINGS));
        const cm = (doc.controllerManager ??= {}) as Record<string, unknown>;
        cm[key] = pick(r, SETTINGS[key]);
        recipe.push(`set ${key}=${String(cm[key]).slice(0, 30)}`);
        break;
      }
      case 2:
      case 3:
      case 4: {
        const events = Array.isArray(doc.events) ? doc.events : ((doc.events = []) as unknown[]);
        const n = int(r, 1, 4);
        for (let i = 0; i < n; i++) (events as unknown[]).push(randomEvent(r, names.nodes, names.pods, names.rss));
        recipe.push(`+${n} events`);
        break;
      }
      case 5:
        if (Array.isArray(doc.events) && doc.events.length) {
          doc.events.splice(int(r, 0, doc.events.length - 1), 1);
          recipe.push('-event');
        }
        break;
      case 6: {
        const ex = Array.isArray(doc.expect) ? doc.expect : ((doc.expect = []) as unknown[]);
        (ex as unknown[]).push(randomExpectation(r, names.nodes));
        recipe.push('+expect');
        break;
      }
      case 7:
        doc.startTime = pick(r, TIMES);
        recipe.push(`startTime ${String(doc.startTime)}`);
        break;
      case 8:
        doc.kubernetesVersion = pick(r, ['1.12', '1.13', '1.20', '1.27', '1.29', '1.31', '1.34', '1.35', '1.2', '1.36', 1.2]);
        recipe.push(`version ${String(doc.kubernetesVersion)}`);
        break;
      case 9: {
        if (!snapPath || !files[snapPath]) break;
        // parsed once and written once at the end: a second mutation must not parse and
        // stringify a value the first one nested thousands deep (that depends on the stack)
        if (!snapEdit) {
          const json = /^\s*[{[]/.test(files[snapPath]);
          try {
            snapEdit = { json, doc: json ? JSON.parse(files[snapPath]) : parse(files[snapPath]), changed: false };
          } catch {
            break;
          }
        }
        const snap = snapEdit.doc;
        const items = (snap as { items?: unknown[] })?.items;
        const target = Array.isArray(items) && items.length ? items[int(r, 0, items.length - 1)] : snap;
        if (target && typeof target === 'object' && !Array.isArray(target)) {
          mutateObject(r, target as Record<string, unknown>, recipe);
          snapEdit.changed = true;
        }
        break;
      }
      case 10:
        if (typeof doc.snapshot === 'string') {
          doc.snapshot = Array(pick(r, [2, 200])).fill(doc.snapshot);
          recipe.push('snapshot listed many times');
        }
        break;
      default:
        textTrap = true;
        break;
    }
  }
  if (snapPath && snapEdit?.changed)
    files[snapPath] = expandDeep(snapEdit.json ? JSON.stringify(snapEdit.doc) : stringify(snapEdit.doc, { aliasDuplicateObjects: false, lineWidth: 0 }));
  let text = expandDeep(stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0 }));
  if (textTrap) {
    if (snapPath && files[snapPath] && r() < 0.5) files[snapPath] = mutateText(r, files[snapPath], recipe);
    else text = mutateText(r, text, recipe);
  }
  files[base.entry] = text;
  return { id, recipe, files, entry: base.entry, horizonSeconds: 600 };
}
