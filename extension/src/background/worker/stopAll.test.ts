import { describe, expect, it } from 'vitest';
import type { SessionRecord } from '../sessionStore';
import { resumeAllSessions, stopAllSessions } from './stopAll';

function record(sessionId: string, state: SessionRecord['state']): SessionRecord {
  return {
    sessionId,
    client: { name: sessionId, version: '1' },
    project: undefined,
    policy: undefined,
    state,
    groupId: undefined,
    color: 'grey',
    lastActivity: undefined,
    tabIds: [],
    currentTabId: undefined,
  };
}

const states = (records: SessionRecord[]) => records.map((r) => r.state);

describe('Stop all and Resume all', () => {
  it('Resume all resumes exactly the agents Stop all paused', () => {
    const records = [
      record('working', 'active'),
      record('paused-before', 'paused'),
      record('revoked', 'revoked'),
    ];
    stopAllSessions(records);
    expect(states(records)).toEqual(['paused', 'paused', 'revoked']);
    expect(resumeAllSessions(records)).toBe(1);
    expect(states(records)).toEqual(['active', 'paused', 'revoked']);
  });

  it('a second Resume all does nothing, and an agent revoked meanwhile stays revoked', () => {
    const records = [record('a', 'active'), record('b', 'active')];
    stopAllSessions(records);
    const b = records[1];
    if (b) b.state = 'revoked';
    expect(resumeAllSessions(records)).toBe(1);
    expect(states(records)).toEqual(['active', 'revoked']);
    records.forEach((r) => (r.state = 'paused'));
    expect(resumeAllSessions(records), 'the marks are gone after one Resume all').toBe(0);
  });
});
