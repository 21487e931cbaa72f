/**
 * A checkpoint's pod map key order, made only when read. A checkpoint after pods came or went
 * copied the live map's 150,000 keys (at 5,000 nodes) whole, about a third of the save, though
 * only a restore that puts a deleted pod back (and a hand-off) ever reads the order. The order is
 * instead the previous checkpoint's and the key log since (SimHost.podKeyLog: in pairs, key and
 * added), which the checkpoint keeps anyway; reading it applies the log once and keeps the result.
 */
export class PodKeyOrder {
  private keys: readonly string[] | undefined;
  private base: PodKeyOrder | undefined;
  private log: readonly (string | boolean)[] | undefined;

  private constructor(keys: readonly string[] | undefined, base: PodKeyOrder | undefined, log: readonly (string | boolean)[] | undefined) {
    this.keys = keys;
    this.base = base;
    this.log = log;
  }

  /** The order of these keys (never edited afterwards). */
  static of(keys: readonly string[]): PodKeyOrder {
    return new PodKeyOrder(keys, undefined, undefined);
  }

  /** The order after `log` (in pairs: key, added) on a map in `base`'s order; `base` itself when nothing came or went. */
  static after(base: PodKeyOrder, log: readonly (string | boolean)[]): PodKeyOrder {
    return log.length === 0 ? base : new PodKeyOrder(undefined, base, log);
  }

  /** Whether the order is made (not only a base and a log). */
  get made(): boolean {
    return this.keys !== undefined;
  }

  get order(): readonly string[] {
    if (this.keys !== undefined) return this.keys;
    // the logs back to the nearest order made, applied oldest first (no recursion: a long run of
    // checkpoints none of which was read is a long chain)
    const logs: (readonly (string | boolean)[])[] = [this.log!];
    let at = this.base!;
    while (at.keys === undefined) {
      logs.push(at.log!);
      at = at.base!;
    }
    let keys: readonly string[] = at.keys;
    for (let i = logs.length - 1; i >= 0; i--) keys = keysAfter(keys, logs[i]);
    this.keys = keys;
    // the chain behind is no longer needed here (other checkpoints may still hold it)
    this.base = undefined;
    this.log = undefined;
    return keys;
  }
}

/**
 * A Map's key order after the deletions and insertions of `log`, from `keys`: a key deleted leaves
 * its place; a key inserted goes last, after every key inserted before it (deleted and inserted
 * again: last too). The log holds an insertion only of a key the map did not hold (SimHost.addPod).
 */
export function keysAfter(keys: readonly string[], log: readonly (string | boolean)[]): string[] {
  const deleted = new Set<string>();
  const tail = new Map<string, true>();
  for (let i = 0; i < log.length; i += 2) {
    const key = log[i] as string;
    tail.delete(key);
    if (log[i + 1] === true) tail.set(key, true);
    else deleted.add(key);
  }
  const out: string[] = [];
  if (deleted.size === 0) for (const k of keys) out.push(k);
  else for (const k of keys) if (!deleted.has(k)) out.push(k);
  for (const k of tail.keys()) out.push(k);
  return out;
}
