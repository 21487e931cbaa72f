/** How an import is anchored in time and which version it assumes. */
import type { Micros } from '../model/time';

export interface ImportOptions {
  /**
   * The time relative ages (`15m`) and year-less log times are read against:
   * `--at`, or the importing shell's clock (then `anchorGiven` is false and
   * using it is reported as a warning).
   */
  anchor?: Micros;
  anchorGiven?: boolean;
  /**
   * Without --at, how the anchor was read from the evidence itself (describeClock.ts); then the
   * warning says so instead of blaming the importing shell's clock
   */
  anchorBasis?: string;
  /** `--version 1.x`: whose controllers to simulate */
  version?: string;
}
