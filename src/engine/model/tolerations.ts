/**
 * Toleration matching, ported from Kubernetes (never pasted):
 * - `tolerates`: `(*v1.Toleration).ToleratesTaint` (k8s.io/api/core/v1/toleration.go),
 *   identical from v1.12 to v1.35 for the operators Exists and Equal;
 * - `getMatchingTolerations`: `v1helper.GetMatchingTolerations`
 *   (pkg/apis/core/v1/helper/helpers.go): for every taint the *first* toleration
 *   that tolerates it, in the pod's order;
 * - `minTolerationTime`: the taint manager's `getMinTolerationTime`
 *   (pkg/controller/nodelifecycle/scheduler/taint_manager.go, later
 *   pkg/controller/tainteviction/taint_eviction.go).
 *
 * Shared by the taint-eviction controller and the simplified binder.
 */
import type { Taint, TaintEffect, Toleration } from './types';
import { MICROS_PER_SECOND, type Duration } from './time';

/**
 * Whether one toleration tolerates one taint, as `ToleratesTaint`:
 * - an empty effect matches every effect, otherwise the effects must be equal;
 * - an empty key matches every key, otherwise the keys must be equal;
 * - operator Exists matches any value; Equal, or no operator (the API's
 *   default), needs the values to be equal (a missing value is "").
 * Any other operator tolerates nothing (as upstream's `default: return false`).
 */
export function tolerates(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.key && toleration.key !== taint.key) return false;
  const operator = toleration.operator as string | undefined;
  switch (operator ?? '') {
    case '':
    case 'Equal':
      return (toleration.value ?? '') === (taint.value ?? '');
    case 'Exists':
      return true;
    default:
      return false;
  }
}

/** Whether some toleration of the list tolerates the taint (the binder's check, `TolerationsTolerateTaint`). */
export function toleratesTaint(tolerations: readonly Toleration[], taint: Taint): boolean {
  for (const t of tolerations) if (tolerates(t, taint)) return true;
  return false;
}

export interface MatchingTolerations {
  /** every taint has a toleration */
  allTolerated: boolean;
  /** for each taint, in the taints' order, the first toleration that tolerates it (empty unless allTolerated) */
  used: Toleration[];
  /** the first taint that no toleration tolerates, when not allTolerated and there were tolerations to try */
  untolerated?: Taint;
}

/**
 * `GetMatchingTolerations(taints, tolerations)`: no taints -> tolerated, none used;
 * taints but no tolerations -> not tolerated; otherwise, per taint, the first
 * toleration (in the pod's order) that tolerates it, and not tolerated as soon as
 * one taint has none. Note that the *first* match is used, not the shortest: a
 * pod whose first matching toleration has no tolerationSeconds tolerates that
 * taint forever even if a later toleration would have given a limit.
 */
export function getMatchingTolerations(taints: readonly Taint[], tolerations: readonly Toleration[]): MatchingTolerations {
  if (taints.length === 0) return { allTolerated: true, used: [] };
  if (tolerations.length === 0) return { allTolerated: false, used: [], untolerated: taints[0] };
  const used: Toleration[] = [];
  for (const taint of taints) {
    let match: Toleration | undefined;
    for (const t of tolerations) {
      if (tolerates(t, taint)) {
        match = t;
        break;
      }
    }
    if (!match) return { allTolerated: false, used: [], untolerated: taint };
    used.push(match);
  }
  return { allTolerated: true, used };
}

/** `getMinTolerationTime`'s answer: a duration, or forever. */
export type MinTolerationTime = { forever: true } | { forever: false; duration: Duration };

/**
 * `getMinTolerationTime(tolerations)`: no tolerations -> 0; any
 * tolerationSeconds <= 0 -> 0 at once; otherwise the smallest tolerationSeconds
 * among those that have one; none has one -> forever (upstream returns -1).
 */
export function minTolerationTime(tolerations: readonly Toleration[]): MinTolerationTime {
  if (tolerations.length === 0) return { forever: false, duration: 0 };
  let min = Number.POSITIVE_INFINITY;
  for (const t of tolerations) {
    if (t.tolerationSeconds === undefined) continue;
    if (t.tolerationSeconds <= 0) return { forever: false, duration: 0 };
    if (t.tolerationSeconds < min) min = t.tolerationSeconds;
  }
  if (min === Number.POSITIVE_INFINITY) return { forever: true };
  return { forever: false, duration: min * MICROS_PER_SECOND };
}

/** The taints of one effect, in the node's order (`getNoExecuteTaints` for NoExecute). */
export function taintsWithEffect(taints: readonly Taint[], effect: TaintEffect): Taint[] {
  const out: Taint[] = [];
  for (const t of taints) if (t.effect === effect) out.push(t);
  return out;
}

/** `KEY=VALUE:EFFECT` or `KEY:EFFECT`, as kubectl prints a taint. */
export function taintText(t: Taint): string {
  return t.value ? `${t.key}=${t.value}:${t.effect}` : `${t.key}:${t.effect}`;
}

/** A toleration in one line, e.g. `node.kubernetes.io/unreachable Exists NoExecute for 300s`, `<all keys> Exists`. */
export function tolerationText(t: Toleration): string {
  let text = tolerationTexts.get(t);
  if (text === undefined) tolerationTexts.set(t, (text = buildTolerationText(t)));
  return text;
}

/**
 * tolerationText's memo, by toleration object. A toleration is never changed in place once a
 * record holds it (records' tolerations are replaced, never edited: the host's promise in controllers/controller.ts),
 * and the loader and the ReplicaSet controller share one object among many pods (2,400
 * objects for 138,000 tolerations of a generated 2,000-node cluster), so most texts are found.
 */
const tolerationTexts = new WeakMap<Toleration, string>();

function buildTolerationText(t: Toleration): string {
  const parts = [t.key || '<all keys>', t.operator ?? 'Equal'];
  if ((t.operator ?? 'Equal') === 'Equal') parts.push(`"${t.value ?? ''}"`);
  parts.push(t.effect || '<all effects>');
  parts.push(t.tolerationSeconds === undefined ? 'forever' : `for ${t.tolerationSeconds}s`);
  return parts.join(' ');
}
