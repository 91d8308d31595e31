import { describe, expect, it } from 'vitest';
import { secretKind } from './secretKind';

describe('secretKind', () => {
  it('tells passwords, card fields and one-time codes apart from other inputs', () => {
    expect(secretKind('password', null)).toBe('password');
    expect(secretKind('PASSWORD', 'off')).toBe('password');
    expect(secretKind('text', 'cc-number')).toBe('payment card');
    expect(secretKind('text', 'billing cc-exp')).toBe('payment card');
    expect(secretKind('text', 'one-time-code')).toBe('one-time code');
    expect(secretKind('text', 'username')).toBeUndefined();
    expect(secretKind('email', 'email')).toBeUndefined();
    expect(secretKind(undefined, 'section-cc-blue name')).toBeUndefined();
  });
});
