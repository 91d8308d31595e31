import { describe, expect, it } from 'vitest';
import { ErrorCode } from '@browser-agent/protocol';
import type { ApprovalQuestion } from '../../shared/messages';
import { refuseWhileAsked } from './openQuestionGuard';

const open = { tabId: 7, sessionId: 's1', id: 'q1' } as ApprovalQuestion;

describe('refuseWhileAsked', () => {
  it('refuses any agent call on a tab with an open question, and only there', () => {
    const questions = { all: () => [open] };
    expect(() => refuseWhileAsked(questions, 7)).toThrow(
      expect.objectContaining({ code: ErrorCode.PAUSED }),
    );
    expect(() => refuseWhileAsked(questions, 7)).toThrow(/only the person may answer it/);
    expect(() => refuseWhileAsked(questions, 8)).not.toThrow();
    expect(() => refuseWhileAsked(questions, undefined)).not.toThrow();
    expect(() => refuseWhileAsked({ all: () => [] }, 7)).not.toThrow();
  });
});
