import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dns1123SubdomainError, qualifiedNameError, validateObject, type FieldPath } from '../../../src/engine/model/validateObjects';
import { MAX_NESTING_DEPTH, MAX_STRING_LENGTH, findLimitViolation } from '../../../src/engine/model/limits';

/** apimachinery's dns1123SubdomainFmt, as upstream writes it (pkg/util/validation/validation.go). */
const UPSTREAM_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function collect() {
  const got: string[] = [];
  const report = (path: FieldPath, code: string) => got.push(`${code} ${path.join('.')}`);
  return { got, report };
}

test('IsDNS1123Subdomain: the one-pass check agrees with upstream regular expression', () => {
  const table = ['a', 'a.b', 'a-b.c-d', '0', 'web-0.svc', '', '.', 'a.', '.a', 'a..b', '-a', 'a-', 'a.-b', 'a-.b', 'A', 'a_b', 'a b', 'ab.c1-2.3', 'é'];
  for (const s of table) assert.equal(dns1123SubdomainError(s) === undefined, UPSTREAM_SUBDOMAIN.test(s), JSON.stringify(s));
  // and on strings of the characters that matter, drawn from a fixed seed
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
  const alphabet = 'ab0-.A_';
  for (let n = 0; n < 5000; n++) {
    let s = '';
    for (let i = next() % 9; i > 0; i--) s += alphabet[next() % alphabet.length];
    assert.equal(dns1123SubdomainError(s) === undefined, UPSTREAM_SUBDOMAIN.test(s), JSON.stringify(s));
  }
  assert.match(dns1123SubdomainError('a'.repeat(254))!, /253/);
});

test('IsQualifiedName: prefix and name parts', () => {
  const table: [string, RegExp | undefined][] = [
    ['app', undefined],
    ['kubernetes.io/hostname', undefined],
    ['node.kubernetes.io/not-ready', undefined],
    ['/name', /prefix part must be non-empty/],
    ['a/b/c', /optional DNS subdomain prefix/],
    ['Bad_Prefix/name', /prefix part must consist/],
    ['example.com/', /name part must be non-empty/],
    ['example.com/-x', /name part must consist/],
    [`example.com/${'x'.repeat(64)}`, /no more than 63/],
  ];
  for (const [s, want] of table) {
    const got = qualifiedNameError(s);
    if (want) assert.match(got ?? '', want, s);
    else assert.equal(got, undefined, s);
  }
});

test('objects that share their labels or tolerations with the previous one are each checked when those are invalid', () => {
  const badLabels = { 'bad key!': 'v' };
  const badTolerations = [{ key: 'bad key!', operator: 'Exists' }];
  const goodLabels = { app: 'web' };
  const pod = (labels: object, tolerations: object[]) => ({ metadata: { name: 'p', namespace: 'd', labels }, spec: { tolerations } });
  const table: { name: string; objects: Record<string, unknown>[]; want: string[] }[] = [
    {
      name: 'the same invalid labels twice',
      objects: [pod(badLabels, []), pod(badLabels, [])],
      want: ['invalid-label metadata.labels.bad key!', 'invalid-label metadata.labels.bad key!'],
    },
    {
      name: 'the same invalid tolerations twice',
      objects: [pod(goodLabels, badTolerations), pod(goodLabels, badTolerations)],
      want: ['invalid-toleration spec.tolerations.0.key', 'invalid-toleration spec.tolerations.0.key'],
    },
    { name: 'valid labels shared', objects: [pod(goodLabels, []), pod(goodLabels, [])], want: [] },
  ];
  for (const row of table) {
    const { got, report } = collect();
    const ok = row.objects.map((o) => validateObject('Pod', o, report));
    assert.deepEqual(got, row.want, row.name);
    assert.deepEqual(
      ok,
      row.objects.map(() => row.want.length === 0),
      row.name,
    );
  }
});

test('limits: a part shared with a value found within the limits is not walked again, and nothing else is skipped', () => {
  let deep: unknown = 'leaf';
  for (let i = 0; i < MAX_NESTING_DEPTH + 1; i++) deep = { d: deep };
  const long = 'x'.repeat(MAX_STRING_LENGTH + 1);
  const shared = { a: { b: ['c'] } };
  const checked = { metadata: { name: 'n' }, spec: shared };
  const table: { name: string; value: unknown; checked?: unknown; want: string | undefined }[] = [
    { name: 'a shared part', value: { metadata: { name: 'm' }, spec: shared }, checked, want: undefined },
    { name: 'too deep beside a checked value', value: { metadata: { name: 'm' }, spec: deep }, checked, want: 'too-deep' },
    { name: 'too long beside a checked value', value: { metadata: { name: long }, spec: shared }, checked, want: 'string-too-long' },
    { name: 'a long key', value: { [long]: 1 }, checked, want: 'string-too-long' },
    { name: 'too deep alone', value: deep, want: 'too-deep' },
  ];
  for (const row of table) assert.equal(findLimitViolation(row.value, MAX_NESTING_DEPTH, MAX_STRING_LENGTH, row.checked)?.kind, row.want, row.name);
});

test('limits: an object that failed is never the reference of the next, so a part it shares is checked again', () => {
  let deep: unknown = 'leaf';
  for (let i = 0; i < MAX_NESTING_DEPTH + 1; i++) deep = { d: deep };
  const { got, report } = collect();
  assert.equal(validateObject('Node', { metadata: { name: 'a' }, status: deep }, report), false);
  assert.equal(validateObject('Node', { metadata: { name: 'b' }, status: deep }, report), false);
  assert.equal(got.length, 2);
});
