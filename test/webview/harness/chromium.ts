/**
 * Where the browser suites and the bench find chromium, and whether it is
 * there: a small module, so the bench can ask before it builds anything.
 */
import { accessSync, constants } from 'node:fs';

/** The chromium the suites and the bench drive: `CHROMIUM`, else Debian's. */
export function chromiumPath(): string {
  return process.env.CHROMIUM || '/usr/bin/chromium';
}

/**
 * Why chromium cannot be driven, or undefined when it can be tried: without the binary, playwright's launch waited
 * (a bench that hung instead of saying what was missing).
 */
export function chromiumMissing(path = chromiumPath()): string | undefined {
  try {
    accessSync(path, constants.X_OK);
    return undefined;
  } catch {
    return `no chromium at ${path}: install Debian's (apt-get install chromium) or set CHROMIUM to a chromium binary`;
  }
}
