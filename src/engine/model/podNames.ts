/**
 * Pod names as the ReplicaSet controller gets them: the pod is created with
 * `metadata.generateName` = `<replicaset-name>-` (controller_utils.go
 * getPodsPrefix) and the API server appends 5 random characters from
 * utilrand's alphabet (apiserver names.SimpleNameGenerator: base truncated to
 * 58 characters, then `utilrand.String(5)`).
 *
 * Here the "random" characters are derived from a seeded hash of the
 * ReplicaSet (its uid) and a counter, so the same input always gives the same
 * names. Uids of created pods are derived the same way.
 *
 * Public API:
 *   podNamePrefix(controllerName): string            the generateName
 *   generateName(base, seed, counter): string        base (≤ 58 chars) + 5 chars
 *   generateUid(seed, counter): string               an RFC 4122-shaped uid
 *   RANDOM_ALPHABET                                  utilrand's alphanums
 */

/** utilrand.String's alphabet: no vowels and no confusable characters, so no words are spelled. */
export const RANDOM_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
/** apiserver names: maxNameLength 63, randomLength 5, maxGeneratedNameLength 58 */
const MAX_GENERATED_NAME_LENGTH = 58;
const RANDOM_LENGTH = 5;

// DNS-1123 subdomain, as ValidatePodName checks the prefix (with a trailing '-' allowed for a prefix).
const POD_NAME_PREFIX_RE = /^[a-z0-9]([-a-z0-9]*)?(\.[a-z0-9]([-a-z0-9]*)?)*$/;

/**
 * getPodsPrefix: `<name>-`, unless that is not a valid pod name prefix, then
 * the name alone.
 */
export function podNamePrefix(controllerName: string): string {
  const prefix = `${controllerName}-`;
  return prefix.length <= 253 && POD_NAME_PREFIX_RE.test(prefix) ? prefix : controllerName;
}

// The hash and the stream below are plain functions over module state, not closures: a
// closure made per call costs an allocation (and, under tsx/esbuild's keepNames, a
// defineProperty of its name per call), and a ReplicaSet creates thousands of pods an hour.

const FNV_OFFSET = 0x811c9dc5;

/** 32-bit FNV-1a over the string's UTF-16 code units, continuing from `h` (FNV_OFFSET to start). */
function fnv1a(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/**
 * A small deterministic stream of 32-bit words (mulberry32) seeded from the FNV-1a hash of
 * `${tag}|${seed}|${counter}` (hashed part by part, which is the hash of the whole text).
 * One stream at a time: `seedStream` starts it, `nextWord` draws.
 */
let streamState = 0;
function seedStream(tag: string, seed: string, counter: number): void {
  let h = fnv1a(FNV_OFFSET, tag);
  h = fnv1a(h, '|');
  h = fnv1a(h, seed);
  h = fnv1a(h, '|');
  streamState = fnv1a(h, String(counter));
}
function nextWord(): number {
  streamState = (streamState + 0x6d2b79f5) >>> 0;
  let t = streamState;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (t ^ (t >>> 14)) >>> 0;
}

/** `base` (truncated to 58 characters) followed by 5 characters derived from (seed, counter). */
export function generateName(base: string, seed: string, counter: number): string {
  seedStream('name', seed, counter);
  let suffix = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) suffix += RANDOM_ALPHABET[nextWord() % RANDOM_ALPHABET.length];
  const trimmed = base.length > MAX_GENERATED_NAME_LENGTH ? base.slice(0, MAX_GENERATED_NAME_LENGTH) : base;
  return trimmed + suffix;
}

/** '0'-'9', 'a'-'f' as character codes */
const HEX_CODES = [48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102];

/**
 * A 32-bit word as 8 lowercase hex digits: `n.toString(16).padStart(8, '0')`, without
 * Number#toString(16), which costs about 1.7 µs a call here (bench/README.md, "Engine code
 * shaped by the runtime").
 */
function hex8(n: number): string {
  return String.fromCharCode(
    HEX_CODES[(n >>> 28) & 15],
    HEX_CODES[(n >>> 24) & 15],
    HEX_CODES[(n >>> 20) & 15],
    HEX_CODES[(n >>> 16) & 15],
    HEX_CODES[(n >>> 12) & 15],
    HEX_CODES[(n >>> 8) & 15],
    HEX_CODES[(n >>> 4) & 15],
    HEX_CODES[n & 15],
  );
}

/** A uid shaped like the API server's (UUID version 4 layout), derived from (seed, counter). */
export function generateUid(seed: string, counter: number): string {
  seedStream('uid', seed, counter);
  const w = hex8(nextWord()) + hex8(nextWord()) + hex8(nextWord()) + hex8(nextWord());
  // the variant digit from the 17th: (digit & 3) | 8, one of 8, 9, a, b
  const variant = String.fromCharCode(HEX_CODES[(parseInt(w[16]!, 16) & 0x3) | 0x8]);
  return `${w.slice(0, 8)}-${w.slice(8, 12)}-4${w.slice(13, 16)}-${variant}${w.slice(17, 20)}-${w.slice(20, 32)}`;
}
