/**
 * A simulation's start taken from another simulation of the same scenario and options (the run-ahead's second
 * simulation, made beside the shown one: makeInSlices.ts), instead of made again. Both start deterministically from
 * the same snapshot, so the other's first checkpoint holds what this start would make: the controllers' saved memory,
 * the decisions of the start (the node lifecycle controller's AssumptionMade) and the facts they remembered. The
 * controllers are restored from that memory, as a step back to the start restores them, without taking anything
 * over from a running controller; the start reads every pod and ReplicaSet (the ReplicaSet controller checks each one
 * and its owners: 0.3-0.4 s at 5,000 nodes and 150,000 pods), the restore only indexes the pods (bench/README.md
 * "fork"). Nothing of the other simulation is written: its checkpoint's memory and logs and its trace's decisions are
 * never edited once made.
 */
import type { SimController } from '../controllers/controller';
import type { DecisionList } from '../trace/decisionLog';
import type { Checkpoint } from './checkpointStore';
import type { SimHost } from './simHost';

/** Whether `first` (another simulation's first checkpoint) is a start this simulation can take: the same start time, nothing run. */
export function startToTake(first: Checkpoint | undefined, startTime: number): first is Checkpoint {
  return first !== undefined && first.pass === null && first.controllerStartTime === startTime;
}

/**
 * The start of `first` taken into `host`, whose records are the snapshot's copy and whose `controllers` are new (the
 * ones `first` saved), with a yield after each controller.
 */
export function* takeStart(host: SimHost, controllers: readonly SimController[], first: Checkpoint, trace: DecisionList): Generator<void, void, void> {
  for (const c of controllers) {
    const saved = first.controllers.find((x) => x.name === c.name)!.saved;
    if (c.restoreInPieces) yield* c.restoreInPieces(saved, host);
    else c.restore(saved, host);
    yield;
  }
  // what the start decided and remembered (what the constructor did before it is here already, the same in both)
  for (let i = host.trace.length; i < first.traceLength; i++) host.trace.push(trace.at(i)!);
  const facts = first.factsDelta;
  for (let i = host.factLog.length; i < facts.length; i += 3) host.remember(facts[i] as string, facts[i + 1] as string, facts[i + 2] as number);
}
