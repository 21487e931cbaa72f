/**
 * The versions of kube-controller-manager that have a name the simulation accepts without modelling
 * it: an ignored flag (flagLifetimes.ts) or a --controllers name (controllerLifetimes.ts). A version
 * without the name refuses to start with it, so both are checked the same way.
 */
export interface Lifetime {
  /** the first version that has the name (absent: every simulated version) */
  since?: number;
  /** the first version that no longer has it */
  removedIn?: number;
  /** where upstream says so */
  source: string;
}

/** Why version 1.`minor` lacks the name: removed by then, or not yet added; undefined when it has it. */
export function lifetimeGap(life: Lifetime, minor: number): { removedIn: number } | { since: number } | undefined {
  if (life.removedIn !== undefined && minor >= life.removedIn) return { removedIn: life.removedIn };
  if (life.since !== undefined && minor < life.since) return { since: life.since };
  return undefined;
}
