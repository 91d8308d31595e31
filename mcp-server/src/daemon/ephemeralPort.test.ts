import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { EXTENSION_ORIGIN } from '@browser-agent/protocol';
import { createLogger } from '../shared/logger.js';
import { ExtensionLink } from './link/extensionLink.js';
import { OneTimeCode } from './link/oneTimeCode.js';
import { PairingStore } from './link/pairingStore.js';

const dir = mkdtempSync(join(tmpdir(), 'ba-ephemeral-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function attempt(port: number, host?: string): Promise<number | 'open'> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}`, {
      origin: EXTENSION_ORIGIN,
      ...(host ? { headers: { Host: host } } : {}),
    });
    ws.once('open', () => {
      ws.close();
      resolve('open');
    });
    ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
    ws.once('error', () => resolve(0));
  });
}

describe('a project daemon on port 0', () => {
  it('listens on an ephemeral port and checks the Host against that port', async () => {
    process.env['BROWSER_AGENT_QUIET'] = '1';
    const events = {
      connected: () => undefined,
      disconnected: () => undefined,
      frame: () => undefined,
      response: () => undefined,
    };
    const link = await ExtensionLink.listen(0, createLogger('test'), events, {
      pairings: new PairingStore(dir),
      code: new OneTimeCode(),
      launched: () => undefined,
    });
    try {
      expect(link.port).toBeGreaterThan(0);
      expect(await attempt(link.port)).toBe('open');
      expect(await attempt(link.port, '127.0.0.1:0')).toBe(403);
    } finally {
      await link.close();
    }
  });
});
