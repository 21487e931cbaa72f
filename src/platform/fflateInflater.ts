/**
 * The inflater where node's zlib is absent (a browser): fflate's streaming
 * Gunzip, pure JavaScript, about 6 times slower than zlib on this machine
 * (bench/README.md). Several members one after another are read in turn.
 */
import { Gunzip } from 'fflate';
import type { MakeInflater } from '../engine/snapshot/gzip';

export const fflateInflater: MakeInflater = (ondata) => new Gunzip(ondata);
