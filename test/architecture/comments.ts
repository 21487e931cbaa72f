import ts from 'typescript';

/** Every comment's text in a TypeScript or JavaScript file, with the line it starts on. */
export function commentsOf(file: string, text: string): { line: number; text: string }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, /\.m?js$|\.cjs$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS);
  const seen = new Set<number>();
  const out: { line: number; text: string }[] = [];
  const take = (ranges: ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) {
      if (seen.has(r.pos)) continue;
      seen.add(r.pos);
      out.push({ line: source.getLineAndCharacterOfPosition(r.pos).line + 1, text: text.slice(r.pos, r.end) });
    }
  };
  const visit = (node: ts.Node) => {
    take(ts.getLeadingCommentRanges(text, node.pos));
    take(ts.getTrailingCommentRanges(text, node.end));
    ts.forEachChild(node, visit);
  };
  visit(source);
  take(ts.getLeadingCommentRanges(text, source.endOfFileToken.pos));
  return out.sort((a, b) => a.line - b.line);
}
