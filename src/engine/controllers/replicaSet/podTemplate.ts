/**
 * The pod a ReplicaSet creates (controller_utils.go GetPodFromTemplate +
 * CreatePodsWithControllerRef, and what the API server adds on create):
 * the template's labels, annotations, finalizers and spec; generateName
 * `<rs>-` and a generated name; an ownerReference to the ReplicaSet with
 * controller: true and blockOwnerDeletion: true; creationTimestamp = now;
 * status.phase Pending; and the DefaultTolerationSeconds tolerations the
 * admission plugin appends.
 */
import type { KObject, OwnerReference, PodRecord, ReplicaSetRecord, Toleration } from '../../model/types';
import { objectMeta, podRecord } from '../../model/records';
import { EMPTY } from '../../model/convertFields';
import { formatTime, type Micros } from '../../model/time';
import { toPodRecord } from '../../model/convert';
import { applyDefaultTolerationSeconds } from '../../model/defaultTolerations';
import { podNamePrefix } from '../../model/podNames';

const isMap = (v: unknown): v is KObject => typeof v === 'object' && v !== null && !Array.isArray(v);
/** metav1.NewControllerRef(rs, apps/v1 ReplicaSet) */
export function controllerRefTo(rs: ReplicaSetRecord): KObject {
  return { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs.meta.name, uid: rs.meta.uid, controller: true, blockOwnerDeletion: true };
}

/**
 * The pods share the template's labels, annotations, finalizers and spec
 * instead of each parsing a copy (a pod's `raw` is a few kilobytes, and an
 * outage at 5,000 nodes creates tens of thousands of pods). That is safe
 * because neither is ever changed in place: templates are not (checkpoints
 * share them for that reason), and a record's `raw` and its parts are
 * replaced, not edited (checkpoints share them with the live pods; the
 * admission of default tolerations and adoption make new objects), and a
 * record's labels are replaced, never edited (the host's `before` shares them).
 * For the same reason every pod of a template shares the spec and the
 * tolerations the admission of default tolerations gives it (`admitted`).
 * `prefix`: podNamePrefix(rs.meta.name), when the caller has it. `owners`: `[controllerRefTo(rs)]`, when
 * the caller keeps one for every pod of the ReplicaSet: the pods then share it (the list is replaced, never
 * edited: adoption and release make a new one), and the controller's owner check (checkPod, one per
 * list) is made once for them all, as for the loader's pods, whose equal lists it shares.
 */
export function podFromTemplate(
  rs: ReplicaSetRecord,
  name: string,
  uid: string,
  now: Micros,
  prefix = podNamePrefix(rs.meta.name),
  owners: KObject[] = [controllerRefTo(rs)],
): PodRecord {
  const { raw, labels, annotations, done } = podObject(rs, name, uid, now, prefix, owners);
  // what the loader's toPodRecord makes of `raw`, made here without reading it again: every part is one
  // it keeps as it is (string maps of strings, a clean owner list, the admitted spec's tolerations)
  if (done !== undefined && allStrings(labels) && (annotations === undefined || allStrings(annotations))) {
    const meta = objectMeta(
      name,
      rs.meta.namespace || 'default',
      uid,
      labels as Record<string, string>,
      (annotations ?? EMPTY) as Record<string, string>,
      owners as unknown as OwnerReference[],
      now,
      undefined,
      undefined,
    ) as PodRecord['meta'];
    return podRecord(meta, done.nodeName, done.tolerations, 'Pending', [], 0, undefined, undefined, raw);
  }
  return parsedPod(rs, raw, done, now);
}

/** podFromTemplate's pod as the loader makes a pod of its object (the checking mode's and the tests' plain form) */
export function podFromTemplateParsed(
  rs: ReplicaSetRecord,
  name: string,
  uid: string,
  now: Micros,
  prefix = podNamePrefix(rs.meta.name),
  owners: KObject[] = [controllerRefTo(rs)],
): PodRecord {
  const { raw, done } = podObject(rs, name, uid, now, prefix, owners);
  return parsedPod(rs, raw, done, now);
}

/**
 * The checking mode's comparison (the controller's `verifyTallies`): the pod made is the one the loader
 * makes of its object, field for field, and shares its object's labels and owner list where that one does.
 */
export function checkMadeAsParsed(made: PodRecord, parsed: PodRecord): void {
  const a = made.raw.metadata as KObject,
    b = parsed.raw.metadata as KObject;
  if (
    JSON.stringify(made) !== JSON.stringify(parsed) ||
    (made.meta.labels === a.labels) !== (parsed.meta.labels === b.labels) ||
    (made.meta.ownerReferences === a.ownerReferences) !== (parsed.meta.ownerReferences === b.ownerReferences)
  )
    throw new Error(`replicaset: the pod made for ${made.meta.namespace}/${made.meta.name} is not the one its object gives`);
}

function parsedPod(rs: ReplicaSetRecord, raw: KObject, done: Admitted | undefined, now: Micros): PodRecord {
  const pod = toPodRecord(raw);
  if (!pod) throw new Error(`bug: the pod built for ${rs.meta.namespace}/${rs.meta.name} has no name`);
  // the record keeps `now` exactly (the object's text has millisecond precision)
  pod.meta.creationTimestamp = now;
  if (done) pod.tolerations = done.tolerations;
  else applyDefaultTolerationSeconds(pod);
  return pod;
}

/** The pod object the API server stores (GetPodFromTemplate, the generated name, the admitted spec). */
function podObject(
  rs: ReplicaSetRecord,
  name: string,
  uid: string,
  now: Micros,
  prefix: string,
  owners: KObject[],
): { raw: KObject; labels: KObject; annotations: KObject | undefined; done: Admitted | undefined } {
  const tmeta = isMap(rs.template.metadata) ? rs.template.metadata : {};
  const labels = isMap(tmeta.labels) ? tmeta.labels : {};
  const metadata: KObject = {
    name,
    generateName: prefix,
    namespace: rs.meta.namespace,
    uid,
    creationTimestamp: formatTime(now),
    labels,
    ownerReferences: owners,
  };
  const annotations = isMap(tmeta.annotations) ? tmeta.annotations : undefined;
  if (annotations) metadata.annotations = annotations;
  if (Array.isArray(tmeta.finalizers)) metadata.finalizers = tmeta.finalizers;
  const spec = isMap(rs.template.spec) ? rs.template.spec : undefined;
  const done = spec && admitted(spec);
  const raw: KObject = { apiVersion: 'v1', kind: 'Pod', metadata, spec: done ? done.spec : (spec ?? {}), status: { phase: 'Pending' } };
  return { raw, labels, annotations, done };
}

/** every value a string: the loader keeps such a map itself (else it makes a copy without the others) */
function allStrings(m: KObject): boolean {
  for (const k in m) if (typeof m[k] !== 'string') return false;
  return true;
}

/**
 * What the admission of default tolerations makes of a template's spec: the
 * spec a pod created from it is stored with and the pod's tolerations. It
 * depends on the spec alone, so it is worked out once, on a pod made from
 * the spec the way podFromTemplate made each pod before.
 */
interface Admitted {
  spec: KObject;
  tolerations: Toleration[];
  /** the spec's nodeName, as the loader reads it */
  nodeName: string | undefined;
}
const admittedSpecs = new WeakMap<KObject, Admitted>();
function admitted(spec: KObject): Admitted | undefined {
  let done = admittedSpecs.get(spec);
  if (done) return done;
  const probe = toPodRecord({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'probe', namespace: 'probe' }, spec, status: { phase: 'Pending' } });
  if (!probe) return undefined;
  applyDefaultTolerationSeconds(probe);
  done = { spec: probe.raw.spec as KObject, tolerations: probe.tolerations, nodeName: probe.nodeName };
  admittedSpecs.set(spec, done);
  return done;
}
