import { describe, expect, it } from 'vitest';
import type { ApprovalQuestion } from '../../shared/messages';
import { ApprovalQuestions, type QuestionParts } from './approvalQuestions';

const parts: QuestionParts = {
  kind: 'action',
  sessionId: 's1',
  client: 'agent',
  targetOrigin: 'https://x.test',
  fields: [],
  scopes: ['once', 'task'],
};

describe('ApprovalQuestions', () => {
  it('closes a question everywhere when the call that asked it ends (its signal aborts)', async () => {
    const seen: ApprovalQuestion[][] = [];
    const questions = new ApprovalQuestions((q) => seen.push(q));
    const call = new AbortController();
    // -1: no tab, so no chrome.tabs lookup.
    const answer = questions.ask(-1, parts, Date.now() + 60_000, call.signal);
    await expect.poll(() => questions.all().length).toBe(1);
    call.abort();
    expect(await answer).toEqual({ verdict: 'timeout', scope: 'once' });
    expect(questions.all()).toEqual([]);
    expect(seen.at(-1)).toEqual([]);
    // A late answer (the agent's own click on a stale box) finds nothing to answer.
    questions.answer(seen[0]?.[0]?.id ?? '', true, 'task');
    expect(questions.all()).toEqual([]);
  });

  it('ends the questions about a tab that closed, unanswered, and only those', async () => {
    const questions = new ApprovalQuestions(() => undefined);
    // -1: no tab, so no chrome.tabs lookup; the other session's question has no tab either.
    const gone = questions.ask(-1, parts, Date.now() + 60_000);
    const other = questions.ask(-1, { ...parts, sessionId: 's2' }, Date.now() + 60_000);
    await expect.poll(() => questions.all().length).toBe(2);
    questions.endForTab(7);
    expect(questions.all()).toHaveLength(2);
    questions.endForTab(-1);
    expect(await gone).toEqual({ verdict: 'timeout', scope: 'once' });
    expect(await other).toEqual({ verdict: 'timeout', scope: 'once' });
    expect(questions.all()).toEqual([]);
  });

  it('asks nothing for a call that has already ended', async () => {
    const questions = new ApprovalQuestions(() => undefined);
    const call = new AbortController();
    call.abort();
    expect(await questions.ask(-1, parts, Date.now() + 60_000, call.signal)).toEqual({
      verdict: 'timeout',
      scope: 'once',
    });
    expect(questions.all()).toEqual([]);
  });
});
