/**
 * `version`: the tool's own version and the range of Kubernetes versions
 * whose kube-controller-manager it simulates.
 */
import { MAX_MINOR, MIN_MINOR } from '../../engine/versions/table';
import type { ParsedArgs } from '../args';
import { UsageError } from '../args';
import type { CliIo } from '../io';

export function version(args: ParsedArgs, io: CliIo): number {
  if (args.files.length) throw new UsageError('version takes no arguments');
  io.out(`controller-stepper ${io.toolVersion ?? '(version unknown)'}\nsimulates kube-controller-manager 1.${MIN_MINOR} to 1.${MAX_MINOR}\n`);
  return 0;
}
