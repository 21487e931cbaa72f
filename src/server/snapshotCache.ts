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
 * a node, the kubelet version (compactObject). A full-detail export is
 * mostly that raw bulk, and the loader lets it go item by item as the file
 * streams, so it is never all in memory at once.
 */
import { lintDocumentWithContext, type LintProblem } from '../engine/lint';
import type { InputFs } from '../engine/snapshot/source';
import type { KObject } from '../engine/model/types';
import type { LoadedSnapshot } from '../engine/snapshot/types';
import { zoneKeysOf } from '../engine/model/zones';
import { relevantKind, type BackgroundLintJob, type SnapshotNames } from './service';

export interface LintAnswer {
  problems: LintProblem[];
  /** the names in the snapshot, when this run parsed it (else they are as the last answer said) */
  names?: SnapshotNames;
}

export function namesOf(snapshot: LoadedSnapshot): SnapshotNames {
  const c = snapshot.cluster;
  return {
    nodes: [...c.nodes.keys()].sort(),
    pods: [...c.pods.keys()].sort(),
    replicaSets: [...c.replicaSets.keys()].sort(),
    zones: zoneKeysOf(snapshot),
  };
}

/** An object's identity: what a kept record's `raw` and a loaded object's `object` are cut to. */
function identity(o: KObject): KObject {
  const meta = (o.metadata ?? {}) as KObject;
  const metadata: KObject = { name: meta.name };
  if (meta.namespace !== undefined) metadata.namespace = meta.namespace;
  return { apiVersion: o.apiVersion, kind: o.kind, metadata };
}

const sub = (o: KObject, key: string): KObject | undefined => {
  const v = o[key];
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as KObject) : undefined;
};

/**
 * What each object of the kept snapshot keeps of its raw bulk (LoadOptions.keepOf), while the
 * snapshot streams: its identity; a node, its status.nodeInfo (the scenario parser reads the
 * kubelet version there); a pod, its spec.nodeName (the loader takes a duplicate pod off its node
 * by it). The rules read the records and the objects' kinds, names and positions.
 */
export function compactObject(o: KObject, kind: string): KObject {
  const kept = identity(o);
  if (kind === 'Node') {
    const nodeInfo = sub(o, 'status')?.nodeInfo;
    if (nodeInfo !== undefined) kept.status = { nodeInfo };
  } else if (kind === 'Pod') {
    const nodeName = sub(o, 'spec')?.nodeName;
    if (nodeName !== undefined) kept.spec = { nodeName };
  }
  return kept;
}

/**
 * Files above this stream item by item, so the parsed export is never whole in memory (the peak
 * of a parse is the kept model and one item). Objects of files this big get positions only for
 * their problems whether streamed or not (LoadOptions.objectPositionsUpTo): the lint's answers
 * are the same.
 */
export const KEPT_STREAM_ABOVE = 8 * 1024 * 1024;

export class KeptSnapshot {
  /** the scenario parser's cache (ScenarioOptions.snapshots): at most the one snapshot the last run named */
  private readonly snapshots = new Map<string, LoadedSnapshot>();
  private stamps = '';
  /** how many runs parsed a snapshot */
  parses = 0;

  constructor(
    private readonly fs: InputFs,
    private readonly streamAbove = KEPT_STREAM_ABOVE,
  ) {}

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
      snapshotLoad: { keepOf: compactObject, streamFilesAbove: this.streamAbove },
      allowOutside: job.allowOutside,
      roots: job.roots,
    });
    const fresh = [...this.snapshots.keys()].find((k) => !before.has(k));
    if (fresh === undefined) return { problems };
    // another snapshot was named: the one before it is dropped (one parsed snapshot held, not one per edit)
    for (const k of [...this.snapshots.keys()]) if (k !== fresh) this.snapshots.delete(k);
    this.parses++;
    return { problems, names: namesOf(this.snapshots.get(fresh)!) };
  }
}
