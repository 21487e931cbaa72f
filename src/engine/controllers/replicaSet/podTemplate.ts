/**
 * The pod a ReplicaSet creates (controller_utils.go GetPodFromTemplate +
 * CreatePodsWithControllerRef, and what the API server adds on create):
 * the template's labels, annotations, finalizers and spec; generateName
 * `<rs>-` and a generated name; an ownerReference to the ReplicaSet with
 * controller: true and blockOwnerDeletion: true; creationTimestamp = now;
 * status.phase Pending; and the DefaultTolerationSeconds tolerations the
 * admission plugin appends.
 */
import type { KObject, PodRecord, ReplicaSetRecord, Toleration } from '../../model/types';
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
 * `prefix`: podNamePrefix(rs.meta.name), when the caller has it.
 */
export function podFromTemplate(rs: ReplicaSetRecord, name: string, uid: string, now: Micros, prefix = podNamePrefix(rs.meta.name)): PodRecord {
  const tmeta = isMap(rs.template.metadata) ? rs.template.metadata : {};
  const metadata: KObject = {
    name,
    generateName: prefix,
    namespace: rs.meta.namespace,
    uid,
    creationTimestamp: formatTime(now),
    labels: isMap(tmeta.labels) ? tmeta.labels : {},
    ownerReferences: [controllerRefTo(rs)],
  };
  if (isMap(tmeta.annotations)) metadata.annotations = tmeta.annotations;
  if (Array.isArray(tmeta.finalizers)) metadata.finalizers = tmeta.finalizers;
  const spec = isMap(rs.template.spec) ? rs.template.spec : undefined;
  const done = spec && admitted(spec);
  const raw: KObject = { apiVersion: 'v1', kind: 'Pod', metadata, spec: done ? done.spec : (spec ?? {}), status: { phase: 'Pending' } };
  const pod = toPodRecord(raw);
  if (!pod) throw new Error(`bug: the pod built for ${rs.meta.namespace}/${rs.meta.name} has no name`);
  // the record keeps `now` exactly (the object's text has millisecond precision)
  pod.meta.creationTimestamp = now;
  if (done) pod.tolerations = done.tolerations;
  else applyDefaultTolerationSeconds(pod);
  return pod;
}

/**
 * What the admission of default tolerations makes of a template's spec: the
 * spec a pod created from it is stored with and the pod's tolerations. It
 * depends on the spec alone, so it is worked out once, on a pod made from
 * the spec the way podFromTemplate made each pod before.
 */
const admittedSpecs = new WeakMap<KObject, { spec: KObject; tolerations: Toleration[] }>();
function admitted(spec: KObject): { spec: KObject; tolerations: Toleration[] } | undefined {
  let done = admittedSpecs.get(spec);
  if (done) return done;
  const probe = toPodRecord({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'probe', namespace: 'probe' }, spec, status: { phase: 'Pending' } });
  if (!probe) return undefined;
  applyDefaultTolerationSeconds(probe);
  done = { spec: probe.raw.spec as KObject, tolerations: probe.tolerations };
  admittedSpecs.set(spec, done);
  return done;
}
