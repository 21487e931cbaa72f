/**
 * A machine's view as `machines()` gives it (spec: the webview draws the
 * definition and marks the state). Controllers that keep the view they built
 * last give it again while nothing in it changed: the webview asks for every
 * machine after every step, about 19,000 of them at 5,000 nodes.
 */
import type { MachineView } from '../simulation/api';

/** `kept` when it already says exactly this, else a new view. */
export function machineView(
  kept: MachineView | undefined,
  id: string,
  state: string,
  definition: unknown,
  lastTransition: MachineView['lastTransition'],
): MachineView {
  if (kept && kept.id === id && kept.state === state && kept.definition === definition && kept.lastTransition === lastTransition) return kept;
  const v: MachineView = { id, state, definition };
  if (lastTransition) v.lastTransition = lastTransition;
  return v;
}
