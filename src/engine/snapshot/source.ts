/**
 * How the loader reads input. The engine is pure (no node:fs), so the shells
 * implement `InputFs` with node's fs (CLI, extension) and the language server
 * and the tests use `MemoryFs` (documents held as strings).
 *
 * Paths are '/'-separated strings; the helpers below are pure string
 * functions (a Windows shell converts its paths before calling in, or passes
 * them through: backslashes are treated as separators too).
 */
import type { EngineKind } from '../model/types';

export interface InputStat {
  kind: 'file' | 'dir';
  /** bytes, for files (of a gzipped file: decompressed, as far as its trailer tells) */
  size: number;
  /** a gzipped file's own size on disk */
  compressed?: number;
  /**
   * What the path really is (its real path, links resolved), when the file system knows:
   * a folder reached twice under two names is read once, so a link loop ends.
   */
  id?: string;
}

export interface InputFs {
  /** undefined when the path does not exist */
  stat(path: string): InputStat | undefined;
  /** the file's text, decoded as UTF-8 */
  readText(path: string): string;
  /** the names (not paths) of the entries of a directory */
  list(dir: string): string[];
  /** the file in pieces (text, or UTF-8 bytes), so the loader can stream files larger than one string holds */
  readChunks?(path: string): Iterable<string | Uint8Array>;
}

/**
 * The largest file the loader reads: bigger files are reported, never parsed.
 * 480 MiB keeps a file within what one JavaScript string can hold (2^29 - 24
 * UTF-16 units) with room to spare, so a lean export of 5,000 nodes and
 * 150,000 pods (about 400 MiB) loads, and a 1 GB file gets a clear message.
 */
export const MAX_FILE_BYTES = 480 * 1024 * 1024;

/**
 * Files larger than this are read as a stream (a JSON List item by item, multi-document
 * YAML document by document) when the InputFs can: their size is then limited by what the
 * engine keeps, not by one string. Smaller files are read whole, which gives every object a
 * position when the file is small and shares the parse of a big List (listParse.ts).
 */
export const STREAM_FILES_ABOVE = MAX_FILE_BYTES;

const isSep = (c: string): boolean => c === '/' || c === '\\';

export function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || p.startsWith('\\') || /^[A-Za-z]:[\\/]/.test(p);
}

/** Joins path segments and normalises `.` and `..` (a pure string function). */
export function joinPath(...parts: string[]): string {
  let out = '';
  for (const part of parts) {
    if (!part) continue;
    if (isAbsolutePath(part) || !out) out = part;
    else out = out.endsWith('/') || out.endsWith('\\') ? out + part : `${out}/${part}`;
  }
  return normalizePath(out);
}

export function normalizePath(p: string): string {
  if (!p) return '.';
  const drive = /^[A-Za-z]:/.test(p) ? p.slice(0, 2) : '';
  const rest = p.slice(drive.length);
  const absolute = rest.length > 0 && isSep(rest[0]);
  const segs: string[] = [];
  for (const seg of rest.split(/[\\/]/)) {
    if (!seg || seg === '.') continue;
    if (seg === '..') {
      if (segs.length && segs[segs.length - 1] !== '..') segs.pop();
      else if (!absolute) segs.push('..');
    } else segs.push(seg);
  }
  const body = segs.join('/');
  if (absolute) return `${drive}/${body}`;
  return drive + (body || '.');
}

/** The directory part of a path (`a/b/c.yaml` -> `a/b`, `c.yaml` -> `.`). */
export function dirnamePath(p: string): string {
  const n = normalizePath(p);
  let i = n.length - 1;
  while (i >= 0 && !isSep(n[i])) i--;
  if (i < 0) return '.';
  if (i === 0) return '/';
  if (i === 2 && /^[A-Za-z]:/.test(n)) return n.slice(0, 3);
  return n.slice(0, i);
}

/** The last segment of a path. */
export function basenamePath(p: string): string {
  const n = normalizePath(p);
  let i = n.length - 1;
  while (i >= 0 && !isSep(n[i])) i--;
  return n.slice(i + 1);
}

/** A path relative to a base directory, unless it is absolute. */
export function resolveFrom(baseDir: string, p: string): string {
  return isAbsolutePath(p) ? normalizePath(p) : joinPath(baseDir, p);
}

/**
 * An in-memory file system: files as strings, directories implied by the
 * files' paths. Sizes are UTF-8 byte lengths unless given (a test can claim a
 * 1 GB file without holding one).
 */
export class MemoryFs implements InputFs {
  private readonly files = new Map<string, { text: string; size?: number }>();

  constructor(files: Record<string, string> = {}) {
    for (const [path, text] of Object.entries(files)) this.write(path, text);
  }

  write(path: string, text: string, size?: number): this {
    this.files.set(normalizePath(path), { text, size });
    return this;
  }

  stat(path: string): InputStat | undefined {
    const p = normalizePath(path);
    const f = this.files.get(p);
    // counted once: a scenario that names one big file 200 times stats it 200 times
    if (f) return { kind: 'file', size: (f.size ??= utf8Length(f.text)) };
    const prefix = p === '/' ? '/' : `${p}/`;
    for (const key of this.files.keys()) if (key.startsWith(prefix) || p === '.') return { kind: 'dir', size: 0 };
    return undefined;
  }

  readText(path: string): string {
    const f = this.files.get(normalizePath(path));
    if (!f) throw new Error(`no such file: ${path}`);
    return f.text;
  }

  /** chunks of `chunkChars` characters: tests make them small to cut items anywhere */
  chunkChars = 1 << 16;

  *readChunks(path: string): Generator<string> {
    const text = this.readText(path);
    for (let i = 0; i < text.length; i += this.chunkChars) yield text.slice(i, i + this.chunkChars);
  }

  list(dir: string): string[] {
    const p = normalizePath(dir);
    const names = new Set<string>();
    for (const key of this.files.keys()) {
      let rest: string;
      if (p === '.') rest = isAbsolutePath(key) ? '' : key;
      else if (key.startsWith(p === '/' ? '/' : `${p}/`)) rest = key.slice(p === '/' ? 1 : p.length + 1);
      else continue;
      if (rest) names.add(rest.split('/')[0]);
    }
    return [...names].sort();
  }
}

export function utf8Length(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** File names of kubectl cluster-info dump (`nodes.json`) and sonobuoy (`core_v1_nodes.json`). */
const KIND_BY_FILE_NAME: Record<string, EngineKind> = {
  nodes: 'Node',
  pods: 'Pod',
  replicasets: 'ReplicaSet',
  daemonsets: 'DaemonSet',
  leases: 'Lease',
};

export function kindFromFileName(file: string): EngineKind | undefined {
  const base = basenamePath(file)
    .toLowerCase()
    .replace(/\.(json|ya?ml)(\.gz)?$/, '');
  const last = base.slice(base.lastIndexOf('_') + 1);
  return KIND_BY_FILE_NAME[last];
}
