/**
 * The commands that read the shown records (Explain, Show state, the object pick), answered once a simulation stands
 * on the shown position: while the start is made in idle slices (swapAtOpen.ts) they wait for the making, in slices
 * with the host's events between them (Session.started), and never make it at once on the click. Undefined when another
 * scenario was opened meanwhile.
 */
import type { Explanation, StateView } from '../engine/simulation/api';
import { objectPickItems, type ObjectPickItem } from './objectPick';
import type { Session } from './session';

/** What "Explain which object?" offers (objectPick.ts). */
export async function objectPickOf(s: Session): Promise<ObjectPickItem[] | undefined> {
  if (!(await s.started())) return undefined;
  return objectPickItems(
    s.zones(() => false),
    s.clusterView,
  );
}

/** The why of an object at the shown position, as `explain` gives it. */
export async function explainShown(s: Session, ref: string): Promise<Explanation | undefined> {
  return (await s.started()) ? s.sim.explain(ref) : undefined;
}

/** The shown state (Show state, Export state). */
export async function stateShown(s: Session): Promise<StateView | undefined> {
  return (await s.started()) ? s.sim.state() : undefined;
}
