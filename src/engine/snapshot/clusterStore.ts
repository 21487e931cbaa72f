/**
 * What a snapshot load keeps, as client-go's cache.Store keeps objects by key
 * (staging/src/k8s.io/client-go/tools/cache/store.go): the cluster's records by
 * `ns/name`, every object read in input order, and those a later duplicate
 * replaced or that the engine does not use.
 */
import { emptyCluster, type ClusterState } from '../model/cluster';
import type { KObject, ObjectRecord } from '../model/types';
import type { SourcePosition } from '../problems';
import type { LoadedObject } from './types';

export class ClusterStore {
  readonly cluster: ClusterState = emptyCluster();
  /** every used object in input order (a duplicate's earlier copy is dropped in objects()) */
  readonly used: LoadedObject[] = [];
  /** objects replaced by a later duplicate */
  readonly replaced = new Set<LoadedObject>();
  readonly ignored: LoadedObject[] = [];
  /** entries of `ignored` without a kind (not Kubernetes objects at all) */
  kindless = 0;
  /** the last object of each kind, whose equal parts the next one shares (see share.ts) */
  readonly previous = new Map<string, KObject>();

  /** Objects with a kind read so far (used or ignored). */
  kubernetesObjects(): number {
    return this.used.length + this.ignored.length - this.kindless;
  }

  /**
   * Puts a record in the cluster; `name` is `ns/name` for namespaced kinds. False when one of
   * that name was there: it is replaced in the map, and the caller puts things right (forget).
   */
  remember(record: ObjectRecord, name: string): boolean {
    const cluster = this.cluster;
    switch (record.kind) {
      case 'Node':
        return grew(cluster.nodes, name, record);
      case 'Pod': {
        if (!grew(cluster.pods, name, record)) return false;
        if (record.nodeName) {
          let set = cluster.podsByNode.get(record.nodeName);
          if (!set) cluster.podsByNode.set(record.nodeName, (set = new Set()));
          set.add(name);
        }
        return true;
      }
      case 'ReplicaSet':
        return grew(cluster.replicaSets, name, record);
      case 'DaemonSet':
        return grew(cluster.daemonSets, name, record);
      case 'Lease':
        return grew(cluster.leases, record.meta.name, record);
    }
  }

  lookup(kind: ObjectRecord['kind'], name: string): ObjectRecord | undefined {
    const c = this.cluster;
    switch (kind) {
      case 'Node':
        return c.nodes.get(name);
      case 'Pod':
        return c.pods.get(name);
      case 'ReplicaSet':
        return c.replicaSets.get(name);
      case 'DaemonSet':
        return c.daemonSets.get(name);
      case 'Lease':
        return c.leases.get(name.slice(name.indexOf('/') + 1));
    }
  }

  /** Takes out an earlier object of the same name (a duplicate), whose raw object was `raw`. */
  forget(kind: ObjectRecord['kind'], name: string, raw: KObject | undefined): void {
    const cluster = this.cluster;
    switch (kind) {
      case 'Node':
        cluster.nodes.delete(name);
        break;
      case 'Pod': {
        const nodeName = raw && nodeNameOf(raw);
        if (nodeName) {
          const set = cluster.podsByNode.get(nodeName);
          set?.delete(name);
          if (set && !set.size) cluster.podsByNode.delete(nodeName);
        }
        cluster.pods.delete(name);
        break;
      }
      case 'ReplicaSet':
        cluster.replicaSets.delete(name);
        break;
      case 'DaemonSet':
        cluster.daemonSets.delete(name);
        break;
      case 'Lease':
        cluster.leases.delete(name.slice(name.indexOf('/') + 1));
        break;
    }
  }

  /** The object of `kind` and `name` read last and not replaced: the one a duplicate replaces. */
  latestOf(kind: string, name: string): LoadedObject | undefined {
    return findLast(this.used, (l) => l.kind === kind && l.name === name && !this.replaced.has(l));
  }

  /** How many ignored objects of each kind were read from the `from`th on (kindless ones left out). */
  ignoredKindsFrom(from = 0): Map<string, number> {
    const kinds = new Map<string, number>();
    for (let i = from; i < this.ignored.length; i++) {
      const kind = this.ignored[i].kind;
      if (kind) kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
    return kinds;
  }

  /** Where the object in the cluster under `name` was read, when known. */
  positionOf(kind: string, name: string): SourcePosition | undefined {
    const raw = this.lookup(kind as ObjectRecord['kind'], name)?.raw;
    return raw ? this.used.find((l) => l.object === raw)?.position : undefined;
  }

  /** The objects read: the used ones but those replaced, then the ignored ones (which the cluster keeps too). */
  objects(): LoadedObject[] {
    const objects: LoadedObject[] = this.replaced.size ? this.used.filter((l) => !this.replaced.has(l)) : this.used.slice();
    for (const l of this.ignored) {
      objects.push(l);
      this.cluster.ignored.push(l.object);
    }
    return objects;
  }
}

/** Sets `key`; true when the map grew (the key is new). */
function grew<V>(map: Map<string, V>, key: string, value: V): boolean {
  const size = map.size;
  map.set(key, value);
  return map.size !== size;
}

/** A pod's spec.nodeName as its record has it (convert.ts toPodRecord). */
function nodeNameOf(raw: KObject): string | undefined {
  const spec = raw.spec;
  return typeof spec === 'object' && spec !== null && !Array.isArray(spec) && typeof (spec as KObject).nodeName === 'string' && (spec as KObject).nodeName
    ? ((spec as KObject).nodeName as string)
    : undefined;
}

function findLast<T>(xs: readonly T[], f: (x: T) => boolean): T | undefined {
  for (let i = xs.length - 1; i >= 0; i--) if (f(xs[i])) return xs[i];
  return undefined;
}
