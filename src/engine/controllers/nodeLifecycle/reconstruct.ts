/**
 * controllerMemory reconstructed (spec 1.4): the health map, knownNodeSet and
 * processed queue entries from the snapshot, as if the controller had been
 * running all along; and the AssumptionMade decision that roots the first
 * decisions about nodes already unhealthy in the snapshot.
 */
import { copyNodeCondition } from '../../model/records';
import { formatTime, type Micros } from '../../model/time';
import { nodeRef, zoneRef, type NodeRecord } from '../../model/types';
import type { ControllerHost } from '../controllerHost';
import { NodeHealthData } from './nodeHealthData';
import { NodeLifecycleState } from './state';
import { findCondition, noExecuteFor, taintExists } from './taints';

export function recordMemoryAssumption(nlc: NodeLifecycleState, host: ControllerHost): void {
  const reconstructed = nlc.memory === 'reconstructed';
  nlc.assumptionSeq = host.decide({
    controller: 'world',
    action: 'AssumptionMade',
    object: 'ControllerManager/kube-controller-manager',
    summary: reconstructed
      ? 'Node lifecycle controller memory reconstructed from the snapshot, as if it had been running all along'
      : 'Node lifecycle controller starts with empty memory: every node is newly observed now',
    because: reconstructed
      ? [
          {
            rule: "probeTimestamp = the later of the Ready condition's lastHeartbeatTime and the Lease's renewTime (creationTimestamp when the node never posted Ready)",
          },
          { rule: "readyTransitionTimestamp = the Ready condition's lastTransitionTime" },
          { rule: 'nodes that already carry the NoExecute taint matching their Ready status count as already tainted (not queued again)' },
          { rule: 'zone states start Initial and are computed at the first monitor pass', values: { firstPass: formatTime(host.controllerStartTime) } },
        ]
      : [
          {
            rule: 'probeTimestamp = readyTransitionTimestamp = the first monitor pass, for every node that has a Ready condition',
            values: { firstPass: formatTime(host.controllerStartTime) },
          },
          {
            rule: 'every node is registered anew: markNodeAsReachable removes its not-ready/unreachable NoExecute taints (taint-based evictions) or cancelPodEviction forgets it',
          },
        ],
    source: reconstructed ? 'controller-stepper: controllerMemory reconstructed (spec 1.4)' : 'controller-stepper: controllerMemory fresh (spec 1.4)',
  });
}

/**
 * probeTimestamp as reconstructed: the later of Ready's lastHeartbeatTime (creationTimestamp without Ready) and the
 * Lease's renewTime; `from` names which.
 */
export function reconstructedProbe(nlc: Pick<NodeLifecycleState, 'rules'>, host: ControllerHost, node: NodeRecord): { at: Micros; from: string } {
  const ready = findCondition(node.conditions, 'Ready');
  const renew = nlc.rules.readsLeases ? host.cluster.leases.get(node.meta.name)?.renewTime : undefined;
  const base = ready ? ready.lastHeartbeatTime : node.meta.creationTimestamp;
  if (renew !== undefined && renew > base) return { at: renew, from: 'Lease renewTime' };
  return { at: base, from: ready ? 'Ready lastHeartbeatTime' : 'creationTimestamp (no Ready condition)' };
}

/** Nodes reconstructed between two questions to the wake's shouldYield (nlc.ask). */
const YIELD_EVERY = 16;

/**
 * controllerMemory reconstructed: the health map, knownNodeSet and processed queue entries from the
 * snapshot; a generator the first monitor pass runs, which yields when nlc.ask says so (5,000 nodes).
 */
export function* reconstruct(nlc: NodeLifecycleState, host: ControllerHost, names: string[]): Generator<void, void, void> {
  nlc.slots.unsettleAll();
  nlc.reconstructPending = false;
  let n = 0;
  for (const name of names) {
    if (++n % YIELD_EVERY === 0 && nlc.ask?.()) yield;
    const node = host.cluster.nodes.get(name)!;
    const ref = nodeRef(name);
    const inKnownNodeSet = nlc.known.has(name);
    nlc.known.set(name, node.meta.uid);
    nlc.refreshTrack(host, name);
    const t = nlc.tracks.get(name)!;
    nlc.addPodEvictorForNewZone(t.zone);
    const ready = findCondition(node.conditions, 'Ready');
    const lease = nlc.rules.readsLeases ? host.cluster.leases.get(name) : undefined;
    const { at: probe, from } = reconstructedProbe(nlc, host, node);
    nlc.setHealth(
      name,
      new NodeHealthData(
        probe,
        ready ? ready.lastTransitionTime : node.meta.creationTimestamp,
        ready ? copyNodeCondition(ready) : null,
        lease !== undefined,
        lease?.renewTime,
      ),
    );
    // registered as if observed long ago (classifyNodes' check, as in registerNode), then its Ready as the snapshot has it
    const added = nlc.sendNode(name, { type: 'NODE_ADDED', inKnownNodeSet });
    const obs = ready ? nlc.sendNode(name, { type: 'READY_OBSERVED', status: ready.status }) : null;
    let tainted = false;
    if (nlc.rules.taintBasedEvictions && ready && ready.status !== 'True') {
      if (taintExists(node.taints, noExecuteFor(ready.status)!.taint)) {
        const answer = nlc.askNode(name, { type: 'TAINT_PASS', reconstructed: true });
        if (answer) {
          nlc.queues.get(t.zone)!.markProcessed(name);
          nlc.commitNode(answer);
          tainted = true;
        }
      }
    }
    // the checks made when read (5,000 NodeRegistered at 5,000 nodes in the first pass, few ever read), from what they are made of now
    const transition = ready ? ready.lastTransitionTime : node.meta.creationTimestamp;
    const status = ready?.status ?? 'none';
    const zone = t.zone;
    nlc.decide(
      host,
      {
        action: 'NodeRegistered',
        object: ref,
        summary: `Registered Node ${name} in Controller (memory reconstructed from the snapshot)`,
        because: [],
        machine: obs ?? added,
        source: 'controller-stepper: controllerMemory reconstructed (spec 1.4)',
      },
      () => [
        {
          rule: 'controllerMemory reconstructed: probeTimestamp = later of Ready lastHeartbeatTime and Lease renewTime; readyTransitionTimestamp = Ready lastTransitionTime',
          values: { probeTimestamp: formatTime(probe), from, readyTransitionTimestamp: formatTime(transition), Ready: status, zone: zoneRef(zone) },
        },
        ...(tainted ? [{ rule: 'the node already carries the NoExecute taint matching its Ready status: counted as tainted, not queued again' }] : []),
      ],
    );
    nlc.dirty.add(name);
    if (!nlc.watch.has(name)) nlc.watch.set(name, nlc.slots.of(name));
  }
}
