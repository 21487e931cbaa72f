import { readChunks, nodeFs } from './src/platform/nodeFs';
import { readJsonList } from './src/engine/snapshot/jsonListStream';
import { loadSnapshot } from './src/engine/snapshot/load';
const file = process.argv[2];
const what = process.argv[3].split(',');
const runs = Number(process.argv[4] ?? 3);
const gc = (globalThis as any).gc as () => void;
// item boundaries from one pass of the reader
const texts: number[] = [];
if (what.includes('base')) readJsonList(readChunks(file), { item: (it) => { texts.push(it.text.length); }, error: () => {} });
const cpu = (f: () => void) => { gc(); const c = process.cpuUsage(); const t = performance.now(); f(); const u = process.cpuUsage(c); return `${((performance.now() - t) / 1000).toFixed(2)}s wall ${((u.user + u.system) / 1e6).toFixed(2)}s cpu`; };
for (let r = 0; r < runs; r++) {
  for (const w of what) {
    if (w === 'base') console.log('base  ', cpu(() => {
      // read + decode + JSON.parse of each item cut where the reader found it (the bench's fullParse)
      let rest = ''; let k = 0; let first = true;
      for (const chunk of readChunks(file)) {
        rest += chunk;
        let p = 0;
        if (first) { p = rest.indexOf('{', rest.indexOf('"items"')); first = false; }
        for (;;) {
          while (p < rest.length && rest[p] !== '{') p++;
          if (k >= texts.length || rest.length - p < texts[k]) break;
          JSON.parse(rest.slice(p, p + texts[k])); p += texts[k]; k++;
        }
        rest = rest.slice(p);
      }
      if (k !== texts.length) throw new Error(`base parsed ${k} of ${texts.length}`);
    }));
    if (w === 'reader') console.log('reader', cpu(() => { readJsonList(readChunks(file), { item: () => {}, error: (e) => { throw new Error(e.message); } }); }));
    if (w === 'load') console.log('load  ', cpu(() => { const s = loadSnapshot(file, nodeFs(), { streamFilesAbove: 0 }); if (s.cluster.pods.size < 10) throw new Error('no pods'); }));
  }
}
