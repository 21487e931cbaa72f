/**
 * Decisions whose `because` is made when first read (trace/explainLater.ts) are the records the
 * recorder made with their checks: the same JSON, keys in the same order, deep-equal; the checks
 * are made once, at the first read. And the ReplicaSet status writes recorded so (the one caller)
 * give the trace a host that makes every `because` at once gives, read after steps back into the
 * middle and forward again, so that the checks read nothing a later step changes.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { explainLater } from '../../../src/engine/trace/explainLater';
import type { Check, Decision } from '../../../src/engine/trace/decision';
import { traceToJsonLines } from '../../../src/engine/trace/serialize';
import { createSimulation, loadScenario } from '../../../src/engine';
import { SimHost } from '../../../src/engine/simulation/simHost';
import { nodeFs } from '../../../src/platform/nodeFs';

const root = new URL('../../..', import.meta.url).pathname;

describe('decisions explained later', () => {
  const head = {
    seq: 3,
    time: '2026-01-01T00:00:00.000Z',
    pass: 1,
    controller: 'replicaset' as const,
    action: 'ReplicaSetStatusUpdated' as const,
    object: 'ReplicaSet/default/web',
    summary: 's',
  };
  const cases: { name: string; because: Check[]; details?: Record<string, unknown> }[] = [
    { name: 'with details', because: [{ rule: 'a', values: { x: 1 } }, { rule: 'b' }], details: { status: { replicas: 2 } } },
    { name: 'without details', because: [{ rule: 'a', values: { x: { from: 1, to: 2 } } }] },
    { name: 'no checks', because: [] },
  ];
  for (const c of cases) {
    it(`is the record made with its checks: ${c.name}`, () => {
      let made = 0;
      const lazy = explainLater({ ...head }, () => (made++, structuredClone(c.because)), [1], null, 'src', c.details);
      const eager: Decision = { ...head, because: c.because, causes: [1], machine: null, source: 'src', ...(c.details ? { details: c.details } : {}) };
      assert.equal(made, 0, 'nothing made before it is read');
      assert.deepEqual(Object.keys(lazy), Object.keys(eager));
      assert.equal(JSON.stringify(lazy), JSON.stringify(eager));
      assert.deepStrictEqual(lazy, eager);
      assert.equal(lazy.because, lazy.because, 'the same array at every read');
      assert.equal(made, 1, 'made once');
    });
  }
});

describe('ReplicaSet status writes explained later', () => {
  const examples = ['rs-zone-outage.yaml', 'rs-create-failures.yaml', 'rs-slow-start.yaml'];
  const trace = (file: string, eager: boolean): { end: string; back: string; again: string; writes: number } => {
    const proto = SimHost.prototype as { decideExplainedLater?: unknown };
    const kept = proto.decideExplainedLater;
    if (eager) proto.decideExplainedLater = undefined;
    try {
      const sim = createSimulation(loadScenario(join(root, 'examples', file), nodeFs()), { checkpointEvery: 2 });
      const last = Math.min(sim.lastPass, 40);
      sim.goToPass(last);
      const writes = sim.trace.filter((d) => d.action === 'ReplicaSetStatusUpdated').length;
      // read only now: the checks of the decisions kept are made after the steps back
      sim.goToPass(Math.floor(last / 2));
      sim.goToPass(Math.floor(last / 2) - 1);
      const back = traceToJsonLines(sim.trace);
      sim.goToPass(last);
      const again = traceToJsonLines(sim.trace);
      return { end: again, back, again, writes };
    } finally {
      proto.decideExplainedLater = kept;
    }
  };
  for (const file of examples) {
    it(`gives the trace of checks made at once: ${file}`, () => {
      const lazy = trace(file, false);
      const eager = trace(file, true);
      assert.ok(lazy.writes > 0, 'the example writes ReplicaSet statuses');
      assert.equal(lazy.back, eager.back);
      assert.equal(lazy.again, eager.again);
    });
  }
});
