import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode, type ResponseFrame } from '@browser-agent/protocol';
import type { GuardMessage } from '../../shared/messages';
import { CallResponse } from '../callResponse';
import type { PendingResponse } from '../dispatcher';
import { ApprovalQuestions } from './approvalQuestions';
import { SubmitApprovals } from './submitApprovals';

/** What the worker told the tab's guards, in order. */
function stubTabs(): GuardMessage[] {
  const told: GuardMessage[] = [];
  vi.stubGlobal('chrome', {
    tabs: {
      get: () => Promise.resolve({ title: 'Shop', url: 'https://shop.test/' }),
      sendMessage: (_tabId: number, message: GuardMessage) => {
        told.push(message);
        return Promise.resolve(false);
      },
    },
  });
  return told;
}

afterEach(() => vi.unstubAllGlobals());

describe('SubmitApprovals.guardCall (issue #25: a question belongs to its call)', () => {
  it('closes the question and drops the held submit when its call ends (cancel, timeout or session end abort its signal)', async () => {
    for (const kind of ['secret', 'irreversible'] as const) {
      const told = stubTabs();
      const questions = new ApprovalQuestions(() => undefined);
      const approvals = new SubmitApprovals({
        cdpFor: () => Promise.reject(new Error('an allowed submit would need the tab')),
        questions,
      });
      const call = new AbortController();
      const response = new CallResponse();
      const pending: PendingResponse = { response, render: () => ({}) as ResponseFrame };
      const answered = approvals.guardCall(
        {
          sessionId: 's1',
          tabIds: [1],
          client: 'agent',
          limitMs: 60_000,
          secret: kind === 'secret',
          irreversible: kind === 'irreversible',
          signal: call.signal,
        },
        () => {
          // The call's click made the page submit; the guard held it.
          approvals.held(1, 0, {
            id: 7,
            targetOrigin: 'https://shop.test',
            fields: kind === 'secret' ? ['password'] : [],
            irreversible: kind === 'irreversible' ? ['buy or pay'] : undefined,
            label: 'Place order',
          });
          return Promise.resolve(pending);
        },
      );
      await expect.poll(() => questions.all().length).toBe(1);
      const id = questions.all()[0]?.id ?? '';
      call.abort(new Error('Cancelled: the client cancelled the call.'));
      // Closed everywhere at once, not at its deadline a minute later.
      await expect.poll(() => questions.all().length).toBe(0);
      await answered;
      // A late Allow (the agent clicking the stale overlay) answers nothing and sends nothing.
      questions.answer(id, true, 'task');
      expect(told).toContainEqual({ kind: 'guard_release', id: 7, allow: false });
      expect(told).not.toContainEqual({ kind: 'guard_release', id: 7, allow: true });
      expect(response.failed).toBe(true);
      expect(response.errorCode).not.toBe(ErrorCode.USER_DENIED);
    }
  });
});
