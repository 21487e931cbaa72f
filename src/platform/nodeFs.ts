/**
 * The loader's InputFs over node's fs, shared by the shells that run on
 * Node (command line, extension host, language server). Paths are used as
 * given, relative paths against the process's working directory.
 *
 * Only regular files and folders are read. A FIFO would block the read forever,
 * and /dev/zero or /dev/urandom never end (a V8 out-of-memory abort): both are
 * refused before they are opened, and a file is read only up to the size its
 * stat gave. A symbolic link loop is reported as one; every folder carries its
 * real path (`id`), so a link back to a parent folder is seen as a loop.
 *
 * A gzipped file (by its magic bytes, whatever its name) is read decompressed
 * (engine/snapshot/gzip.ts): its stat gives the size its trailer promises, and
 * the loader's size limit applies to the decompressed bytes.
 */
import { closeSync, fstatSync, mkdirSync, openSync, readSync, readdirSync, realpathSync, statSync, writeSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { MAX_FILE_BYTES, type InputFs, type InputStat } from '../engine/snapshot/source';
import { GzipLimitError, gzipSizeHint, isGzip } from '../engine/snapshot/gzip';
import { gunzipText, stringDecoderUtf8 } from './gunzip';

export function nodeFs(): InputFs {
  return {
    stat(path: string): InputStat | undefined {
      let s: Stats;
      try {
        s = statSync(path);
      } catch (e) {
        // a link loop exists but cannot be read: say so when it is read, not "no such file"
        if ((e as NodeJS.ErrnoException).code === 'ELOOP') return { kind: 'file', size: 0 };
        return undefined;
      }
      if (s.isDirectory()) return { kind: 'dir', size: 0, id: realPath(path) };
      if (s.isFile() && s.size >= 18 && gzipped(path))
        return { kind: 'file', size: gzipSizeHint(readAt(path, s.size - 4, 4), s.size), compressed: s.size, id: realPath(path) };
      return { kind: 'file', size: s.isFile() ? s.size : 0, id: realPath(path) };
    },
    readText: (path: string) => readRegularFile(path, MAX_FILE_BYTES),
    list: (dir: string) => readdirSync(dir).sort(),
    readChunks,
  };
}

/** Whether a regular file starts with gzip's magic bytes. */
function gzipped(path: string): boolean {
  try {
    return isGzip(readAt(path, 0, 2));
  } catch {
    return false;
  }
}

function readAt(path: string, position: number, length: number): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const buf = Buffer.alloc(length);
    const n = readSync(fd, buf, 0, length, position);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

function realPath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/** The kind of a special file, for the message that refuses it. */
function special(s: Stats): string | undefined {
  if (s.isFIFO()) return 'a FIFO (named pipe)';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isSocket()) return 'a socket';
  if (!s.isFile()) return 'not a regular file';
  return undefined;
}

/**
 * Reads a regular file as UTF-8, refusing anything else before opening it (opening a FIFO
 * blocks until a writer comes) and reading no more than its size at open time.
 */
export function readRegularFile(path: string, maxBytes: number): string {
  let s: Stats;
  try {
    s = statSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw new Error('a symbolic link loop; only regular files and folders are read', { cause: e });
    throw e;
  }
  const what = special(s);
  if (what) throw new Error(`${what}; only regular files and folders are read`);
  const fd = openSync(path, 'r');
  try {
    const st = fstatSync(fd);
    const kind = special(st);
    if (kind) throw new Error(`${kind}; only regular files and folders are read`);
    const head = Buffer.alloc(2);
    if (readSync(fd, head, 0, 2, 0) === 2 && isGzip(head)) {
      try {
        return [...gunzipText(bytesOf(fd), { maxBytes })].join('');
      } catch (e) {
        if (e instanceof GzipLimitError) throw new GzipLimitError(`the file is gzipped and ${e.message}`, e.limit, { cause: e });
        throw new Error(`the file is gzipped and ${e instanceof Error ? e.message : String(e)}`, { cause: e });
      }
    }
    if (st.size > maxBytes) throw new Error(`the file is ${st.size} bytes; the loader reads files up to ${maxBytes}`);
    const buf = Buffer.allocUnsafe(st.size);
    let read = 0;
    while (read < st.size) {
      const n = readSync(fd, buf, read, st.size - read, read);
      if (n === 0) break;
      read += n;
    }
    return buf.toString('utf8', 0, read);
  } finally {
    closeSync(fd);
  }
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

/**
 * Pieces of 64 KiB, not 1 MiB: making the 1 MiB pieces' strings took most of a streamed load's
 * reading, more than decoding them (why, and the figures: bench/README.md, "Issue 16, fifth session").
 */
const PIECE_BYTES = 64 * 1024;

/**
 * A file's text in pieces of 64 KiB, decoded as UTF-8 across piece boundaries: for evidence bigger than one string.
 * A gzipped file is decompressed as it is read.
 */
export function* readChunks(path: string): Generator<string> {
  const fd = openSync(path, 'r');
  const head = Buffer.alloc(2);
  if (readSync(fd, head, 0, 2, 0) === 2 && isGzip(head)) {
    try {
      yield* gunzipText(bytesOf(fd));
    } catch (e) {
      if (e instanceof GzipLimitError) throw new GzipLimitError(`${path} is gzipped and ${e.message}`, e.limit, { cause: e });
      throw new Error(`${path}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    } finally {
      closeSync(fd);
    }
    return;
  }
  const decoder = stringDecoderUtf8();
  const buf = Buffer.allocUnsafe(PIECE_BYTES);
  try {
    for (let n = readSync(fd, buf, 0, buf.length, null); n > 0; n = readSync(fd, buf, 0, buf.length, null)) yield decoder.write(buf.subarray(0, n));
    const tail = decoder.end();
    if (tail) yield tail;
  } finally {
    closeSync(fd);
  }
}

/** An open file's bytes from its start, in pieces of 1 MiB (each a new buffer: the reader may keep them). */
function* bytesOf(fd: number): Generator<Uint8Array> {
  for (let position = 0; ;) {
    const buf = Buffer.allocUnsafe(1 << 20);
    const n = readSync(fd, buf, 0, buf.length, position);
    if (n <= 0) return;
    position += n;
    yield buf.subarray(0, n);
  }
}
