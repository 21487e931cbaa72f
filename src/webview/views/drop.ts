/**
 * Evidence dropped onto the panel: the URIs of the dropped files are posted
 * to the host, which imports them (as "Import Evidence…" does). VS Code gives
 * files dragged from its explorer (or, with Shift, from the desktop) as a URI
 * list; nothing is read here.
 */
import type { Host } from '../host';
import { MAX_DROPPED } from '../../protocol/webview';

/** The URIs in a drop: VS Code's own list, else the standard `text/uri-list` (comment lines skipped). */
export function droppedUris(data: Pick<DataTransfer, 'getData'>): string[] {
  const list = data.getData('application/vnd.code.uri-list') || data.getData('text/uri-list');
  return list
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .slice(0, MAX_DROPPED);
}

export function acceptDrops(target: HTMLElement, host: Host): void {
  const over = (e: DragEvent) => {
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    target.classList.add('drop-target');
  };
  target.addEventListener('dragenter', over);
  target.addEventListener('dragover', over);
  target.addEventListener('dragleave', (e) => {
    if (!e.relatedTarget) target.classList.remove('drop-target');
  });
  target.addEventListener('drop', (e) => {
    e.preventDefault();
    target.classList.remove('drop-target');
    const uris = e.dataTransfer ? droppedUris(e.dataTransfer) : [];
    if (uris.length) host.post({ type: 'dropEvidence', uris });
  });
}
