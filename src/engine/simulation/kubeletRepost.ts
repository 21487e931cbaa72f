/**
 * A pod's deletion by the taint eviction controller read against its node's kubelet re-posting
 * Ready. A kubelet that still posts node status but renews no Lease (`kubelet: stop, only: lease`)
 * lets its node go Unknown between two posts; it sees the controller's Unknown and re-posts
 * Ready=True at its next status update tick, and the node lifecycle controller's first pass after
 * that removes its not-ready or unreachable NoExecute taint (markNodeAsReachable), which cancels
 * every deletion scheduled under it (handleNodeUpdate). A deletion named after that pass does not
 * come then (one-node-stops with node-a4 `stop only: lease` at +45s: tainted at +2m25s, its pods
 * said deleted at +7m25s; the taint went at +2m30s, and came and went each minute after). No time
 * is named: the node goes Unknown and is tainted again a grace period later, and a deletion
 * scheduled then may come if its toleration is shorter than the taint's stay.
 */
import { formatTime, parseTimestamp, type Micros } from '../model/time';
import type { ControllerHost } from '../controllers/controllerHost';
import { taintText } from '../model/tolerations';
import { NOT_READY_NO_EXECUTE, UNREACHABLE_NO_EXECUTE } from '../controllers/nodeLifecycle/taints';
import { repostOfReady } from '../controllers/nodeLifecycle/kubeletLapse';
import { withoutTime, type WhyNot, type WhyNotWorld } from '../trace/whyNot';

const CONTROLLER_NO_EXECUTE = new Set([NOT_READY_NO_EXECUTE.key, UNREACHABLE_NO_EXECUTE.key]);

export function readKubeletRepost(w: WhyNot, host: ControllerHost, node: string, world: WhyNotWorld, passAtOrAfter: (t: Micros) => Micros | undefined): WhyNot {
  if (w.outcome !== 'PodDeletedByTaintEviction' || w.wouldFireAt === undefined) return w;
  const record = host.cluster.nodes.get(node);
  const ready = record?.conditions.find((c) => c.type === 'Ready')?.status;
  const noExecute = record?.taints.filter((t) => t.effect === 'NoExecute') ?? [];
  // only the controller's own taint, which it removes once Ready is True again
  if (ready !== 'Unknown' || !noExecute.length || !noExecute.every((t) => CONTROLLER_NO_EXECUTE.has(t.key))) return w;
  const k = world.kubelet(node);
  const repost = k && repostOfReady(k);
  if (repost === undefined) return w;
  const at = parseTimestamp(w.wouldFireAt)!;
  const untaintAt = passAtOrAfter(repost);
  if (untaintAt === undefined || untaintAt > at) return w;
  return withoutTime(
    w,
    {
      guard: 'taintStays',
      upstream: 'markNodeAsReachable (node_lifecycle_controller.go) -> handleNodeUpdate (taint_eviction.go): no NoExecute taint left cancels the deletion',
      holds: false,
      rule: `the node's kubelet still posts node status: it re-posts Ready=True at ${formatTime(repost)}, and the node lifecycle controller removes ${noExecute.map(taintText).join(' and ')} at the pass at ${formatTime(untaintAt)}, before the deletion named`,
      values: { kubeletRepostsAt: formatTime(repost), untaintedAt: formatTime(untaintAt), namedBefore: formatTime(at) },
    },
    true,
  );
}
