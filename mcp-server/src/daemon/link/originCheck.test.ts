import { describe, expect, it } from 'vitest';
import { EXTENSION_ORIGIN } from '@browser-agent/protocol';
import { checkUpgrade } from './originCheck.js';

describe('checkUpgrade', () => {
  it('accepts our origin with a loopback host on our port', () => {
    expect(checkUpgrade(EXTENSION_ORIGIN, '127.0.0.1:3026', 3026)).toBeUndefined();
    expect(checkUpgrade(EXTENSION_ORIGIN, 'localhost:3026', 3026)).toBeUndefined();
    expect(checkUpgrade(EXTENSION_ORIGIN, '[::1]:3026', 3026)).toBeUndefined();
  });
  it('refuses other origins, foreign hosts and other ports', () => {
    expect(checkUpgrade('http://127.0.0.1:5173', '127.0.0.1:3026', 3026)).toMatch(/Origin/);
    expect(checkUpgrade(undefined, '127.0.0.1:3026', 3026)).toMatch(/Origin/);
    expect(checkUpgrade(EXTENSION_ORIGIN, 'attacker.test:3026', 3026)).toMatch(/loopback/);
    expect(checkUpgrade(EXTENSION_ORIGIN, '127.0.0.1.nip.io:3026', 3026)).toMatch(/loopback/);
    expect(checkUpgrade(EXTENSION_ORIGIN, '127.0.0.1:9999', 3026)).toMatch(/port/);
    expect(checkUpgrade(EXTENSION_ORIGIN, undefined, 3026)).toMatch(/Host/);
  });
});
