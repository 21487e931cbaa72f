/**
 * Go to definition: from a scenario's event and expectation targets (`node`,
 * `nodes`, `pod`, `delete`, `patch.object`, `scale.replicaSet`, `boundTo`,
 * `replicaSet`) and from a snapshot's `spec.nodeName` / ownerReferences to
 * the object in the snapshot file.
 */
import type { Location, Position } from 'vscode-languageserver';
import { parseObjectRef } from '../../engine/model/objectRef';
import type { LoadedObject } from '../../engine/snapshot/types';
import type { Analysis } from './analyze';
import { pathToUri } from './text';
import { nodeAt } from './yamlPath';

export function definition(a: Analysis, position: Position): Location[] {
  const doc = a.ctx.document;
  if (!doc) return [];
  const at = nodeAt(doc, a.lines.offsetAt(position));
  if (!at?.scalar || at.inKey || typeof at.scalar.value !== 'string') return [];
  const ref = refFor(a, at.path, at.scalar.value);
  if (!ref) return [];
  const obj = findObject(a, ref);
  if (!obj?.position) return [];
  const p = obj.position;
  const start = { line: p.line - 1, character: p.column - 1 };
  const end = p.endLine !== undefined && p.endColumn !== undefined ? { line: p.endLine - 1, character: p.endColumn - 1 } : start;
  return [{ uri: p.file === a.ctx.file ? a.uri : pathToUri(p.file), range: { start, end } }];
}

/** The object a scalar at `path` names, as `Kind/ns/name` or `Node/name`. */
function refFor(a: Analysis, path: (string | number)[], value: string): string | undefined {
  const keys = path.filter((s): s is string => typeof s === 'string');
  const last = keys[keys.length - 1];
  const withNs = (v: string) => (v.includes('/') ? v : `default/${v}`);
  if (a.kind === 'scenario' && (path[0] === 'events' || path[0] === 'expect')) {
    switch (last) {
      case 'node':
      case 'nodes':
      case 'boundTo':
        return `Node/${value}`;
      case 'pod':
        return `Pod/${withNs(value)}`;
      case 'replicaSet':
        return `ReplicaSet/${withNs(value)}`;
      case 'delete':
      case 'object': {
        const r = parseObjectRef(value);
        return 'ref' in r ? r.ref : undefined;
      }
      default:
        return undefined;
    }
  }
  if (a.kind === 'snapshot') {
    if (last === 'nodeName') return `Node/${value}`;
    if (last === 'name' && keys.includes('ownerReferences')) {
      // the owner's kind sits next to the name
      const owner = ownerKind(a, path);
      return owner ? `${owner}/${namespaceOf(a, path) ?? 'default'}/${value}` : undefined;
    }
  }
  return undefined;
}

function ownerKind(a: Analysis, path: (string | number)[]): string | undefined {
  const item = a.ctx.document?.getIn(path.slice(0, -1)) as { get?: (k: string) => unknown } | undefined;
  const k = item?.get?.('kind');
  return typeof k === 'string' ? k : undefined;
}

function namespaceOf(a: Analysis, path: (string | number)[]): string | undefined {
  const i = path.indexOf('metadata');
  const ns = a.ctx.document?.getIn([...path.slice(0, i), 'metadata', 'namespace']);
  return typeof ns === 'string' ? ns : undefined;
}

export function findObject(a: Analysis, ref: string): LoadedObject | undefined {
  const slash = ref.indexOf('/');
  const kind = ref.slice(0, slash);
  const name = ref.slice(slash + 1);
  return a.ctx.scenario?.snapshot.objects.find((o) => o.kind === kind && o.name === name);
}
