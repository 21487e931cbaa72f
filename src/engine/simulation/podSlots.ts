/**
 * The host's slots (PodSlot), one per pod key, and per node the slots of the pods indexed under it
 * in key order: a node's pods listed (MarkPodsNotReady: 50,000 when a zone's nodes go Unknown at
 * 5,000 nodes) are reached from the node's list, each record through its slot, with no look-up in a
 * map of 150,000 keys per pod (the pod map's, then the slots').
 */
import { nodeKeysInOrder } from '../model/cluster';
import type { PodRecord } from '../model/types';
import { PodSlot } from './podIndex';

interface NodeList {
  /** the node's set in podsByNode the list was made from */
  keys: Set<string>;
  /** its pods' slots, in key order */
  slots: PodSlot[];
}

export class PodSlots {
  private readonly byKey = new Map<string, PodSlot>();
  private readonly byNode = new Map<string, NodeList>();
  /**
   * The host's epoch (bumped by its reindex): a slot holds its pod's record while its `podAt` is
   * this, and a node's list is kept only within the epoch it was made in (forgetLists).
   */
  epoch = 0;

  of(key: string): PodSlot {
    let slot = this.byKey.get(key);
    if (slot === undefined) {
      slot = new PodSlot(key);
      this.byKey.set(key, slot);
    }
    return slot;
  }

  /** the slot under `key` as it is, none made (the checks) */
  peek(key: string): PodSlot | undefined {
    return this.byKey.get(key);
  }

  /** A new epoch: every record a slot holds, and every node's list, is read again when next needed. */
  newEpoch(): void {
    this.epoch++;
    this.byNode.clear();
  }

  /**
   * The pod under `key` was taken from `old`'s set in podsByNode and indexed under `nodeName`'s
   * (either none): the lists made of those sets are kept in step, in key order.
   */
  moved(key: string, old: string | undefined, nodeName: string | undefined): void {
    if (old !== undefined) {
      const list = this.byNode.get(old);
      if (list !== undefined) {
        const i = list.slots.findIndex((s) => s.key === key);
        if (i >= 0) list.slots.splice(i, 1);
      }
    }
    if (nodeName !== undefined) {
      const list = this.byNode.get(nodeName);
      if (list !== undefined) {
        const { slots } = list;
        let i = slots.length;
        while (i > 0 && slots[i - 1].key > key) i--;
        slots.splice(i, 0, this.of(key));
      }
    }
  }

  /**
   * The slots of the pods in `keys` (the node's set in podsByNode), in key order, each holding
   * its pod's record (undefined: no pod under the key) from `pods` when it did not already.
   */
  on(node: string, keys: Set<string>, pods: ReadonlyMap<string, PodRecord>): readonly PodSlot[] {
    const kept = this.byNode.get(node);
    if (kept !== undefined && kept.keys === keys) return kept.slots;
    const slots: PodSlot[] = [];
    const epoch = this.epoch;
    for (const k of nodeKeysInOrder(keys)) {
      const slot = this.of(k);
      if (slot.podAt !== epoch) slot.holds(pods.get(k), epoch);
      slots.push(slot);
    }
    this.byNode.set(node, { keys, slots });
    return slots;
  }
}
