/**
 * The pods created, changed or deleted through the host since the last checkpoint (checkpoints keep
 * only these), in the order first changed, each listed once per round (PodSlot.dirtyRound) without
 * a set's look-up; and the copies a checkpoint keeps of them, made at once or, while a checkpoint
 * is pending (PendingCheckpoint), a chunk at a time.
 */
import type { PodRecord } from '../model/types';
import type { PodSlot } from './podIndex';

export class DirtyPods {
  private list: PodSlot[] = [];
  private round = 0;
  /** the copies made so far of the pods `take` returns next, in the list's order */
  private copies?: { keys: string[]; values: (PodRecord | null)[]; done: number };

  /** `copyOf` makes the copy a checkpoint keeps of a slot's pod (null: deleted) */
  constructor(private readonly copyOf: (slot: PodSlot) => PodRecord | null) {}

  mark(slot: PodSlot): void {
    if (slot.dirtyRound === this.round) return;
    slot.dirtyRound = this.round;
    this.list.push(slot);
  }

  /** How many pods changed since the last checkpoint. */
  get count(): number {
    return this.list.length;
  }

  /** How many of the pods' copies are made so far (`copy`), of how many: none made yet, or all taken, is undefined. */
  get copied(): { done: number; of: number } | undefined {
    return this.copies && { done: this.copies.done, of: this.copies.keys.length };
  }

  keys(): string[] {
    return this.list.map((s) => s.key);
  }

  clear(): void {
    this.list = [];
    this.round++;
    this.copies = undefined;
  }

  /** Makes up to `max` more of the copies `take` returns next (a pending checkpoint's: no pod changes before it); whether some are left. */
  copy(max: number): boolean {
    const list = this.list;
    const c = (this.copies ??= { keys: new Array<string>(list.length), values: new Array<PodRecord | null>(list.length), done: 0 });
    if (c.keys.length !== list.length) throw new Error('checkpoint: a pod changed while its copies were being made');
    let i = c.done;
    for (const end = Math.min(list.length, i + max); i < end; i++) {
      c.keys[i] = list[i].key;
      c.values[i] = this.copyOf(list[i]);
    }
    return (c.done = i) < list.length;
  }

  /** The pods changed since the last checkpoint, as a checkpoint keeps them, each key once; clears the list. */
  take(): { keys: string[]; values: (PodRecord | null)[] } {
    this.copy(Infinity);
    const { keys, values } = this.copies!;
    this.clear();
    return { keys, values };
  }
}
