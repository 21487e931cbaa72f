/**
 * Where a scenario may read from. A scenario is data, perhaps from an untrusted pull
 * request that CI runs `controller-stepper test` on: its `snapshot:` and `configFile:`
 * paths must stay within the scenario's own folder tree (or a root the shell names, such
 * as the workspace) unless the user allows more (`--allow-outside`, a trusted workspace).
 * Links are followed first when the file system knows real paths (InputStat.id), so a
 * link inside the tree that points out of it is outside too.
 */
import { isAbsolutePath, normalizePath, type InputFs } from './source';

export interface PathPolicy {
  /** read anything the path names (the user said so) */
  allowOutside?: boolean;
  /** more folders whose trees may be read (a workspace) */
  roots?: readonly string[];
}

const within = (path: string, root: string): boolean => {
  const r = root.endsWith('/') ? root : `${root}/`;
  return path === root || path.startsWith(r);
};

/** Why `full` may not be read from a scenario in `scenarioDir`; undefined when it may. */
export function outsideReason(fs: InputFs, scenarioDir: string, full: string, policy: PathPolicy): string | undefined {
  if (policy.allowOutside) return undefined;
  const real = (p: string): string => {
    let id: string | undefined;
    try {
      id = fs.stat(p)?.id;
    } catch {
      id = undefined;
    }
    return normalizePath(id ?? p);
  };
  const target = real(full);
  const roots = [scenarioDir, ...(policy.roots ?? [])].map(real);
  // A relative path with `..` left over after normalising climbs out of every relative root.
  if (!isAbsolutePath(target) && (target === '..' || target.startsWith('../'))) return describe(full);
  if (roots.some((root) => (root === '.' ? !isAbsolutePath(target) : within(target, root)))) return undefined;
  return describe(full);
}

function describe(full: string): string {
  return `${full} is outside the scenario's folder and the workspace; a scenario reads only files in its own folder tree and the workspace's (the current folder on the command line; pass --allow-outside to read it anyway)`;
}
