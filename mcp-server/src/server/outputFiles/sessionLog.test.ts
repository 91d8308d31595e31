import { describe, expect, it } from 'vitest';
import { findContract } from '@browser-agent/protocol';
import { loggedArgs } from './sessionLog.js';

const secrets = new Map([['API_KEY', 'sk-123456']]);
const typing = findContract('browser_type');

describe('loggedArgs', () => {
  it('keeps typed text the result echoed and redacts what it did not', () => {
    const shown = 'Typed "alice" into textbox "User".';
    expect(loggedArgs({ ref: 'e1', text: 'alice' }, typing, shown, secrets)).toEqual({
      ref: 'e1',
      text: 'alice',
    });
    expect(
      loggedArgs({ ref: 'e2', text: 'hunter2' }, typing, 'Typed 7 characters', secrets),
    ).toEqual({
      ref: 'e2',
      text: '[redacted]',
    });
  });

  it('shows a secret name as a name and never a secret value', () => {
    const args = { fields: [{ ref: 'e3', value: 'API_KEY' }], url: 'https://x/?k=sk-123456' };
    expect(loggedArgs(args, findContract('browser_fill_form'), '', secrets)).toEqual({
      fields: [{ ref: 'e3', value: '<secret>API_KEY</secret>' }],
      url: 'https://x/?k=<secret>API_KEY</secret>',
    });
  });

  it('redacts typed text in nested values and objects under a typed key', () => {
    expect(
      loggedArgs({ values: ['a1', 'b2'] }, findContract('browser_select_option'), '"a1"', secrets),
    ).toEqual({ values: ['a1', '[redacted]'] });
    expect(loggedArgs({ value: { x: 1 } }, { typedArgs: ['value'] }, '', secrets)).toEqual({
      value: '[redacted]',
    });
  });

  it('hides what the contract says is typed, and nothing by a list of its own', () => {
    const args = { text: 'hunter2', note: 'hunter3' };
    expect(loggedArgs(args, { typedArgs: ['note'] }, '', secrets)).toEqual({
      text: 'hunter2',
      note: '[redacted]',
    });
    expect(loggedArgs(args, undefined, '', secrets)).toEqual(args);
  });
});
