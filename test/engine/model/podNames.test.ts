import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateName, generateUid, RANDOM_ALPHABET } from '../../../src/engine/model/podNames';

// The implementation before the hash was taken part by part and the stream lost its closure:
// names and uids must stay exactly these (every generated pod name is in the trace).
function referenceStream(text: string): () => number {
  let a = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    a ^= text.charCodeAt(i);
    a = Math.imul(a, 0x01000193) >>> 0;
  }
  a >>>= 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}
function referenceName(base: string, seed: string, counter: number): string {
  const next = referenceStream(`name|${seed}|${counter}`);
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += RANDOM_ALPHABET[next() % RANDOM_ALPHABET.length];
  return (base.length > 58 ? base.slice(0, 58) : base) + suffix;
}
function referenceUid(seed: string, counter: number): string {
  const next = referenceStream(`uid|${seed}|${counter}`);
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  const w = [next(), next(), next(), next()].map(hex).join('');
  const variant = ((parseInt(w[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${w.slice(0, 8)}-${w.slice(8, 12)}-4${w.slice(13, 16)}-${variant}${w.slice(17, 20)}-${w.slice(20, 32)}`;
}

test('generated names and uids are those of the reference implementation (whole-text hash, closure stream)', () => {
  const seeds = ['', 'uid-rs', '42d7c1f0-9a8b-4c3d-8e7f-0123456789ab', 'seed-7f3e2a10-5b6c-4d7e-8f90-a1b2c3d4e5f6', 'ünïcødé|✓', 'a|b|c'];
  const bases = ['web-', 'x', `${'y'.repeat(70)}-`, ''];
  for (const seed of seeds) {
    for (const counter of [0, 1, 2, 9, 10, 99, 12345, 2 ** 31, -1, 1.5]) {
      for (const base of bases) assert.equal(generateName(base, seed, counter), referenceName(base, seed, counter), `${base} ${seed} ${counter}`);
      assert.equal(generateUid(seed, counter), referenceUid(seed, counter), `${seed} ${counter}`);
    }
  }
  // interleaved, as several ReplicaSets draw in turn
  for (let i = 0; i < 3000; i++) {
    const seed = `rs-${i % 7}`;
    assert.equal(generateName('rs-', seed, i), referenceName('rs-', seed, i));
    assert.equal(generateUid(seed, i), referenceUid(seed, i));
  }
});
