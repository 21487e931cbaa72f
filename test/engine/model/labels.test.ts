import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileSelector, formatSelector, matchesSelector, selectorError } from '../../../src/engine/model/labels';
import type { LabelSelector } from '../../../src/engine/model/types';

test('label selectors match as metav1.LabelSelectorAsSelector builds them', () => {
  const cases: { name: string; selector: LabelSelector | undefined | null; labels: Record<string, string>; want: boolean }[] = [
    { name: 'a nil selector matches nothing', selector: undefined, labels: { app: 'a' }, want: false },
    { name: 'a null selector matches nothing', selector: null, labels: {}, want: false },
    { name: 'an empty selector matches everything', selector: {}, labels: { app: 'a' }, want: true },
    { name: 'an empty selector matches a pod without labels', selector: {}, labels: {}, want: true },
    { name: 'empty matchLabels and matchExpressions match everything', selector: { matchLabels: {}, matchExpressions: [] }, labels: {}, want: true },
    { name: 'matchLabels requires equal values', selector: { matchLabels: { app: 'a' } }, labels: { app: 'a', x: 'y' }, want: true },
    { name: 'matchLabels rejects a different value', selector: { matchLabels: { app: 'a' } }, labels: { app: 'b' }, want: false },
    { name: 'matchLabels rejects a missing label', selector: { matchLabels: { app: 'a' } }, labels: {}, want: false },
    { name: 'all matchLabels must hold', selector: { matchLabels: { app: 'a', tier: 'web' } }, labels: { app: 'a' }, want: false },
    {
      name: 'In matches a listed value',
      selector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod', 'qa'] }] },
      labels: { env: 'qa' },
      want: true,
    },
    {
      name: 'In rejects an unlisted value',
      selector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] },
      labels: { env: 'qa' },
      want: false,
    },
    { name: 'In rejects a missing label', selector: { matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] }, labels: {}, want: false },
    { name: 'NotIn matches a missing label', selector: { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] }, labels: {}, want: true },
    {
      name: 'NotIn matches an unlisted value',
      selector: { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] },
      labels: { env: 'qa' },
      want: true,
    },
    {
      name: 'NotIn rejects a listed value',
      selector: { matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] },
      labels: { env: 'prod' },
      want: false,
    },
    {
      name: 'Exists matches a present label with an empty value',
      selector: { matchExpressions: [{ key: 'gpu', operator: 'Exists' }] },
      labels: { gpu: '' },
      want: true,
    },
    { name: 'Exists rejects a missing label', selector: { matchExpressions: [{ key: 'gpu', operator: 'Exists' }] }, labels: {}, want: false },
    {
      name: 'DoesNotExist matches a missing label',
      selector: { matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist' }] },
      labels: { app: 'a' },
      want: true,
    },
    {
      name: 'DoesNotExist rejects a present label',
      selector: { matchExpressions: [{ key: 'gpu', operator: 'DoesNotExist' }] },
      labels: { gpu: 'x' },
      want: false,
    },
    {
      name: 'matchLabels and matchExpressions are ANDed',
      selector: { matchLabels: { app: 'a' }, matchExpressions: [{ key: 'env', operator: 'In', values: ['prod'] }] },
      labels: { app: 'a', env: 'qa' },
      want: false,
    },
    {
      name: 'In without values is invalid and matches nothing',
      selector: { matchExpressions: [{ key: 'env', operator: 'In', values: [] }] },
      labels: { env: 'x' },
      want: false,
    },
    {
      name: 'Exists with values is invalid and matches nothing',
      selector: { matchExpressions: [{ key: 'env', operator: 'Exists', values: ['x'] }] },
      labels: { env: 'x' },
      want: false,
    },
    {
      name: 'an unknown operator is invalid and matches nothing',
      selector: { matchExpressions: [{ key: 'env', operator: 'Gt' as 'In', values: ['1'] }] },
      labels: { env: '2' },
      want: false,
    },
    { name: 'an invalid label key matches nothing', selector: { matchLabels: { 'bad key': 'a' } }, labels: { 'bad key': 'a' }, want: false },
    {
      name: 'a prefixed key is valid',
      selector: { matchLabels: { 'app.kubernetes.io/name': 'web' } },
      labels: { 'app.kubernetes.io/name': 'web' },
      want: true,
    },
    {
      name: 'labels inherited from Object.prototype do not count',
      selector: { matchExpressions: [{ key: 'constructor', operator: 'Exists' }] },
      labels: {},
      want: false,
    },
  ];
  for (const c of cases) assert.equal(matchesSelector(c.selector, c.labels), c.want, c.name);
});

test('invalid selectors report why LabelSelectorAsSelector rejects them', () => {
  assert.equal(selectorError({ matchLabels: { app: 'a' } }), undefined);
  assert.equal(selectorError(undefined), undefined, 'nil is not an error, it matches nothing');
  assert.match(selectorError({ matchExpressions: [{ key: 'a', operator: 'NotIn' }] })!, /can't be empty/);
  assert.match(selectorError({ matchExpressions: [{ key: 'a', operator: 'DoesNotExist', values: ['b'] }] })!, /must be empty/);
  assert.match(selectorError({ matchExpressions: [{ key: 'a', operator: 'Foo' as 'In', values: ['b'] }] })!, /not a valid label selector operator/);
  assert.match(selectorError({ matchLabels: { a: 'bad value!' } })!, /invalid label value/);
  assert.match(selectorError({ matchLabels: { ['x'.repeat(64)]: 'a' } })!, /63 characters/);
});

test('compiled selectors say whether they match nothing, everything or some', () => {
  assert.equal(compileSelector(undefined).kind, 'nothing');
  assert.equal(compileSelector({}).kind, 'everything');
  assert.equal(compileSelector({ matchLabels: { a: 'b' } }).kind, 'some');
  assert.equal(compileSelector({ matchLabels: { a: 'b c' } }).kind, 'nothing');
});

test('selectors print as labels.Selector.String(), sorted by key', () => {
  assert.equal(
    formatSelector({
      matchLabels: { tier: 'web', app: 'a' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['qa', 'prod'] },
        { key: 'gpu', operator: 'DoesNotExist' },
      ],
    }),
    'app=a,env in (prod,qa),!gpu,tier=web',
  );
  assert.equal(formatSelector({}), '');
  assert.equal(formatSelector(undefined), '<none>');
});

test('compiled selectors answer as the requirement-by-requirement reference (the k = v shortcut included)', () => {
  // the matcher before `k = v` was one comparison: every requirement through hasOwnProperty and a Set
  const reference = (sel: LabelSelector, labels: Record<string, string> | undefined): boolean => {
    const l = labels ?? {};
    const has = (k: string) => Object.prototype.hasOwnProperty.call(l, k);
    for (const [k, v] of Object.entries(sel.matchLabels ?? {})) if (!has(k) || l[k] !== v) return false;
    for (const e of sel.matchExpressions ?? []) {
      const vals = new Set(e.values ?? []);
      if (e.operator === 'In' && (!has(e.key) || !vals.has(l[e.key]!))) return false;
      if (e.operator === 'NotIn' && has(e.key) && vals.has(l[e.key]!)) return false;
      if (e.operator === 'Exists' && !has(e.key)) return false;
      if (e.operator === 'DoesNotExist' && has(e.key)) return false;
    }
    return true;
  };
  const keys = ['app', 'tier', 'constructor', 'toString', 'hasOwnProperty', 'valueOf', 'k8s.io/name'];
  const values = ['web', 'db', '', 'x'];
  let x = 7;
  const rnd = (n: number) => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return Math.floor((x / 2147483648) * n);
  };
  const pick = <T>(xs: readonly T[]): T => xs[rnd(xs.length)]!;
  const ops = ['In', 'NotIn', 'Exists', 'DoesNotExist'] as const;
  for (let i = 0; i < 3000; i++) {
    const sel: LabelSelector = {};
    const nl = rnd(3);
    if (nl) {
      sel.matchLabels = {};
      for (let j = 0; j < nl; j++) sel.matchLabels[pick(keys)] = pick(values);
    }
    const ne = rnd(3);
    if (ne) {
      sel.matchExpressions = [];
      for (let j = 0; j < ne; j++) {
        const operator = pick(ops);
        const vs = operator === 'In' || operator === 'NotIn' ? Array.from({ length: 1 + rnd(2) }, () => pick(values)) : undefined;
        sel.matchExpressions.push({ key: pick(keys), operator, ...(vs ? { values: vs } : {}) });
      }
    }
    const c = compileSelector(sel);
    if (c.error) continue;
    for (let k = 0; k < 4; k++) {
      let labels: Record<string, string> | undefined;
      if (rnd(6)) {
        labels = {};
        for (let j = rnd(4); j > 0; j--) labels[pick(keys)] = pick(values);
      }
      assert.equal(c.matches(labels), reference(sel, labels), JSON.stringify({ sel, labels }));
    }
  }
});
