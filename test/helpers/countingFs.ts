/**
 * The shells' file system (platform/nodeFs.ts) with every read counted per path: a whole read
 * (`readText`), a read in pieces (`readChunks`, the loader's streamed files and the evidence
 * import's), each counted when it is started.
 */
import type { InputFs } from '../../src/engine/snapshot/source';
import { nodeFs, readChunks } from '../../src/platform/nodeFs';

export interface CountingFs {
  fs: InputFs;
  /** the evidence import's reader (EvidenceAccess.readChunks), counted as the loader's are */
  readChunks(path: string): Iterable<string>;
  /** reads started so far, by path */
  reads: Map<string, number>;
}

export function countingFs(): CountingFs {
  const inner = nodeFs();
  const reads = new Map<string, number>();
  const count = (path: string) => reads.set(path, (reads.get(path) ?? 0) + 1);
  return {
    reads,
    fs: {
      stat: (path) => inner.stat(path),
      list: (dir) => inner.list(dir),
      readText(path) {
        count(path);
        return inner.readText(path);
      },
      readChunks(path) {
        count(path);
        return inner.readChunks!(path);
      },
    },
    readChunks(path) {
      count(path);
      return readChunks(path);
    },
  };
}
