import type { PodRecord } from '../model/types';

/**
 * What the host keeps per pod key, handed to the controllers with each event of the pod, so that
 * what a controller keeps per pod is a field of it rather than an entry of a map of its own keyed
 * by pod (at 5,000 nodes a look-up in a map of 150,000 keys is a cache miss or more, and one pod's
 * update went through one such map per controller).
 *
 * A slot outlives a step back and a restart of the controllers, while a controller's own index is
 * made anew on a rebuild, a restore or a restart: so each controller's field carries the stamp of
 * the index it was written from (`ownerIndex`), and is read only while that is the controller's
 * current index. A host that has no slots passes none: controllers look the key up then.
 */
export interface PodSlot {
  readonly key: string;
  /** the record under the key in the cluster's pod map (undefined: none now) */
  readonly pod: PodRecord | undefined;
  /** the ReplicaSet controller's: the set of its owner index that holds the pod, written under the stamp `ownerIndex` */
  ownerSet: object | undefined;
  ownerIndex: object | undefined;
}
