/**
 * Evidence to a scenario, for the extension: the files (or folders of them)
 * are read through the extension's file access in chunks, the engine's
 * importer reads them, and the inferred scenario comes back as YAML text with
 * its evidence comments, as `controller-stepper import` prints it. No vscode
 * here: the command and the panel's drop call this, the tests too.
 */
import { loadSnapshot, type Problem } from '../engine';
import { importEvidence, type EvidenceInput } from '../engine/import/index';
import { inferScenario, type KnownObjects } from '../engine/import/infer';
import { renderScenario } from '../engine/import/render';
import type { ImportResult } from '../engine/import/types';
import { basenamePath, dirnamePath, joinPath, type InputFs } from '../engine/snapshot/source';
import type { Micros } from '../engine/model/time';

export interface EvidenceAccess {
  fs: InputFs;
  /** a file's text in pieces (a big audit log is never one string) */
  readChunks(path: string): Iterable<string>;
}

export interface ImportedScenario {
  /** the scenario as YAML, with the comments that cite the evidence */
  text: string;
  /** `imported-NAME` */
  name: string;
  /** where the scenario is taken to live (its snapshot: paths resolve from there): beside the first evidence */
  file: string;
  /** the files read, in order */
  files: string[];
  inputs: ImportResult['inputs'];
  /** the importer's and the snapshot's problems (info dropped), each with file:line:column */
  problems: Problem[];
}

export type ImportOutcome = { ok: true; imported: ImportedScenario } | { ok: false; message: string; problems: Problem[] };

/** A folder's files, recursively, in name order; notes kept beside the evidence (`*.md`) and hidden files are not evidence. */
export function evidenceFiles(paths: readonly string[], fs: InputFs): { files: string[]; missing: string[] } {
  const files: string[] = [];
  const missing: string[] = [];
  const collect = (path: string, inFolder: boolean): void => {
    const st = fs.stat(path);
    if (!st) return;
    if (st.kind !== 'dir') {
      if (!(inFolder && /\.md$/i.test(path))) files.push(path);
      return;
    }
    for (const name of fs.list(path).sort()) if (!name.startsWith('.')) collect(joinPath(path, name), true);
  };
  for (const p of paths) {
    if (!fs.stat(p)) missing.push(p);
    else collect(p, false);
  }
  return { files, missing };
}

/**
 * Imports the evidence as the CLI's `import` does (a cluster-info dump among the inputs is also the
 * snapshot). `now` anchors tables whose times are ages (the extension passes the wall clock).
 */
export function importEvidenceFiles(paths: readonly string[], access: EvidenceAccess, now: Micros, version?: string): ImportOutcome {
  const { files, missing } = evidenceFiles(paths, access.fs);
  if (missing.length) return { ok: false, message: `cannot read ${missing.join(', ')}: no such file or folder`, problems: [] };
  if (!files.length) return { ok: false, message: 'no files to import', problems: [] };
  const inputs: EvidenceInput[] = files.map((f) => ({ name: f, chunks: access.readChunks(f) }));
  const result = importEvidence(inputs, { anchor: now, anchorGiven: false, version });
  const problems = result.problems.filter((p) => p.severity !== 'info');
  if (result.inputs.every((i) => i.format === 'unrecognised')) {
    return { ok: false, message: `none of ${files.length === 1 ? basenamePath(files[0]) : `the ${files.length} files`} is evidence this tool reads`, problems };
  }
  const snapshots = result.inputs.filter((i) => i.format === 'cluster-info-dump').map((i) => i.file);
  let known: KnownObjects | undefined;
  if (snapshots.length) {
    const snap = loadSnapshot(snapshots, access.fs);
    problems.push(...snap.problems.filter((p) => p.severity !== 'info'));
    known = {
      nodes: new Set(snap.cluster.nodes.keys()),
      pods: new Map([...snap.cluster.pods].map(([k, p]) => [k, p.nodeName ?? ''])),
      replicaSets: new Set(snap.cluster.replicaSets.keys()),
    };
  }
  const plan = inferScenario(result, { anchorGiven: false, version }, known);
  const name = `imported-${basenamePath(files[0]).replace(/\.[^.]*$/, '')}`;
  const first = access.fs.stat(paths[0])?.kind === 'dir' ? paths[0] : dirnamePath(paths[0]);
  return {
    ok: true,
    imported: {
      text: renderScenario(plan, { name, snapshots, inputs: result.inputs }),
      name,
      file: joinPath(first, `${name}.yaml`),
      files,
      inputs: result.inputs,
      problems,
    },
  };
}
