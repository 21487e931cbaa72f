/**
 * The inflater the engine's gzip reading (engine/snapshot/gzip.ts) runs on:
 * fflate's streaming Gunzip, pure JavaScript, because node's zlib inflates
 * synchronously only a whole buffer and the loader and the importers read
 * synchronously, chunk by chunk.
 */
import { Gunzip } from 'fflate';
import { textOfBytes, type GunzipLimits, type MakeInflater } from '../engine/snapshot/gzip';

export const inflater: MakeInflater = (ondata) => new Gunzip(ondata);

/** UTF-8 text in pieces from bytes in pieces, inflated when gzipped. */
export const gunzipText = (chunks: Iterable<Uint8Array>, limits: GunzipLimits = {}): Generator<string> => textOfBytes(chunks, inflater, limits);
