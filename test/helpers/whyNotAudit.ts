/**
 * The completeness side of "a why-not is checked by running forward": every decision that is an
 * outcome a why-not can name, looked at from the sampled passes before it. At each such pass the
 * object's why-not of that outcome either named the time it really came (`wouldFireAt`), or the
 * miss is one of the exemptions below, each with its reason. whyNot.complete.test.ts runs it.
 */
import { createSimulation, type SimulationImpl } from '../../src/engine/simulation/simulation';
import { whyNotOfControllers } from '../../src/engine/simulation/explain';
import type { Scenario } from '../../src/engine/snapshot/types';
import { formatTime, parseTimestamp, type Micros } from '../../src/engine/model/time';
import type { Decision } from '../../src/engine/trace/decision';
import type { WhyNot, WhyNotOutcome } from '../../src/engine/trace/whyNot';
import { join } from 'node:path';
import { loadScenario } from '../../src/engine/snapshot/scenario';
import { nodeFs } from '../../src/platform/nodeFs';
import { defaultHorizon } from '../../src/cli/horizon';
import { findCondition } from '../../src/engine/controllers/nodeLifecycle/taints';

export { outcomeOf, outcomesOf } from '../../src/engine/trace/outcomes';
import { outcomesOf } from '../../src/engine/trace/outcomes';

/** What the why-not said of one outcome of one object at one pass. */
export interface Said {
  at?: Micros;
  conditionalAt?: Micros;
  /** the conditional waits for a kubelet stop the timeline holds */
  timelineStop?: boolean;
  /** the conditional also asks the zone's rate and queue to let it through at once: the outcome comes then or later, or never */
  lowerBound?: boolean;
  /** the instant of the timeline's event the conditional names ("if the timeline scales X to N at S"), the last when it names more */
  timelineAt?: Micros;
  /** every instant of the timeline's events the conditional names ("… to 4 at S and to 2 at S2") */
  timelineAts?: Micros[];
  never?: boolean;
  /** the `neverIf` said with `never` */
  neverIf?: string;
  /** never, because the timeline starts the kubelet again at this instant (`neverIf`) */
  resumedAt?: Micros;
  /** never, because the timeline's scale at this instant keeps the pod (`neverIf`) */
  keptAt?: Micros;
  /** never, because the timeline removes the node's taint at this instant (`neverIf`) */
  untaintedAt?: Micros;
  /** the deepest blocking guard (along `via`) */
  guard?: string;
}

export interface Miss {
  object: string;
  outcome: WhyNotOutcome;
  madeAt: Micros;
  happened: Micros;
  said: Said | undefined;
  /** why it is exempt, or undefined when it is a wrong answer */
  exempt?: Exemption;
}

/**
 * The misses that are not wrong answers. A why-not speaks of the run "if nothing else changes":
 * - `timeline`: an event of the timeline falls between the pass and the decision (a kubelet stop,
 *   a scale, a delete): the why-not cannot know of it, by the contract (trace/whyNot.ts);
 * - `conditional`: the why-not named a time under a condition the world decides (the zone's
 *   other nodes, a kubelet that may stop), and the outcome came at that time or later;
 * - `sameInstant`: the decision came at the instant of the pass, after the monitor pass the
 *   why-not was asked after (a 100 ms pass, a timer or a sync due at the same instant);
 * - `notYetObserved`: the object did not exist at the pass (a pod the ReplicaSet creates later);
 * - `alreadyHolds`: the node already had its not-ready or unreachable NoExecute taint at the pass,
 *   and the decision is the swap to the other one (one update, a TaintAdded with a TaintRemoved):
 *   "tainted NoExecute" had already happened; or the node's Ready was Unknown at the pass (no answer by design), and
 *   the decision is a later Unknown after the kubelet posted Ready again;
 * - `laterThanNamed`: the answer waits for a kubelet stop of the timeline and for more ("…, and its
 *   zone's rate and queue let it through at once"), only kubelet stops came between, and the
 *   decision came later than named: that more did not hold (whyNot.complete.test.ts counts them).
 */
export type Exemption = 'timeline' | 'conditional' | 'sameInstant' | 'notYetObserved' | 'alreadyHolds' | 'laterThanNamed';

const CONTROLLER_NO_EXECUTE = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'];

const INSTANT = / at (\d{4}-\d\d-\d\dT[\d:.]+Z)/g;
const FAILOVER = /^the timeline fails kube-controller-manager over at (\S+) \(the new leader leads from \S+\)$/;

/**
 * The instants of the timeline's events a conditional names, when it names them ("the timeline scales X
 * to 4 at S and to 2 at S2"): the last is the time named.
 */
function timelineAts(w: WhyNot): Micros[] | undefined {
  // the events alone: "…, and its zone's rate and queue let it through at once" asks more of the world than the timeline
  const text = w.conditional?.if ?? '';
  // the failover alone (failoverAhead.ts): the new leader's time for the outcome, which nothing but the timeline decides
  const failover = FAILOVER.exec(text);
  if (failover) return [parseTimestamp(failover[1]!)!];
  if (!/^the timeline [^,]* at \d{4}-\d\d-\d\dT[\d:.]+Z$/.test(text)) return undefined;
  return [...text.matchAll(INSTANT)].map((m) => parseTimestamp(m[1]!)!);
}

/** The instant of the kubelet start a `never, if the timeline … starts it again at R` names. */
function resumedAt(w: WhyNot): Micros | undefined {
  const m = /starts it again at (\d{4}-\d\d-\d\dT[\d:.]+Z)$/.exec(w.neverIf ?? '');
  return m ? parseTimestamp(m[1]) : undefined;
}

/** The instant of the timeline's last scale a `never, if the timeline scales X to N at S [and to M at S2…]: it is kept` names. */
function keptAt(w: WhyNot): Micros | undefined {
  const m =
    /^the timeline (?:runs its other events at [\dT:.Z-]+(?: and at [\dT:.Z-]+)* and )?scales \S+ to \d+ at [\dT:.Z-]+(?: and to \d+ at [\dT:.Z-]+)*: it is kept$/.exec(
      w.neverIf ?? '',
    );
  return m ? [...w.neverIf!.matchAll(INSTANT)].map((x) => parseTimestamp(x[1]!)!).at(-1) : undefined;
}

/** The instant of the timeline's untaint a `never, if the timeline … removes the taint KEY at R` names. */
function untaintedAt(w: WhyNot): Micros | undefined {
  const m = /removes the taint \S+ at (\d{4}-\d\d-\d\dT[\d:.]+Z)$/.exec(w.neverIf ?? '');
  return m ? parseTimestamp(m[1]) : undefined;
}

function deepestGuard(w: WhyNot): string | undefined {
  return w.via && w.blocking && !w.blocking.holds && (w.blocking.guard === 'nodeHasNoExecuteTaint' || w.waitsForDeletion)
    ? (deepestGuard(w.via) ?? w.blocking.guard)
    : w.blocking?.guard;
}

/**
 * An answer read against a kubelet start of the timeline that did not come true: a time named under
 * the timeline's stop alone that did not come with only kubelet stops and starts between, or a
 * `never, if … starts it again at R` whose outcome came before the timeline's next event after R.
 */
export interface Unsound {
  object: string;
  outcome: WhyNotOutcome;
  madeAt: Micros;
  said: Said;
  happened?: Micros;
}

export interface Audit {
  sim: SimulationImpl;
  /** answers checked against the run by `unsound` (times under a stop with a start between, never-ifs) */
  resumeChecked: number;
  /** `never, if the timeline scales X to N at S: it is kept` answers checked against the run by `unsound` */
  keptChecked: number;
  /** `never, if the timeline … removes the taint KEY at R` answers checked against the run by `unsound` */
  untaintChecked: number;
  unsound: Unsound[];
  /** outcome decisions looked at from an earlier pass, and answered with their exact time */
  exact: number;
  /** the same, by outcome */
  exactBy: Map<WhyNotOutcome, number>;
  misses: Miss[];
  /** answers run forward that did not come true: a time named that was not the outcome's, a `never` that came (checkForward) */
  wrong: Unsound[];
  /** times checked by checkForward */
  timedChecked: number;
  /** `never` answers (no `neverIf`) checked by checkForward */
  neverChecked: number;
  /** answers with no time whose outcome came, with how many events of the timeline on the way */
  noTime: { object: string; outcome: WhyNotOutcome; madeAt: Micros; happened: Micros; events: number; guard?: string }[];
}

/** Runs the scenario to `end`, asking every object's why-nots at every `every`-th pass, and audits the decisions. */
export function audit(scenario: Scenario, end: Micros, every = 1): Audit {
  const sim = createSimulation(scenario, { checkInvariants: true });
  const period = sim.config.nodeMonitorPeriod;
  const asked: { at: Micros; said: Map<string, Said>; tainted: Set<string>; unknown: Set<string>; traceAt: number }[] = [];
  for (let k = 0, t = sim.startTime; t <= end; k++, t += period) {
    sim.runUntil(t);
    if (k % every) continue;
    const said = new Map<string, Said>();
    const c = sim.host.cluster;
    const refs = [
      ...[...c.nodes.keys()].map((n) => `Node/${n}`),
      ...[...c.pods.values()].map((p) => `Pod/${p.meta.namespace}/${p.meta.name}`),
      ...[...c.replicaSets.values()].map((rs) => `ReplicaSet/${rs.meta.namespace}/${rs.meta.name}`),
    ];
    for (const ref of refs) {
      said.set(ref, {});
      for (const w of whyNotOfControllers(sim, ref)) {
        if (!w.outcome) continue;
        const key = `${w.object ?? ref}|${w.outcome}`;
        if (said.has(key) && said.get(key)!.at !== undefined) continue;
        said.set(key, {
          ...(w.wouldFireAt ? { at: parseTimestamp(w.wouldFireAt)! } : {}),
          ...(w.conditional ? { conditionalAt: parseTimestamp(w.conditional.at)! } : {}),
          ...(w.conditional?.if.startsWith('the timeline stops the kubelet at') ? { timelineStop: true } : {}),
          ...(w.conditional?.if.includes('let it through at once') ? { lowerBound: true } : {}),
          ...(timelineAts(w) ? { timelineAt: timelineAts(w)!.at(-1)!, timelineAts: timelineAts(w)! } : {}),
          ...(w.never ? { never: true } : {}),
          ...(w.neverIf ? { neverIf: w.neverIf } : {}),
          ...(resumedAt(w) !== undefined ? { resumedAt: resumedAt(w)! } : {}),
          ...(keptAt(w) !== undefined ? { keptAt: keptAt(w)! } : {}),
          ...(untaintedAt(w) !== undefined ? { untaintedAt: untaintedAt(w)! } : {}),
          ...(deepestGuard(w) ? { guard: deepestGuard(w)! } : {}),
        });
      }
    }
    const tainted = new Set(
      [...c.nodes.values()]
        .filter((n) => n.taints.some((t) => t.effect === 'NoExecute' && CONTROLLER_NO_EXECUTE.includes(t.key)))
        .map((n) => `Node/${n.meta.name}`),
    );
    // Ready Unknown already: its why-not has nothing to say (statusUnknown); a kubelet that posts too seldom re-posts Ready
    // and goes Unknown again later (kubeletLapse.ts), a decision no answer at this pass could name
    const unknown = new Set([...c.nodes.values()].filter((n) => findCondition(n.conditions, 'Ready')?.status === 'Unknown').map((n) => `Node/${n.meta.name}`));
    asked.push({ at: sim.now, said, tainted, unknown, traceAt: sim.trace.length });
  }
  const events = sim.scenario.events.map((e) => sim.timeOf(e.at));
  /** times of the events that are not a whole kubelet stop */
  const others = sim.scenario.events.filter((e) => !(e.kind === 'kubelet' && e.action === 'stop' && !e.only)).map((e) => sim.timeOf(e.at));
  const misses: Miss[] = [];
  let exact = 0;
  const exactBy = new Map<WhyNotOutcome, number>();
  const seen = new Set<string>();
  for (const d of sim.trace)
    for (const o of outcomesOf(d)) {
      const happened = parseTimestamp(d.time)!;
      for (const a of asked) {
        if (a.at > happened) break;
        // only the first such decision after the pass is what its why-not speaks of
        const key = `${o.object}|${o.outcome}|${a.at}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const said = a.said.get(`${o.object}|${o.outcome}`);
        if (said?.at === happened) {
          exact++;
          exactBy.set(o.outcome, (exactBy.get(o.outcome) ?? 0) + 1);
          continue;
        }
        // an answer chained to the timeline's kubelet stop, with nothing else of the timeline between: its very time
        // (a decision at the pass's own instant is `sameInstant` below: it came after the question)
        if (said?.timelineStop && said.at === undefined && a.at !== happened && !others.some((e) => e > a.at && e <= happened)) {
          if (said.conditionalAt === happened) {
            const k = `timelineStop:${o.outcome}` as WhyNotOutcome;
            exactBy.set(k, (exactBy.get(k) ?? 0) + 1);
            continue;
          }
          // only an answer that asks more of the zone than the stop ("and its zone's rate and queue let it through at once") may come later
          const later = o.outcome !== 'NodeStatusUnknown' && said.timelineAt === undefined && said.conditionalAt !== undefined && said.conditionalAt < happened;
          misses.push({ object: o.object, outcome: o.outcome, madeAt: a.at, happened, said, ...(later ? { exempt: 'laterThanNamed' as const } : {}) });
          continue;
        }
        // any other answer that names an event of the timeline, with only that instant's events between: its very time
        const between = events.filter((e) => e > a.at && e <= happened);
        if (said?.timelineAt !== undefined && said.at === undefined && between.length && between.every((e) => said.timelineAts!.includes(e))) {
          if (said.conditionalAt === happened) {
            const k = `timeline:${o.outcome}` as WhyNotOutcome;
            exactBy.set(k, (exactBy.get(k) ?? 0) + 1);
            continue;
          }
          misses.push({ object: o.object, outcome: o.outcome, madeAt: a.at, happened, said });
          continue;
        }
        const exempt: Exemption | undefined =
          a.at === happened
            ? 'sameInstant'
            : !a.said.has(o.object)
              ? 'notYetObserved'
              : (o.outcome === 'NodeTaintedNoExecute' && a.tainted.has(o.object)) || (o.outcome === 'NodeStatusUnknown' && a.unknown.has(o.object))
                ? 'alreadyHolds'
                : events.some((e) => e > a.at && e <= happened)
                  ? 'timeline'
                  : said?.at === undefined && said?.conditionalAt !== undefined && said.conditionalAt <= happened
                    ? 'conditional'
                    : undefined;
        misses.push({ object: o.object, outcome: o.outcome, madeAt: a.at, happened, said, ...(exempt ? { exempt } : {}) });
      }
    }
  // the other way round, for answers that read a kubelet start: they came true
  const happenings = new Map<string, Micros[]>();
  // 1.12's pod eviction of a node too: its answers read a kubelet start as any other's (without it, a right time was flagged
  // as never come: the hunt's outage-1.12 seed 14, node-b2's pods evicted at +6m55s as said)
  for (const d of sim.trace)
    for (const o of [...outcomesOf(d), ...nodePodsEvicted(d)])
      happenings.set(`${o.object}|${o.outcome}`, [...(happenings.get(`${o.object}|${o.outcome}`) ?? []), parseTimestamp(d.time)!]);
  const starts = sim.scenario.events.filter((e) => e.kind === 'kubelet' && e.action === 'start').map((e) => sim.timeOf(e.at));
  const notKubelet = sim.scenario.events.filter((e) => e.kind !== 'kubelet' || e.only).map((e) => sim.timeOf(e.at));
  const unsound: Unsound[] = [];
  let resumeChecked = 0;
  let keptChecked = 0;
  let untaintChecked = 0;
  for (const a of asked)
    for (const [key, said] of a.said) {
      const [object, outcome] = key.split('|') as [string, WhyNotOutcome];
      if (!outcome) continue;
      const times = happenings.get(key) ?? [];
      const first = times.find((t) => t > a.at);
      if (said.keptAt !== undefined || said.untaintedAt !== undefined) {
        // kept by the scale, or the taint removed: not deleted while nothing else of the timeline comes after that
        const from = said.keptAt ?? said.untaintedAt!;
        const until = Math.min(end, ...events.filter((e) => e > from));
        if (said.keptAt !== undefined) keptChecked++;
        else untaintChecked++;
        if (first !== undefined && first <= until) unsound.push({ object, outcome, madeAt: a.at, said, happened: first });
        continue;
      }
      if (said.resumedAt !== undefined) {
        // never, while nothing else of the timeline comes after the start
        const until = Math.min(end, ...events.filter((e) => e > said.resumedAt!));
        resumeChecked++;
        if (first !== undefined && first <= until) unsound.push({ object, outcome, madeAt: a.at, said, happened: first });
        continue;
      }
      const at = said.conditionalAt;
      if (!said.timelineStop || said.at !== undefined || at === undefined || at > end) continue;
      // a time under the stop with a kubelet start between and nothing but kubelet stops and starts: it comes then
      if (!starts.some((e) => e > a.at && e <= at) || notKubelet.some((e) => e > a.at && e <= at)) continue;
      resumeChecked++;
      // a lower bound ("…, and its zone's rate and queue let it through at once") is wrong only when the outcome comes earlier
      if (said.lowerBound ? first !== undefined && first < at : first !== at)
        unsound.push({ object, outcome, madeAt: a.at, said, ...(first !== undefined ? { happened: first } : {}) });
    }
  const forward = checkForward(sim, asked, end, events);
  return { sim, exact, exactBy, misses, resumeChecked, keptChecked, untaintChecked, unsound, ...forward };
}

/** 1.12's pod eviction of a node (its first pod deleted or marked), which the misses do not read. */
function nodePodsEvicted(d: Decision): { outcome: WhyNotOutcome; object: string }[] {
  if (d.controller !== 'node-lifecycle' || (d.action !== 'PodEvicted' && d.action !== 'PodStatusUpdated')) return [];
  const node = (d.details as { node?: string } | undefined)?.node;
  return node ? [{ outcome: 'NodePodsEvicted', object: `Node/${node}` }] : [];
}

/**
 * The answers run forward, the other way round from the misses: every time named (certain, or under the
 * timeline's events alone with only those events on the way) is the time the outcome came, first after
 * the question; every `never` with no event of the timeline after the question did not come by `end`.
 * And the answers with no time whose outcome came with nothing of the timeline on the way (`noTime`):
 * the run was certain and the answer named nothing.
 */
function checkForward(
  sim: SimulationImpl,
  asked: readonly { at: Micros; said: Map<string, Said>; traceAt: number }[],
  end: Micros,
  events: readonly Micros[],
): Pick<Audit, 'wrong' | 'timedChecked' | 'neverChecked' | 'noTime'> {
  const byKey = new Map<string, { seq: number; at: Micros }[]>();
  for (const d of sim.trace)
    for (const o of [...outcomesOf(d), ...nodePodsEvicted(d)]) {
      const k = `${o.object}|${o.outcome}`;
      const list = byKey.get(k) ?? [];
      if (!list.length) byKey.set(k, list);
      list.push({ seq: d.seq, at: parseTimestamp(d.time)! });
    }
  const wrong: Unsound[] = [];
  const noTime: Audit['noTime'] = [];
  let timedChecked = 0;
  let neverChecked = 0;
  const between = (from: Micros, to: Micros) => events.filter((e) => e > from && e <= to);
  for (const a of asked)
    for (const [key, said] of a.said) {
      const [object, outcome] = key.split('|') as [string, WhyNotOutcome];
      if (!outcome) continue;
      // the first such decision after the question (seq is 1-based: the trace's length when asked is the last seen)
      const first = byKey.get(key)?.find((h) => h.seq > a.traceAt)?.at;
      const named = said.at ?? (said.timelineAts !== undefined ? said.conditionalAt : undefined);
      if (named !== undefined) {
        if (named > end) continue;
        const on = between(a.at, named);
        if (said.at !== undefined ? on.length : !on.every((e) => said.timelineAts!.includes(e))) continue;
        timedChecked++;
        if (first !== named) wrong.push({ object, outcome, madeAt: a.at, said, ...(first !== undefined ? { happened: first } : {}) });
        continue;
      }
      if (said.never && said.neverIf === undefined) {
        if (between(a.at, end).length) continue;
        neverChecked++;
        if (first !== undefined && first <= end) wrong.push({ object, outcome, madeAt: a.at, said, happened: first });
        continue;
      }
      if (said.at === undefined && said.conditionalAt === undefined && !said.never && first !== undefined && first > a.at)
        noTime.push({ object, outcome, madeAt: a.at, happened: first, events: between(a.at, first).length, ...(said.guard ? { guard: said.guard } : {}) });
    }
  return { wrong, timedChecked, neverChecked, noTime };
}

export function missText(m: Miss): string {
  const s = m.said;
  const told = !s
    ? 'no why-not of it'
    : s.at !== undefined
      ? `would fire at ${formatTime(s.at)}`
      : s.conditionalAt !== undefined
        ? `conditional at ${formatTime(s.conditionalAt)}`
        : s.never
          ? 'never'
          : 'no time';
  return `${m.object} ${m.outcome}: asked at ${formatTime(m.madeAt)}, said ${told}${s?.guard ? ` (blocked by ${s.guard})` : ''}; happened at ${formatTime(m.happened)}`;
}

export function unsoundText(u: Unsound): string {
  const s = u.said;
  const told =
    s.untaintedAt !== undefined
      ? `never (the timeline removes the taint at ${formatTime(s.untaintedAt)})`
      : s.keptAt !== undefined
        ? `never (kept by the timeline's scale at ${formatTime(s.keptAt)})`
        : s.resumedAt !== undefined
          ? `never (the kubelet starts again at ${formatTime(s.resumedAt)})`
          : s.at !== undefined
            ? `would fire at ${formatTime(s.at)}`
            : s.never
              ? 'never'
              : `conditional at ${formatTime(s.conditionalAt!)}`;
  return `${u.object} ${u.outcome}: asked at ${formatTime(u.madeAt)}, said ${told}; happened ${u.happened !== undefined ? `at ${formatTime(u.happened)}` : 'not'}`;
}

/** A bundled example with events added (`at` in seconds), indexed after its own. */
export function exampleWith(file: string, added: readonly [number, object][]): Scenario {
  const base = loadScenario(join('examples', file), nodeFs());
  const events = added.map(([at, e], i) => ({ ...e, at: { offset: at * 1e6 }, index: base.events.length + i }) as Scenario['events'][number]);
  return { ...base, events: [...base.events, ...events] };
}

/**
 * An example with events added, audited at every pass to its default horizon, as scripts/whyNotHunt.ts reads it: the
 * decisions not named with their time and not exempt, the answers run forward that did not come true (a time named, a
 * never, a kubelet start read), and those with no time whose outcome came with nothing of the timeline on the way; and
 * how many times were run forward.
 */
export function wrongAnswers(file: string, added: readonly [number, object][]): { wrong: string[]; timedChecked: number } {
  const sc = exampleWith(file, added);
  const a = audit(sc, defaultHorizon(sc, createSimulation(sc).startTime), 1);
  const wrong = [
    ...a.misses.filter((m) => !m.exempt).map(missText),
    ...[...a.unsound, ...a.wrong].map(unsoundText),
    ...a.noTime.filter((x) => !x.events).map((x) => `no time: ${x.object} ${x.outcome} (${x.guard ?? '-'}), came at ${formatTime(x.happened)}`),
  ];
  return { wrong, timedChecked: a.timedChecked };
}

/**
 * An example with events added, asked at `askedAt` seconds for `ref`'s `outcome` and run forward to `horizon` seconds:
 * the answer, the time it names (certain or conditional), and when the outcome first came after the question.
 */
export function askedThenRun(
  file: string,
  added: readonly [number, object][],
  askedAt: number,
  ref: string,
  outcome: WhyNotOutcome,
  horizon = 600,
): { w?: WhyNot; named?: string; came?: string } {
  const sim = createSimulation(exampleWith(file, added));
  sim.runUntil(sim.startTime + askedAt * 1e6);
  const seen = sim.trace.length;
  const w = whyNotOfControllers(sim, ref).find((x) => x.outcome === outcome);
  const named = w?.wouldFireAt ?? w?.conditional?.at;
  sim.runUntil(sim.startTime + horizon * 1e6);
  const came = sim.trace.slice(seen).find((d) => outcomesOf(d).some((o) => o.object === ref && o.outcome === outcome))?.time;
  return { ...(w ? { w } : {}), ...(named !== undefined ? { named } : {}), ...(came !== undefined ? { came } : {}) };
}
