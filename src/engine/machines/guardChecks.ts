/**
 * The guards a transition evaluated, as a decision's `because` checks: each guard's rule in words,
 * its answer and the event fields it read, in the order xstate evaluated them (guardTrace.ts).
 *
 * A transition's guards travel with the transition object from the machine's answer to the
 * decision that records it (`attachGuards` when the machine commits, `becauseWithGuards` in the
 * controller's decide), so no caller between them has to pass them on. The decision's own checks
 * stay first: the first `because` is the one the panel and the text output show.
 */
import type { Check, MachineTransition } from '../trace/decision';
import type { GuardResult } from './guardTrace';

export interface GuardRule {
  /** the upstream check the guard is, in words */
  rule: string;
  /** the event fields the guard reads: its values in the check */
  reads: readonly string[];
  /** the context fields it reads (a machine whose guards read its context), as they were when it was asked */
  context?: readonly string[];
  /** how a field read is shown, where its raw value would not read well (a time in µs, a long list) */
  show?: Readonly<Record<string, (v: unknown) => unknown>>;
}

/** A machine's guards by their `setup()` name. */
export type GuardRules = Readonly<Record<string, GuardRule>>;

const NONE: readonly Check[] = [];

/**
 * A guard's check text per rule, made once: the trace keeps one per check (the outage hour at
 * 5,000 nodes records about 100,000), and the same few guards are evaluated again and again.
 */
const ruleTexts = new Map<GuardRule, { guard: string; text: string }>();
const MAX_RULE_TEXTS = 1000;
function ruleText(guard: string, r: GuardRule): string {
  const known = ruleTexts.get(r);
  if (known !== undefined && known.guard === guard) return known.text;
  const text = `machine guard ${guard}: ${r.rule}`;
  // machines' rules are module constants; a caller making rules per call is not cached without bound
  if (ruleTexts.size < MAX_RULE_TEXTS) ruleTexts.set(r, { guard, text });
  return text;
}

/** The checks of `guards` (none when no guard was evaluated); `context`: the machine's context when they were asked. */
export function guardChecks(guards: readonly GuardResult[], event: object, rules: GuardRules, context?: object): readonly Check[] {
  if (!guards.length) return NONE;
  return guards.map((g) => {
    const r = rules[g.guard];
    if (!r) throw new Error(`guard '${g.guard}' has no rule in words`);
    const values: Record<string, unknown> = { [g.guard]: g.value };
    for (const f of r.reads) values[f] = (event as Record<string, unknown>)[f];
    if (r.context && context) for (const f of r.context) values[f] = (context as Record<string, unknown>)[f];
    if (r.show) for (const f in r.show) if (f in values) values[f] = r.show[f](values[f]);
    if (g.params !== undefined) values.params = g.params;
    return { rule: ruleText(g.guard, r), values };
  });
}

// On the transition itself, not enumerable (so neither the JSON trace nor a deep comparison sees it).
// A WeakMap from transition to checks cost the outage hour about a tenth (bench/README.md, "guard checks").
const GUARDS = Symbol('guardChecks');
/**
 * What makes a transition's guard checks when they are first read: a function, or an object that
 * keeps what they are made from (one object can serve a transition and the decision that records it,
 * where two functions would each keep their own copy of it).
 */
export interface LaterChecks {
  guardChecks(): readonly Check[];
}
type Later = (() => readonly Check[]) | LaterChecks;
type WithGuards = MachineTransition & { [GUARDS]?: readonly Check[] | Later };

/**
 * Remembers the checks of the guards `t` evaluated, for the decision that records `t`; or what
 * makes them (a function or a LaterChecks), for a decision whose checks are made when read (trace/explainLater.ts):
 * it is called at the first `becauseWithGuards` (the decision's, or an ApiCallFailed's on the way).
 */
export function attachGuards(t: MachineTransition, checks: readonly Check[] | Later): MachineTransition {
  if (!isChecks(checks) || checks.length) Object.defineProperty(t, GUARDS, { value: checks, writable: true, configurable: true });
  return t;
}

/** `because` followed by the checks of the guards `machine` evaluated; `because` itself when there are none. */
export function becauseWithGuards(because: Check[], machine: MachineTransition | null | undefined): Check[] {
  let g = machine ? (machine as WithGuards)[GUARDS] : undefined;
  if (g !== undefined && !isChecks(g)) g = (machine as WithGuards)[GUARDS] = typeof g === 'function' ? g() : g.guardChecks();
  return g && g.length ? [...because, ...g] : because;
}

/** Whether `machine` carries guard checks (made, or made when first read): a decision recording it can then make its `because` when read. */
export function carriesGuards(machine: MachineTransition | null | undefined): boolean {
  return machine !== null && machine !== undefined && (machine as WithGuards)[GUARDS] !== undefined;
}

const isChecks = (x: readonly Check[] | Later): x is readonly Check[] => Array.isArray(x);
