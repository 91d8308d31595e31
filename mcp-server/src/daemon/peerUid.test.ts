import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { checkPeerUid, peerUid } from './peerUid.js';

describe.runIf(process.platform === 'linux')('peerUid', () => {
  it('finds the owner of the other end of a loopback connection', async () => {
    const accepted: Socket[] = [];
    const server = createServer((s) => accepted.push(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    const client = connect(port, '127.0.0.1');
    await new Promise((r) => client.once('connect', r));
    try {
      const clientPort = (client.address() as AddressInfo).port;
      expect(peerUid(clientPort, port)).toBe(process.getuid?.());
      expect(checkPeerUid(clientPort, port)).toBeUndefined();
      // A port with no such connection: nothing to tell, so nothing refused.
      expect(peerUid(1, port)).toBeUndefined();
    } finally {
      client.destroy();
      for (const s of accepted) s.destroy();
      await new Promise((r) => server.close(r));
    }
  });
});
