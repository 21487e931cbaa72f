/**
 * The cluster's objects given among the evidence: a `kubectl get nodes,pods -o yaml` export, a
 * must-gather's or an Insights archive's object files, the lists of a `cluster-info dump
 * --output-directory` other than its events. They say what the cluster held, not what happened
 * to it, so they are read as the scenario's snapshot (as `--snapshot` would give them), not
 * skipped as unrecognised evidence. Which files they are, the snapshot loader says: whatever it
 * reads as objects of the kinds the engine simulates, from the read that found they are not
 * evidence (files.ts).
 */
import type { Problem } from '../problems';
import type { LoadedSnapshot } from '../snapshot/types';
import { ENGINE_KINDS, type KObject } from '../model/types';
import { kindCounts } from '../snapshot/crossChecks';
import { evidenceOf, type ImportResult, type Observation } from './types';

/** A file the loader read objects from, and how many of each kind. */
export interface ObjectFile {
  file: string;
  counts: [kind: string, count: number][];
}

/** Only files a snapshot can be: the loader's own rule for a folder's files. */
export const OBJECT_FILE = /\.(json|ya?ml)(\.gz)?$/i;

/** Problems of one kind about one file taken out (a warning a later step answered). */
const without = (problems: Problem[], code: string, file: string): Problem[] => problems.filter((p) => !(p.code === code && p.position?.file === file));

/**
 * The inputs left unrecognised that hold Kubernetes objects (`counts`: what the snapshot loader put
 * in the cluster from each file, SnapshotSession.loadOpened): each becomes a `snapshot` input and
 * its unrecognised-format warning is taken back.
 */
export function takeSnapshotFiles(result: ImportResult, counts: ReadonlyMap<string, ReadonlyMap<string, number>>): ObjectFile[] {
  const out: ObjectFile[] = [];
  // a cluster-info dump without events or a controller manager's log (or a `kubectl get nodes -o
  // json`, which starts as a dump does) shows the objects only, not what happened to them
  const told = new Set<string>();
  for (const d of result.decisions) told.add(d.evidence.file);
  for (const o of result.observations) told.add(o.evidence.file);
  for (const input of result.inputs) {
    if (input.format === 'cluster-info-dump' && !told.has(input.file) && counts.has(input.file)) input.format = 'unrecognised';
    if (input.format !== 'unrecognised' || !OBJECT_FILE.test(input.file)) continue;
    const c = counts.get(input.file);
    const kinds = ENGINE_KINDS.map((k): [string, number] => [k, c?.get(k) ?? 0]).filter(([, n]) => n > 0);
    if (!kinds.length) continue;
    input.format = 'snapshot';
    result.problems = without(result.problems, 'unrecognised-format', input.file);
    out.push({ file: input.file, counts: kinds });
  }
  return out;
}

/** "3 Nodes, 1 DaemonSet" over the files. */
export function describeObjects(files: readonly ObjectFile[]): string {
  const total = new Map<string, number>();
  for (const f of files) for (const [kind, n] of f.counts) total.set(kind, (total.get(kind) ?? 0) + n);
  return kindCounts(total);
}

/**
 * The kubelet versions the snapshot's Nodes report (status.nodeInfo.kubeletVersion), as version
 * evidence: what the scenario's Kubernetes version is taken from when the evidence names none.
 */
export function kubeletVersions(snap: LoadedSnapshot): Observation[] {
  const out: Observation[] = [];
  const seen = new Set<string>();
  for (const l of snap.objects) {
    if (l.kind !== 'Node') continue;
    const info = ((l.object.status as KObject | undefined)?.nodeInfo ?? {}) as KObject;
    const v = info.kubeletVersion;
    if (typeof v !== 'string' || seen.has(v)) continue;
    seen.add(v);
    const at = l.position ?? { file: snap.files[0] ?? '', line: 1, column: 1 };
    out.push({ kind: 'version', version: v, evidence: evidenceOf(at.file, at.line, `Node/${l.name} kubeletVersion: ${v}`, 'snapshot') });
  }
  return out;
}
