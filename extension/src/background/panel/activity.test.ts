import { describe, expect, it } from 'vitest';
import type { RequestFrame } from '@browser-agent/protocol';
import { Activity } from './activity';

function request(action: string, params: unknown): RequestFrame {
  return { type: 'request', id: `${action}-1`, sessionId: 's', action, params };
}

describe('Activity', () => {
  it("hides what the tool's contract calls typed, and keeps the targets", () => {
    const entry = new Activity().started(
      request('browser_fill_form', { fields: [{ ref: 'e1', value: 'hunter2' }] }),
      'agent',
    );
    expect(entry.details).toContain('"ref": "e1"');
    expect(entry.details).not.toContain('hunter2');
    expect(entry.args).toContain('(hidden)');
  });

  it('hides by the contract it is given, not by a list of its own', () => {
    const fake = new Activity((tool) =>
      tool === 'fake_tool' ? { typedArgs: ['note'] } : undefined,
    );
    const entry = fake.started(request('fake_tool', { note: 'typed', text: 'plain' }), 'agent');
    expect(entry.details).not.toContain('typed');
    expect(entry.details).toContain('plain');
    const other = fake.started(request('other_tool', { text: 'plain too' }), 'agent');
    expect(other.details).toContain('plain too');
  });

  it('a wait says what it waits for, while its typed text stays hidden in the details', () => {
    const entry = new Activity().started(
      request('browser_wait_for', { text: 'Order placed', timeout: 5 }),
      'agent',
    );
    expect(entry.subject).toBe('the text "Order placed" (up to 5 s)');
    expect(entry.details).not.toContain('Order placed');
  });

  it('keeps a line for an agent that connects and one that leaves, running nothing', () => {
    const activity = new Activity();
    const joined = activity.sessionEvent('s', 'Claude Code', 'connected');
    activity.sessionEvent('s', 'Claude Code', 'left');
    expect(activity.all().map((e) => [e.client, e.event])).toEqual([
      ['Claude Code', 'connected'],
      ['Claude Code', 'left'],
    ]);
    expect(joined.outcome).toBe('ok');
    expect(activity.running('s')).toBeUndefined();
  });
});
