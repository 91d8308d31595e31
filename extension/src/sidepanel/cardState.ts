/**
 * The one state an agent's card shows, and the sentence under it, derived from one session view
 * so the two never disagree. Order of precedence: revoked, paused, waiting for you (a question of
 * this agent is open), working (a call of it is running), idle. "Working" follows the running
 * call the log shows, not the dispatcher's queue: after a call's answer left, the queue may still
 * hold the recording's screenshot, and the card must not say WORKING under "Idle, last call at".
 */
import type { SessionView } from '../shared/messages';
import { timeOfDay, toolTitle } from '../shared/callSentence';

export const CardState = {
  working: 'working',
  waiting: 'waiting',
  idle: 'idle',
  paused: 'paused',
  revoked: 'revoked',
} as const;
export type CardState = (typeof CardState)[keyof typeof CardState];

/** What the state pill says. */
export const CARD_STATE_LABELS: Record<CardState, string> = {
  working: 'working',
  waiting: 'waiting for you',
  idle: 'idle',
  paused: 'paused',
  revoked: 'revoked',
};

export type CardFacts = Pick<
  SessionView,
  'state' | 'running' | 'pendingQuestion' | 'lastActivity' | 'stoppedByAll'
>;

export function cardState(s: CardFacts): CardState {
  if (s.state === 'revoked') return CardState.revoked;
  if (s.state === 'paused') return CardState.paused;
  if (s.pendingQuestion !== undefined) return CardState.waiting;
  if (s.running !== undefined) return CardState.working;
  return CardState.idle;
}

/** The sentence under the card's head: what the agent does now, or what happens to its calls. */
export function cardDoing(s: CardFacts): string {
  const state = cardState(s);
  switch (state) {
    case CardState.revoked:
      // Revoke releases its tabs (controls.ts): they are the user's now.
      return 'Access revoked: its calls fail with REVOKED. Its tabs were left open for you.';
    case CardState.paused:
      // usableSession.ts refuses each call of a paused session before it runs.
      return s.stoppedByAll
        ? 'Stopped by “Stop all agents”: its calls fail at once with PAUSED until you resume it.'
        : 'Paused: its calls fail at once with PAUSED until you resume it.';
    case CardState.waiting:
      return s.running
        ? `Waiting for your answer to go on with ${toolTitle(s.running.tool)} (since ${timeOfDay(s.running.startedAt)})`
        : 'Waiting for your answer';
    case CardState.working:
      return s.running
        ? `Now: ${toolTitle(s.running.tool)} (since ${timeOfDay(s.running.startedAt)})`
        : 'Working';
    case CardState.idle:
      return s.lastActivity === undefined
        ? 'Idle, no calls yet'
        : `Idle, last call at ${timeOfDay(s.lastActivity)}`;
  }
}

/** The "Stop all agents" and "Resume all" buttons beside the heading, from every card. */
export function allControls(sessions: ReadonlyArray<Pick<SessionView, 'state' | 'stoppedByAll'>>): {
  stopHidden: boolean;
  stopDisabled: boolean;
  resumeHidden: boolean;
} {
  return {
    // A revoked agent cannot act, so there is nothing to stop.
    stopHidden: !sessions.some((s) => s.state !== 'revoked'),
    stopDisabled: !sessions.some((s) => s.state === 'active'),
    resumeHidden: !sessions.some((s) => s.state === 'paused' && s.stoppedByAll),
  };
}
