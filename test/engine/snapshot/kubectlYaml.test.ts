/**
 * kubectlYaml.ts against the yaml package: every value, range and loaded result the same, or a
 * give-up that leaves the text to the yaml package.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Document as YamlDocument, isScalar, parseAllDocuments, stringify, visit, type Document } from 'yaml';
import { readKubectlYaml } from '../../../src/engine/snapshot/kubectlYaml';
import { kubectlYamlUnit } from '../../../src/engine/snapshot/unitObjects';
import { LineIndex, locateYamlPath, pathKey, type JsonPath } from '../../../src/engine/snapshot/positions';
import { YAML_OPTIONS } from '../../../src/engine/snapshot/yamlOptions';
import { listChunks } from '../../../src/engine/generate';
import { Random } from '../../../src/engine/generate';
import { goYamlFold } from '../../helpers/goYamlFold';
import { agrees, helmLike, kubectlList, loaded, loadsTheSame, smallCluster, readsFastCases } from '../../helpers/kubectlYamlAgree';
import { REAL_FIXTURES, realFixture } from '../../helpers/realFixtures';

function yamlFiles(dir: string, out: string[] = []): string[] {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yamlFiles(p, out);
    else if (/\.ya?ml$/.test(name)) out.push(p);
  }
  return out;
}

const multiDocument = () => [...listChunks(smallCluster(), 'yaml')].join('');

describe('kubectlYaml: the repository and shared YAML files', () => {
  const files = [...yamlFiles('test'), ...yamlFiles('examples'), ...yamlFiles(REAL_FIXTURES)];
  it('finds the files', () => assert.ok(files.length > 30));
  /** the files in the subset: the fast path is taken (the KWOK export has go-yaml's folded lines, the manifests comments and flow collections) */
  const expectFast = [
    'test/fixtures/real-evidence/manifest-flannel-v0.11.0-comments.yaml',
    'test/fixtures/real-evidence/manifest-nodelocaldns-k8s-addon.yaml',
    'test/fixtures/real-evidence/manifest-k3s-upgrade-plans-flow.yaml',
    'test/fixtures/real-evidence/manifest-hami-model-a-prettier-flow.yaml',
    'test/engine/config/fixtures/kube-controller-manager.pod.yaml',
    'test/fixtures/constructed-evidence/kwok-record-v1alpha1-node1-unreachable.yaml',
    'test/fixtures/real-evidence/kwok-export-1.30-kind-lab07.yaml',
    realFixture('mustgather-ocp418-node-worker-0-5ddfx.yaml'),
    realFixture('mustgather-ocp-kube-system-replicasets.yaml'),
  ];
  for (const f of files) {
    it(f, () => {
      const text = readFileSync(f, 'utf8').replace(/^\uFEFF/, '');
      const fast = agrees(text, f);
      if (expectFast.includes(f) && existsSync(f)) assert.ok(fast, `${f}: the fast path`);
      loadsTheSame(f.replace(/^.*\//, '/'), text);
    });
  }
});

describe('kubectlYaml: the generator full-detail cluster', () => {
  const cases: [string, () => string][] = [
    ['multi-document, as generate --format yaml writes it', multiDocument],
    ['one kubectl List', () => kubectlList(smallCluster())],
    ['a List with indented items', () => stringify({ apiVersion: 'v1', items: smallCluster(), kind: 'List' })],
    ['a top-level sequence', () => stringify(smallCluster(), { indentSeq: false })],
    [
      'a List with problems inside items (bad taint effect, a duplicate, a kind missing, a wrong apiVersion)',
      () => {
        type Loose = { kind?: string; apiVersion?: string; spec: { taints?: unknown[] } };
        const objects = smallCluster() as unknown as Loose[];
        const node = objects.find((o) => o.kind === 'Node')!;
        node.spec.taints = [{ key: 'k', effect: 'NoSleep' }];
        const pod = objects.find((o) => o.kind === 'Pod')!;
        objects.push(structuredClone(pod));
        delete objects.find((o) => o.kind === 'Lease')!.kind;
        objects.find((o) => o.kind === 'ReplicaSet')!.apiVersion = 'apps/v9';
        return kubectlList(objects);
      },
    ],
  ];
  for (const [name, make] of cases) {
    it(name, () => {
      const text = make();
      assert.ok(agrees(text, name), `${name}: the fast path`);
      loadsTheSame('/cluster.yaml', text);
    });
  }
});

/** strings goYamlFold has folded over lines */
let foldsWritten = 0;

/**
 * Strings and scalars as go-yaml (through sigs.k8s.io/yaml) writes them; sometimes written otherwise, still valid or not.
 * A value (not a key) that starts at `column` is folded as go-yaml folds a long string (goYamlFold).
 */
function writeScalar(r: Random, v: unknown, indent: number, column?: number): string {
  if (typeof v !== 'string') return v === null ? pick(r, ['null', '~', 'Null']) : String(v);
  const lines = v.split('\n');
  if (lines.length > 1 && !/[^\S\n]\n|^\s|\t/.test(v) && r.float() < 0.8) {
    const trailing = /\n+$/.exec(v)?.[0].length ?? 0;
    const head = trailing === 0 ? '|-' : trailing === 1 ? '|' : '|+';
    const body = v.replace(/\n+$/, '').split('\n');
    return `${head}\n${body.map((l) => (l ? ' '.repeat(indent + 2) + l : '')).join('\n')}${'\n'.repeat(Math.max(trailing - 1, 0))}`;
  }
  const style = r.float();
  const fold = (tokens: string[], s: 'plain' | 'single' | 'double') => {
    if (column === undefined) return tokens.join('');
    const folded = goYamlFold(tokens, s, column, indent + 2);
    if (folded.includes('\n')) foldsWritten++;
    return folded;
  };
  if (style < 0.45 && /^[A-Za-z0-9./_-][^\n#:]*$/.test(v) && !/\s$/.test(v)) return fold([...v], 'plain');
  // eslint-disable-next-line no-control-regex -- the characters single quotes cannot hold
  if (style < 0.75 && !/[\n\t\x00-\x1f]/.test(v))
    return `'${fold(
      [...v].map((c) => (c === "'" ? "''" : c)),
      'single',
    )}'`;
  const escaped = JSON.stringify(v)
    .slice(1, -1)
    .replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return `"${fold(escaped.match(/\\u[0-9a-fA-F]{4}|\\.|[\s\S]/gu) ?? [], 'double')}"`;
}

function pick<T>(r: Random, xs: readonly T[]): T {
  return xs[Math.floor(r.float() * xs.length)];
}

const WORDS = [
  '',
  'a',
  'node-1',
  'true',
  'False',
  'yes',
  'null',
  '~',
  '0',
  '007',
  '-1',
  '+2',
  '1.5',
  '.5',
  '1e3',
  '0x1F',
  '0o17',
  '.inf',
  '-.Inf',
  '.NaN',
  '2025-11-16T21:00:00Z',
];
const CHARS = [
  'a',
  'Z',
  '9',
  ' ',
  ':',
  ': ',
  ' #',
  '#',
  "'",
  '"',
  '\\',
  '-',
  '- ',
  '?',
  ',',
  '[',
  ']',
  '{',
  '}',
  '&',
  '*',
  '!',
  '|',
  '>',
  '%',
  '@',
  '`',
  'é',
  '日',
  '😀',
  '\n',
  '\t',
  '\x07',
];

/** A condition message's words, and what makes go-yaml quote one */
const MESSAGE_WORDS = [
  'the',
  'node',
  'kubelet',
  'stopped',
  'posting',
  'status.',
  'ready:',
  "can't",
  '"x"',
  '[app]',
  'é',
  '日本',
  '😀',
  'http://x:80/y',
  '-',
  '#1',
  '',
  '\\',
];

/** A long string of words: past go-yaml's 80 columns, so folded; sometimes two spaces in a row, a tab or a line break. */
function longString(r: Random): string {
  const n = 12 + Math.floor(r.float() * 40);
  const words: string[] = [];
  for (let i = 0; i < n; i++) words.push(r.float() < 0.03 ? pick(r, ['\t', '\n', ' ']) : pick(r, MESSAGE_WORDS));
  return words.join(' ').replace(/^\s+|\s+$/g, '') || 'x';
}

function randomString(r: Random): string {
  if (r.float() < 0.15) return longString(r);
  if (r.float() < 0.4) return pick(r, WORDS);
  let s = '';
  const n = Math.floor(r.float() * 12);
  for (let i = 0; i < n; i++) s += r.float() < 0.5 ? pick(r, CHARS) : pick(r, WORDS);
  return s;
}

function randomValue(r: Random, depth: number): unknown {
  const x = r.float();
  if (depth > 3 || x < 0.45) {
    const y = r.float();
    if (y < 0.6) return randomString(r);
    if (y < 0.75) return Math.floor(r.float() * 1e6) - 1000;
    if (y < 0.85) return r.float() < 0.5;
    if (y < 0.9) return null;
    return Math.round(r.float() * 1e4) / 100;
  }
  if (x < 0.75) {
    const o: Record<string, unknown> = {};
    const n = Math.floor(r.float() * 5);
    for (let i = 0; i < n; i++)
      o[r.float() < 0.7 ? pick(r, ['name', 'kind', 'x.io/y', 'f:spec', 'k:{"a":"b"}', 'a b', '1', 'true']) + i : randomString(r)] = randomValue(r, depth + 1);
    return o;
  }
  const a: unknown[] = [];
  const n = Math.floor(r.float() * 4);
  for (let i = 0; i < n; i++) a.push(randomValue(r, depth + 1));
  return a;
}

/** Block YAML as go-yaml lays it out: `- ` items at the parent's indentation (or two deeper), `{}` and `[]` when empty. */
function writeBlock(r: Random, v: unknown, indent: number, seqIndent: number): string[] {
  const pad = ' '.repeat(indent);
  if (Array.isArray(v)) {
    return v.flatMap((item) => {
      if (item !== null && typeof item === 'object' && Object.keys(item).length) {
        const inner = writeBlock(r, item, indent + 2, seqIndent);
        return [`${pad}- ${inner[0].trimStart()}`, ...inner.slice(1)];
      }
      return [`${pad}- ${inline(r, item, indent, indent + 2)}`];
    });
  }
  const o = v as Record<string, unknown>;
  return Object.entries(o).flatMap(([k, val]) => {
    const key = writeScalar(r, k, indent).includes('\n') ? JSON.stringify(k) : writeScalar(r, k, indent);
    if (Array.isArray(val) && val.length) return [`${pad}${key}:`, ...writeBlock(r, val, indent + seqIndent, seqIndent)];
    if (val !== null && typeof val === 'object' && Object.keys(val).length) return [`${pad}${key}:`, ...writeBlock(r, val, indent + 2, seqIndent)];
    return [`${pad}${key}: ${inline(r, val, indent, indent + [...key].length + 2)}`];
  });
}

function inline(r: Random, v: unknown, indent: number, column: number): string {
  if (Array.isArray(v)) return '[]';
  if (v !== null && typeof v === 'object') return '{}';
  return writeScalar(r, v, indent, column);
}

describe('kubectlYaml: random Kubernetes-like values written as go-yaml writes them', () => {
  it('reads what the yaml package reads, or gives up (2,000 documents)', () => {
    const r = new Random(16);
    let fast = 0;
    let foldedFast = 0;
    for (let i = 0; i < 2000; i++) {
      const root: Record<string, unknown> = { apiVersion: 'v1', kind: 'Pod', metadata: { name: `p${i}` }, spec: randomValue(r, 1), status: randomValue(r, 1) };
      const before = foldsWritten;
      const text = `${writeBlock(r, root, 0, r.float() < 0.5 ? 0 : 2).join('\n')}\n`;
      if (agrees(text, `document ${i}:\n${text}`)) {
        fast++;
        if (foldsWritten > before) foldedFast++;
      }
    }
    // most are in the subset, folded long strings too: the property is not vacuous
    assert.ok(fast > 600, `${fast} of 2000 read fast`);
    assert.ok(foldedFast > 300, `${foldedFast} with folded strings read fast`);
  });

  it('reads every long string as go-yaml folds it (condition messages, args, annotations in a List)', () => {
    const r = new Random(1616);
    let folded = 0;
    for (let i = 0; i < 300; i++) {
      // go-yaml quotes a string that starts with an indicator: a word first keeps every style valid
      const message = () => `the ${longString(r).replace(/[\t\n]/g, ' ')}`;
      const conditions = Array.from({ length: 1 + Math.floor(r.float() * 3) }, () => ({ message: message(), reason: 'KubeletNotReady', status: 'False' }));
      const pod = {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { annotations: { 'kubernetes.io/description': message() }, name: `p${i}` },
        spec: { containers: [{ args: [message(), `--flag=${message()}`], name: 'c' }] },
        status: { conditions },
      };
      const seqIndent = r.float() < 0.5 ? 0 : 2;
      const before = foldsWritten;
      const lines = writeBlock(r, { apiVersion: 'v1', items: [pod], kind: 'List' }, 0, seqIndent);
      const text = `${lines.join('\n')}\n`;
      if (foldsWritten > before) folded++;
      assert.ok(agrees(text, `document ${i}:\n${text}`), `document ${i} read fast:\n${text}`);
      loadsTheSame('/folded.yaml', text);
    }
    assert.ok(folded > 250, `${folded} of 300 have folded lines`);
  });
});

describe('kubectlYaml: values', () => {
  const cases: [text: string, value: unknown][] = [
    ['a: 1\nb: -2\nc: 1.50\nd: 1e3\ne: 0x1F\nf: 0o17\ng: 007\n', { a: 1, b: -2, c: 1.5, d: 1000, e: 31, f: 15, g: 7 }],
    ['a: .inf\nb: -.Inf\nc: .NaN\n', { a: Infinity, b: -Infinity, c: NaN }],
    ['a: true\nb: False\nc: yes\nd: "true"\ne: no\n', { a: true, b: false, c: 'yes', d: 'true', e: 'no' }],
    ['a: null\nb: ~\nc:\nd: NULL\ne: nil\n', { a: null, b: null, c: null, d: null, e: 'nil' }],
    ["a: 'it''s'\nb: ''\n", { a: "it's", b: '' }],
    ['a: "\\t\\n\\\\ \\" \\x41\\u00e9\\U0001F600 \\/ \\0"\n', { a: '\t\n\\ " Aé😀 / \0' }],
    ['1: a\ntrue: b\n~: c\n0x10: d\n', { '1': 'a', true: 'b', '': 'c', '16': 'd' }],
    ['f:metadata:\n  k:{"type":"Ready"}: {}\n  .: {}\n', { 'f:metadata': { 'k:{"type":"Ready"}': {}, '.': {} } }],
    ['a: |\n  x\n    y\n\n  z\nb: |-\n  s\nc: |+\n  k\nd: 1\n', { a: 'x\n  y\n\nz\n', b: 's', c: 'k\n', d: 1 }],
    ['items:\n- a: 1\n  b:\n  - x\n  - y\n- - 1\n  - 2\n-\n- z\nkind: List\n', { items: [{ a: 1, b: ['x', 'y'] }, [1, 2], null, 'z'], kind: 'List' }],
    ['# header\n---\na: b   \n---\n- 1\n', undefined],
    ['a: http://x:80/y?z#w\nb: a,b[c]{d}\n', { a: 'http://x:80/y?z#w', b: 'a,b[c]{d}' }],
    // go-yaml's long strings, folded: a break is a space, a blank line a newline, blanks around a break dropped
    ['a: one\n  two   \n\n    three\n\n\n  four\nb: 1\n', { a: 'one two\nthree\n\nfour', b: 1 }],
    ['- one\n  - two\n    - three\n- x\n', ['one - two - three', 'x']],
    ['a:\n- b: c\n  d: e\n   f [g] &h *i !j |k\n', { a: [{ b: 'c', d: 'e f [g] &h *i !j |k' }] }],
    ["a: 'one\n  two''s  \n\n  three'\nb: '\n  x'\n", { a: "one two's\nthree", b: ' x' }],
    ['a: "one\n  \\ two\\\n  three\\n\n  four  \n\n  five"\n', { a: 'one  twothree\n four\nfive' }],
    ['items:\n- message: "the node\n    is gone"\n  reason: x\nkind: List\n', { items: [{ message: 'the node is gone', reason: 'x' }], kind: 'List' }],
  ];
  for (const [text, value] of cases) {
    it(JSON.stringify(text), () => {
      const docs = readKubectlYaml(text);
      assert.ok(docs, 'read fast');
      if (value !== undefined) assert.deepEqual(docs[0].value, value);
      assert.ok(agrees(text, text));
    });
  }
});

/** A comment line after each line that starts with one of `keys` (at its own indentation, or at `column`), and ` # why` after each value line of `values`. */
function commented(text: string, keys: string[], values: string[] = [], column?: number): string {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const key = line.trimStart().replace(/^- /, '').split(':')[0];
    out.push(values.includes(key) && /:\s*\S/.test(line) ? `${line} # why` : line);
    if (keys.includes(key)) out.push(`${' '.repeat(column ?? line.length - line.trimStart().length)}# after ${key}`);
  }
  return out.join('\n');
}

describe('kubectlYaml: comments where YAML allows them, read as the yaml package reads them', () => {
  const cases: [name: string, make: () => string][] = [
    ['a comment after a value', () => 'a: 1 # one\n'],
    ['a comment line between two keys', () => 'a: 1\n# one\nb: 2\n'],
    ['a comment line after a folded plain scalar', () => 'a: one\n  two\n  # three\n'],
    ['a comment after a folded plain scalar', () => 'a: one\n  two #three\n'],
    [
      'comments after a quoted scalar, {}, [], a key with its value below, a `-` and a literal block header',
      () => 'a: "x" # c\nb: \'y\' # c\nc: {} # c\nd: [] # c\ne: # c\n  f: 1\ng:\n- # c\n  h: 2\ni: | # c\n  text\n',
    ],
    ['a comment line in a plain scalar sequence item', () => '- one # c\n- two\n# c\n- three\n'],
    ['a comment after --- and after items:', () => '--- # first\na: 1\n--- # second\nitems: # the objects\n- b: 2\nkind: List\n'],
    ['comment lines at any indentation inside a mapping', () => 'a:\n  b: 1\n# low\n      # deep\n  c: 2\n'],
    // where a collection ends, the comments after its last value move its end as the yaml package's parser moves it
    ["a deeper comment after the last value is the value's", () => 'a: 1\n  # c\n\n  # d\n# e\n'],
    ["a comment as deep as an inner mapping's keys stays in it", () => 'a:\n  b: 1\n  # c\n'],
    ["a comment less deep than an inner mapping's keys passes to its parent", () => 'a:\n  b: 1\n# c\n'],
    ["a comment as deep as an inner sequence's items stays in it, up to the next line", () => '- a:\n  - 1\n  # c\n- b: 2\n\n  # d\n- x\n'],
    ['an item ends before the comments it keeps', () => '- a:\n    b: 1\n    # c\n  # d\n\n- e\n'],
    ['a literal block keeps no comment after it', () => '- a: |\n    x\n   # e\n- b: 1\n'],
    ['comments at the end of an indented List', () => 'items:\n  - a:\n      b: 1\n      # c\n# d\n  - e: 2\n    # f\nkind: List\n'],
    ["helm template's multi-document layout (`---`, then `# Source:`), the generator's cluster", () => helmLike(smallCluster())],
    [
      'the same with a problem in a later document (a bad taint effect)',
      () => {
        const objects = smallCluster() as unknown as { kind?: string; spec: { taints?: unknown[] } }[];
        objects.filter((o) => o.kind === 'Node').at(-1)!.spec.taints = [{ key: 'k', effect: 'NoSleep' }];
        return commented(helmLike(objects), ['taints', 'conditions'], ['effect', 'nodeName']);
      },
    ],
    [
      'a kubectl List with comment lines between its items and after values',
      () => commented(kubectlList(smallCluster()), ['status', 'spec', 'metadata'], ['name', 'nodeName', 'type'], 0),
    ],
    ["a kubectl List with comment lines at its items' keys", () => commented(kubectlList(smallCluster()), ['status', 'spec', 'labels'])],
  ];
  for (const [name, make] of cases) {
    it(name, () => {
      const text = make();
      assert.ok(readKubectlYaml(text), 'read fast');
      assert.ok(agrees(text, name));
      loadsTheSame('/commented.yaml', text);
    });
  }
  it('a comment line at any column between indented List items: streamed, the same objects as read whole', () => {
    const text = stringify({ apiVersion: 'v1', items: smallCluster().slice(0, 4), kind: 'List' }).replace(/^ {2}- /gm, '# between\n  - ');
    const whole = loaded('/l.yaml', text, {});
    const streamed = loaded('/l.yaml', text, { streamFilesAbove: 0 });
    assert.equal(whole.objects.length, 4);
    assert.deepEqual(
      streamed.objects.map((o) => [o.name, o.position?.line]),
      whole.objects.map((o) => [o.name, o.position?.line]),
    );
    assert.deepEqual(streamed.problems, whole.problems);
  });
  it("comments inserted at random lines and after random values of the generator's objects (300 texts)", () => {
    const r = new Random(16);
    const few = smallCluster().filter((_, i) => i % 5 === 0);
    const bases = [[...listChunks(few, 'yaml')].join(''), kubectlList(few), helmLike(few), stringify(few, { indentSeq: false })];
    let fast = 0;
    for (let n = 0; n < 300; n++) {
      const lines = bases[n % bases.length].split('\n');
      for (let k = r.int(1, 4); k > 0; k--) {
        const at = r.int(0, lines.length - 1);
        if (r.chance(0.5)) lines.splice(at, 0, `${' '.repeat(r.int(0, 8))}# c${k}`, ...(r.chance(0.25) ? [''] : []));
        else if (lines[at]) lines[at] += ` # t${k}`;
      }
      const text = lines.join('\n');
      if (agrees(text, `text ${n}`)) fast++;
    }
    assert.ok(fast > 220, `${fast} of 300 read fast`);
  });
});

/** `objects` as YAML with every sequence of scalars written in flow, on one line (`[ a, b ]`), as hand-written manifests have them. */
function withFlowSequences(objects: unknown, layout: 'documents' | 'list'): string {
  const write = (v: unknown) => {
    const doc = new YamlDocument(v);
    visit(doc, {
      Seq(_, node) {
        if (node.items.every((i) => isScalar(i))) node.flow = true;
      },
    });
    return doc.toString({ lineWidth: 0, indentSeq: false });
  };
  const list = objects as unknown[];
  return layout === 'list' ? write({ apiVersion: 'v1', items: list, kind: 'List' }) : list.map((o) => `---\n${write(o)}`).join('');
}

/** Random flow sequences where hand-written manifests put them: items of every style, blanks, commas, comments, and text the yaml package reads otherwise or refuses. */
function randomFlowText(r: Random): string {
  const tokens = [
    'a',
    'NET_ADMIN',
    '""',
    "''",
    '"x y"',
    "'it''s'",
    '"\\t\\"q\\u00e9"',
    '1',
    '-1',
    '0x1F',
    'true',
    'null',
    '~',
    '.inf',
    '-c',
    '?a',
    ':a',
    'a:b',
    'a b',
    'a  b',
    'a#b',
    '/install-cni.sh',
    '--b=1',
    "'--a'",
    'a"b',
    "a'b",
    'http://x:80/y',
    '"a,b"',
    'é',
    '😀',
  ];
  const odd = ['"\\q"', '-', 'a: b', 'a:', '"a":b', 'a #b', '[b]', '{}', '&x a', '*x', '!t a', '@a', 'a\tb', '"a\nb"'];
  const flowSeq = () => {
    const sp = () => r.pick(['', '', ' ', '  ']);
    let s = `[${sp()}`;
    const n = r.int(0, 3);
    for (let i = 0; i < n; i++) {
      s += (r.chance(0.9) ? r.pick(tokens) : r.pick(odd)) + sp();
      if (i < n - 1 || r.chance(0.2)) s += r.pick([',', ',', ',', ',', ',', ', ,', '']) + sp();
    }
    if (r.chance(0.05)) s += '\n  ';
    return s + r.pick([']', ']', ']', ']', ']', ']', ']', ']]', '] x', ']# c', '] # c', '']) + r.pick(['', '', '  ']);
  };
  const lines: string[] = [];
  for (let i = r.int(1, 5); i > 0; i--) {
    const form = r.int(0, 4);
    if (form === 0) lines.push(`k${i}: ${flowSeq()}`);
    else if (form === 1) lines.push(`k${i}:`, `- ${flowSeq()}`, '- x');
    else if (form === 2) lines.push(`k${i}:`, '  - name: c', `    command: ${flowSeq()}`, `    args: ${flowSeq()}`);
    else if (form === 3) lines.push(`k${i}:`, `  sub: ${flowSeq()}`);
    else lines.push(`k${i}: v`);
    if (r.chance(0.2)) lines.push(`${' '.repeat(r.int(0, 5))}# c`);
    if (r.chance(0.1)) lines.push('');
  }
  let text = `${lines.join('\n')}\n`;
  if (r.chance(0.2)) text = `items:\n- ${text.replace(/\n(?=.)/g, '\n  ')}kind: List\n`;
  if (r.chance(0.2)) text = `${text}---\n${text}`;
  if (r.chance(0.15)) text = `- ${flowSeq()}\n- name: x\n  ${text.replace(/\n(?=.)/g, '\n  ')}`;
  return text;
}

describe('kubectlYaml: flow sequences of scalars on one line, read as the yaml package reads them', () => {
  const cases: [name: string, text: string, value?: unknown][] = [
    ['a double-quoted item', 'add: ["NET_ADMIN"]\n', { add: ['NET_ADMIN'] }],
    ['the empty string, the core API group', 'apiGroups: [""]\nverbs: ["get", "list"]\n', { apiGroups: [''], verbs: ['get', 'list'] }],
    [
      "single quotes with '' inside, double quotes with escapes",
      `args: ['--a', "--b=1", 'it''s', "\\t\\"q\\u00e9\\x41", '']\n`,
      { args: ['--a', '--b=1', "it's", '\t"qéA', ''] },
    ],
    [
      'plain items resolved by the core schema',
      'a: [x, 1, -2, 0x1F, true, null, ~, 1.5, "1", -c]\n',
      { a: ['x', 1, -2, 31, true, null, null, 1.5, '1', '-c'] },
    ],
    ["plain items with blanks, ':', '#', quotes inside", 'a: [a  b , http://x:80/y?z#w, a"b, it\'s ]\n', { a: ['a  b', 'http://x:80/y?z#w', 'a"b', "it's"] }],
    ['blanks inside the brackets, a trailing comma, empty ones', 'a: [ "x" , y ,]\nb: [ ]\nc: []\nd: [ "" ]\n', { a: ['x', 'y'], b: [], c: [], d: [''] }],
    ['a comment after it', 'a: ["x"] # why\nb: [y]  # why\n', { a: ['x'], b: ['y'] }],
    ['as sequence items', '- [a, b]\n- ["c"]\n- []\n- x\n', [['a', 'b'], ['c'], [], 'x']],
    [
      'in a List item',
      'items:\n- command: ["/install-cni.sh"]\n  args: [--a]\n  name: c\nkind: List\n',
      { items: [{ command: ['/install-cni.sh'], args: ['--a'], name: 'c' }], kind: 'List' },
    ],
    ['comment lines after it, deeper and less deep', 'a:\n  b: [x]\n    # deeper\n  # same\n# less\nc: [y]\n  # deeper\n', { a: { b: ['x'] }, c: ['y'] }],
    ['multi-byte characters', 'a: ["é", ü, \'😀\']\n', { a: ['é', 'ü', '😀'] }],
    ['a sequence item after a comment line, then a deeper comment', '- a\n# c\n- [b]\n  # d\n- [c] # e\n', ['a', ['b'], ['c']]],
  ];
  readsFastCases(cases);

  const objects = () => {
    type Loose = { kind?: string; spec: { taints?: unknown[]; template?: unknown } };
    const list = smallCluster() as unknown as Loose[];
    list.filter((o) => o.kind === 'Node').at(-1)!.spec.taints = [{ key: 'k', effect: 'NoSleep' }];
    list.push(
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'flannel' },
        rules: [{ apiGroups: [''], resources: ['pods', 'nodes'], verbs: ['get', 'list', 'watch'] }],
      } as unknown as Loose,
      {
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name: 'kube-flannel-ds', namespace: 'kube-system' },
        spec: {
          template: {
            spec: {
              containers: [
                {
                  name: 'kube-flannel',
                  command: ['/opt/bin/flanneld'],
                  args: ['--ip-masq', '--kube-subnet-mgr'],
                  securityContext: { capabilities: { add: ['NET_ADMIN'] } },
                },
              ],
            },
          },
        },
      } as unknown as Loose,
    );
    return list;
  };
  for (const layout of ['documents', 'list'] as const) {
    it(`the generator's cluster with every sequence of scalars in flow (${layout}), RBAC and a DaemonSet, a bad taint effect in the last Node`, () => {
      const text = withFlowSequences(objects(), layout);
      assert.match(text, /apiGroups: \[ "" \]/);
      assert.ok(readKubectlYaml(text), 'read fast');
      assert.ok(agrees(text, layout));
      const whole = loaded('/flow.yaml', text, {});
      assert.ok(
        whole.problems.some((p) => p.code !== 'ignored-kind' && p.position && p.position.line > 1),
        'a problem placed deep in a document',
      );
      loadsTheSame('/flow.yaml', text);
    });
  }

  it('a flow sequence deeper than the nesting limit is left to the yaml package, as a block one is', () => {
    assert.equal(readKubectlYaml('a:\n  b: [1]\n', false, 1), undefined);
    assert.equal(readKubectlYaml('a:\n  b:\n  - 1\n', false, 1), undefined);
    assert.ok(readKubectlYaml('a: [1]\n', false, 1));
  });

  it('random flow sequences: what the yaml package reads, or a give-up (600 texts)', () => {
    const r = new Random(1616);
    let fast = 0;
    for (let n = 0; n < 600; n++) {
      const text = randomFlowText(r);
      if (agrees(text, `text ${n}: ${JSON.stringify(text)}`)) {
        fast++;
        if (n % 20 === 0) loadsTheSame('/random-flow.yaml', text);
      }
    }
    // one odd item gives the whole text up: about a fifth read fast, the property is not vacuous
    assert.ok(fast > 90, `${fast} of 600 read fast`);
  });
});

/** A Node of a hand-written manifest whose last line is `tail` (an absent value, `key:`), at `indent`. */
const nodeEndingIn = (name: string, tail: string, indent = '') =>
  ['apiVersion: v1', 'kind: Node', 'metadata:', `  name: ${name}`, tail].map((l) => indent + l).join('\n') + '\n';

describe("kubectlYaml: an absent value at a collection's end ends its range where the yaml package ends it", () => {
  // the yaml package places an empty scalar right after the blanks that follow its `:` or `-`, before
  // the line break (emptyScalarPosition); a comment after it takes the range to the comment's line break
  const cases: [name: string, text: string, endLine?: number][] = [
    ['a document ending in `key:`', nodeEndingIn('n1', 'spec:'), 5],
    ['a document ending in `key:` and blanks, then blank lines', `${nodeEndingIn('n1', 'spec:   ')}\n\n`, 5],
    ['a mapping nested at the end of a document', nodeEndingIn('n1', 'spec:\n  taints:'), 6],
    ['documents ending in `key:`, then `---`', `${nodeEndingIn('n1', 'spec:')}---\n${nodeEndingIn('n2', 'status:  ')}\n---\n${nodeEndingIn('n3', 'spec:')}`],
    [
      'List items ending in `key:`',
      `apiVersion: v1\nkind: List\nitems:\n${nodeEndingIn('n1', 'spec:', '  ').replace(/^ {2}/, '- ')}${nodeEndingIn('n2', 'spec:  ', '  ').replace(/^ {2}/, '- ')}\n`,
    ],
    [
      "kubectl List items ending in `key:`, the last one before the List's own keys",
      `apiVersion: v1\nitems:\n${nodeEndingIn('n1', 'spec:', '  ').replace(/^ {2}/, '- ')}${nodeEndingIn('n2', 'spec:', '  ').replace(/^ {2}/, '- ')}kind: List\n`,
    ],
    [
      'a top-level sequence of objects ending in `key:`',
      `${nodeEndingIn('n1', 'spec:', '  ').replace(/^ {2}/, '- ')}${nodeEndingIn('n2', 'spec:\n    taints:', '  ').replace(/^ {2}/, '- ')}`,
    ],
    ['a duplicate object ending in `key:` (its problem placed at the object)', `${nodeEndingIn('n1', 'spec:')}---\n${nodeEndingIn('n1', 'spec:')}\n`],
    [
      "an absent value with a comment after it: up to the comment's line break",
      `${nodeEndingIn('n1', 'spec: # none yet')}---\n${nodeEndingIn('n2', 'spec:  # none')}`,
      6,
    ],
    ["a comment after the last absent value, at the text's end with no line break", nodeEndingIn('n1', 'spec: # none').slice(0, -1), 5],
    ['items: absent at the end of a List', 'apiVersion: v1\nkind: List\nitems:\n'],
    ['items: absent and a comment', 'apiVersion: v1\nkind: List\nitems: # none\n---\napiVersion: v1\nkind: List\nitems:   \n'],
    ['an absent sequence item at the end', 'a:\n- x\n-\n---\n- y\n-   \n\n---\n- z\n- # c\n'],
    [
      "an absent sequence item after a comment line: the comment is its own (not the first item's), its range up to its line break",
      "a:\n- x\n# c\n-\n---\n- y\n  \n# c\n-   \n---\nb:\n# the first item's comment is its parent's\n-\n",
    ],
  ];
  for (const [name, text, endLine] of cases) {
    it(name, () => {
      assert.ok(readKubectlYaml(text), 'read fast');
      assert.ok(agrees(text, name));
      loadsTheSame('/absent.yaml', text);
      if (endLine !== undefined) {
        const first = loaded('/absent.yaml', text, {}).objects[0];
        assert.equal(first.position?.endLine, endLine);
      }
    });
  }
  // a blank line after such a comment joins the value's tokens or not depending on what comes next
  // (the yaml package's Parser.blockMap): left to it
  const givenUp: [name: string, text: string][] = [
    [
      'a comment, then a blank line, then the next item',
      `- ${nodeEndingIn('n1', 'spec: # none', '  ').trimStart()}\n- ${nodeEndingIn('n2', 'spec:', '  ').trimStart()}`,
    ],
    ['a comment, then a blank line at the end', `${nodeEndingIn('n1', 'spec: # none')}\n`],
    ['a comment, then a blank line, then `---`', `${nodeEndingIn('n1', 'spec: # none')}\n---\n${nodeEndingIn('n2', 'spec:')}`],
    ['a comment, then a line of blanks at the end', `${nodeEndingIn('n1', 'spec: # none')}   `],
    ['an absent sequence item after a comment line, then a blank line', '- x\n# c\n-\n\n'],
  ];
  for (const [name, text] of givenUp) {
    it(`gives up: ${name}`, () => {
      assert.equal(readKubectlYaml(text), undefined);
      loadsTheSame('/absent.yaml', text);
    });
  }
});

/** Every path to a value inside `v` (not the root). */
function allPaths(v: unknown, at: JsonPath = [], out: JsonPath[] = []): JsonPath[] {
  const entries: [string | number, unknown][] = Array.isArray(v) ? v.map((x, i) => [i, x]) : v && typeof v === 'object' ? Object.entries(v) : [];
  for (const [k, x] of entries) {
    out.push([...at, k]);
    allPaths(x, [...at, k], out);
  }
  return out;
}

describe('kubectlYaml: a problem deep in a document is placed by parsing that document alone', () => {
  /** helm's layout (`---`, a comment, then the object) with KWOK's times in two of its documents (one of them indented), deep inside, and characters of two UTF-16 units before them */
  const text = () => {
    type Loose = { kind?: string; metadata: { labels?: Record<string, string> }; status: { conditions?: { lastHeartbeatTime?: string }[] } };
    const objects = smallCluster() as unknown as Loose[];
    objects[0].metadata.labels = { ...objects[0].metadata.labels, note: 'é😀😀' };
    const nodes = objects.filter((o) => o.kind === 'Node');
    nodes[1].status.conditions![1].lastHeartbeatTime = '$(time-offset-nanosecond -5000000000)';
    nodes.at(-1)!.status.conditions![0].lastHeartbeatTime = '$(time-offset-nanosecond 7)';
    // the last Node's document indented as a whole: its contents do not start at their line's start
    const docs = helmLike(objects).split(/(?=^---$)/m);
    return docs.map((d) => (d.includes('nanosecond 7') ? d.replace(/^(?!---|# Source)(?=.)/gm, '  ') : d)).join('');
  };
  it('the problems have the lines and columns of the whole text parsed by the yaml package, whole and streamed', () => {
    const t = text();
    assert.ok(readKubectlYaml(t), 'read fast');
    for (const options of [{}, { streamFilesAbove: 0 }]) {
      const fast = loaded('/kwok-like.yaml', t, options);
      const times = fast.problems.filter((p) => p.code === 'bad-timestamp');
      assert.equal(times.length, 2);
      // deep in their documents: neither a document's nor an object's range
      for (const p of times) assert.ok(p.position!.column > 1 && !fast.objects.some((o) => o.position?.line === p.position!.line));
      assert.deepEqual(fast.problems, loaded('/kwok-like.yaml', t, { ...options, kubectlYaml: false }).problems);
    }
  });
  it("each document's unit places every path of it where the whole text's parse places it", () => {
    const t = text();
    const docs = readKubectlYaml(t)!;
    const whole = parseAllDocuments(t, { ...YAML_OPTIONS, prettyErrors: false }) as unknown as Document[];
    const lines = new LineIndex(t);
    let placed = 0;
    docs.forEach((doc, i) => {
      const paths = allPaths(doc.value);
      const got = kubectlYamlUnit('/x.yaml', lines, t, doc, undefined).locate(paths);
      for (const p of paths) {
        const r = locateYamlPath(whole[i], p);
        if (!r?.exact) continue;
        placed++;
        const g = got.get(pathKey(p));
        assert.deepEqual(g && [g.start, g.end, g.keyStart], [r.start, r.end, r.keyStart], `document ${i}, ${p.join('.')}`);
      }
    });
    assert.ok(placed > 1000, `${placed} paths`);
  });
});

describe('kubectlYaml: gives up outside its subset', () => {
  const cases: [why: string, text: string][] = [
    ['an anchor and an alias', 'a: &x 1\nb: *x\n'],
    ['a tag', 'a: !!str 1\n'],
    ['a directive', '%YAML 1.1\n---\na: 1\n'],
    ['a pair inside a flow sequence', 'a: [b: c]\n'],
    ['a JSON-like pair inside a flow sequence', 'a: ["b":c]\n'],
    ['a key with no value inside a flow sequence', 'a: [b:]\n'],
    ['an empty item', 'a: [b, , c]\n'],
    ['a comma alone', 'a: [,]\n'],
    ['an anchor, an alias and a tag in a flow sequence', 'a: [&x b, *x, !t c]\n'],
    ['a reserved indicator in a flow sequence', 'a: [@b]\n'],
    ['a block entry in a flow sequence', 'a: [- b]\n'],
    ['text after a flow sequence', 'a: [b] c\n'],
    ['a comment with no blank after a flow sequence', 'a: [b]# c\n'],
    ['a second ]', 'a: [b]]\n'],
    ['a tab in a flow sequence', 'a: [b\t]\n'],
    ['a flow sequence never closed', 'a: [b\n'],
    ['a flow sequence as a key', '[a]: b\n'],
    ['a folded block scalar', 'a: >\n  x\n  y\n'],
    ['a tab', 'a:\t1\n'],
    ['a tab inside a value', 'a: x\ty\n'],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['the same key written two ways', '1: a\n"1": b\n'],
    ['__proto__', '__proto__: 1\n'],
    ['a complex key', '? a\n: b\n'],
    ['an indentation indicator', 'a: |2\n   x\n'],
    ['a literal block with a blank line of spaces', 'a: |\n  x\n  \n  y\n'],
    ['an empty literal block', 'a: |\nb: 1\n'],
    ['a document end marker', 'a: 1\n...\n'],
    ['an empty document', '---\n---\na: 1\n'],
    ['a trailing empty document', 'a: 1\n---\n'],
    ['content on the --- line', '--- a: 1\n'],
    ['a root scalar', 'just text\n'],
    ['Windows line ends', 'a: 1\r\nb: 2\r\n'],
    ['a nested mapping on a value line', 'a: b: c\n'],
    ['a dedent below the root', '  a: 1\n b: 2\n'],
    ['a key deeper than its siblings', 'a: 1\n  b: 2\n'],
    ['a bad escape', 'a: "\\q"\n'],
    ['an unclosed quote', 'a: "x\n'],
    ['a control character', 'a: x\x07y\n'],
    // folding that go-yaml does not write, or that the yaml package reads otherwise than a fold
    ['a plain continuation no deeper than its key', 'a:\n  b: one\n  two\n'],
    ["a plain continuation at the column of an item's keys", '- a: one\n  two\n'],
    ['a quoted continuation no deeper than its key', 'a:\n  b: "one\n  two"\n'],
    ['a single-quoted continuation at column 0', "a: 'one\ntwo'\n"],
    ['a key-like continuation', 'a: one\n  two: three\n'],
    ['an empty key as a continuation', 'a: one\n  : two\n'],
    ['a tab before a continuation', 'a: one\n \ttwo\n'],
    ['a tab at a quoted line end', 'a: "one\t\n  two"\n'],
    ['an escaped line break before a blank line', 'a: "one\\\n\n  two"\n'],
    ['a quoted key over two lines', '"a\n  b": 1\n'],
    ['a quoted scalar never closed', 'a: "one\n  two\n'],
    ['a value after a folded quoted scalar', 'a: "one\n  two" x\n'],
    // comments where the yaml package reads something else than a comment, or reports an error
    ['a comment line between a plain scalar and its continuation', 'a: one\n  # c\n  two\n'],
    ['a continuation after a comment', 'a: one # c\n  two\n'],
    ['a comment with no blank before it', 'a: "x"# c\n'],
    ['a comment line before an absent value', '- a:\n    # c\n- b\n'],
    ['nesting deeper than the limit', `${Array.from({ length: 70 }, (_, i) => `${' '.repeat(2 * i)}a:`).join('\n')} 1\n`],
  ];
  for (const [why, text] of cases) {
    it(why, () => {
      assert.equal(readKubectlYaml(text), undefined);
      loadsTheSame('/x.yaml', text);
    });
  }
});

describe('kubectlYaml: malformed input loads as before', () => {
  const node = 'apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n';
  const cases: [why: string, text: string][] = [
    ['a key without a value line', `${node}status\n`],
    ['a sequence item among keys', `${node}- x\n`],
    ['bad indentation in an item', `items:\n- ${node.replace(/\n/g, '\n  ').trimEnd()}\n   x: 1\nkind: List\n`],
    ['a missing field reported at its place', node.replace('  name: n1\n', '  labels:\n    a: b\n')],
    ['a wrong type deep inside', `${node}spec:\n  taints:\n  - key: k\n    effect: NoSleep\n`],
    ['a duplicate object', `${node}---\n${node}`],
  ];
  for (const [why, text] of cases) it(why, () => loadsTheSame('/bad.yaml', text));
});
