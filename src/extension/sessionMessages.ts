/**
 * The webview's messages, already checked at the edge (parseWebviewMessage),
 * each to the session command it asks for.
 */
import type { WebviewMessage } from '../protocol/webview';
import type { SessionResult } from './slices';

/** What the webview's messages ask of a session (Session is one). */
export interface MessageTarget {
  sendAll(): void;
  step(): SessionResult;
  stepBack(): SessionResult;
  nextDecision(): SessionResult;
  previousDecision(): SessionResult;
  reset(): SessionResult;
  goToPass(n: number): SessionResult;
  selectObject(ref: string): SessionResult;
  selectDecision(seq: number): SessionResult;
  whatIf(key: string, value: string): SessionResult;
  runUntil(text: string): SessionResult;
  selectReality(index: number): SessionResult;
  zoneQueue(zone: string, open: boolean): SessionResult;
  allDecisions(): SessionResult;
  replicaSetWindow(refs: readonly string[]): SessionResult;
  nodeWindow(refs: readonly string[]): SessionResult;
  nodeFilter(text: string): SessionResult;
  decisionDetails(seqs: readonly number[]): SessionResult;
}

/** What the panel does itself: playing is a timer of the panel's, dropped files go to the evidence import. */
export interface PanelActions {
  play(): void;
  pause(): void;
  dropEvidence?(uris: string[]): SessionResult;
}

export function handleMessage(s: MessageTarget, m: WebviewMessage, actions: PanelActions): SessionResult {
  switch (m.type) {
    case 'ready':
      s.sendAll();
      return { ok: true };
    case 'painted':
      // the open's paint is on screen (the panel ends the load's progress): the pods' items it did not need are made in
      // idle slices after the next pass (Session.idleSlice), not in one block the first step would wait for
      return { ok: true };
    case 'action':
      switch (m.action) {
        case 'step':
          return s.step();
        case 'stepBack':
          return s.stepBack();
        case 'nextDecision':
          return s.nextDecision();
        case 'previousDecision':
          return s.previousDecision();
        case 'reset':
          return s.reset();
        case 'play':
          actions.play();
          return { ok: true };
        case 'pause':
          actions.pause();
          return { ok: true };
      }
      return { ok: false, message: 'unknown action' };
    case 'goToPass':
      return s.goToPass(m.pass);
    case 'selectObject':
      return s.selectObject(m.object);
    case 'selectDecision':
      return s.selectDecision(m.seq);
    case 'whatIf':
      return s.whatIf(m.key, m.value);
    case 'runUntil':
      return s.runUntil(m.text);
    case 'selectReality':
      return s.selectReality(m.index);
    case 'zoneQueue':
      return s.zoneQueue(m.zone, m.open);
    case 'allDecisions':
      return s.allDecisions();
    case 'replicaSetWindow':
      return s.replicaSetWindow(m.refs);
    case 'nodeWindow':
      return s.nodeWindow(m.refs);
    case 'nodeFilter':
      return s.nodeFilter(m.text);
    case 'decisionDetails':
      return s.decisionDetails(m.seqs);
    case 'dropEvidence':
      return actions.dropEvidence ? actions.dropEvidence(m.uris) : { ok: false, message: 'Dropping evidence needs the extension.' };
  }
}
