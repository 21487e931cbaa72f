/**
 * Runs the command line in-process, as a user would from the repository
 * root, and captures what it prints.
 */
import { cli } from '../../src/cli/cli';
import { nodeFs, writeChunks } from '../../src/platform/nodeFs';

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

export async function runCli(...argv: string[]): Promise<CliResult> {
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
  });
  return { code, out, err };
}
