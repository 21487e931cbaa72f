// Lists the files of a VSIX (a zip) from its central directory, and checks
// them against the allow-list of .vscodeignore: the bundles, media/, the
// examples, README, LICENSE, package.json and vsce's own manifest files.
import { readFileSync } from 'node:fs';

export function zipEntries(path) {
  const buf = readFileSync(path);
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${path} is not a zip`);
  const count = buf.readUInt16LE(eocd + 10);
  let p = buf.readUInt32LE(eocd + 16);
  const names = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(p) !== 0x02014b50) throw new Error('bad central directory');
    const nameLen = buf.readUInt16LE(p + 28),
      extraLen = buf.readUInt16LE(p + 30),
      commentLen = buf.readUInt16LE(p + 32);
    names.push(buf.subarray(p + 46, p + 46 + nameLen).toString('utf8'));
    p += 46 + nameLen + extraLen + commentLen;
  }
  return names;
}

const ALLOWED = [
  /^\[Content_Types\]\.xml$/,
  /^extension\.vsixmanifest$/,
  /^extension\/package\.json$/,
  /^extension\/(readme|README)\.md$/,
  /^extension\/(LICENSE|LICENSE\.txt|license\.txt)$/,
  /^extension\/out\/(extension|expectationWorker|webview|server)\.js$/,
  /^extension\/media\/[^]+$/,
  /^extension\/examples\/[^]+$/,
];
export const REQUIRED = [
  'extension/package.json',
  'extension/out/extension.js',
  'extension/out/expectationWorker.js',
  'extension/out/webview.js',
  'extension/media/css/panel.css',
  'extension/media/css/busy.css',
  'extension/examples/one-node-stops.yaml',
];

export function unexpectedEntries(names) {
  return names.filter((n) => !n.endsWith('/') && !ALLOWED.some((re) => re.test(n)));
}
export function missingEntries(names) {
  return REQUIRED.filter((r) => !names.includes(r));
}
