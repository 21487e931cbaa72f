/**
 * The pod a ReplicaSet creates (controller_utils.go GetPodFromTemplate +
 * CreatePodsWithControllerRef, and what the API server adds on create):
 * the template's labels, annotations, finalizers and spec; generateName
 * `<rs>-` and a generated name; an ownerReference to the ReplicaSet with
 * controller: true and blockOwnerDeletion: true; creationTimestamp = now;
 * status.phase Pending; and the DefaultTolerationSeconds tolerations the
 * admission plugin appends.
 */
import type { KObject, PodRecord, ReplicaSetRecord } from '../../model/types';
import { formatTime, type Micros } from '../../model/time';
import { toPodRecord } from '../../model/convert';
import { applyDefaultTolerationSeconds } from '../../model/defaultTolerations';
import { podNamePrefix } from '../../model/podNames';

const isMap = (v: unknown): v is KObject => typeof v === 'object' && v !== null && !Array.isArray(v);
/**
 * Templates are never changed in place (checkpoints share them for that
 * reason), so each template part is written as JSON once and every pod
 * created from it parses its own copy.
 */
const jsonOf = new WeakMap<object, string>();
const clone = <T>(v: T): T => {
  if (v === undefined) return v;
  if (typeof v !== 'object' || v === null) return JSON.parse(JSON.stringify(v)) as T;
  let text = jsonOf.get(v);
  if (text === undefined) jsonOf.set(v, (text = JSON.stringify(v)));
  return JSON.parse(text) as T;
};

/** metav1.NewControllerRef(rs, apps/v1 ReplicaSet) */
export function controllerRefTo(rs: ReplicaSetRecord): KObject {
  return { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs.meta.name, uid: rs.meta.uid, controller: true, blockOwnerDeletion: true };
}

export function podFromTemplate(rs: ReplicaSetRecord, name: string, uid: string, now: Micros): PodRecord {
  const tmeta = isMap(rs.template.metadata) ? rs.template.metadata : {};
  const metadata: KObject = {
    name,
    generateName: podNamePrefix(rs.meta.name),
    namespace: rs.meta.namespace,
    uid,
    creationTimestamp: formatTime(now),
    labels: isMap(tmeta.labels) ? clone(tmeta.labels) : {},
    ownerReferences: [controllerRefTo(rs)],
  };
  if (isMap(tmeta.annotations)) metadata.annotations = clone(tmeta.annotations);
  if (Array.isArray(tmeta.finalizers)) metadata.finalizers = clone(tmeta.finalizers);
  const spec = isMap(rs.template.spec) ? clone(rs.template.spec) : {};
  const raw: KObject = { apiVersion: 'v1', kind: 'Pod', metadata, spec, status: { phase: 'Pending' } };
  const pod = toPodRecord(raw);
  if (!pod) throw new Error(`bug: the pod built for ${rs.meta.namespace}/${rs.meta.name} has no name`);
  // the record keeps `now` exactly (the object's text has millisecond precision)
  pod.meta.creationTimestamp = now;
  applyDefaultTolerationSeconds(pod);
  return pod;
}
