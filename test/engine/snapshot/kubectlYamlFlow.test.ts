/**
 * kubectlYaml.ts's flow collections (flowCollection.ts) against the yaml package: mappings and
 * nested collections on one line and over several, as hand-written manifests and Helm charts have
 * them, read with the yaml package's values and ranges, or given up on.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Document as YamlDocument, isScalar, visit } from 'yaml';
import { readKubectlYaml } from '../../../src/engine/snapshot/kubectlYaml';
import { Random } from '../../../src/engine/generate';
import { agrees, loaded, loadsTheSame, smallCluster, readsFastCases } from '../../helpers/kubectlYamlAgree';
import { randomFlowText } from '../../helpers/randomFlowYaml';

describe('kubectlYaml: flow mappings and nested flow collections, read as the yaml package reads them', () => {
  const cases: [name: string, text: string, value?: unknown][] = [
    ['a node selector', 'nodeSelector: {kubernetes.io/os: linux}\n', { nodeSelector: { 'kubernetes.io/os': 'linux' } }],
    ['a security context, a comment after it', 'securityContext: {privileged: true} # why\n', { securityContext: { privileged: true } }],
    [
      "plain and quoted keys and values, JSON-like keys with no blank after their ':'",
      `a: {a: 1, "b": 'x', 'c':"y", "d":-1}\n`,
      { a: { a: 1, b: 'x', c: 'y', d: -1 } },
    ],
    ['empty ones, blanks inside the braces, a trailing comma', 'a: { }\nb: {}\nc: { x: y , }\n', { a: {}, b: {}, c: { x: 'y' } }],
    [
      "keys as the core schema makes them, ':' inside a key and a value",
      'a: {1: x, true: y, null: z, 0x10: w, a:b: 1, u: http://x:80/y, a b: c d}\n',
      { a: { '1': 'x', true: 'y', '': 'z', '16': 'w', 'a:b': 1, u: 'http://x:80/y', 'a b': 'c d' } },
    ],
    ['objects in flow as sequence items, their ranges kept', '- {name: proc, mountPath: /host/proc, readOnly: true}\n- {a: 1}  # c\n- x\n'],
    [
      'objects in flow as List items',
      'apiVersion: v1\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: n1}}\n- {apiVersion: v1, kind: Node, metadata: {name: n1}}\nkind: List\n',
    ],
    [
      'nested: a selector, a toleration list, a match expression with its values',
      'selector: {matchLabels: {app: x}}\ntolerations: [{operator: Exists}]\nmatchExpressions:\n  - {key: k3s-upgrade, operator: NotIn, values: ["disabled", "false"]}\nvolumes: [{name: h, hostPath: {path: /}}]\n',
      {
        selector: { matchLabels: { app: 'x' } },
        tolerations: [{ operator: 'Exists' }],
        matchExpressions: [{ key: 'k3s-upgrade', operator: 'NotIn', values: ['disabled', 'false'] }],
        volumes: [{ name: 'h', hostPath: { path: '/' } }],
      },
    ],
    ['sequences in sequences', 'a: [[1, 2], [], [[x]]]\n', { a: [[1, 2], [], [['x']]] }],
    // over several lines
    ["a sequence one item a line, its `]` at its key's column", 'args: [\n  --a,\n  "--b=1",\n  --c\n]\nx: 1\n', { args: ['--a', '--b=1', '--c'], x: 1 }],
    [
      "a mapping as Prettier breaks it, in a sequence item, `}` at the item's keys",
      'tolerations:\n  - {\n      key: node-role.kubernetes.io/master,\n      effect: NoSchedule,\n      operator: Exists,\n    }\n  - {operator: Exists}\n',
      { tolerations: [{ key: 'node-role.kubernetes.io/master', effect: 'NoSchedule', operator: 'Exists' }, { operator: 'Exists' }] },
    ],
    [
      'comments after an opening bracket and after commas, comment lines at any column, blank lines',
      'a:\n  b: [ # first\n    x,  # second\n# low\n\n        y\n    ]\n  c: 1\n',
      { a: { b: ['x', 'y'], c: 1 } },
    ],
    ['nested over lines, inner lines at any depth past the owner', 'a: {\n b: [\n c\n ],\n d: {e: f}\n }\n', { a: { b: ['c'], d: { e: 'f' } } }],
    ["a JSON-like object over lines in a List item's key", 'items:\n- kind: ConfigMap\n  data: {\n    "a": "1",\n    "b": "2"\n  }\nkind: List\n'],
    [
      "values on the line below their key's ':', blank lines between (the yaml package's writer's layout of a long one)",
      'a: {b:\n  c, "d":\n\n  {e: f}, g:   \n    [h]}\n',
      { a: { b: 'c', d: { e: 'f' }, g: ['h'] } },
    ],
    // plain scalars folded over lines, as the yaml package folds them
    ['a plain scalar over two lines is one item, its lines joined by a space', 'a: [b\n  c]\n', { a: ['b c'] }],
    ['a plain scalar, then blank lines before the comma', 'a: [b\n\n  , c]\n', { a: ['b', 'c'] }],
    ['blank lines inside a folded scalar are line breaks, blanks around breaks dropped', 'a: [b  \n   c  \n\n    \n  d , e]\n', { a: ['b c\n\nd', 'e'] }],
    ['folded values in a flow mapping, numbers folded into a string', 'a: {b: c\n  d, e: 1\n  2}\n', { a: { b: 'c d', e: '1 2' } }],
    ['indicators inside a folded scalar', 'a: [b\n - c\n &d *e !f |g %h @i ---,\n  j\n]\n', { a: ['b - c &d *e !f |g %h @i ---', 'j'] }],
    [
      'a folded scalar in an object in flow as a List item, whole and streamed',
      'items:\n- {kind: ConfigMap, metadata: {name: c}, data: {a: one\n    two}}\nkind: List\n',
    ],
    ['multi-byte characters', 'a: {é: ü, \'😀\': "😀"}\n', { a: { é: 'ü', '😀': '😀' } }],
  ];
  readsFastCases(cases);

  it('an object in flow in a List is placed at its braces, whole and streamed', () => {
    const text =
      'apiVersion: v1\nitems:\n- {apiVersion: v1, kind: Node, metadata: {name: n1}}\n- {\n    apiVersion: v1, kind: Node,\n    metadata: {name: n2},\n  }\nkind: List\n';
    for (const options of [{}, { streamFilesAbove: 0 }]) {
      const got = loaded('/flow.yaml', text, options).objects.map((o) => [
        o.name,
        o.position?.line,
        o.position?.column,
        o.position?.endLine,
        o.position?.endColumn,
      ]);
      assert.deepEqual(got, [
        ['n1', 3, 3, 3, 53],
        ['n2', 4, 3, 7, 4],
      ]);
    }
  });

  // a List's `items:` in flow: its objects placed at their braces, as in a block List, not by a yaml-package parse
  const flowItems: [name: string, text: string, ranges: number[]][] = [
    [
      'on the `items:` line',
      'apiVersion: v1\nitems: [{apiVersion: v1, kind: Node, metadata: {name: n1}}, {apiVersion: v1, kind: Node, metadata: {name: n2}}]\nkind: List\n',
      [23, 73, 75, 125],
    ],
    [
      'over lines, a scalar item among them (not placed here), a comment after a comma',
      'apiVersion: v1\nitems: [\n  {apiVersion: v1, kind: Node, metadata: {name: n1}},\n  x,\n  {\n    apiVersion: v1, kind: Node,\n    metadata: {name: n2}\n  }, # c\n]\nkind: List\n',
      [26, 76, -1, -1, 85, 147],
    ],
    [
      "on the line below `items:` (the yaml package's layout of a long one)",
      'apiVersion: v1\nitems:\n  [{apiVersion: v1, kind: Node, metadata: {name: n1}}, [a]]\nkind: List\n',
      [25, 75, -1, -1],
    ],
    ['empty', 'kind: List\nitems: [ ]\n', []],
  ];
  for (const [name, text, ranges] of flowItems) {
    it(`a List's items in flow, ${name}: read fast, the objects' ranges the yaml package's`, () => {
      const docs = readKubectlYaml(text);
      assert.ok(docs, 'read fast');
      assert.deepEqual(docs[0].items, ranges);
      assert.equal(docs[0].topLevelItems, false);
      assert.ok(agrees(text, name));
      loadsTheSame('/flow-items.yaml', text);
    });
  }

  /** `objects` with every collection of scalars written in flow (`{a: b}`, `[a, b]`), some of them broken over lines. */
  const inFlow = (objects: unknown[], broken: boolean) =>
    objects
      .map((o, i) => {
        const doc = new YamlDocument(o);
        visit(doc, {
          Map(_, node) {
            if (node.items.every((p) => isScalar(p.value))) node.flow = true;
          },
          Seq(_, node) {
            if (node.items.every((x) => isScalar(x))) node.flow = true;
          },
          // a scalar with blanks would be folded over lines too (plain or quoted: left to the yaml package): none
          Scalar(_, node) {
            if (broken && typeof node.value === 'string') node.value = node.value.replace(/\s/g, '_');
          },
        });
        // lineWidth: the yaml package breaks a long flow collection one item a line, on the line below its key
        return `---\n${doc.toString({ lineWidth: broken && i % 2 ? 40 : 0, indentSeq: false })}`;
      })
      .join('');
  for (const broken of [false, true]) {
    it(`the generator's cluster with every collection of scalars in flow${broken ? ', half of them over lines' : ''}, a bad taint effect placed deep inside`, () => {
      type Loose = { kind?: string; spec: { taints?: unknown[] } };
      const objects = smallCluster() as unknown as Loose[];
      objects.filter((o) => o.kind === 'Node').at(-1)!.spec.taints = [{ key: 'k', effect: 'NoSleep' }];
      const text = inFlow(objects, broken);
      assert.match(text, broken ? /\{\n/ : /labels: \{ /);
      assert.ok(readKubectlYaml(text), 'read fast');
      assert.ok(agrees(text, 'cluster'));
      const whole = loaded('/flow.yaml', text, {});
      assert.ok(whole.problems.some((p) => p.code === 'bad-taint' || (p.position && p.position.line > 1 && p.position.column > 1)));
      loadsTheSame('/flow.yaml', text);
    });
  }

  it('nested flow deeper than the nesting limit is left to the yaml package, as a block one is', () => {
    assert.equal(readKubectlYaml('a: {b: [1]}\n', false, 1), undefined);
    assert.ok(readKubectlYaml('a: {b: [1]}\n', false, 2));
    assert.equal(readKubectlYaml(`a: ${'['.repeat(70)}${']'.repeat(70)}\n`), undefined);
  });

  it('random flow collections, on one line and over several, comments and quoted scalars over lines inside: what the yaml package reads, or a give-up (600 texts)', () => {
    const r = new Random(1617);
    let fast = 0;
    let over = 0;
    let comments = 0;
    let quoted = 0;
    for (let n = 0; n < 600; n++) {
      const text = randomFlowText(r);
      if (agrees(text, `text ${n}: ${JSON.stringify(text)}`)) {
        fast++;
        if (/[[{][^\]}\n]*\n/.test(text)) over++;
        // a comment after an item, then its `,` or closing bracket on a line below
        if (/[^\s#[{,:]\s+#[^\n]*\n\s*[,\]}]/.test(text)) comments++;
        // a quoted item that starts after a bracket or a `,` and goes on over a line break
        if (/[[{,]\s*(["'])[^"'\n]*\n/.test(text)) quoted++;
        if (n % 20 === 0) loadsTheSame('/random-flow.yaml', text);
      }
    }
    const counts = `${fast} of 600 read fast, ${over} with a collection over lines, ${comments} with a comment after an item, ${quoted} with a quoted scalar over lines`;
    assert.ok(fast > 300 && over > 150 && comments > 30 && quoted > 15, counts);
  });
});

describe('kubectlYaml: comments and quoted scalars over lines inside flow collections, read as the yaml package reads them', () => {
  const cases: [name: string, text: string, value?: unknown][] = [
    // comments: the yaml package reads one after any blank inside a flow collection
    ["a comment after an item, its ',' on the next line", 'a: [a # note\n  , b]\n', { a: ['a', 'b'] }],
    ["a comment after a mapping's value, its ',' on the next line", 'a: {a: 1 # note\n , b: 2}\n', { a: { a: 1, b: 2 } }],
    ['a comment after the last item, the bracket below', 'a: [\n  b # c\n  ]\nd: {e: f # g\n  }\n', { a: ['b'], d: { e: 'f' } }],
    ["a comment after a key's ':', the value below it", 'a: {b: # x\n  c, d:   # y\n\n    [e]}\n', { a: { b: 'c', d: ['e'] } }],
    ['a comment after a quoted item and after a nested collection', 'a: ["b" # x\n  , [c] # y\n  , {d: e} # z\n  ]\n', { a: ['b', ['c'], { d: 'e' }] }],
    ['a comment ends a folded plain scalar', 'a: [b\n  c # x\n  , d]\n', { a: ['b c', 'd'] }],
    ['a comment line ends a folded plain scalar', 'a: [b\n  c\n  # d\n  ]\n', { a: ['b c'] }],
    ['a comment line right after a plain item, blank lines around', 'a: [b\n\n # x\n\n , c]\n', { a: ['b', 'c'] }],
    [
      "comment lines at column 0 after a sequence's items and a mapping's ','",
      'a: [b\n# x\n , "c"\n# y\n ]\nd: {e: f,\n# z\n g: h}\n',
      { a: ['b', 'c'], d: { e: 'f', g: 'h' } },
    ],
    ["a comment line at column 0 after a mapping's value, a blank line between", 'a: {b: c\n\n# x\n , d: e}\n', { a: { b: 'c', d: 'e' } }],
    ["a '#' right after a plain scalar's text is text", 'a: [b#c, d # e\n  ]\n', { a: ['b#c', 'd'] }],
    [
      "comments in a List's items in flow, the objects' ranges kept",
      'apiVersion: v1\nitems: [ # all\n  {kind: Node, metadata: {name: n1}} # one\n  , {kind: Node, # two\n    metadata: {name: n2}}\n]\nkind: List\n',
    ],
    // quoted scalars over lines: folded as in a block collection
    ['a double-quoted item over two lines', 'x:\n  a: ["b\n   c", d]\n', { x: { a: ['b c', 'd'] } }],
    ['a single-quoted value over lines, an escaped quote before the break', "a: {k: 'b''\n  c', d: e}\n", { a: { k: "b' c", d: 'e' } }],
    ['blank lines are line breaks, blanks around a break dropped', 'a: ["b  \n\n\n   c  ", \'d\n\n  e\']\n', { a: ['b\n\nc  ', 'd\ne'] }],
    ['an escaped line break joins the lines, an escaped blank starts the next', 'a: ["b\\\n  c", "d \\\n  e", "f\\\n   \\ g"]\n', { a: ['bc', 'd e', 'f g'] }],
    ["'#', ',' and brackets in a quoted scalar's lines are text", 'a: ["b\n  # c,\n  ]d}"]\n', { a: ['b # c, ]d}'] }],
    ['a quoted scalar over lines in a nested collection, a comment after it', 'a: [{b: "c\n    d"} # e\n  , [\'f\n  g\']]\n', { a: [{ b: 'c d' }, ['f g']] }],
    ['in an object in flow as a List item, whole and streamed', 'items:\n- {kind: ConfigMap, metadata: {name: c}, data: {a: "one\n    two"}}\nkind: List\n'],
  ];
  readsFastCases(cases);
});

describe('kubectlYaml: flow collections it leaves to the yaml package', () => {
  const cases: [why: string, text: string][] = [
    ['an empty value', 'a: {b: , c: 1}\n'],
    ['a key with no value', 'a: {b, c: 1}\n'],
    ["a key with ':' and no blank (a key of its own, `b:1`)", 'a: {b:1}\n'],
    ["a blank before a plain key's ':'", 'a: {b : 1}\n'],
    ["a blank before a quoted key's ':'", 'a: {"b" : 1}\n'],
    ['a duplicate key', 'a: {b: 1, b: 2}\n'],
    ['the same key written two ways', 'a: {1: x, "1": y}\n'],
    ['__proto__ as a key', 'a: {__proto__: 1}\n'],
    ['a pair as a value', 'a: {b: c: d}\n'],
    ['a pair in a sequence', 'a: [b: c]\n'],
    ['a collection as a key', 'a: {[b]: c}\n'],
    ['an explicit key', 'a: {? b: c}\n'],
    ['an anchor, an alias, a tag', 'a: {b: &x c, d: *x, e: !t f}\n'],
    ['text after the closing brace', 'a: {b: c} d\n'],
    ['a flow mapping as a block key', '{a: b}: c\n'],
    ['a plain scalar folded over lines, a tab before the next line', 'a: [b\n \tc]\n'],
    ["a plain scalar's next line no deeper than the owner", 'x:\n  a: [b\n  c]\n'],
    ['a plain scalar folded into a key', 'a: [b\n  c: d]\n'],
    ['a comment with no blank before it', 'a: [#c\n  b]\n'],
    ["a comment right after a ','", 'a: [b,#c\n  d]\n'],
    ['a comment right after a quoted scalar', 'a: ["b"# x\n  , c]\n'],
    ['a comment right after a closing bracket inside', 'a: [[b]# x\n  , c]\n'],
    ["a comment line at column 0 right after a mapping's value (the yaml package: not separated)", 'a: {b: c\n# x\n }\n'],
    ['the same after a quoted value, a collection and a comment', 'a: {b: "c"\n# x\n }\nd: {e: [f]\n# x\n }\ng: {h: i # j\n# x\n }\n'],
    ['a comment, then an item with no comma before it', 'a: [b # c\n  d]\n'],
    ['a comment line inside a folded plain scalar, then its next line', 'a: [b\n  # c\n  d]\n'],
    ["a comment between a key and its ':'", 'a: {b # c\n  : d}\n'],
    ['a comment that runs to the end of the text', 'a: [b, # c'],
    ["a quoted scalar's next line no deeper than the owner", 'x:\n  a: ["b\n  c"]\n'],
    ["a quoted scalar's next line after a tab", 'a: ["b\n \tc"]\n'],
    ['an escaped line break, then a blank line (the yaml package reads it as a space)', 'a: ["b\\\n\n  c"]\n'],
    ['a quoted key over lines', 'a: {"b\n  c": d}\n'],
    ['a quoted scalar over lines as a key in a sequence', 'a: ["b\n  c": d]\n'],
    ['a quoted scalar over lines never closed', 'a: ["b\n  c]\n'],
    ["a pair on the line below a key's ':' (a block mapping in flow: the yaml package's error)", 'a: {b:\n  c: d}\n'],
    ["a key's value on a line no deeper than the owner", 'x:\n  a: {b:\n  c}\n'],
    ['a line no deeper than the owner', 'a:\n  b: [\n  c\n  ]\n'],
    ["a closing bracket less deep than the owner's column", 'a:\n  b: [\n   c\n ]\n'],
    ["an inner closing bracket at the owner's column", 'a: [[\n  b\n]]\n'],
    ['a tab', 'a: {b: c,\td: e}\n'],
    ['a collection never closed', 'a: {b: c\n'],
  ];
  for (const [why, text] of cases) {
    it(why, () => {
      assert.equal(readKubectlYaml(text), undefined);
      loadsTheSame('/x.yaml', text);
    });
  }
});
