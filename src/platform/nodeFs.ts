/**
 * The loader's InputFs over node's fs, shared by the shells that run on
 * Node (command line, extension host, language server). Paths are used as
 * given, relative paths against the process's working directory.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
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
  };
}
