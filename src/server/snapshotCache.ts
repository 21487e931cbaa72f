/**
 * What the background lint keeps between runs: the one big snapshot the
 * document names, parsed once per change of its files (their stamps: size
 * and mtime), so an edit of the scenario is linted against it without
 * parsing 400 MiB again; and the names in it, which the quick answers
 * (completion) use without holding the snapshot. Runs in the server's worker
 * thread (lintWorker.ts); pure otherwise, so it is tested in-process.
 *
 * What is kept of the parse is what the lint reads: the model's records
 * (names, labels, owner references, taints, conditions, replicas) and the
 * objects' positions, with each record's `raw` object (the whole parsed
 * export: managedFields, specs, statuses) cut down to its identity and, for
 * a node, the kubelet version (compactSnapshot). A full-detail export is
 * mostly that raw bulk.
 */
import { lintDocumentWithContext, type LintProblem } from '../engine/lint';
import type { InputFs } from '../engine/snapshot/source';
import type { KObject } from '../engine/model/types';
import type { LoadedSnapshot } from '../engine/snapshot/types';
import { relevantKind, type BackgroundLintJob, type SnapshotNames } from './service';

export interface LintAnswer {
  problems: LintProblem[];
  /** the names in the snapshot, when this run parsed it (else they are as the last answer said) */
  names?: SnapshotNames;
}

export function namesOf(snapshot: LoadedSnapshot): SnapshotNames {
  const c = snapshot.cluster;
  return { nodes: [...c.nodes.keys()].sort(), pods: [...c.pods.keys()].sort(), replicaSets: [...c.replicaSets.keys()].sort() };
}

/** An object's identity: what a kept record's `raw` and a loaded object's `object` are cut to. */
function identity(o: KObject): KObject {
  const meta = (o.metadata ?? {}) as KObject;
  const metadata: KObject = { name: meta.name };
  if (meta.namespace !== undefined) metadata.namespace = meta.namespace;
  return { apiVersion: o.apiVersion, kind: o.kind, metadata };
}

/**
 * Drops the raw bulk the lint does not read (see the top of this file), in place. The scenario parser
 * reads a node's status.nodeInfo (the kubelet version); the rules read the records and the objects'
 * kinds, names and positions.
 */
export function compactSnapshot(snapshot: LoadedSnapshot): void {
  const c = snapshot.cluster;
  for (const n of c.nodes.values()) {
    const nodeInfo = ((n.raw.status ?? {}) as KObject).nodeInfo;
    n.raw = { ...identity(n.raw), ...(nodeInfo !== undefined ? { status: { nodeInfo } } : {}) };
  }
  for (const map of [c.pods, c.replicaSets, c.daemonSets, c.leases] as Map<string, { raw: KObject }>[]) for (const r of map.values()) r.raw = identity(r.raw);
  for (const o of snapshot.objects) o.object = identity(o.object);
}

export class KeptSnapshot {
  /** the scenario parser's cache (ScenarioOptions.snapshots): at most the one snapshot the last run named */
  private readonly snapshots = new Map<string, LoadedSnapshot>();
  private stamps = '';
  /** how many runs parsed a snapshot */
  parses = 0;

  constructor(private readonly fs: InputFs) {}

  /** Lints the job's text; `stamps` identifies the content of its big files (a change parses them again). */
  lint(job: BackgroundLintJob, stamps: string): LintAnswer {
    if (stamps !== this.stamps) {
      this.snapshots.clear();
      this.stamps = stamps;
    }
    const kind = relevantKind(job.text);
    if (!kind) return { problems: [] };
    const before = new Set(this.snapshots.keys());
    const { problems } = lintDocumentWithContext(job.uri, job.text, kind, this.fs, {
      version: job.version,
      snapshots: this.snapshots,
      allowOutside: job.allowOutside,
      roots: job.roots,
    });
    const fresh = [...this.snapshots.keys()].find((k) => !before.has(k));
    if (fresh === undefined) return { problems };
    // another snapshot was named: the one before it is dropped (one parsed snapshot held, not one per edit)
    for (const k of [...this.snapshots.keys()]) if (k !== fresh) this.snapshots.delete(k);
    this.parses++;
    const kept = this.snapshots.get(fresh)!;
    compactSnapshot(kept);
    return { problems, names: namesOf(kept) };
  }
}
