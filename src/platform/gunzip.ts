/**
 * The inflater the engine's gzip reading (engine/snapshot/gzip.ts) runs on in
 * the Node shells (command line, language server, extension host): node's zlib.
 *
 * The loader and the importers read synchronously, chunk by chunk, and node's
 * zlib streams only asynchronously (its synchronous calls take one whole
 * buffer). So its handle is driven as its own synchronous calls drive it
 * (processChunkSync in https://github.com/nodejs/node/blob/v20.x/lib/zlib.js: `writeSync` into an output buffer until
 * the input is used), without closing it between chunks. The handle is not a
 * documented interface: where it is not as expected, fflate's inflater
 * (fflateInflater.ts) is used instead. Multi-member streams are read by zlib's
 * own gunzip mode, which starts the next member where one ends.
 */
import { StringDecoder } from 'node:string_decoder';
import { constants, createGunzip } from 'node:zlib';
import { textOfBytes, type GunzipLimits, type Inflater, type MakeInflater, type MakeUtf8Decoder } from '../engine/snapshot/gzip';
import { fflateInflater } from './fflateInflater';

/**
 * Decompressed bytes handed on at a time: a gzip bomb is refused after one of these past its limit.
 * 64 KiB, as plain files are read (nodeFs.ts): a string decoded from a larger piece is over V8's
 * regular object size (bench/README.md, "Issue 16, fifth session").
 */
const OUT_PIECE = 64 * 1024;

interface ZlibHandle {
  writeSync(flush: number, input: Uint8Array, inOff: number, inLen: number, out: Uint8Array, outOff: number, outLen: number): void;
  close(): void;
  onerror: (message: string, errno: number, code?: string) => void;
}

/** node's zlib, or undefined where its handle is not what this file drives. */
export const zlibInflater: MakeInflater | undefined = (() => {
  const probe = createGunzip() as unknown as { _handle?: Partial<ZlibHandle>; _writeState?: unknown; close(): void };
  const usable = typeof probe._handle?.writeSync === 'function' && probe._writeState instanceof Uint32Array;
  probe.close();
  return usable ? makeZlibInflater : undefined;
})();

function makeZlibInflater(ondata: (data: Uint8Array, final: boolean) => void): Inflater {
  const stream = createGunzip() as unknown as { _handle: ZlibHandle; _writeState: Uint32Array; close(): void };
  const handle = stream._handle;
  const state = stream._writeState;
  let failed: Error | undefined;
  // node's own handler destroys the stream and reports later, on the event loop: the error is wanted now
  handle.onerror = (message, errno, code) => {
    failed = Object.assign(new Error(message), { errno, code });
  };
  let closed = false;
  return {
    push(chunk: Uint8Array, final: boolean): void {
      if (closed) return;
      const flush = final ? constants.Z_FINISH : constants.Z_NO_FLUSH;
      let inOff = 0;
      let inLen = chunk.length;
      try {
        for (;;) {
          const out = new Uint8Array(OUT_PIECE);
          handle.writeSync(flush, chunk, inOff, inLen, out, 0, OUT_PIECE);
          if (failed) throw failed;
          const outLeft = state[0],
            inLeft = state[1];
          if (outLeft < OUT_PIECE) ondata(out.subarray(0, OUT_PIECE - outLeft), false);
          inOff += inLen - inLeft;
          inLen = inLeft;
          // room left in the output: all the input this call could use is used
          if (outLeft !== 0) break;
        }
      } catch (e) {
        closed = true;
        stream.close();
        throw e;
      }
      if (final) {
        closed = true;
        stream.close();
        ondata(new Uint8Array(0), true);
      }
    },
  };
}

/** node's zlib where it can be driven so, else fflate. */
export const inflater: MakeInflater = zlibInflater ?? fflateInflater;

/**
 * node's StringDecoder, as plain files are read (nodeFs.ts): cheaper than TextDecoder in stream
 * mode on the pieces the inflater hands over (bench/README.md, "Gzip decoding").
 */
export const stringDecoderUtf8: MakeUtf8Decoder = () => {
  const decoder = new StringDecoder('utf8');
  return { write: (bytes) => decoder.write(bytes), end: () => decoder.end() };
};

/** UTF-8 text in pieces from bytes in pieces, inflated when gzipped. */
export const gunzipText = (chunks: Iterable<Uint8Array>, limits: GunzipLimits = {}): Generator<string> =>
  textOfBytes(chunks, inflater, limits, stringDecoderUtf8);
