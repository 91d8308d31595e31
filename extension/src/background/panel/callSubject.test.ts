import { describe, expect, it } from 'vitest';
import { callSubject } from './callSubject';

describe('callSubject', () => {
  it('says what a wait waits for: text, text going, a selector, the network, a time', () => {
    expect(callSubject('browser_wait_for', { text: 'Done' })).toBe('the text "Done"');
    expect(callSubject('browser_wait_for', { text: 'Done', timeout: 40 })).toBe(
      'the text "Done" (up to 40 s)',
    );
    expect(callSubject('browser_wait_for', { textGone: 'Loading' })).toBe(
      'the text "Loading" to go',
    );
    expect(callSubject('browser_wait_for', { selector: '#out', state: 'hidden' })).toBe(
      '"#out" to be hidden',
    );
    expect(callSubject('browser_wait_for', { networkIdle: true })).toBe('the network to be idle');
    expect(callSubject('browser_wait_for', { time: 3 })).toBe('3 s');
  });

  it('cuts long text and leaves other tools to their titles', () => {
    expect(callSubject('browser_wait_for', { text: 'x'.repeat(100) })).toBe(
      `the text "${'x'.repeat(60)}…"`,
    );
    expect(callSubject('browser_wait_for', {})).toBeUndefined();
    expect(callSubject('browser_click', { text: 'Done' })).toBeUndefined();
  });
});
