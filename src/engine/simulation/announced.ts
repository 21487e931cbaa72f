/**
 * The names announced since the view or a checkpoint last cleared them, for
 * the kubelets' batches (every node's heartbeat, every Lease renewal) that
 * repeat from pass to pass: a batch already put in the set since its last
 * clear is not walked again.
 */
import type { BatchMemo } from './batchMemo';

/**
 * Puts the names of a kubelets' batch (as `memo` remembers it) in `set`, unless they were all put
 * there since the set's last clear; false for an empty batch.
 */
export function markBatch<R>(memo: BatchMemo<R, string>, batch: readonly R[], count: number, name: (r: R) => string, set: ClearCountingSet<string>): boolean {
  const known = memo.get(batch, count, name);
  if (!known) return false;
  if (known.mark !== set.clears) {
    for (const n of known.values) set.add(n);
    known.mark = set.clears;
  }
  return true;
}

/** A Set that counts its clears: names added since a clear are known to be in it while the count is unchanged. */
export class ClearCountingSet<T> extends Set<T> {
  clears = 0;
  override clear(): void {
    this.clears++;
    super.clear();
  }
}
