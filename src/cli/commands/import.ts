/**
 * `import FILE|DIR... [--snapshot S] [--version 1.x] [--at RFC3339]`: read the
 * evidence (files, or folders of them), infer the scenario, print it as YAML
 * on stdout; problems go to stderr with file:line:column. Files are read in
 * chunks when the shell can, so a big audit log is never one string.
 */
import { formatProblem, parseTimestamp, loadSnapshot } from '../../engine';
import { importEvidence, type EvidenceInput } from '../../engine/import/index';
import { inferScenario, type KnownObjects } from '../../engine/import/infer';
import { renderScenario } from '../../engine/import/render';
import { parseKubeVersion } from '../../engine/versions/table';
import { basenamePath, joinPath } from '../../engine/snapshot/source';
import type { CliIo } from '../io';
import { ownOptions, OwnUsageError } from './ownArgs';

export const IMPORT_USAGE = 'controller-stepper import FILE|DIR... [--snapshot SNAPSHOT] [--version 1.x] [--at RFC3339] > scenario.yaml';

export function importCommand(argv: readonly string[], io: CliIo): number {
  let o;
  try {
    o = ownOptions(argv, { snapshot: 'repeat', version: 'one', at: 'one', name: 'one' });
  } catch (e) {
    if (e instanceof OwnUsageError) { io.err(`controller-stepper import: ${e.message}\nUsage: ${IMPORT_USAGE}\n`); return 2; }
    throw e;
  }
  if (o.help) { io.out(`Usage: ${IMPORT_USAGE}\n`); return 0; }
  if (!o.files.length) { io.err(`controller-stepper import: give one or more evidence files or folders\nUsage: ${IMPORT_USAGE}\n`); return 2; }
  const version = o.one.version;
  if (version !== undefined && !parseKubeVersion(version)) { io.err(`controller-stepper import: --version ${version} is not a version from 1.12 to 1.35\n`); return 2; }
  let anchor: number | undefined;
  if (o.one.at !== undefined) {
    anchor = parseTimestamp(o.one.at);
    if (anchor === undefined) { io.err(`controller-stepper import: --at wants an RFC3339 time such as 2026-06-17T13:00:00Z, not "${o.one.at}"\n`); return 2; }
  }
  const files: string[] = [];
  for (const f of o.files) {
    const st = io.fs.stat(f);
    if (!st) { io.err(`controller-stepper: cannot read ${f}: no such file or folder\n`); return 2; }
    collect(f, io, files);
  }
  const inputs: EvidenceInput[] = files.map((f) => ({ name: f, chunks: io.readChunks ? io.readChunks(f) : [io.fs.readText(f)] }));
  const result = importEvidence(inputs, { anchor: anchor ?? Date.now() * 1000, anchorGiven: anchor !== undefined, version: version ? `1.${parseKubeVersion(version)!.minor}` : undefined });
  let known: KnownObjects | undefined;
  // without --snapshot, a cluster-info dump among the evidence is the snapshot
  const snapshots = o.many.snapshot ?? result.inputs.filter((i) => i.format === 'cluster-info-dump').map((i) => i.file);
  if (snapshots.length) {
    for (const s of snapshots) if (!io.fs.stat(s)) { io.err(`controller-stepper: cannot read snapshot ${s}: no such file or folder\n`); return 2; }
    const snap = loadSnapshot(snapshots, io.fs);
    for (const p of snap.problems) if (p.severity !== 'info') io.err(`${formatProblem(p)}\n`);
    known = {
      nodes: new Set(snap.cluster.nodes.keys()),
      pods: new Map([...snap.cluster.pods].map(([k, p]) => [k, p.nodeName ?? ''])),
      replicaSets: new Set(snap.cluster.replicaSets.keys()),
    };
  }
  for (const p of result.problems) if (p.severity !== 'info') io.err(`${formatProblem(p)}\n`);
  if (result.inputs.every((i) => i.format === 'unrecognised')) {
    io.err('controller-stepper import: none of the inputs is evidence this tool reads\n');
    return 2;
  }
  const plan = inferScenario(result, { anchor, anchorGiven: anchor !== undefined, version: version ? `1.${parseKubeVersion(version)!.minor}` : undefined }, known);
  io.out(renderScenario(plan, { name: o.one.name ?? `imported-${basenamePath(files[0]).replace(/\.[^.]*$/, '')}`, snapshots, inputs: result.inputs }));
  return 0;
}

/** A folder's files, recursively, in name order; notes kept beside the evidence (`*.md`) are not evidence. */
function collect(path: string, io: CliIo, out: string[], inFolder = false): void {
  const st = io.fs.stat(path);
  if (!st) return;
  if (st.kind !== 'dir') { if (!(inFolder && /\.md$/i.test(path))) out.push(path); return; }
  for (const name of io.fs.list(path).sort()) if (!name.startsWith('.')) collect(joinPath(path, name), io, out, true);
}
