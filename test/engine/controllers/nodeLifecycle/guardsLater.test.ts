/**
 * The node lifecycle controller's decisions that record a machine transition with guards make their
 * `because` when first read (nodeMachines.ts AskedGuards, state.ts decide): the trace is the one a
 * host that makes every `because` at once gives, read after steps back into the middle and forward
 * again, so the checks read nothing a later step changes (the asked event, the caller's own checks,
 * the checks of the guards that chose the event).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { createSimulation, loadScenario } from '../../../../src/engine';
import type { Decision } from '../../../../src/engine/trace/decision';
import { traceToJsonLines } from '../../../../src/engine/trace/serialize';
import { SimHost } from '../../../../src/engine/simulation/simHost';
import { nodeFs } from '../../../../src/platform/nodeFs';

const root = new URL('../../../..', import.meta.url).pathname;

const madeWhenRead = (d: Decision): boolean => Object.getOwnPropertyDescriptor(d, 'because')?.get !== undefined;

describe('node lifecycle decisions explained later', () => {
  const cases: { file: string; actions: string[] }[] = [
    { file: 'outage-1.31.yaml', actions: ['NodeStatusUnknown', 'NodeQueuedForTainting', 'TaintAdded'] },
    { file: 'outage-1.12.yaml', actions: ['NodeStatusUnknown'] },
    { file: 'notready-then-unknown.yaml', actions: ['NodeQueuedForTainting'] },
    { file: 'restart-mid-outage.yaml', actions: ['NodeQueuedForTainting'] },
    { file: 'zone-large-partial.yaml', actions: ['NodeQueuedForTainting', 'TaintAdded'] },
  ];
  const trace = (file: string, eager: boolean): { back: string; again: string; later: Map<string, number> } => {
    const proto = SimHost.prototype as { decideExplainedLater?: unknown };
    const kept = proto.decideExplainedLater;
    if (eager) proto.decideExplainedLater = undefined;
    try {
      const sim = createSimulation(loadScenario(join(root, 'examples', file), nodeFs()), { checkpointEvery: 2 });
      const last = Math.min(sim.lastPass, 60);
      sim.goToPass(last);
      // which node lifecycle decisions are made when read, counted before any is read
      const later = new Map<string, number>();
      for (const d of sim.trace) if (d.controller === 'node-lifecycle' && madeWhenRead(d)) later.set(d.action, (later.get(d.action) ?? 0) + 1);
      // read only now: the checks of the decisions kept are made after the steps back
      sim.goToPass(Math.floor(last / 2));
      sim.goToPass(Math.floor(last / 2) - 1);
      const back = traceToJsonLines(sim.trace);
      sim.goToPass(last);
      return { back, again: traceToJsonLines(sim.trace), later };
    } finally {
      proto.decideExplainedLater = kept;
    }
  };
  for (const c of cases) {
    it(`gives the trace of checks made at once, and makes them when read: ${c.file}`, () => {
      const lazy = trace(c.file, false);
      const eager = trace(c.file, true);
      for (const a of c.actions) assert.ok((lazy.later.get(a) ?? 0) > 0, `${c.file}: ${a} is made when read`);
      assert.equal(eager.later.size, 0, 'a host without decideExplainedLater gets every because at once');
      assert.equal(lazy.back, eager.back);
      assert.equal(lazy.again, eager.again);
    });
  }
});
