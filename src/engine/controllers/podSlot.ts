/**
 * What a pod event carries of the host's record for the pod (SimController.onPodEvent's `slot`), so
 * that a controller keeps its per-pod state there instead of in a map of its own keyed by the pod.
 * The host makes one per pod key and keeps it for the simulation's life (its other fields are the
 * host's: simulation/podIndex.ts PodSlot). At 5,000 nodes a look-up in a map of 150,000 keys is a
 * cache miss or more, and MarkPodsNotReady's 50,000 updates in one pass each paid one per map.
 */
export class PodSlotBase {
  /**
   * The ReplicaSet controller's set that holds the pod (replicaSet/core.ts `setOf`), valid while the
   * set's token is that controller's index's: an index made anew (a rebuild, another controller after
   * a restart) has another token, so the sets an old one wrote read as none.
   */
  ownerSet: object | undefined = undefined;
}
