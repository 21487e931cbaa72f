import { cli } from './cli';
import { nodeFs, readChunks, writeChunks } from '../platform/nodeFs';

cli(process.argv.slice(2), { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t), fs: nodeFs(), writeFile: writeChunks, readChunks, color: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR }).then((code) => { process.exitCode = code; });
