import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareQuantities, milliValue, parseQuantity, quantityDecimal, quantityToNumber, wholeValue, type Quantity } from '../../../src/engine/model/quantity';

const q = (text: string | number): Quantity => {
  const r = parseQuantity(text);
  if (!r.ok) assert.fail(r.error);
  return r.quantity;
};

test('quantities are parsed exactly, as resource.ParseQuantity reads them', () => {
  const cases: [string | number, string, string][] = [
    // input, exact decimal value, format
    ['11500m', '11.5', 'DecimalSI'],
    ['1k', '1000', 'DecimalSI'],
    ['1Ki', '1024', 'BinarySI'],
    ['1.5Gi', '1610612736', 'BinarySI'],
    ['0.1Ki', '102.4', 'BinarySI'],
    ['1e3', '1000', 'DecimalExponent'],
    ['1E-3', '0.001', 'DecimalExponent'],
    ['1E', '1000000000000000000', 'DecimalSI'],
    ['100n', '0.0000001', 'DecimalSI'],
    ['5u', '0.000005', 'DecimalSI'],
    ['-0.5', '-0.5', 'DecimalSI'],
    ['+2', '2', 'DecimalSI'],
    ['.5M', '500000', 'DecimalSI'],
    ['5.', '5', 'DecimalSI'],
    ['0', '0', 'DecimalSI'],
    ['128Mi', '134217728', 'BinarySI'],
    [4, '4', 'DecimalSI'],
    [0.25, '0.25', 'DecimalSI'],
  ];
  for (const [text, value, format] of cases) {
    const quantity = q(text);
    assert.equal(quantityDecimal(quantity), value, String(text));
    assert.equal(quantity.format, format, String(text));
  }
});

test('equal quantities written differently have the same canonical form', () => {
  const same = ['1k', '1000', '1e3', '1000000m', '1000.000'];
  for (const s of same) assert.deepEqual({ ...q(s), format: '' }, { digits: 1n, scale: -3, format: '' }, s);
  assert.equal(compareQuantities(q('1Ki'), q('1k')), 1);
  assert.equal(compareQuantities(q('999m'), q('1')), -1);
  assert.equal(compareQuantities(q('2Gi'), q('2048Mi')), 0);
});

test('milli and whole values round up, as Quantity.MilliValue and Quantity.Value do', () => {
  assert.equal(milliValue(q('11500m')), 11500n);
  assert.equal(milliValue(q('1.5')), 1500n);
  assert.equal(milliValue(q('1n')), 1n);
  assert.equal(wholeValue(q('1500m')), 2n);
  assert.equal(wholeValue(q('-1500m')), -1n);
  assert.equal(wholeValue(q('1Ki')), 1024n);
  assert.equal(quantityToNumber(q('1.5Gi')), 1610612736);
});

test('the extended resource quantity of a must-gather node (devices.kubevirt.io/kvm: 1k) is a thousand', () => {
  assert.equal(wholeValue(q('1k')), 1000n);
});

test('bad quantities are parse errors that say what was expected', () => {
  for (const bad of ['', 'abc', '1KB', '1kb', '1.2.3', 'Ki', '1e', '1e1.5', '--1', '1 Gi', '1Gi ', 'NaN', 'Infinity', '1e99999']) {
    const r = parseQuantity(bad);
    assert.equal(r.ok, false, bad);
    if (!r.ok) assert.match(r.error, /is not a quantity/);
  }
  assert.equal(parseQuantity(Number.NaN).ok, false);
});
