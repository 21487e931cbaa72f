/**
 * Gzipped input (a rotated audit log `audit.log.1.gz`, `kubectl get -o json |
 * gzip`, a KWOK recording saved gzipped): recognised by its magic bytes, not
 * its name, and inflated as a stream, so a file is never held compressed and
 * decompressed at once. Members written one after another (`cat a.gz b.gz`,
 * as log rotation leaves them) are read in turn (RFC 1952 2.2).
 *
 * The inflater itself is the shell's (platform/gunzip.ts: node's zlib, or
 * fflate where there is none): the engine takes no packages but xstate and
 * yaml, and runs where node's modules do not.
 *
 * Size limits apply to the decompressed bytes. A whole read stops at its
 * limit; a streamed read stops when the output outgrows the input by more
 * than MAX_GZIP_RATIO (real JSON and logs compress about 5-40 times; deflate
 * can reach about 1,000, which is what a gzip bomb is made of). Either stops
 * with a GzipLimitError whose message says which limit and why, before the
 * memory is spent.
 */
/** A streaming gzip inflater (several members one after another), handing its output to `ondata`. */
export interface Inflater {
  push(chunk: Uint8Array, final: boolean): void;
}
export type MakeInflater = (ondata: (data: Uint8Array, final: boolean) => void) => Inflater;

/** RFC 1952: ID1 ID2. */
export const isGzip = (bytes: Uint8Array): boolean => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;

/**
 * Decompressed bytes per compressed byte beyond which a stream is taken as a
 * gzip bomb (once past GZIP_RATIO_FREE: a small file of one repeated line may
 * compress better than that and is harmless).
 */
export const MAX_GZIP_RATIO = 250;
export const GZIP_RATIO_FREE = 64 * 1024 * 1024;

/** Compressed bytes given to the inflater at a time. */
const GZIP_PIECE = 128 * 1024;

export class GzipLimitError extends Error {
  /** `size`: more than a whole read takes (a stream might still read it); `ratio`: a gzip bomb */
  constructor(
    message: string,
    readonly limit: 'size' | 'ratio',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface GunzipLimits {
  /** the most decompressed bytes read (a whole read's file limit) */
  maxBytes?: number;
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${(n / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MiB` : `${n} bytes`;
}

/**
 * The bytes, inflated when they start with gzip's magic bytes, passed on as
 * they are otherwise. Throws GzipLimitError past a limit and Error on a
 * corrupt or cut stream (with how far it got).
 */
export function* gunzipBytes(chunks: Iterable<Uint8Array>, inflater: MakeInflater, limits: GunzipLimits = {}): Generator<Uint8Array> {
  const it = chunks[Symbol.iterator]();
  // the magic needs two bytes: a first chunk of one byte is joined with the next
  let head: Uint8Array = new Uint8Array(0);
  let done = false;
  while (head.length < 2) {
    const r = it.next();
    if (r.done) {
      done = true;
      break;
    }
    head = head.length ? concat(head, r.value) : r.value;
  }
  if (!isGzip(head)) {
    if (head.length) yield head;
    if (done) return;
    for (let r = it.next(); !r.done; r = it.next()) yield r.value;
    return;
  }
  let out: Uint8Array[] = [];
  let inBytes = 0;
  let outBytes = 0;
  let ended = false;
  const gunzip = inflater((data, final) => {
    outBytes += data.length;
    if (limits.maxBytes !== undefined && outBytes > limits.maxBytes) {
      throw new GzipLimitError(`it decompresses to more than ${formatBytes(limits.maxBytes)}, the most read at once`, 'size');
    }
    if (outBytes > GZIP_RATIO_FREE && outBytes > inBytes * MAX_GZIP_RATIO) {
      throw new GzipLimitError(
        `it decompresses to more than ${MAX_GZIP_RATIO} times its compressed size (${formatBytes(outBytes)} from ${formatBytes(inBytes)}): refused as a gzip bomb`,
        'ratio',
      );
    }
    out.push(data);
    if (final) ended = true;
  });
  const cut = (cause?: unknown) => new Error(`the gzip stream ends early, after ${formatBytes(outBytes)} decompressed (the file was cut?)`, { cause });
  const push = (piece: Uint8Array, last: boolean): void => {
    try {
      gunzip.push(piece, last);
    } catch (e) {
      if (e instanceof GzipLimitError) throw e;
      // fflate says `unexpected EOF`, node's zlib `unexpected end of file`
      if (last && /unexpected (EOF|end of file)/i.test(e instanceof Error ? e.message : '')) throw cut(e);
      throw new Error(
        `the gzip stream is corrupt after ${formatBytes(inBytes)} compressed, ${formatBytes(outBytes)} decompressed (${e instanceof Error ? e.message : String(e)})`,
        { cause: e },
      );
    }
  };
  // the end is said with an empty piece of its own: said with the last bytes, members after the first are lost
  const feed = function* (chunk: Uint8Array): Generator<Uint8Array> {
    // in small pieces: the inflater hands over all a piece gives at once, up to ~1,000 times its size
    for (let at = 0; at < chunk.length; at += GZIP_PIECE) {
      const piece = chunk.subarray(at, at + GZIP_PIECE);
      inBytes += piece.length;
      push(piece, false);
      const ready = out;
      out = [];
      yield* ready;
    }
  };
  yield* feed(head);
  for (let r = it.next(); !r.done; r = it.next()) yield* feed(r.value);
  push(new Uint8Array(0), true);
  yield* out;
  if (!ended) throw cut();
}

/** UTF-8 decoding piece by piece: a character split between two pieces is kept whole. */
export interface Utf8Decoder {
  write(bytes: Uint8Array): string;
  end(): string;
}
export type MakeUtf8Decoder = () => Utf8Decoder;

/** The decoder every JavaScript runtime has; the Node shells pass node's StringDecoder, which is cheaper (platform/gunzip.ts). */
export const textDecoderUtf8: MakeUtf8Decoder = () => {
  // ignoreBOM keeps a BOM as a character, as readers of a string input expect
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  return { write: (bytes) => decoder.decode(bytes, { stream: true }), end: () => decoder.decode() };
};

/** UTF-8 text in pieces from bytes in pieces (gzipped or not); a character split between pieces is kept whole. */
export function* textOfBytes(
  chunks: Iterable<Uint8Array>,
  inflater: MakeInflater,
  limits: GunzipLimits = {},
  makeDecoder: MakeUtf8Decoder = textDecoderUtf8,
): Generator<string> {
  const decoder = makeDecoder();
  for (const bytes of gunzipBytes(chunks, inflater, limits)) {
    const text = decoder.write(bytes);
    if (text) yield text;
  }
  const tail = decoder.end();
  if (tail) yield tail;
}

/**
 * A gzipped file's decompressed size as its trailer (ISIZE, the last four
 * bytes) gives it: modulo 2^32, so a file that decompresses to 4 GiB or more
 * reads smaller than it is; never less than the compressed size.
 */
export function gzipSizeHint(trailer: Uint8Array, compressedSize: number): number {
  if (trailer.length < 4) return compressedSize;
  const isize = (trailer[0] | (trailer[1] << 8) | (trailer[2] << 16)) + trailer[3] * 0x1000000;
  return Math.max(isize, compressedSize);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const c = new Uint8Array(a.length + b.length);
  c.set(a, 0);
  c.set(b, a.length);
  return c;
}
