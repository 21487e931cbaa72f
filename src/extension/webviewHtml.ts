/**
 * The panel's HTML: a CSP of `default-src 'none'` with a nonce for the one
 * script, styles and fonts only from the extension's own resources. No
 * workspace data is ever put into this string: it all arrives as messages
 * and is rendered as text. Pure, so the browser harness serves the same page.
 */
export interface WebviewHtmlOptions {
  /** webview.cspSource */
  cspSource: string;
  nonce: string;
  /** asWebviewUri(out/webview.js) */
  scriptUri: string;
  /** asWebviewUri(media/css/NAME) for each of STYLE_SHEETS, in their order */
  styleUris: readonly string[];
  /** extra nonce'd script to run first (the browser harness's fake host); never used by the extension */
  preludeUri?: string;
  /**
   * A page made for a load under way: it says "Loading…" from its first paint, though the host's `loading` (which names
   * the file) may reach it only after the load, the extension host being held by it. A flag, no workspace data.
   */
  loading?: boolean;
}

/**
 * The page's style sheets in media/css, in cascade order: one per part of the panel, each a contiguous part of what
 * was one sheet, so that rules of equal specificity still win as they did (a later sheet over an earlier one).
 */
export const STYLE_SHEETS = ['panel.css', 'cluster.css', 'trace.css', 'timeline.css', 'selection.css', 'log.css', 'whyNot.css', 'busy.css'] as const;

export function webviewHtml(o: WebviewHtmlOptions): string {
  // the CSP source may list several sources (`'self' https://*.vscode-cdn.net`); nothing may end a directive or an attribute
  if (/["<>;\r\n]/.test(o.cspSource)) throw new Error(`unsafe CSP source: ${o.cspSource}`);
  for (const v of [o.nonce, o.scriptUri, ...o.styleUris, o.preludeUri ?? '']) {
    if (/["<>;\s]/.test(v)) throw new Error(`unsafe value in the webview page: ${v}`);
  }
  const csp = [
    "default-src 'none'",
    // the nonce lets FAST (the toolkit) probe :focus-visible with an empty <style>; it reads meta csp-nonce
    `style-src ${o.cspSource} 'nonce-${o.nonce}'`,
    `font-src ${o.cspSource}`,
    `img-src ${o.cspSource}`,
    `script-src 'nonce-${o.nonce}'`,
  ].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp};">
<meta property="csp-nonce" content="${o.nonce}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${o.styleUris.map((u) => `<link rel="stylesheet" href="${u}">`).join('\n')}
<title>Controller Stepper</title>
</head>
<body${o.loading ? ' data-loading=""' : ''}>
<div id="app"></div>
${o.preludeUri ? `<script nonce="${o.nonce}" src="${o.preludeUri}"></script>\n` : ''}<script nonce="${o.nonce}" src="${o.scriptUri}"></script>
</body>
</html>`;
}
