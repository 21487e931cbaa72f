/**
 * Evidence is read as a stream of lines: an audit log of a big cluster is
 * gigabytes, more than one string can hold, so the importers never see the
 * whole file, only one line at a time with its number.
 */

export interface Line {
  /** 1-based */
  n: number;
  text: string;
  /** the line was longer than MAX_LINE_CHARS: `text` is its start, the rest was dropped */
  cut?: true;
}

/**
 * No evidence line is this long (an audit entry with a whole Node is about
 * 100 KB); a longer one (a file without line breaks, a gzip bomb of one
 * character) is cut rather than held whole.
 */
export const MAX_LINE_CHARS = 16 * 1024 * 1024;

/**
 * Splits chunks of text into lines; a line may span chunks. A trailing `\r` is dropped.
 *
 * The chunk is read in place: joining the unread end of the last chunk to the whole new one costs
 * a copy of every byte of the log; only the line that spans the two is joined (why it is a copy:
 * bench/README.md, "Import rate").
 */
export function* linesOf(chunks: Iterable<string>, maxLine = MAX_LINE_CHARS): Generator<Line> {
  let rest = '';
  let n = 0;
  /** the current line was cut and given already: its rest is dropped up to its end */
  let dropping = false;
  for (const chunk of chunks) {
    let start = 0;
    if (rest || dropping) {
      const nl = chunk.indexOf('\n');
      if (nl === -1) {
        if (!dropping) rest += chunk;
      } else {
        if (dropping) dropping = false;
        else {
          const line = rest + chunk.slice(0, nl);
          yield { n: ++n, text: line.charCodeAt(line.length - 1) === 13 ? line.slice(0, -1) : line };
        }
        rest = '';
        start = nl + 1;
      }
    }
    if (start > 0 || (!rest && !dropping)) {
      for (let nl = chunk.indexOf('\n', start); nl >= 0; nl = chunk.indexOf('\n', start)) {
        const end = nl > start && chunk.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
        if (dropping) dropping = false;
        else yield { n: ++n, text: chunk.slice(start, end) };
        start = nl + 1;
      }
      rest = dropping ? '' : chunk.slice(start);
    }
    if (rest.length > maxLine) {
      yield { n: ++n, text: rest.slice(0, maxLine), cut: true };
      dropping = true;
      rest = '';
    }
  }
  if (rest.length) yield { n: ++n, text: rest.endsWith('\r') ? rest.slice(0, -1) : rest };
}

/**
 * A shell prompt and the command typed after it (`$ kubectl ...`,
 * `root@host:~# journalctl ...`, `bash-5.0# tail ...`), a pager's status line
 * (`lines 312-395/395 (END)`) and the `...` people put where they trimmed a
 * paste: lines that carry no evidence and are skipped without a warning.
 */
export function isPasteNoise(text: string): boolean {
  const t = text.trim();
  if (!t) return true;
  if (/^(\.\.\.|…|\[\.\.\.\])$/.test(t)) return true;
  if (/^lines \d+-\d+(\/\d+)?( \(END\))?$/.test(t)) return true;
  return PROMPT.test(t) || COMMAND.test(t);
}

/** The command itself, pasted without its prompt (`kubectl get events -A`). */
const COMMAND = /^(microk8s |sudo )?(kubectl|oc|journalctl|crictl) [a-z-]+( |$)/;

const PROMPT =
  /^(\$|#|>|[\w.-]+@[\w.-]+:[^\s$#]*[$#]|[\w.-]+-\d+(\.\d+)*[$#]|\[[^\]]+\][$#]|PS [^>]+>)\s+(kubectl|k|kwd|oc|journalctl|docker|crictl|cat|tail|head|grep|less|lxc|ssh|sudo|microk8s|minikube|kind|zcat|jq|kwokctl|kectl)\b/;
