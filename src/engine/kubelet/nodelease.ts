/** The node Lease a kubelet creates (pkg/kubelet/nodelease). */
import type { Micros } from '../model/time';
import { formatMicroTime } from '../model/time';
import type { LeaseRecord } from '../model/types';
import { NODE_LEASE_NAMESPACE } from '../model/types';
import { leaseRecord, objectMeta } from '../model/records';

/** The Lease a kubelet creates for its node, renewed at t (pkg/kubelet/nodelease: newLease). */
export function kubeletLease(node: string, t: Micros, leaseDurationSeconds: number): LeaseRecord {
  const meta = objectMeta(node, NODE_LEASE_NAMESPACE, `lease-${node}`, {}, {}, [], t, undefined, undefined) as LeaseRecord['meta'];
  return leaseRecord(meta, node, leaseDurationSeconds, t, {
    apiVersion: 'coordination.k8s.io/v1',
    kind: 'Lease',
    metadata: { name: node, namespace: NODE_LEASE_NAMESPACE },
    spec: { holderIdentity: node, leaseDurationSeconds, renewTime: formatMicroTime(t) },
  });
}
