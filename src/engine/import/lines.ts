/**
 * Evidence is read as a stream of lines: an audit log of a big cluster is
 * gigabytes, more than one string can hold, so the importers never see the
 * whole file, only one line at a time with its number.
 */

export interface Line {
  /** 1-based */
  n: number;
  text: string;
}

/** Splits chunks of text into lines; a line may span chunks. A trailing `\r` is dropped. */
export function* linesOf(chunks: Iterable<string>): Generator<Line> {
  let rest = '';
  let n = 0;
  for (const chunk of chunks) {
    let text = rest + chunk;
    let start = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      yield { n: ++n, text: text.slice(start, end) };
      start = nl + 1;
    }
    rest = text.slice(start);
    text = '';
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

const PROMPT = /^(\$|#|>|[\w.-]+@[\w.-]+:[^\s$#]*[$#]|[\w.-]+-\d+(\.\d+)*[$#]|\[[^\]]+\][$#]|PS [^>]+>)\s+(kubectl|k|kwd|oc|journalctl|docker|crictl|cat|tail|head|grep|less|lxc|ssh|sudo|microk8s|minikube|kind|zcat|jq|kwokctl|kectl)\b/;
