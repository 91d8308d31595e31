import { describe, expect, it } from 'vitest';
import { SECRET_FIELD_FUNCTION, secretKind } from './secretKind';

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

describe('one secret rule everywhere', () => {
  it('counts autocomplete tokens anywhere in the list, and password names on text fields', () => {
    expect(secretKind('text', 'billing cc-number')).toBe('payment card');
    expect(secretKind('text', 'current-password')).toBe('password');
    expect(secretKind('text', null, 'user[password]')).toBe('password');
    expect(secretKind('text', null, 'pwd')).toBe('password');
    expect(secretKind('text', null, 'passenger')).toBeUndefined();
    expect(secretKind('text', null, 'passport-number')).toBeUndefined();
    expect(secretKind('checkbox', null, 'show-password')).toBeUndefined();
  });
  it('has a page-side twin that agrees with it', () => {
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the twin is page-side source
    const make = new Function(`return ${SECRET_FIELD_FUNCTION}`) as () => (el: unknown) => boolean;
    const isSecretField = make();
    const input = (attrs: Record<string, string>) => ({
      localName: 'input',
      type: attrs['type'] ?? 'text',
      id: attrs['id'] ?? '',
      getAttribute: (n: string) => attrs[n] ?? null,
    });
    expect(isSecretField(input({ type: 'password' }))).toBe(true);
    expect(isSecretField(input({ autocomplete: 'billing cc-number' }))).toBe(true);
    expect(isSecretField(input({ name: 'user[password]' }))).toBe(true);
    expect(isSecretField(input({ id: 'pwd' }))).toBe(true);
    expect(isSecretField(input({ name: 'email', type: 'email' }))).toBe(false);
    expect(isSecretField(input({ name: 'q' }))).toBe(false);
  });
});
