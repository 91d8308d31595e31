/**
 * freePort draws from outside the kernel's ephemeral range: a port from listen(0) could be handed
 * to an outgoing connection before the daemon binds it (CI saw a daemon find its port taken).
 */
import net from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { BROWSER_REFUSED_PORTS, ephemeralRange, freePort } from './scratch.js';

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

  it('never gives a port Chrome refuses to connect to (10080 drew a CI failure)', async () => {
    const [ephemeralLow] = ephemeralRange();
    const high = Math.max(11_000, ephemeralLow) - 1;
    // The first draw lands on 10080, the next one anywhere else.
    const draws = [(10_080 - 10_000 + 0.5) / (high - 10_000 + 1), 0.5];
    const random = vi.spyOn(Math, 'random').mockImplementation(() => draws.shift() ?? 0.5);
    try {
      expect(BROWSER_REFUSED_PORTS.has(await freePort())).toBe(false);
      expect(draws, 'both draws were made').toEqual([]);
    } finally {
      random.mockRestore();
    }
  });
});
