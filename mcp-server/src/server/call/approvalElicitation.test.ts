/**
 * Issue #28.2 on the server's side: the elicited question has the panel's words with secret
 * values shown by name, and an answer outside its choices is asked again (saying so) instead of
 * being ignored until the extension's APPROVAL_TIMEOUT.
 */
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { APPROVAL_QUESTION_EVENT, type ApprovalScope } from '@browser-agent/protocol';
import { ApprovalElicitation, MAX_REASKS, NOT_A_CHOICE } from './approvalElicitation.js';

const quiet = { info: () => undefined, warn: () => undefined } as never;

/** A client that answers each elicitation with the next of `answers`, and records what it saw. */
async function pair(answers: string[]) {
  const server = new Server({ name: 's', version: '1' }, { capabilities: {} });
  const client = new Client({ name: 'c', version: '1' }, { capabilities: { elicitation: {} } });
  const asked: string[] = [];
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(String(request.params.message));
    return { action: 'accept', content: { answer: answers.shift() ?? 'Deny' } };
  });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  return { server, asked };
}

function question(message: string, scopes: ApprovalScope[] = ['once', 'task']) {
  return {
    type: 'event' as const,
    sessionId: 's1',
    event: APPROVAL_QUESTION_EVENT,
    data: { questionId: 'q1', message, scopes, expiresAt: Date.now() + 5_000 },
  };
}

async function answered(
  sent: Array<[boolean, ApprovalScope]>,
  count = 1,
): Promise<Array<[boolean, ApprovalScope]>> {
  for (let i = 0; i < 200 && sent.length < count; i += 1)
    await new Promise((r) => setTimeout(r, 10));
  return sent;
}

describe('ApprovalElicitation', () => {
  it('asks again, saying so, when the answer is not one of the choices', async () => {
    const { server, asked } = await pair(['yes please', 'Allow for the rest of this task']);
    const sent: Array<[boolean, ApprovalScope]> = [];
    const elicitation = new ApprovalElicitation(
      server,
      (_id, allow, scope) => sent.push([allow, scope]),
      quiet,
    );
    elicitation.onEvent(question('Let Claude Code click the button “Send” on shop.test?'));
    expect(await answered(sent)).toEqual([[true, 'task']]);
    expect(asked).toHaveLength(2);
    expect(asked[0]).not.toContain(NOT_A_CHOICE);
    expect(asked[1]).toContain(NOT_A_CHOICE);
    expect(asked[1]).toContain('click the button “Send” on shop.test');
  });

  it('stops asking a client that never picks a choice; the question stays open elsewhere', async () => {
    const { server, asked } = await pair(Array.from({ length: 20 }, () => 'maybe'));
    const sent: Array<[boolean, ApprovalScope]> = [];
    const elicitation = new ApprovalElicitation(
      server,
      (_id, allow, scope) => sent.push([allow, scope]),
      quiet,
    );
    elicitation.onEvent(question('Let Zed click the button “Buy” on shop.test?'));
    await expect.poll(() => asked.length).toBe(MAX_REASKS + 1);
    await new Promise((r) => setTimeout(r, 100));
    expect(asked).toHaveLength(MAX_REASKS + 1);
    expect(sent).toEqual([]);
  });

  it('shows a secret value typed in the question by its name', async () => {
    const { server, asked } = await pair(['Deny']);
    const sent: Array<[boolean, ApprovalScope]> = [];
    const elicitation = new ApprovalElicitation(
      server,
      (_id, allow, scope) => sent.push([allow, scope]),
      quiet,
      (text) => text.replaceAll('hunter2', '<secret>PASSWORD</secret>'),
    );
    elicitation.onEvent(question('Let Cursor type “hunter2” into the textbox “Notes”?'));
    expect(await answered(sent)).toEqual([[false, 'once']]);
    expect(asked[0]).toContain('<secret>PASSWORD</secret>');
    expect(asked[0]).not.toContain('hunter2');
  });
});
