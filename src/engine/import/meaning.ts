/** Turns an event's meaning (eventReasons.ts) into a real decision or an observation. */
import type { Micros } from '../model/time';
import type { EventMeaning } from './eventReasons';
import type { Evidence, ImportResult } from './types';

export function addMeaning(meaning: EventMeaning, time: Micros, evidence: Evidence, into: ImportResult): void {
  if ('decision' in meaning) {
    into.decisions.push({ time, ...meaning.decision, evidence });
    if (meaning.podOnNode) into.observations.push({ kind: 'pod-on-node', ...meaning.podOnNode, evidence });
    return;
  }
  if ('world' in meaning) {
    switch (meaning.world) {
      case 'ready':
      case 'not-ready':
        into.observations.push({
          kind: 'condition',
          time,
          node: meaning.node,
          type: 'Ready',
          status: meaning.world === 'ready' ? 'True' : 'False',
          reason: 'kubelet event',
          evidence,
        });
        return;
      case 'leader':
        into.observations.push({ kind: 'restart', time, identity: meaning.identity, evidence });
        return;
      case 'scheduled':
        into.observations.push({ kind: 'pod-on-node', pod: meaning.pod, node: meaning.node, evidence });
        return;
      case 'scaled':
        into.observations.push({ kind: 'scale', time, replicaSet: meaning.replicaSet, replicas: meaning.replicas, by: 'deployment-controller', evidence });
        return;
    }
  }
}
