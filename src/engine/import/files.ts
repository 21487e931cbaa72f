/**
 * Evidence files to a scenario, for every shell: the command line's
 * `import` and the extension's Import Evidence read the same files the same
 * way. Folders are walked in name order; hidden files and the notes people
 * keep beside evidence (`*.md`) are not evidence; a folder reached twice (a
 * link loop) is read once, nesting is limited as the snapshot loader limits
 * it, and so is the number of files. A cluster-info dump among the inputs is
 * also the scenario's snapshot unless snapshots are given.
 */
import { hasErrors, type Problem } from '../problems';
import { openSnapshot } from '../snapshot/load';
import { SIMULATED_KINDS, kindCounts } from '../snapshot/crossChecks';
import { OBJECT_FILE, kubeletVersions, takeSnapshotFiles, describeObjects } from './snapshotInputs';
import { basenamePath, dirnamePath, joinPath, type InputFs } from '../snapshot/source';
import { importEvidence, type EvidenceInput } from './index';
import { inferScenario, type KnownObjects } from './infer';
import { renderScenario } from './render';
import type { ImportResult } from './types';
import type { Micros } from '../model/time';

/** Folders nested deeper are not read (as in the snapshot loader). */
export const MAX_EVIDENCE_DEPTH = 32;
/** More files than this in the folders given are not read: a folder of evidence is tens of files, not a disk. */
export const MAX_EVIDENCE_FILES = 10_000;

export interface EvidenceAccess {
  fs: InputFs;
  /** a file's text in pieces (a big audit log is never one string; a gzipped one is inflated) */
  readChunks(path: string): Iterable<string>;
}

export interface ImportFilesOptions {
  /** the shell's clock: what ages and year-less times are read against when `at` is not given */
  now: Micros;
  /** `--at`: when the evidence was printed */
  at?: Micros;
  /** `--version 1.x` */
  version?: string;
  /** `--snapshot`: the cluster's objects (otherwise a cluster-info dump among the evidence) */
  snapshots?: readonly string[];
  /** `--name` */
  name?: string;
  /**
   * How a snapshot's path (as given, or an evidence file that holds objects) is written into the scenario, whose paths
   * are read relative to the scenario file; as given when absent
   */
  writtenPath?(path: string): string;
}

export interface ImportedScenario {
  /** the scenario as YAML, with the comments that cite the evidence */
  text: string;
  /** `imported-NAME` */
  name: string;
  /** where the scenario is taken to live (its snapshot paths resolve from there): beside the first evidence */
  file: string;
  /** the files read, in order */
  files: string[];
  inputs: ImportResult['inputs'];
  /** the importer's, the folder walk's and the snapshot's problems (info dropped), each with file:line:column */
  problems: Problem[];
  /** what was assumed that the options can settle: the time (no --at) and the version (no --version) */
  /**
   * at: times were read against the importing shell's clock; atInferred: a paste's ages were read
   * from the times it prints (describeClock.ts), a better guess that --at still settles
   */
  assumed: { at: boolean; atInferred: boolean; version: boolean };
}

export type ImportOutcome = { ok: true; imported: ImportedScenario } | { ok: false; message: string; problems: Problem[] };

/** The files of `paths` (folders walked, in name order), those that do not exist, and what was left out. */
export function evidenceFiles(paths: readonly string[], fs: InputFs): { files: string[]; missing: string[]; problems: Problem[] } {
  const files: string[] = [];
  const missing: string[] = [];
  const problems: Problem[] = [];
  const visited = new Set<string>();
  let tooMany = false;
  const collect = (path: string, depth: number): void => {
    const st = fs.stat(path);
    if (!st) return;
    if (st.kind !== 'dir') {
      if (depth > 0 && /\.md$/i.test(path)) return;
      if (files.length >= MAX_EVIDENCE_FILES) {
        tooMany = true;
        return;
      }
      files.push(path);
      return;
    }
    const id = st.id ?? path;
    if (depth > MAX_EVIDENCE_DEPTH || visited.has(id)) {
      problems.push({
        code: 'folder-too-deep',
        severity: 'warning',
        message: `${path}: folders nested deeper than ${MAX_EVIDENCE_DEPTH} levels (or a loop) are not read`,
        position: { file: path, line: 1, column: 1 },
      });
      return;
    }
    visited.add(id);
    let names: string[];
    try {
      names = fs.list(path).slice().sort();
    } catch (e) {
      problems.push({
        code: 'unreadable-folder',
        severity: 'error',
        message: `${path}: cannot list the folder (${e instanceof Error ? e.message : String(e)})`,
        position: { file: path, line: 1, column: 1 },
      });
      return;
    }
    for (const name of names) if (!name.startsWith('.')) collect(joinPath(path, name), depth + 1);
  };
  for (const p of paths) {
    if (!fs.stat(p)) missing.push(p);
    else collect(p, 0);
  }
  if (tooMany)
    problems.push({
      code: 'too-many-files',
      severity: 'warning',
      message: `more than ${MAX_EVIDENCE_FILES} files: the first ${MAX_EVIDENCE_FILES} in name order are read`,
      position: { file: paths[0], line: 1, column: 1 },
    });
  return { files, missing, problems };
}

/** Imports the evidence into a scenario (the text `controller-stepper import` prints). */
export function importEvidenceFiles(paths: readonly string[], access: EvidenceAccess, options: ImportFilesOptions): ImportOutcome {
  const { files, missing, problems: walk } = evidenceFiles(paths, access.fs);
  if (missing.length) return { ok: false, message: `cannot read ${missing.join(', ')}: no such file or folder`, problems: walk };
  if (!files.length) return { ok: false, message: 'no files to import', problems: walk };
  for (const s of options.snapshots ?? []) {
    if (!access.fs.stat(s)) return { ok: false, message: `cannot read snapshot ${s}: no such file or folder`, problems: walk };
  }
  // The snapshot: the files given as such, then, in the order of the evidence, its cluster-info
  // dumps (unless snapshots are given) and the files that hold objects, each loaded from the read
  // that recognised it (recordedChunks.ts), not read again.
  const given = [...(options.snapshots ?? [])];
  const session = openSnapshot(access.fs);
  const counts = new Map<string, Map<string, number>>();
  for (const s of given) counts.set(s, session.loadPath(s));
  const taken: string[] = [];
  const inputs: EvidenceInput[] = files.map((f) => ({
    name: f,
    chunks: access.readChunks(f),
    objects: OBJECT_FILE.test(f)
      ? (chunks) => {
          if (counts.has(f)) return;
          const c = session.loadOpened(f, chunks);
          if (!c.size) return;
          counts.set(f, c);
          taken.push(f);
        }
      : undefined,
    dump: given.length
      ? undefined
      : (chunks) => {
          counts.set(f, session.loadOpened(f, chunks, true));
          taken.push(f);
        },
  }));
  const result = importEvidence(inputs, { anchor: options.at ?? options.now, anchorGiven: options.at !== undefined, version: options.version });
  const objectFiles = takeSnapshotFiles(result, counts);
  const problems = [...walk, ...result.problems.filter((p) => p.severity !== 'info')];
  if (result.inputs.every((i) => i.format === 'unrecognised' || i.format === 'snapshot')) {
    const none = `none of ${files.length === 1 ? basenamePath(files[0]) : `the ${files.length} files`} is evidence this tool reads`;
    // a file that stopped part way was not shown whole: say so, not only that it is not evidence
    const cut = result.problems.filter((p) => p.code === 'unreadable-file').map((p) => basenamePath(p.position?.file ?? ''));
    if (cut.length && !objectFiles.length)
      return {
        ok: false,
        message: `${none}: ${cut.join(', ')} could not be read to its end (the error above), and what was read of it is no evidence`,
        problems,
      };
    if (!objectFiles.length) {
      // a manifest given where an export or evidence was meant: say what it holds, not only what it is not
      const other = files.flatMap((f) => {
        const kinds = session.otherKinds(f);
        return kinds ? [`${basenamePath(f)} holds ${kindCounts(kinds)}`] : [];
      });
      if (!other.length) return { ok: false, message: none, problems };
      return {
        ok: false,
        message: `${none}: ${other.join('; ')}, none of a kind the controllers read (${SIMULATED_KINDS}) and no record of what happened`,
        problems,
      };
    }
    return {
      ok: false,
      message: `${none}: ${objectFiles.length === 1 ? `${basenamePath(objectFiles[0].file)} holds` : objectFiles.length === files.length ? 'they hold' : `${objectFiles.length} of them hold`} the cluster's objects (${describeObjects(objectFiles)}), not what happened to them. Give the events, controller-manager logs or audit log, with this as --snapshot`,
      problems,
    };
  }
  const snapshots = [...given, ...taken];
  let known: KnownObjects | undefined;
  if (snapshots.length) {
    const snap = session.finish();
    problems.push(...snap.problems.filter((p) => p.severity !== 'info'));
    // the scenario loads its snapshot with the same loader, and an error there leaves it nothing to replay
    if (hasErrors(snap.problems)) {
      const bad = new Set(snap.problems.flatMap((p) => (p.severity === 'error' ? [basenamePath(p.position?.file ?? '')] : [])));
      return {
        ok: false,
        message: `the snapshot ${[...bad].join(', ')} has errors (above): a scenario made from it would replay nothing; fix it or leave it out`,
        problems,
      };
    }
    known = {
      nodes: new Set(snap.cluster.nodes.keys()),
      pods: new Map([...snap.cluster.pods].map(([k, p]) => [k, p.nodeName ?? ''])),
      replicaSets: new Set(snap.cluster.replicaSets.keys()),
      daemonSets: new Set(snap.cluster.daemonSets.keys()),
    };
    // the evidence's own word on the version comes first (the snapshot may be older or newer than the incident)
    if (!result.observations.some((o) => o.kind === 'version')) result.observations.push(...kubeletVersions(snap));
  }
  // the anchor is where a scenario whose evidence has no time at all starts: --at, else the import's clock, not 1970
  const plan = inferScenario(result, { anchor: options.at ?? options.now, anchorGiven: options.at !== undefined, version: options.version }, known);
  problems.push(...plan.problems);
  const name =
    options.name ??
    `imported-${basenamePath(result.inputs.find((i) => i.format !== 'unrecognised' && i.format !== 'snapshot')?.file ?? files[0])
      .replace(/\.gz$/i, '')
      .replace(/\.[^.]*$/, '')}`;
  const first = access.fs.stat(paths[0])?.kind === 'dir' ? paths[0] : dirnamePath(paths[0]);
  const assumedAt =
    result.problems.some((p) => p.code === 'anchor-assumed' || p.code === 'year-assumed') ||
    (options.at === undefined && result.inputs.some((i) => i.format === 'events-table' || i.format === 'kwok-recording')) ||
    // nothing in the evidence has a time: the scenario starts at the import's clock
    (!result.decisions.length && !result.observations.some((o) => 'time' in o));
  return {
    ok: true,
    imported: {
      text: renderScenario(plan, { name, snapshots: snapshots.map((p) => options.writtenPath?.(p) ?? p), inputs: result.inputs }),
      name,
      file: joinPath(first, `${name}.yaml`),
      files,
      inputs: result.inputs,
      problems,
      assumed: {
        at: options.at === undefined && assumedAt,
        atInferred: options.at === undefined && result.problems.some((p) => p.code === 'anchor-inferred'),
        version: options.version === undefined && !/^from /.test(plan.versionWhy),
      },
    },
  };
}
