/**
 * The only way the webview builds DOM: elements with text children and a
 * small set of safe attributes. Workspace data becomes text nodes
 * (`textContent`), never HTML; no event-handler attributes, no `href`/`src`.
 */
export type Child = Node | string | number | null | undefined | false;

const SAFE_ATTRS = new Set([
  'class',
  'id',
  'title',
  'role',
  'tabindex',
  'aria-label',
  'aria-selected',
  'aria-expanded',
  'aria-current',
  'aria-live',
  'aria-hidden',
  'aria-orientation',
  'data-ref',
  'data-seq',
  'data-pass',
  'data-index',
  'data-status',
  'data-state',
  'data-playing',
  'data-action',
  'type',
  'placeholder',
  'value',
  'appearance',
  'checked',
  'disabled',
  'min',
  'max',
  'step',
  'for',
  'open',
]);

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Record<string, string | number | boolean | undefined> | null,
  ...children: Child[]
): HTMLElementTagNameMap[K];
export function el(tag: string, attrs?: Record<string, string | number | boolean | undefined> | null, ...children: Child[]): HTMLElement;
export function el(tag: string, attrs?: Record<string, string | number | boolean | undefined> | null, ...children: Child[]): HTMLElement {
  const e = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined || v === false) continue;
      if (!SAFE_ATTRS.has(k)) throw new Error(`attribute ${k} is not allowed`);
      e.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(e, ...children);
  return e;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/** Replaces the children of `parent`. */
export function replace(parent: Node, ...children: Child[]): void {
  while (parent.firstChild) parent.removeChild(parent.firstChild);
  append(parent, ...children);
}

export function text(e: HTMLElement | null | undefined, value: string): void {
  if (e && e.textContent !== value) e.textContent = value;
}

/** An element's one text, its text node's data changed in place (`textContent` takes the node out and makes another). */
export function setText(e: HTMLElement, value: string): void {
  const t = e.firstChild;
  if (t && t === e.lastChild && t.nodeType === Node.TEXT_NODE) {
    if ((t as Text).data !== value) (t as Text).data = value;
  } else e.textContent = value;
}

/**
 * A CamelCase name with a line break opportunity (`<wbr>`) before each word of it: in a narrow
 * column `PodDeletedByTaintEviction` wraps as `PodDeletedByTaint` / `Eviction`, never mid-word.
 */
export function camelCaseBreaks(name: string): Child[] {
  const words = name.split(/(?<=[a-z0-9])(?=[A-Z])/);
  return words.flatMap((w, i) => (i ? [document.createElement('wbr'), w] : [w]));
}
