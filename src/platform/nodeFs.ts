/**
 * The loader's InputFs over node's fs, shared by the shells that run on
 * Node (command line, extension host, language server). Paths are used as
 * given, relative paths against the process's working directory.
 */
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statSync, writeSync } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { dirname } from 'node:path';
import type { InputFs, InputStat } from '../engine/snapshot/source';

export function nodeFs(): InputFs {
  return {
    stat(path: string): InputStat | undefined {
      try {
        const s = statSync(path);
        return { kind: s.isDirectory() ? 'dir' : 'file', size: s.size };
      } catch {
        return undefined;
      }
    },
    readText: (path: string) => readFileSync(path, 'utf8'),
    list: (dir: string) => readdirSync(dir).sort(),
    readChunks,
  };
}

/** Writes a file chunk by chunk (creating its folder), so a text larger than one string can be written. */
export function writeChunks(path: string, chunks: Iterable<string>): void {
  mkdirSync(dirname(path), { recursive: true });
  const fd = openSync(path, 'w');
  try {
    for (const chunk of chunks) writeSync(fd, chunk);
  } finally {
    closeSync(fd);
  }
}

/** A file's text in pieces of 1 MiB, decoded as UTF-8 across piece boundaries: for evidence bigger than one string. */
export function* readChunks(path: string): Generator<string> {
  const fd = openSync(path, 'r');
  const decoder = new StringDecoder('utf8');
  const buf = Buffer.allocUnsafe(1 << 20);
  try {
    for (let n = readSync(fd, buf, 0, buf.length, null); n > 0; n = readSync(fd, buf, 0, buf.length, null)) yield decoder.write(buf.subarray(0, n));
    const tail = decoder.end();
    if (tail) yield tail;
  } finally {
    closeSync(fd);
  }
}
