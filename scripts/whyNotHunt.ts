/**
 * Hunts for wrong "why not" answers: each bundled example with a few random events added (scales,
 * pod deletes, NoExecute taints, kubelet stops and starts, Ready=False conditions, at shared instants
 * on purpose), run through the why-not audit (test/helpers/whyNotAudit.ts: every decision named at
 * every pass before it or exempt, every time named and every never run forward, and answers with no
 * time whose outcome came with nothing of the timeline on the way). Prints each run with a wrong
 * answer, its added events and the first answers, and the total; exit 1 when any.
 *
 *   [HUNT_ALL=1] [HUNT_PARTIAL=1] [HUNT_RESTART=1|failover] npx tsx scripts/whyNotHunt.ts [SEEDS=2] [FILE.yaml] [FIRST_SEED=1]
 *   (HUNT_ALL: every wrong answer of a run, not the first 6; HUNT_PARTIAL: kubelet events with `only: status|lease` too;
 *   HUNT_RESTART: a kube-controller-manager restart added to each run, at +1m..+4m by the seed, and with `failover`
 *   every seventh seed's a failover: during the new leader's wait no controller answers, so those runs list misses)
 *
 * Not a test: what it finds goes into a test once understood (whyNot.sameInstant.test.ts came from it).
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadScenario } from '../src/engine/snapshot/scenario';
import { createSimulation } from '../src/engine/simulation/simulation';
import { nodeFs } from '../src/platform/nodeFs';
import { defaultHorizon } from '../src/cli/horizon';
import type { Scenario, ScenarioEvent } from '../src/engine/snapshot/types';
import { audit, missText, unsoundText } from '../test/helpers/whyNotAudit';
import { mulberry32 } from '../test/helpers/random';

const [seedsArg, fileArg, fromArg] = process.argv.slice(2);
const seeds = Number(seedsArg ?? 2);
const from = Number(fromArg ?? 1);
const files = fileArg ? [fileArg] : readdirSync('examples').filter((f) => f.endsWith('.yaml'));
const TIMES = [10, 20, 30, 45, 60, 90, 120, 180, 240];
const PARTIAL = process.env.HUNT_PARTIAL === '1';
const RESTART = process.env.HUNT_RESTART;

/** HUNT_RESTART's restart for the seed (after the random events, so that their draws stay the seed's) */
function restartFor(seed: number, index: number): ScenarioEvent[] {
  if (!RESTART) return [];
  const at = [60, 90, 120, 180, 240][seed % 5]! * 1e6;
  return [{ kind: 'restartControllerManager', failover: RESTART === 'failover' && seed % 7 === 0, at: { offset: at }, index } as ScenarioEvent];
}

/** 2 to 5 random events over the scenario's own objects. */
function randomEvents(base: Scenario, seed: number): ScenarioEvent[] {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const c = base.snapshot.cluster;
  const nodes = [...c.nodes.keys()];
  const pods = [...c.pods.values()].map((p) => `Pod/${p.meta.namespace}/${p.meta.name}`);
  const rss = [...c.replicaSets.entries()];
  const out: ScenarioEvent[] = [];
  for (let i = 0, n = 2 + Math.floor(rnd() * 4); i < n; i++) {
    const k = rnd();
    const target = { nodes: [pick(nodes)] };
    const e =
      k < 0.35 && rss.length
        ? (([name, rs]) => ({ kind: 'scale', replicaSet: name, replicas: Math.max(0, (rs.replicas ?? 1) + pick([-3, -2, -1, 1, 2])) }))(pick(rss))
        : k < 0.5 && pods.length
          ? { kind: 'delete', ref: pick(pods) }
          : k < 0.65
            ? { kind: 'taint', target, taint: { key: 'example.com/maint', effect: 'NoExecute' } }
            : k < 0.8
              ? { kind: 'kubelet', action: 'stop', target }
              : k < 0.9
                ? { kind: 'kubelet', action: 'start', target }
                : { kind: 'condition', target, condition: { type: 'Ready', status: 'False' } };
    // HUNT_PARTIAL: kubelet stops and starts of the status posts or the Lease alone too (drawn only then, so the seeds
    // without it stay as they were)
    const only = PARTIAL && e.kind === 'kubelet' ? pick([undefined, 'status', 'lease'] as const) : undefined;
    out.push({ ...e, ...(only ? { only } : {}), at: { offset: pick(TIMES) * 1e6 }, index: base.events.length + i } as ScenarioEvent);
  }
  return out;
}

let total = 0;
for (const f of files) {
  const base = loadScenario(join('examples', f), nodeFs());
  for (let seed = from; seed < from + seeds; seed++) {
    const added = randomEvents(base, seed * 7919 + f.length);
    const sc = { ...base, events: [...base.events, ...added, ...restartFor(seed, base.events.length + added.length)] };
    const a = audit(sc, defaultHorizon(sc, createSimulation(sc).startTime), 1);
    const wrong = [
      ...a.misses.filter((m) => !m.exempt).map(missText),
      ...[...a.unsound, ...a.wrong].map(unsoundText),
      ...a.noTime
        .filter((x) => !x.events)
        .map((x) => `no time: ${x.object} ${x.outcome} (${x.guard ?? '-'}), came at ${new Date(x.happened / 1000).toISOString()}`),
    ];
    total += wrong.length;
    if (!wrong.length) continue;
    console.log(
      `${f} seed ${seed}: ${wrong.length} wrong; added: ${added.map((e) => `${(e.at as { offset: number }).offset / 1e6}s ${JSON.stringify({ ...e, at: undefined, index: undefined })}`).join(' | ')}`,
    );
    for (const w of process.env.HUNT_ALL ? wrong : wrong.slice(0, 6)) console.log(`    ${w}`);
  }
}
console.log(`total wrong ${total}`);
process.exitCode = total ? 1 : 0;
