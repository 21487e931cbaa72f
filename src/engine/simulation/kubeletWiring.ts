/**
 * The simulated kubelets, wired to the host: what they post and renew is
 * announced to the controllers as the API server's watch would, and a repost
 * is recorded where the trace can show it.
 */
import type { ClusterState } from '../model/cluster';
import type { ControllerConfig, KubeletConfig } from '../config/types';
import { Kubelets } from '../kubelet/kubelets';
import type { SimHost } from './simHost';
import { recordRepost } from './instants';

export function wireKubelets(
  cluster: ClusterState,
  kubelet: KubeletConfig,
  config: ControllerConfig,
  leases: boolean,
  host: SimHost,
  checkDue?: boolean,
): Kubelets {
  const kubelets = new Kubelets(
    cluster,
    {
      updateFrequency: kubelet.nodeStatusUpdateFrequency,
      reportFrequency: kubelet.nodeStatusReportFrequency,
      leaseRenewInterval: kubelet.leaseRenewInterval,
      leases,
      gracePeriod: config.nodeMonitorGracePeriod,
      checkDue,
    },
    {
      nodeStatusChanged: (node, before, why) => {
        if (why === 'repost') recordRepost(host, node.meta.name, before);
        host.announceNode('updated', node);
      },
      leaseCreated: (lease) => host.announceLease('added', lease),
      heartbeats: (batch, count) => host.announceHeartbeats(batch, count),
      leaseRenewed: (lease) => host.announceLease('updated', lease),
      leasesRenewed: (batch, count) => host.announceLeaseRenewals(batch, count),
      // a post of the timeline's (a start, a condition) that changed no status is a heartbeat the controllers'
      // watch sees like any other: the node lifecycle controller moves its probeTimestamp on it
      touched: (node) => host.announceHeartbeats([node], 1),
    },
  );
  host.onNodeConditionsChanged = (node) => kubelets.conditionsChanged(node.meta.name, host.now);
  return kubelets;
}
