/**
 * Bad input the ReplicaSet controller meets, as problems (never exceptions).
 * Where the API server would have rejected the object (apps/v1
 * ValidateReplicaSetSpec), the simulation does not manage the ReplicaSet and
 * says why; where Kubernetes would go on (a dangling ownerReference, which the
 * garbage collector would clean up), the controller goes on as upstream does
 * and the problem is a warning.
 */
import type { Problem } from '../../problems';
import type { PodRecord, ReplicaSetRecord } from '../../model/types';
import { compileSelector, formatSelector, type CompiledSelector } from '../../model/labels';
import { templateLabels } from './status';
import { controllerCount } from './podUtil';

export interface ReplicaSetCheck {
  /** false: the simulation does not sync this ReplicaSet (the API server would have rejected it) */
  manageable: boolean;
  selector: CompiledSelector;
  problems: Problem[];
}

const rsName = (rs: ReplicaSetRecord) => `ReplicaSet ${rs.meta.namespace}/${rs.meta.name}`;

export function checkReplicaSet(rs: ReplicaSetRecord): ReplicaSetCheck {
  const problems: Problem[] = [];
  const selector = compileSelector(rs.selector);
  let manageable = true;
  const spec = rs.raw.spec && typeof rs.raw.spec === 'object' ? (rs.raw.spec as { replicas?: unknown }) : {};
  // the record's value wins (a scale event changes it); the object's shows what the loader left out
  const replicas = rs.replicas ?? (typeof spec.replicas === 'number' ? spec.replicas : undefined);
  if (replicas !== undefined && replicas < 0) {
    manageable = false;
    problems.push({
      code: 'replicaset-negative-replicas',
      severity: 'error',
      message: `${rsName(rs)} has spec.replicas ${replicas}: the API server requires 0 or more; the simulation does not manage it`,
    });
  } else if (rs.replicas === undefined && (spec.replicas === undefined || spec.replicas === null)) {
    problems.push({ code: 'replicaset-default-replicas', severity: 'info', message: `${rsName(rs)} has no spec.replicas: taken as 1, the API's default` });
  }
  if (rs.selector === undefined) {
    manageable = false;
    problems.push({
      code: 'replicaset-no-selector',
      severity: 'error',
      message: `${rsName(rs)} has no spec.selector: the API server requires one (a nil selector selects no pods, so the controller would create pods forever); the simulation does not manage it`,
    });
    return { manageable, selector, problems };
  }
  if (selector.error) {
    manageable = false;
    problems.push({
      code: 'replicaset-invalid-selector',
      severity: 'error',
      message: `${rsName(rs)}: error converting pod selector to selector: ${selector.error}; the controller skips it, as syncReplicaSet does`,
    });
    return { manageable, selector, problems };
  }
  if (selector.kind === 'everything') {
    manageable = false;
    problems.push({
      code: 'replicaset-empty-selector',
      severity: 'error',
      message: `${rsName(rs)} has an empty spec.selector: the API server rejects it ("empty selector is invalid"); the simulation does not manage it`,
    });
    return { manageable, selector, problems };
  }
  const tmpl = templateLabels(rs);
  if (!selector.matches(tmpl)) {
    manageable = false;
    problems.push({
      code: 'replicaset-selector-mismatch',
      severity: 'error',
      message: `${rsName(rs)}: selector ${formatSelector(rs.selector)} does not match the template's labels ${JSON.stringify(tmpl)} (the API server rejects this; the pods it created would never be counted); the simulation does not manage it`,
    });
  }
  return { manageable, selector, problems };
}

/** Problems of one pod's ownerReferences, as seen by the ReplicaSet controller. */
export function checkPodOwners(pod: PodRecord, replicaSetExists: (ns: string, name: string, uid: string) => boolean): Problem[] {
  const out: Problem[] = [];
  const name = `Pod ${pod.meta.namespace}/${pod.meta.name}`;
  if (controllerCount(pod.meta) > 1) {
    out.push({
      code: 'pod-multiple-controllers',
      severity: 'warning',
      message: `${name} has ${controllerCount(pod.meta)} ownerReferences with controller: true (the API allows one); the first one counts, as metav1.GetControllerOf reads it`,
    });
  }
  for (const ref of pod.meta.ownerReferences) {
    if (ref.kind !== 'ReplicaSet') continue;
    if (!replicaSetExists(pod.meta.namespace, ref.name, ref.uid)) {
      out.push({
        code: 'pod-dangling-owner',
        severity: 'warning',
        message: `${name} has an ownerReference to ReplicaSet ${pod.meta.namespace}/${ref.name} (uid ${ref.uid}), which does not exist: no ReplicaSet adopts it (the garbage collector would delete it; not simulated)`,
      });
    }
  }
  return out;
}
