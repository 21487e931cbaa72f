/**
 * What a file that holds no Kubernetes object looks like, so the loader can
 * say "this is `kubectl get` table output, expected `-o yaml`" instead of a
 * YAML parser's `expected a value, found 'r'`.
 *
 * The description never quotes the file: a pasted transcript or a struct
 * dump may hold secrets. Only a file that parsed as JSON or YAML has its
 * top-level key names shown (they are field names, not values).
 */
import { parse } from 'yaml';
import { YAML_OPTIONS } from './yamlOptions';
import { basenamePath } from './source';
import { shellWord } from '../simulation/explainCommand';
import { SCENARIO_HEADER, SCENARIO_TOP_KEYS, WITHOUT_HEADER } from './scenarioHeader';

export const EXPECTED_SNAPSHOT =
  'expected Kubernetes objects as JSON or YAML, with apiVersion and kind, as printed by ' +
  '`kubectl get nodes,pods,replicasets,daemonsets -A -o yaml` (or -o json), one object, or a folder of such files';

export interface Sniffed {
  /** what the text looks like, e.g. "the table output of kubectl get (no -o yaml)" */
  looksLike: string;
  /** a known shape (not just "some other JSON"): the parser's own complaints add nothing */
  recognised: boolean;
  /** a record of what happened that `controller-stepper import` reads (a log, describe output, a get table) */
  evidence?: boolean;
  /** what to write instead, said before what a snapshot would be (a scenario that lost its header) */
  fix?: string;
}

/**
 * What the loader says of a file that holds no object: what it looks like, what was expected, and where
 * evidence goes (the command with `file` as it was given, so that it runs where the user typed the first).
 */
export function notKubernetes(file: string, sniffed: Sniffed): string {
  const hint = sniffed.evidence ? `; to replay what it records, turn it into a scenario: controller-stepper import ${shellWord(file)}` : '';
  const fix = sniffed.fix ? `${sniffed.fix}; as a snapshot, ` : '';
  return `${basenamePath(file)} looks like ${sniffed.looksLike}; ${fix}${EXPECTED_SNAPSHOT}${hint}`;
}

/** The Go field names of ObjectMeta/NodeSpec/PodStatus…, as `%+v` or a Go-to-YAML dump writes them. */
const GO_FIELDS = new Set([
  'Name',
  'Namespace',
  'ObjectMeta',
  'TypeMeta',
  'Spec',
  'Status',
  'Labels',
  'Annotations',
  'Conditions',
  'Taints',
  'NodeName',
  'UID',
  'CreationTimestamp',
  'Kind',
  'APIVersion',
]);

/** A scenario's own top-level keys, and the names people give two of them (scenario.ts's aliases): not a snapshot's. */
const SCENARIO_KEYS = new Set<string>([...SCENARIO_TOP_KEYS.filter((k) => !['apiVersion', 'kind', 'metadata'].includes(k)), 'timeline', 'expectations']);

type Rule = { test: (text: string, lines: string[]) => boolean; looksLike: string; evidence?: boolean };

// Ordered: the first that matches names the file.
const RULES: Rule[] = [
  { test: (t) => /^\s*<(!doctype|html)/i.test(t), looksLike: 'an HTML page' },
  {
    test: (t) => /&(v1\.)?[A-Z]\w*\{|\b(ObjectMeta|TypeMeta):\{|\bv1\.ObjectMeta\{/.test(t),
    looksLike: "a Go struct dump (as fmt prints a Kubernetes object with %v or %+v, e.g. &Node{ObjectMeta:{…}}), whose field names are Go's, not the API's",
  },
  {
    test: (_, l) => l.some((x) => /^\s*(NAMESPACE\s+)?LAST SEEN\s+TYPE\s+REASON\b/.test(x)),
    looksLike: 'the table output of kubectl get events (what happened, not the objects)',
    evidence: true,
  },
  {
    test: (_, l) => l.some((x) => /^\s*NAME\s{2,}(STATUS|READY|NAMESPACE|ROLES|DESIRED|HOLDER)\b/.test(x)),
    looksLike: 'the table output of kubectl get (without -o yaml or -o json)',
    evidence: true,
  },
  {
    test: (_, l) =>
      l.filter(
        (x) =>
          /^(Name|Namespace|Labels|Annotations|Taints|Conditions|Roles|CreationTimestamp|Node|Status|Controlled By):\s/.test(x) ||
          /^(Conditions|Events|Containers|Tolerations):\s*$/.test(x),
      ).length >= 3 && l.some((x) => /^Name:\s{2,}/.test(x)),
    looksLike: 'the output of kubectl describe',
    evidence: true,
  },
  {
    test: (_, l) => l.some((x) => /^\s*[$#%>]\s+(sudo\s+)?(kubectl|oc|k)\s/.test(x)),
    looksLike: "a shell transcript (a command prompt and the command's output)",
  },
  {
    // A heading alone is a YAML comment: Markdown needs its own marks too (a link, a code fence, a table row, bold)
    test: (t, l) => l.some((x) => /^#{1,6} \S/.test(x)) && /\[[^\]\n]+\]\([^)\s]+\)|^```|^\|.*\|\s*$|\*\*[^*\n]+\*\*/m.test(t),
    looksLike: 'a Markdown document (notes or a README, not an export)',
  },
  {
    test: (_, l) => l.filter((x) => /^[IWEF]\d{4} \d\d:\d\d:\d\d/.test(x)).length >= 2,
    looksLike: "log lines in klog format (a component's log, not its objects)",
    evidence: true,
  },
];

/** What the text looks like, or undefined when it is Kubernetes after all (an empty `kind: List`, a file of comments). */
export function sniffText(text: string): Sniffed | undefined {
  const head = text.length > 64 * 1024 ? text.slice(0, 64 * 1024) : text;
  const lines = head.split(/\r?\n/, 200);
  for (const r of RULES) if (r.test(head, lines)) return { looksLike: r.looksLike, recognised: true, evidence: r.evidence };
  const parsed = parseQuietly(head === text ? text : undefined);
  if (parsed === null) return undefined;
  if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const keys = Object.keys(parsed);
    // An object that only lacks its kind (or a List with no items) is Kubernetes: the loader's own warnings fit it.
    if (typeof (parsed as { kind?: unknown }).kind === 'string' || 'apiVersion' in parsed || 'metadata' in parsed) return undefined;
    const go = keys.filter((k) => GO_FIELDS.has(k));
    if (go.length >= 2 || (go.length && keys.every((k) => /^[A-Z]/.test(k)))) {
      return {
        looksLike: `an object with capitalised Go field names (${go
          .slice(0, 4)
          .map((k) => `${k}:`)
          .join(' ')}) where the API has lower-case JSON names (metadata.name, spec, status)`,
        recognised: true,
      };
    }
    // a scenario written from memory or from the docs' prose ("a timeline"), without its first two lines: it was read as a
    // snapshot, and "expected Kubernetes objects" alone sent the user the wrong way
    const scenarioKeys = keys.filter((k) => SCENARIO_KEYS.has(k));
    if (scenarioKeys.length >= 2) {
      return {
        looksLike: `${WITHOUT_HEADER} (its keys ${scenarioKeys
          .slice(0, 4)
          .map((k) => JSON.stringify(k))
          .join(', ')} are a scenario's)`,
        recognised: true,
        fix: `a scenario starts with ${SCENARIO_HEADER} (docs/scenario-format.md)`,
      };
    }
    const shown = keys
      .slice(0, 5)
      .map((k) => JSON.stringify(k.length > 40 ? `${k.slice(0, 40)}…` : k))
      .join(', ');
    return { looksLike: `a mapping without apiVersion and kind (its keys: ${shown}${keys.length > 5 ? ', …' : ''})`, recognised: false };
  }
  if (typeof parsed === 'string' || typeof parsed === 'number') return { looksLike: 'plain text', recognised: true };
  return { looksLike: 'neither Kubernetes JSON nor YAML', recognised: false };
}

function parseQuietly(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    /* not JSON: try YAML */
  }
  try {
    return parse(text, { ...YAML_OPTIONS, prettyErrors: false, maxAliasCount: 100 });
  } catch {
    return undefined;
  }
}

/** Keeps offsets: a BOM becomes a blank. */
export function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? ' ' + text.slice(1) : text;
}

/** Binary data: NUL characters, or many undecodable bytes near the start. */
export function isBinary(text: string): boolean {
  if (text.indexOf('\u0000') !== -1) return true;
  const head = text.slice(0, 4096);
  let bad = 0;
  for (let i = 0; i < head.length; i++) if (head.charCodeAt(i) === 0xfffd) bad++;
  return bad > 8 && bad > head.length / 100;
}
