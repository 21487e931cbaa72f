/**
 * Kubernetes resource quantities (k8s.io/apimachinery/pkg/api/resource), parsed
 * exactly: `11500m`, `1k`, `1Ki`, `1.5Gi`, `1e3`, `-0.5`, `.5M`.
 *
 *   <quantity>        ::= <signedNumber><suffix>
 *   <suffix>          ::= <binarySI> | <decimalExponent> | <decimalSI>
 *   <binarySI>        ::= Ki | Mi | Gi | Ti | Pi | Ei
 *   <decimalSI>       ::= n | u | m | "" | k | M | G | T | P | E
 *   <decimalExponent> ::= "e" <signedNumber> | "E" <signedNumber>   (a whole number)
 *
 * The canonical form is exact: `value = digits × 10^-scale` with `digits` a
 * bigint and trailing zeros removed, so equal quantities written differently
 * (`1k`, `1000`, `1e3`, `1000000m`) have the same form. (Every binary multiple
 * of a decimal number is such a decimal: 2^k is an integer.)
 */

export type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

export interface Quantity {
  /** value = digits × 10^-scale, with no trailing zeros in digits (scale may be negative) */
  digits: bigint;
  scale: number;
  /** how it was written, as Kubernetes keeps it for printing */
  format: QuantityFormat;
}

export type QuantityResult = { ok: true; quantity: Quantity } | { ok: false; error: string };

const BINARY: Record<string, bigint> = { Ki: 1n << 10n, Mi: 1n << 20n, Gi: 1n << 30n, Ti: 1n << 40n, Pi: 1n << 50n, Ei: 1n << 60n };
const DECIMAL: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const MAX_EXPONENT = 1000;

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

function normalise(digits: bigint, scale: number, format: QuantityFormat): Quantity {
  if (digits === 0n) return { digits: 0n, scale: 0, format };
  while (digits % 10n === 0n) {
    digits /= 10n;
    scale -= 1;
  }
  return { digits, scale, format };
}

/** Parses a quantity as the API server does; numbers (from YAML/JSON) are accepted as their decimal text. */
export function parseQuantity(input: string | number): QuantityResult {
  const text = typeof input === 'number' ? (Number.isFinite(input) ? numberText(input) : '') : input;
  const fail = (why: string): QuantityResult => ({
    ok: false,
    error: `${JSON.stringify(String(input))} is not a quantity: ${why} (examples: 500m, 2, 1.5Gi, 1k, 1e3)`,
  });
  if (text.length === 0) return fail('it is empty');
  if (text.length > 100) return fail('it is too long');
  let i = 0;
  let negative = false;
  if (text[i] === '+' || text[i] === '-') {
    negative = text[i] === '-';
    i++;
  }
  const intStart = i;
  while (isDigit(text[i])) i++;
  const intPart = text.slice(intStart, i);
  let fracPart = '';
  if (text[i] === '.') {
    i++;
    const fracStart = i;
    while (isDigit(text[i])) i++;
    fracPart = text.slice(fracStart, i);
  }
  if (!intPart && !fracPart) return fail('it does not start with a number');
  const suffix = text.slice(i);
  let digits = BigInt((intPart || '0') + fracPart);
  let scale = fracPart.length;
  let format: QuantityFormat;
  if (suffix in BINARY) {
    digits *= BINARY[suffix];
    format = 'BinarySI';
  } else if (suffix in DECIMAL) {
    scale -= DECIMAL[suffix];
    format = 'DecimalSI';
  } else if (suffix[0] === 'e' || suffix[0] === 'E') {
    const exp = suffix.slice(1);
    if (!/^[+-]?\d+$/.test(exp)) return fail(`unknown suffix ${JSON.stringify(suffix)}`);
    const e = Number(exp);
    if (Math.abs(e) > MAX_EXPONENT) return fail('the exponent is too large');
    scale -= e;
    format = 'DecimalExponent';
  } else {
    return fail(`unknown suffix ${JSON.stringify(suffix)}`);
  }
  if (negative) digits = -digits;
  return { ok: true, quantity: normalise(digits, scale, format) };
}

function numberText(n: number): string {
  // avoid exponent notation for ordinary numbers; keep it for huge/tiny ones (parsed as DecimalExponent)
  return String(n);
}

/** The value in thousandths, rounded up as resource.Quantity.MilliValue does. */
export function milliValue(q: Quantity): bigint {
  return scaledCeil(q, 3);
}

/** The value rounded up to a whole number, as resource.Quantity.Value does. */
export function wholeValue(q: Quantity): bigint {
  return scaledCeil(q, 0);
}

function scaledCeil(q: Quantity, decimals: number): bigint {
  const shift = decimals - q.scale;
  if (shift >= 0) return q.digits * 10n ** BigInt(shift);
  const div = 10n ** BigInt(-shift);
  const quotient = q.digits / div;
  return q.digits % div !== 0n && q.digits > 0n ? quotient + 1n : quotient;
}

/** -1, 0 or 1. */
export function compareQuantities(a: Quantity, b: Quantity): number {
  const s = Math.max(a.scale, b.scale);
  const x = a.digits * 10n ** BigInt(s - a.scale);
  const y = b.digits * 10n ** BigInt(s - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The exact value as a decimal string (`11.5`, `1536`, `0.001`). */
export function quantityDecimal(q: Quantity): string {
  const neg = q.digits < 0n;
  const abs = (neg ? -q.digits : q.digits).toString();
  let out: string;
  if (q.scale <= 0) out = abs + '0'.repeat(-q.scale);
  else if (abs.length > q.scale) out = `${abs.slice(0, abs.length - q.scale)}.${abs.slice(abs.length - q.scale)}`;
  else out = `0.${'0'.repeat(q.scale - abs.length)}${abs}`;
  return neg ? `-${out}` : out;
}

/** The value as a JavaScript number (may lose precision for very large values). */
export function quantityToNumber(q: Quantity): number {
  return Number(quantityDecimal(q));
}
