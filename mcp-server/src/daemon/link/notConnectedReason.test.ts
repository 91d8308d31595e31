import { describe, expect, it } from 'vitest';
import { whyNotConnected, type LinkFacts } from './notConnectedReason.js';

const facts = (over: Partial<LinkFacts>): LinkFacts => ({
  connected: false,
  skew: undefined,
  pairingCode: () => 'ABCDE-12345',
  awaitingCode: false,
  paired: () => false,
  launchError: undefined,
  launching: false,
  port: 3026,
  extensionRelease: '0.1.0',
  ...over,
});

describe('why a call finds no extension link', () => {
  it('tells a paired browser whose panel was closed to open the side panel, not a new code', () => {
    const error = whyNotConnected(facts({ paired: () => true }));
    expect(error?.code).toBe('NOT_CONNECTED');
    expect(error?.hint).toMatch(/open the Browser Agent side panel/);
    expect(JSON.stringify(error)).not.toContain('ABCDE-12345');
  });

  it('tells the code while a panel waits for it, paired or not, and before any pairing', () => {
    for (const over of [{ paired: () => true, awaitingCode: true }, { paired: () => false }]) {
      const error = whyNotConnected(facts(over));
      expect(error?.code).toBe('NOT_PAIRED');
      expect(error?.message).toContain('ABCDE-12345');
    }
  });
});
