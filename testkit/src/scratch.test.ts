/**
 * freePort draws from outside the kernel's ephemeral range: a port from listen(0) could be handed
 * to an outgoing connection before the daemon binds it (CI saw a daemon find its port taken).
 */
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { ephemeralRange, freePort } from './scratch.js';

describe('freePort', () => {
  it('gives a bindable port below the ephemeral range', async () => {
    const [low] = ephemeralRange();
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(low);
    }
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(ports[0], '127.0.0.1', resolve);
    });
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
});
