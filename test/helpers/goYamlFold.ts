/**
 * Long strings as go-yaml's emitter writes them (kubectl's YAML, through sigs.k8s.io/yaml): the
 * tests' documents and the bench's folded export (bench/foldedYaml.ts) are written with it.
 */
/** go-yaml's line width (emitterc.go's best_width): a long string breaks at a space past it. */
const GO_YAML_WIDTH = 80;

/**
 * A string's characters as written (`tokens`: a character, an escape, a doubled quote) from `column`, broken as go-yaml's
 * emitter breaks them (yaml_emitter_write_plain_scalar, _single_quoted_, _double_quoted_): at a space after a non-space once
 * past GO_YAML_WIDTH (for plain and single-quoted, one followed by a non-space; for quoted, neither the first nor the last
 * character), the next line at `indent`; a double-quoted line that starts with a space starts with `\` (the escaped space).
 */
export function goYamlFold(tokens: string[], style: 'plain' | 'single' | 'double', column: number, indent: number): string {
  let out = '';
  let col = style === 'plain' ? column : column + 1;
  let spaces = false;
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i];
    if (tok === ' ') {
      const next = tokens[i + 1];
      const inner = style === 'plain' || (i > 0 && i < tokens.length - 1);
      if (!spaces && col > GO_YAML_WIDTH && inner && (style === 'double' || next !== ' ')) {
        out += `\n${' '.repeat(indent)}`;
        col = indent;
        if (next === ' ') {
          out += '\\';
          col++;
        }
        spaces = true;
        continue;
      }
      spaces = true;
    } else spaces = false;
    out += tok;
    col += tok.startsWith('\\') || tok === "''" ? tok.length : 1;
  }
  return out;
}

/**
 * A line `key: value` or `- value` (a one-line scalar as the yaml package writes it, with lineWidth 0) with its value
 * folded as go-yaml folds it, its continuation two columns deeper than its key or dash; any other line as it is.
 */
export function goYamlFoldLine(line: string): string {
  const m = /^( *)((?:- )*)([A-Za-z0-9_./-]+: )?(.*)$/.exec(line)!;
  const [, pad, dashes, key = '', value] = m;
  if (!value || (!key && !dashes)) return line;
  const column = pad.length + dashes.length + key.length;
  const indent = key ? pad.length + dashes.length + 2 : column;
  const c = value[0];
  if (c === '"')
    return (
      line.slice(0, column) +
      `"${goYamlFold(value.slice(1, -1).match(/\\u[0-9a-fA-F]{4}|\\x[0-9a-fA-F]{2}|\\U[0-9a-fA-F]{8}|\\.|[\s\S]/gu) ?? [], 'double', column, indent)}"`
    );
  if (c === "'") return line.slice(0, column) + `'${goYamlFold(value.slice(1, -1).match(/''|[\s\S]/gu) ?? [], 'single', column, indent)}'`;
  if (/^[|>&*!%@`{[]/.test(value)) return line;
  return line.slice(0, column) + goYamlFold([...value], 'plain', column, indent);
}
