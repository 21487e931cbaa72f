/**
 * Runs the command line in-process, as a user would from the repository
 * root, and captures what it prints.
 */
import { cli } from '../../src/cli/cli';
import type { CliIo } from '../../src/cli/io';
import { nodeFs, writeChunks } from '../../src/platform/nodeFs';

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

export async function runCli(...argv: string[]): Promise<CliResult> {
  return runCliWith(argv);
}

/** runCli with parts of the io replaced (a clock, a file system, the terminal's width, ...) */
export async function runCliWith(argv: string[], io: Partial<CliIo> = {}): Promise<CliResult> {
  let out = '';
  let err = '';
  const code = await cli(argv, {
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
    fs: nodeFs(),
    writeFile: writeChunks,
    color: false,
    ...io,
  });
  return { code, out, err };
}
