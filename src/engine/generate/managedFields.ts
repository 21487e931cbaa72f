/** The pieces of the managedFields (FieldsV1) generated objects carry (objects.ts). */

type J = Record<string, unknown>;

/** `{".": {}, "f:a": {}, "f:b": {}}`, a FieldsV1 set of plain fields. */
export function fieldSet(names: string[]): J {
  const out: J = { '.': {} };
  for (const n of names) out[`f:${n}`] = {};
  return out;
}

export function keyedConditions(types: string[], node: boolean): J {
  const out: J = { '.': {} };
  for (const type of types) {
    out[`k:{"type":"${type}"}`] = node
      ? { '.': {}, 'f:lastHeartbeatTime': {}, 'f:lastTransitionTime': {}, 'f:message': {}, 'f:reason': {}, 'f:status': {}, 'f:type': {} }
      : { '.': {}, 'f:lastProbeTime': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} };
  }
  return out;
}
