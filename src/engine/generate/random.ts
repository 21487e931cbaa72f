/**
 * A seeded pseudo-random source for the cluster generator: the same seed gives
 * the same sequence on every machine and every run (no Math.random, no clock).
 * The generator is sfc32 (Chris Doty-Humphrey's "small fast chaotic" PRNG),
 * seeded through splitmix32 so that neighbouring seeds give unrelated streams.
 */

/** The characters Kubernetes uses for generated name suffixes (k8s.io/apimachinery/pkg/util/rand). */
const NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const HEX = '0123456789abcdef';

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number | string) {
    let s = hashString(typeof seed === 'number' ? `n:${seed}` : `s:${seed}`);
    const next = () => {
      // splitmix32
      s = (s + 0x9e3779b9) | 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /** A uniformly distributed unsigned 32-bit integer. */
  uint32(): number {
    // sfc32
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  float(): number {
    return this.uint32() / 4294967296;
  }

  /** An integer in [min, max] (both included). */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  /** true with probability p. */
  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)];
  }

  /** Picks by weight: `[[value, weight], ...]`. */
  weighted<T>(table: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of table) total += w;
    let r = this.float() * total;
    for (const [v, w] of table) {
      r -= w;
      if (r < 0) return v;
    }
    return table[table.length - 1][0];
  }

  /** A random string in Kubernetes' generated-name alphabet (pod suffixes, template hashes). */
  nameSuffix(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += NAME_ALPHABET[this.uint32() % NAME_ALPHABET.length];
    return out;
  }

  hex(length: number): string {
    let out = '';
    for (let i = 0; i < length; i++) out += HEX[this.uint32() & 15];
    return out;
  }

  /** An RFC 4122 version-4 UUID, as the API server assigns to metadata.uid. */
  uuid(): string {
    const h = this.hex(32).split('');
    h[12] = '4';
    h[16] = HEX[(parseInt(h[16], 16) & 0x3) | 0x8];
    const s = h.join('');
    return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
  }
}

/** FNV-1a, to turn a string seed into a number. */
export function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
