/**
 * Inputs the command line reads from a pipe: `-` (standard input, as in
 * `kubectl get nodes,pods -A -o yaml | controller-stepper replay -`) and a
 * FIFO named as a FILE (`replay <(kubectl get … -o yaml)`, `/dev/stdin`).
 *
 * nodeFs refuses FIFOs (a FIFO found in a folder, or in a scenario's
 * `snapshot:`, could block a read forever). One named by the user on the
 * command line is what they want read, once: its bytes are copied to a
 * private temporary file before the command starts, and the file system the
 * command gets answers for the name as given with that file. So gzip, the
 * size limits and the streaming of big exports work as for any file, and
 * every message still names the input as the user wrote it.
 */
import { closeSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { InputFs } from '../engine/snapshot/source';

/** Standard input's name on the command line. */
export const STDIN = '-';

/** More than any export the loader takes (it streams files above 480 MiB); a pipe that never ends stops here. */
export const MAX_PIPED_BYTES = 4 * 1024 * 1024 * 1024;

/** Whether `file`, a FILE argument, is read from a pipe: `-`, or a FIFO. */
export function isPiped(file: string): boolean {
  if (file === STDIN) return true;
  try {
    return statSync(file).isFIFO();
  } catch {
    return false;
  }
}

/**
 * Copies each piped FILE (isPiped) to a temporary file; name -> its copy. A name given twice is read
 * once. Throws, naming the input, when one cannot be read or is bigger than `maxBytes`.
 */
export function copyPipedInputs(files: readonly string[], maxBytes = MAX_PIPED_BYTES): Map<string, string> {
  const copies = new Map<string, string>();
  let dir: string | undefined;
  for (const file of files) {
    if (copies.has(file) || !isPiped(file)) continue;
    dir ??= mkdtempSync(join(tmpdir(), 'controller-stepper-stdin-'));
    const copy = join(dir, String(copies.size));
    try {
      copyStream(file === STDIN ? 0 : file, copy, maxBytes);
    } catch (e) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`cannot read ${file === STDIN ? 'standard input (-)' : file}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
    }
    copies.set(file, copy);
  }
  return copies;
}

/** Deletes the copies copyPipedInputs made: their one folder. */
export function removeCopies(copies: ReadonlyMap<string, string>): void {
  for (const copy of copies.values()) rmSync(dirname(copy), { recursive: true, force: true });
}

const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/** `from`: a path, or 0 for standard input as it is (a pipe, a socket, a terminal: opening /dev/stdin fails for a socket) */
function copyStream(from: string | 0, to: string, maxBytes: number): void {
  const src = from === 0 ? 0 : openSync(from, 'r');
  const dst = openSync(to, 'w', 0o600);
  try {
    const buf = Buffer.allocUnsafe(1 << 20);
    let total = 0;
    for (;;) {
      let n: number;
      try {
        n = readSync(src, buf, 0, buf.length, null);
      } catch (e) {
        // a non-blocking pipe with nothing in it yet: wait a little for the writer
        if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
          Atomics.wait(PAUSE, 0, 0, 5);
          continue;
        }
        throw e;
      }
      if (n === 0) return;
      total += n;
      if (total > maxBytes) throw new Error(`more than ${maxBytes} bytes; save the export to a file and give its path`);
      writeSync(dst, buf, 0, n);
    }
  } finally {
    if (src !== 0) closeSync(src);
    closeSync(dst);
  }
}

/** `fs` with each piped input's name answered by its copy. */
export function withPipedInputs(fs: InputFs, copies: ReadonlyMap<string, string>): InputFs {
  if (!copies.size) return fs;
  const real = (path: string): string => copies.get(path) ?? path;
  return {
    stat: (path) => fs.stat(real(path)),
    readText: (path) => fs.readText(real(path)),
    list: (dir) => fs.list(dir),
    ...(fs.readChunks ? { readChunks: (path: string) => fs.readChunks!(real(path)) } : {}),
  };
}
