import { describe, expect, it } from 'vitest';
import { loggedArgs } from './sessionLog.js';

const secrets = new Map([['API_KEY', 'sk-123456']]);

describe('loggedArgs', () => {
  it('keeps typed text the result echoed and redacts what it did not', () => {
    const shown = 'Typed "alice" into textbox "User".';
    expect(loggedArgs({ ref: 'e1', text: 'alice' }, shown, secrets)).toEqual({
      ref: 'e1',
      text: 'alice',
    });
    expect(loggedArgs({ ref: 'e2', text: 'hunter2' }, 'Typed 7 characters', secrets)).toEqual({
      ref: 'e2',
      text: '[redacted]',
    });
  });

  it('shows a secret name as a name and never a secret value', () => {
    const args = { fields: [{ ref: 'e3', value: 'API_KEY' }], url: 'https://x/?k=sk-123456' };
    expect(loggedArgs(args, '', secrets)).toEqual({
      fields: [{ ref: 'e3', value: '<secret>API_KEY</secret>' }],
      url: 'https://x/?k=<secret>API_KEY</secret>',
    });
  });

  it('redacts typed text in nested values and objects under a typed key', () => {
    expect(loggedArgs({ values: ['a1', 'b2'] }, '"a1"', secrets)).toEqual({
      values: ['a1', '[redacted]'],
    });
    expect(loggedArgs({ value: { x: 1 } }, '', secrets)).toEqual({ value: '[redacted]' });
  });
});
