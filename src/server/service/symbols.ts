/**
 * Document symbols: a scenario's sections with its events (`30s kubelet stop
 * node-a1, node-a2`) and expectations; a snapshot's objects (`Node/node-a1`);
 * a KubeControllerManagerConfiguration's sections.
 */
import { isMap, isPair, isScalar, isSeq, type Node as YamlNode } from 'yaml';
import type { DocumentSymbol, SymbolKind } from 'vscode-languageserver';
import type { Analysis } from './analyze';

const SK = {
  Module: 2 as SymbolKind,
  Namespace: 3 as SymbolKind,
  Property: 7 as SymbolKind,
  Field: 8 as SymbolKind,
  Event: 24 as SymbolKind,
  Object: 19 as SymbolKind,
  Array: 18 as SymbolKind,
};

export function documentSymbols(a: Analysis): DocumentSymbol[] {
  if (a.kind === 'snapshot') {
    return (a.ctx.scenario?.snapshot.objects ?? [])
      .filter((o) => o.position && o.position.file === a.ctx.file && o.position.offset !== undefined)
      .map((o) => {
        const r = a.lines.range(o.position!.offset!, o.position!.endOffset ?? o.position!.offset!);
        return { name: `${o.kind}/${o.name}`, kind: SK.Object, range: r, selectionRange: r };
      });
  }
  const doc = a.ctx.document;
  if (!doc || !isMap(doc.contents)) return [];
  const out: DocumentSymbol[] = [];
  for (const pair of doc.contents.items) {
    if (!isPair(pair) || !isScalar(pair.key)) continue;
    const key = String(pair.key.value);
    const k = pair.key as YamlNode;
    const v = pair.value as YamlNode | null;
    const end = v?.range?.[1] ?? k.range![1];
    const sym: DocumentSymbol = {
      name: key,
      kind: isSeq(v) ? SK.Array : isMap(v) ? SK.Namespace : SK.Property,
      range: a.lines.range(k.range![0], end),
      selectionRange: a.lines.range(k.range![0], k.range![1]),
    };
    if (a.kind === 'scenario' && (key === 'events' || key === 'expect') && isSeq(v)) {
      sym.children = v.items
        .filter((it): it is YamlNode => !!(it as YamlNode | null)?.range)
        .map((it, i) => {
          const r = a.lines.range(it.range![0], it.range![1]);
          return { name: itemName(it.toJSON(), i, key), kind: key === 'events' ? SK.Event : SK.Field, range: r, selectionRange: r };
        });
    } else if (isMap(v) && (a.kind === 'kcm-config' || key === 'controllerManager' || key === 'kubelet')) {
      sym.children = v.items
        .filter((p) => isPair(p) && isScalar(p.key) && (p.key as YamlNode).range)
        .map((p) => {
          const pk = p.key as YamlNode;
          const pv = p.value as YamlNode | null;
          return {
            name: String((p.key as { value: unknown }).value),
            kind: SK.Field,
            range: a.lines.range(pk.range![0], pv?.range?.[1] ?? pk.range![1]),
            selectionRange: a.lines.range(pk.range![0], pk.range![1]),
          };
        });
    }
    out.push(sym);
  }
  return out;
}

function itemName(item: unknown, i: number, list: string): string {
  if (!item || typeof item !== 'object') return `#${i + 1}`;
  const o = item as Record<string, unknown>;
  const at = o.at !== undefined ? String(o.at) : '?';
  const show = (x: unknown): string => (Array.isArray(x) ? x.join(', ') : typeof x === 'object' && x ? JSON.stringify(x) : String(x));
  const rest = Object.entries(o)
    .filter(([k]) => k !== 'at')
    .map(([k, v]) => `${k} ${show(v)}`)
    .join(' · ');
  return `${list === 'events' ? '' : 'expect '}${at}: ${rest}`.slice(0, 120);
}
