/**
 * `kubectl cluster-info dump` printed to stdout (k8s.io/kubectl/pkg/cmd/clusterinfo
 * clusterinfo_dump.go): JSON lists one after another (NodeList, then per
 * namespace EventList, ReplicationControllerList, ..., PodList), with each
 * pod's container logs between `==== START logs for container C of pod NS/P ====`
 * and `==== END logs for container C of pod NS/P ====`. The lists are the
 * snapshot (the snapshot loader reads this layout; `import` hands the file to
 * it); here the EventLists are read as `kubectl get events -o json` and the
 * kube-controller-manager container's log as a controller-manager log.
 */
import type { Line } from './lines';
import { importControllerLog } from './controllerLog';
import { importKubectlEvents } from './kubectlEvents';
import type { ImportResult } from './types';
import type { ImportOptions } from './options';

const START = /^==== START logs for container (\S+) of pod (\S+) ====$/;
const END = /^==== END logs for container \S+ of pod \S+ ====$/;

export function importClusterInfoDump(file: string, lines: Iterable<Line>, options: ImportOptions, into: ImportResult): number {
  const kcmLog: Line[] = [];
  let inKcm = false;
  let inLogs = false;
  let json: Line[] | undefined;
  let count = 0;
  for (const line of lines) {
    count = line.n;
    const start = START.exec(line.text);
    if (start) {
      inLogs = true;
      inKcm = start[1] === 'kube-controller-manager' || /^kube-system\/kube-controller-manager/.test(start[2]);
      continue;
    }
    if (END.test(line.text)) {
      inLogs = false;
      inKcm = false;
      continue;
    }
    if (inLogs) {
      if (inKcm) kcmLog.push(line);
      continue;
    }
    // a JSON list starts with `{` and ends with `}` at the start of a line; only EventLists are kept
    if (line.text === '{') {
      json = [line];
      continue;
    }
    if (json) {
      json.push(line);
      if (json.length === 2 && !/"kind":\s*"EventList"/.test(line.text)) json = undefined;
      else if (line.text === '}') {
        importKubectlEvents(file, json, into);
        json = undefined;
      }
    }
  }
  if (kcmLog.length) importControllerLog(file, kcmLog, options, into);
  return count;
}
