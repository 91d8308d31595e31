import { describe, expect, it } from 'vitest';
import { normalizeOneTimeCode } from '@browser-agent/protocol';
import { OneTimeCode } from './oneTimeCode.js';

describe('the one-time pairing code', () => {
  it('is shown only after an extension asked, and only for a while', () => {
    const code = new OneTimeCode();
    expect(code.shown(1_000)).toBeUndefined();
    code.requested(1_000);
    expect(code.shown(2_000)).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
    expect(code.shown(1_000 + 11 * 60_000)).toBeUndefined();
  });

  it('is retired after three wrong tries or one use', () => {
    const code = new OneTimeCode();
    const first = code.requested();
    const shown = code.shown();
    code.wrong(first.generation);
    code.wrong(first.generation);
    expect(code.shown()).toBe(shown);
    code.wrong(first.generation);
    expect(code.shown()).not.toBe(shown);
    const second = code.requested();
    expect(second.generation).toBe(first.generation + 1);
    // A late wrong proof against the retired code does not count against the new one.
    code.wrong(first.generation);
    code.wrong(second.generation);
    code.wrong(second.generation);
    expect(code.requested().generation).toBe(second.generation);
    code.used(second.generation);
    expect(code.requested().generation).toBe(second.generation + 1);
  });

  it('is no longer shown once it paired a browser, until another extension asks', () => {
    const changes: (string | undefined)[] = [];
    const code = new OneTimeCode(() => changes.push(code.shown(2_000)));
    const key = code.requested(1_000);
    code.used(key.generation);
    expect(code.shown(2_000)).toBeUndefined();
    // What the status file was told on the change: no pending code.
    expect(changes.at(-1)).toBeUndefined();
    expect(code.requested(3_000).generation).toBe(key.generation + 1);
    expect(code.shown(3_000)).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
  });

  it('reads what people type', () => {
    expect(normalizeOneTimeCode('abcde 12345')).toBe('ABCDE-12345');
    expect(normalizeOneTimeCode('ABCDE-O1I2L')).toBe('ABCDE-01121');
    expect(normalizeOneTimeCode('ABCDE-1234')).toBeUndefined();
    expect(normalizeOneTimeCode('ABCDE-1234U')).toBeUndefined();
  });
});
