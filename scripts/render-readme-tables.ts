/**
 * Rewrites the generated sections of README.md (the version table and the
 * settings table) from the engine's tables. `--check` only reports: exit 1 when
 * a section is stale or its markers are missing.
 *   npx tsx scripts/render-readme-tables.ts [--check] [README.md]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { updateReadmeSections } from '../src/engine/versions/readme';

const args = process.argv.slice(2);
const check = args.includes('--check');
const file = resolve(args.find((a) => !a.startsWith('--')) ?? resolve(__dirname, '..', 'README.md'));
const before = readFileSync(file, 'utf8');
const { text, missing, changed } = updateReadmeSections(before);
for (const m of missing) console.error(`${file}: no <!-- ${m}:begin --> / <!-- ${m}:end --> markers`);
if (check) {
  for (const c of changed) console.error(`${file}: section ${c} is stale; run npx tsx scripts/render-readme-tables.ts`);
  process.exit(missing.length || changed.length ? 1 : 0);
}
if (text !== before) writeFileSync(file, text);
console.log(changed.length ? `updated ${changed.join(', ')} in ${file}` : `${file} is up to date`);
process.exit(missing.length ? 1 : 0);
