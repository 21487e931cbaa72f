// What the extension-host test modules share (not a *.test.js: index.js does not run it).
const vscode = require('vscode');

/** The workspace folder code-server was opened on. */
exports.wsDir = () => vscode.workspace.workspaceFolders[0].uri.fsPath;

/** Polls f until it gives something truthy (its value is returned), for at most ms. */
exports.poll = async function poll(what, f, ms = 20000, every = 100) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
};
