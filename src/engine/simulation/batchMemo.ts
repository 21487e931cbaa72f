/**
 * Recognises a batch of records seen before. Kubelets on one renewal grid
 * renew the same Lease records, in the same order, every 10 s: at 5,000 nodes
 * that is 1.8 million renewals an hour, and a string-keyed look-up per
 * renewal (to find what a consumer keeps per node) was a cache miss each
 * time. A batch is matched to a remembered one by its first record and then
 * record by record (pointer compares, no hashing), and the consumer gets back
 * what it made for each record the first time.
 *
 * A remembered batch is a copy, so the caller may reuse its array.
 */
export interface Remembered<R, V> {
  readonly records: readonly R[];
  readonly values: V[];
  /** free for the consumer (e.g. whether it already did its once-per-batch work) */
  mark: unknown;
}

/** Batches whose first record differs (renewal grids) are kept apart; more than this and all are forgotten. */
const MAX_REMEMBERED = 16;

export class BatchMemo<R, V> {
  private byFirst = new Map<R, Remembered<R, V>>();

  /** The first `count` records of `batch`, as remembered (made with `make` and remembered when new or changed). */
  get(batch: readonly R[], count: number, make: (record: R) => V): Remembered<R, V> | undefined {
    if (count === 0) return undefined;
    const first = batch[0];
    const known = this.byFirst.get(first);
    if (known && known.records.length === count) {
      let same = true;
      for (let i = 1; i < count; i++) {
        if (known.records[i] !== batch[i]) {
          same = false;
          break;
        }
      }
      if (same) return known;
    }
    const records = batch.slice(0, count);
    const made: Remembered<R, V> = { records, values: records.map(make), mark: undefined };
    if (!known && this.byFirst.size >= MAX_REMEMBERED) this.byFirst.clear();
    this.byFirst.set(first, made);
    return made;
  }

  clear(): void {
    this.byFirst.clear();
  }
}
