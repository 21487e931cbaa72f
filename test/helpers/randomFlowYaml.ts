/**
 * Random flow collections where manifests put them, for the tests and fuzz runs of kubectlYaml.ts's
 * flow reader against the yaml package: nested, broken over lines at good and bad columns, plain
 * and quoted scalars folded over lines, comments wherever the yaml package reads them (after an
 * item, a `,`, a key's `:`, a bracket, comment lines), and odd items now and then (a `#` right
 * after a token, empty items, tags...).
 */
import type { Random } from '../../src/engine/generate';

export function randomFlowText(r: Random): string {
  const keys = ['a', 'key', 'values', 'kubernetes.io/os', '"a"', "'b'", '1', 'true', 'null', '-a', 'a:b', 'a b', 'é'];
  const oddKeys = ['', '[a]', '&a b', '!t b', '? a', 'a #b', '*a', 'constructor', '"a\n  b"', 'a # c\n  '];
  const vals = ['linux', 'true', '1', '0x1F', 'null', '~', '100m', '"x"', "'y'", '""', "'it''s'", 'a b', 'b:c', 'b#c', 'http://x:80/y', '-c', 'é'];
  const oddVals = ['', '&x a', '*x', '!t a', '@a', 'a\tb', '"a\nb"', '- a', 'a #c', '-', '"\\q"', 'a: b', 'a\n  b', '"a"#c', '[a]#c'];
  const odd = r.chance(0.3);
  const g = <T>(good: readonly T[], bad: readonly T[]) => (odd && r.chance(0.15) ? r.pick(bad) : r.pick(good));
  /** a line break inside a scalar: blank lines now and then, the next line at a good or a bad column */
  const lineBreak = (col: number) => `${'\n'.repeat(r.int(1, 2))}${' '.repeat(Math.max(col + g([1, 2, 5], [0, -1]), 0))}`;
  /** a comment after a token: after a blank (read), right after it (the yaml package's error) now and then */
  const comment = () => `${g([' ', '  '], [''])}# c`;
  const value = (depth: number, col: number): string => {
    const k = r.int(0, 9);
    if (depth >= 3 || k < 4) {
      const form = r.int(0, 99);
      if (form >= 20) return g(vals, oddVals);
      if (form >= 10) {
        // a plain scalar folded over lines, its next lines at good and bad columns, blank lines between
        let s = r.pick(['b', '1', 'a b', '-c']);
        for (let l = r.int(1, 2); l > 0; l--) s += `${lineBreak(col)}${g(['c', 'd e', '- f', 'g:h', '"i"', 'j # k'], ['#j', 'k: l', '[m]'])}`;
        return s;
      }
      // a quoted scalar over lines: blanks around the breaks, escapes, '' and an escaped line break
      const q = r.pick(['"', "'"]);
      let s = q + r.pick(['b', 'a b ', '', ' c', q === '"' ? 'd\\t' : "it''s"]);
      for (let l = r.int(1, 2); l > 0; l--) {
        const esc = q === '"' && r.chance(0.25) ? r.pick(['\\', ' \\', '\\ ']) : '';
        s += `${esc}${esc.endsWith(' ') ? '' : r.pick(['', '  '])}${lineBreak(col)}${r.pick(['e', '# f', '\\ g', 'h  ', "'", ',]}', '--- i'])}`;
      }
      return s + q;
    }
    const isMap = k < 7;
    const inner = col + g([2, 2, 4, 1], [0, -1]);
    const parts = Array.from({ length: r.int(0, 3) }, () => {
      const v = value(depth + 1, inner);
      const below = `\n${' '.repeat(Math.max(inner + r.int(0, 2), 0))}`;
      const colon = g([': ', ':  ', `:${below}`, `: ${comment()}${below}`], [':', ' : ', ':\n']);
      return isMap ? `${g(keys, oddKeys)}${colon}${v}` : v;
    });
    const [o, c] = isMap ? ['{', '}'] : ['[', ']'];
    if (r.chance(0.6)) return `${o}${parts.join(g([', ', ','], [' ,, ', ' ']))}${r.chance(0.2) ? ',' : ''}${c}`;
    let s = o + (r.chance(0.1) ? comment() : '');
    parts.forEach((p, i) => {
      s += `\n${' '.repeat(Math.max(inner, 0))}${p}`;
      // a comment after the item, its `,` on the next line
      if (r.chance(0.12)) s += `${comment()}\n${' '.repeat(Math.max(inner + g([0, 1], [-inner - 1]), 0))}`;
      if (i < parts.length - 1 || r.chance(0.5)) s += `,${r.chance(0.1) ? comment() : ''}`;
      else if (r.chance(0.15)) s += comment();
      if (r.chance(0.08)) s += `\n${r.chance(0.5) ? '' : `${' '.repeat(r.int(0, 6))}# line`}`;
    });
    return `${s}\n${' '.repeat(Math.max(col + g([0, 0, 2], [-1, 1]), 0))}${c}`;
  };
  const lines: string[] = [];
  for (let i = r.int(1, 4); i > 0; i--) {
    const form = r.int(0, 3);
    if (form === 0) lines.push(`k${i}: ${value(0, 0)}`);
    else if (form === 1) lines.push(`k${i}:`, `- ${value(0, 0)}`, '- x');
    else if (form === 2) lines.push(`k${i}:`, '  - name: c', `    securityContext: ${value(0, 4)}`);
    else lines.push(`k${i}:`, `  nodeSelector: ${value(0, 2)}${r.pick(['', ' # c'])}`);
    if (r.chance(0.15)) lines.push(`${' '.repeat(r.int(0, 5))}# c`);
  }
  let text = `${lines.join('\n')}\n`;
  if (r.chance(0.2)) text = `items:\n- ${text.replace(/\n(?=.)/g, '\n  ')}kind: List\n`;
  if (r.chance(0.15)) text = `${text}---\n${text}`;
  return text;
}
