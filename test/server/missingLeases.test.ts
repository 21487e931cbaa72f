/** The language service knows the missingLeases setting: hover explains it, completion offers its values. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLanguageService } from '../../src/server/service';
import { TextLines } from '../../src/server/service/text';
import { SCENARIO, caret, scenario, workspace } from '../engine/lint/helpers';

const URI = `file://${SCENARIO}`;

function at<T>(src: string, f: (text: string, pos: { line: number; character: number }) => T): T {
  const { text, offset } = caret(src);
  return f(text, new TextLines(text).positionAt(offset));
}

const cases: { name: string; doc: string; hover?: string[]; completes?: string[] }[] = [
  {
    name: 'hover on missingLeases says what each value does and which is the default where',
    doc: scenario('1.31', 'missing|Leases: absent\n'),
    hover: ['**missingLeases** (scenario)', '`assumed` (default for a `snapshot:` file or folder', '`absent` (default for inline `objects:`)'],
  },
  { name: 'completion offers missingLeases among the top-level keys', doc: scenario('1.31', 'miss|'), completes: ['missingLeases'] },
  { name: 'completion offers the values of missingLeases', doc: scenario('1.31', 'missingLeases: |'), completes: ['assumed', 'absent'] },
];

for (const c of cases) {
  test(c.name, () => {
    const service = createLanguageService({ fs: workspace() });
    if (c.hover) {
      const h = at(c.doc, (text, pos) => service.hover(URI, text, pos));
      const md = h ? (h.contents as { value: string }).value : '';
      for (const s of c.hover) assert.ok(md.includes(s), `${JSON.stringify(s)} not in ${JSON.stringify(md)}`);
    }
    if (c.completes) {
      const got = at(c.doc, (text, pos) => service.completion(URI, text, pos).map((x) => x.label));
      for (const s of c.completes) assert.ok(got.includes(s), `${s} not in ${JSON.stringify(got)}`);
    }
  });
}
