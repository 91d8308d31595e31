import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PairingStore, pairingId, provisionPairing } from './pairingStore.js';

describe('provisionPairing', () => {
  it('adds a pairing the daemon finds, and hands its secret over in the fragment', () => {
    const home = path.join(mkdtempSync(path.join(os.tmpdir(), 'ba-pair-')), 'state');
    const first = provisionPairing(home, 'e2e');
    const second = provisionPairing(home, 'e2e');

    const stored = new PairingStore(home).all();
    expect(stored.map((p) => p.label)).toEqual(['e2e', 'e2e']);
    for (const [fragment, pairing] of [
      [first, stored[0]],
      [second, stored[1]],
    ] as const) {
      const match = /^#pair=([^.]+)\.(.+)$/.exec(fragment);
      expect(match?.[1]).toBe(pairing?.id);
      expect(match?.[2]).toBe(pairing?.secret);
      expect(pairingId(Buffer.from(match?.[2] ?? '', 'base64'))).toBe(pairing?.id);
    }
    expect(statSync(path.join(home, 'pairings.json')).mode & 0o777).toBe(0o600);
    expect(statSync(home).mode & 0o777).toBe(0o700);
  });
});
