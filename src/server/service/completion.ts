/**
 * Completion: keys (scenario fields, controllerManager and kubelet settings of
 * the document's version, event and expectation fields, feature gates, the
 * sections of a KubeControllerManagerConfiguration), flag names, event kinds
 * and values (node and pod names from the snapshot, enum values, versions).
 * The context is read from the text by indentation, so it works on lines that
 * do not parse yet.
 */
import type { CompletionItem, CompletionItemKind, Position } from 'vscode-languageserver';
import { SETTINGS, featureGatesForVersion, settingsForVersion, defaultOf } from '../../engine/config/settings';
import { EVENT_FIELDS, EVENT_KINDS, EXPECT_FIELDS, SCENARIO_FIELDS, type FieldDoc } from '../../engine/lint/fieldDocs';
import { supportedVersions } from '../../engine/versions/table';
import { zoneKeysOf, zoneLabelOfKey } from '../../engine/model/zones';
import type { Analysis } from './analyze';
import type { SnapshotNames } from './background';
import { keysAbove } from './yamlPath';

const KIND = {
  Property: 10 as CompletionItemKind,
  Value: 12 as CompletionItemKind,
  EnumMember: 20 as CompletionItemKind,
  Reference: 18 as CompletionItemKind,
  Field: 5 as CompletionItemKind,
};

/** Names offered at most: a 5,000-node snapshot has 150,000 pods; past this, those containing what was typed. */
export const MAX_NAMES = 1000;

/** `names`: a big snapshot's names, from the background run (the quick analysis did not read it). */
export function completion(a: Analysis, position: Position, names?: SnapshotNames): CompletionItem[] {
  const line = a.lines.line(position.line);
  const before = line.slice(0, position.character);
  const all = a.text.split('\n').map((l) => l.replace(/\r$/, ''));

  // a list entry of flags / command / args: `  - --nod|` or `  - "--nod|`
  const flagItem = /^(\s*)-\s+["']?(--?[\w-]*)$/.exec(before);
  if (flagItem) {
    const col = flagItem[1].length;
    const above = keysAbove(all, position.line, col, true);
    const parent = above[above.length - 2];
    if (
      (a.kind === 'scenario' && above[0] === 'controllerManager' && parent === 'flags') ||
      (a.kind === 'kcm-pod' && (parent === 'command' || parent === 'args'))
    ) {
      return flagItems(a);
    }
  }
  // inside a flow list of flags: flags: ["--a=1", "--|
  if (a.kind === 'scenario' && /^\s*flags:\s*\[.*["']?--?[\w-]*$/.test(before)) return flagItems(a);

  // a value: `key: partial` or a flow list `nodes: [a, |`
  const value = /^(\s*)(-\s+)?([\w.-]+):\s*(\[[^\]]*?,?\s*)?["']?([^\s,"'\]]*)$/.exec(before);
  if (value) {
    const path = value[2] ? keysAbove(all, position.line, value[1].length, true) : keysAbove(all, position.line, value[1].length);
    return valueItems(a, path, value[3], value[5], names);
  }

  // a key: `  partial` or `  - partial`
  const key = /^(\s*)(-\s+)?([\w.-]*)$/.exec(before);
  if (key) {
    const path = key[2] ? keysAbove(all, position.line, key[1].length, true) : keysAbove(all, position.line, key[1].length);
    return keyItems(a, path, all, position.line);
  }
  return [];
}

function flagItems(a: Analysis): CompletionItem[] {
  const v = a.ctx.version;
  return settingsForVersion(v)
    .filter((s) => s.flag && s.component === 'kube-controller-manager')
    .map((s) => ({
      label: s.flag!,
      kind: KIND.Property,
      detail: `${s.key} (default ${fmt(defaultOf(s, v.minor))} in ${v.text})`,
      documentation: s.doc,
      filterText: s.flag!,
    }));
}

const fmt = (x: unknown): string => (Array.isArray(x) ? (x.length ? x.join(',') : '(none)') : String(x));

function fieldItems(fields: Readonly<Record<string, FieldDoc>>, kind: CompletionItemKind, detail: string): CompletionItem[] {
  return Object.entries(fields).map(([name, d]) => ({ label: name, kind, detail, documentation: { kind: 'markdown', value: d.doc }, insertText: `${name}: ` }));
}

function keyItems(a: Analysis, path: string[], all: string[], lineNo: number): CompletionItem[] {
  const v = a.ctx.version;
  if (a.kind === 'scenario') {
    if (path.length === 0) return fieldItems(SCENARIO_FIELDS, KIND.Property, 'scenario');
    if (path.length === 1 && path[0] === 'controllerManager') {
      return [
        ...settingsForVersion(v)
          .filter((s) => s.section === 'controllerManager')
          .map((s) => ({
            label: s.key,
            kind: KIND.Property,
            detail: `default ${fmt(defaultOf(s, v.minor))} in ${v.text}`,
            documentation: s.doc,
            insertText: `${s.key}: `,
          })),
        ...['flags', 'configFile'].map((k) => ({ label: k, kind: KIND.Property, insertText: `${k}: ` })),
      ];
    }
    if (path.length === 1 && path[0] === 'kubelet') {
      return settingsForVersion(v)
        .filter((s) => s.section === 'kubelet')
        .map((s) => ({
          label: s.key,
          kind: KIND.Property,
          detail: `default ${fmt(defaultOf(s, v.minor))}`,
          documentation: s.doc,
          insertText: `${s.key}: `,
        }));
    }
    if (path.length === 2 && path[0] === 'controllerManager' && path[1] === 'featureGates') {
      return featureGatesForVersion(v).map((g) => ({
        label: g.name,
        kind: KIND.Property,
        detail: `${g.stage}, default ${g.default} in ${v.text}${g.locked ? ' (locked)' : ''}`,
        insertText: `${g.name}: `,
      }));
    }
    if (path.length === 2 && path[0] === 'events' && path[1] === '-') {
      // an event takes one kind: offer kinds only until one is written in this item
      const hasKind = itemKeys(all, lineNo).some((k) => k in EVENT_KINDS);
      return [...(hasKind ? [] : fieldItems(EVENT_KINDS, KIND.Field, 'event kind')), ...fieldItems(EVENT_FIELDS, KIND.Property, 'event field')];
    }
    if (path.length === 2 && path[0] === 'expect' && path[1] === '-') return fieldItems(EXPECT_FIELDS, KIND.Property, 'expectation');
    return [];
  }
  if (a.kind === 'kcm-config') {
    const prefix = path.filter((p) => p !== '-').join('.');
    const names = new Set<string>();
    for (const s of SETTINGS) {
      if (!s.configPath || s.component !== 'kube-controller-manager') continue;
      if (prefix ? s.configPath.startsWith(prefix + '.') : true) names.add(s.configPath.slice(prefix ? prefix.length + 1 : 0).split('.')[0]);
    }
    if (!prefix) {
      names.add('featureGates');
      names.add('apiVersion');
      names.add('kind');
    }
    if (prefix === 'featureGates') return featureGatesForVersion(v).map((g) => ({ label: g.name, kind: KIND.Property, insertText: `${g.name}: ` }));
    return [...names].sort().map((n) => ({ label: n, kind: KIND.Property, insertText: `${n}: ` }));
  }
  return [];
}

/** The keys already written in the list item around a line. */
function itemKeys(all: string[], lineNo: number): string[] {
  const keys: string[] = [];
  let start = lineNo;
  while (start >= 0 && !/^\s*-\s/.test(all[start])) start--;
  if (start < 0) return keys;
  const dash = all[start].length - all[start].trimStart().length;
  for (let n = start; n < all.length; n++) {
    if (n > start && /^\s*-\s/.test(all[n]) && all[n].length - all[n].trimStart().length <= dash) break;
    if (n > start && all[n].trim() && all[n].length - all[n].trimStart().length <= dash) break;
    const m = /^\s*(?:-\s+)?([\w.-]+):/.exec(all[n]);
    if (m) keys.push(m[1]);
  }
  return keys;
}

/** The first MAX_NAMES names, of those containing `typed` when there are more. */
function some(all: readonly string[], typed: string): string[] {
  if (all.length <= MAX_NAMES) return [...all];
  const t = typed.toLowerCase();
  const out: string[] = [];
  for (const n of all) {
    if (t && !n.toLowerCase().includes(t)) continue;
    out.push(n);
    if (out.length === MAX_NAMES) break;
  }
  return out;
}

function valueItems(a: Analysis, path: string[], key: string, typed: string, names?: SnapshotNames): CompletionItem[] {
  const cluster = a.ctx.scenario?.snapshot.cluster;
  // the snapshot the quick analysis read, merged with the names of the big ones it left to the background run
  const all = (mine: Iterable<string> | undefined, big: readonly string[] | undefined) => [...new Set([...(mine ?? []), ...(big ?? [])])].sort();
  const nodeNames = () => some(all(cluster?.nodes.keys(), names?.nodes), typed);
  const podNames = () => some(all(cluster?.pods.keys(), names?.pods), typed);
  const rsNames = () => some(all(cluster?.replicaSets.keys(), names?.replicaSets), typed);
  const nodes = () => nodeNames().map((n) => ({ label: n, kind: KIND.Reference, detail: 'Node in the snapshot' }));
  const pods = () => podNames().map((n) => ({ label: n, kind: KIND.Reference, detail: 'Pod in the snapshot' }));
  const rss = () => rsNames().map((n) => ({ label: n, kind: KIND.Reference, detail: 'ReplicaSet in the snapshot' }));
  // an expectation names a zone by its key (REGION/ZONE), an event by its zone label's value: the key's last part
  const zoneKeys = () => some(all(cluster ? zoneKeysOf(a.ctx.scenario!.snapshot) : [], names?.zones), typed);
  const zones = (as: 'key' | 'label') =>
    [...new Set(zoneKeys().map((k) => (as === 'key' ? k : zoneLabelOfKey(k))))]
      .filter(Boolean)
      .sort()
      .map((z) => ({ label: z, kind: KIND.Reference, detail: as === 'key' ? 'Zone in the snapshot' : 'zone label value in the snapshot' }));
  const enumOf = (d: FieldDoc | undefined) => (d?.values ?? []).map((x) => ({ label: x, kind: KIND.EnumMember }));
  if (a.kind !== 'scenario') return [];
  if (path.length === 0) {
    if (key === 'kubernetesVersion')
      return supportedVersions()
        .reverse()
        .map((v) => ({ label: `"${v.text}"`, kind: KIND.EnumMember, filterText: v.text, insertText: `"${v.text}"` }));
    return enumOf(SCENARIO_FIELDS[key]);
  }
  if (path[0] === 'events' && path[1] === '-') {
    if (key === 'node' || key === 'nodes') return nodes();
    if (key === 'pod') return pods();
    if (key === 'delete')
      return [
        ...podNames().map((n) => ({ label: `Pod/${n}`, kind: KIND.Reference })),
        ...nodeNames().map((n) => ({ label: `Node/${n}`, kind: KIND.Reference })),
        ...rsNames().map((n) => ({ label: `ReplicaSet/${n}`, kind: KIND.Reference })),
      ];
    if (key === 'replicaSet') return rss();
    if (key === 'zone') return zones('label');
    return enumOf(EVENT_KINDS[key] ?? EVENT_FIELDS[key]);
  }
  if (path[0] === 'expect' && path[1] === '-') {
    if (key === 'node' || key === 'boundTo') return nodes();
    if (key === 'pod') return pods();
    if (key === 'replicaSet') return rss();
    if (key === 'zone') return zones('key');
    return enumOf(EXPECT_FIELDS[key]);
  }
  if (path[0] === 'controllerManager' && path[1] === 'featureGates')
    return [
      { label: 'true', kind: KIND.Value },
      { label: 'false', kind: KIND.Value },
    ];
  return [];
}
