import { describe, expect, it } from 'vitest';
import type { ApprovalQuestion } from '../shared/messages';
import { allControls, cardDoing, cardState, type CardFacts } from './cardState';

const AT = Date.UTC(2026, 0, 1, 10, 42, 7);
const question = { id: 'q1', kind: 'action' } as ApprovalQuestion;

function facts(patch: Partial<CardFacts>): CardFacts {
  return {
    state: 'active',
    running: undefined,
    pendingQuestion: undefined,
    lastActivity: AT,
    stoppedByAll: false,
    ...patch,
  };
}

describe('an agent card shows one state', () => {
  it('is idle with the time of its last call when nothing runs', () => {
    expect(cardState(facts({}))).toBe('idle');
    expect(cardDoing(facts({}))).toMatch(/^Idle, last call at \d\d:\d\d:\d\d$/);
    expect(cardDoing(facts({ lastActivity: undefined }))).toBe('Idle, no calls yet');
  });

  it('is working only while a call runs, and then never says idle', () => {
    const working = facts({ running: { tool: 'browser_wait_for', startedAt: AT } });
    expect(cardState(working)).toBe('working');
    expect(cardDoing(working)).toMatch(/^Now: Wait for \(since \d\d:\d\d:\d\d\)$/);
  });

  it('waits for you while a question of this agent is open, not idle or working', () => {
    const asking = facts({
      pendingQuestion: question,
      running: { tool: 'browser_click', startedAt: AT },
    });
    expect(cardState(asking)).toBe('waiting');
    expect(cardDoing(asking)).toMatch(/^Waiting for your answer to go on with Click/);
  });

  it('says a paused agent’s calls fail at once with PAUSED, whatever else is true', () => {
    const paused = facts({ state: 'paused', pendingQuestion: question });
    expect(cardState(paused)).toBe('paused');
    expect(cardDoing(paused)).toBe(
      'Paused: its calls fail at once with PAUSED until you resume it.',
    );
    expect(cardDoing(facts({ state: 'paused', stoppedByAll: true }))).toContain(
      '“Stop all agents”',
    );
  });

  it('says revoked, and what happened to its calls and tabs', () => {
    const revoked = facts({ state: 'revoked', running: { tool: 'browser_click', startedAt: AT } });
    expect(cardState(revoked)).toBe('revoked');
    expect(cardDoing(revoked)).toBe(
      'Access revoked: its calls fail with REVOKED. Its tabs were left open for you.',
    );
  });
});

describe('Stop all agents and Resume all', () => {
  it('hides Stop all when no agent can act, and shows Resume all only after Stop all', () => {
    expect(allControls([])).toEqual({ stopHidden: true, stopDisabled: true, resumeHidden: true });
    expect(allControls([{ state: 'revoked', stoppedByAll: false }]).stopHidden).toBe(true);
    expect(allControls([{ state: 'active', stoppedByAll: false }])).toEqual({
      stopHidden: false,
      stopDisabled: false,
      resumeHidden: true,
    });
    expect(allControls([{ state: 'paused', stoppedByAll: false }]).resumeHidden).toBe(true);
    expect(allControls([{ state: 'paused', stoppedByAll: true }])).toEqual({
      stopHidden: false,
      stopDisabled: true,
      resumeHidden: false,
    });
  });
});
