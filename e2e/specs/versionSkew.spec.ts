/**
 * Extension and bridge of different releases: the side panel (here the relay page, which shows
 * the same link state) says which side to update and how, for a release skew the link survives
 * and for a protocol skew the daemon refuses. The agent's side is in doctor.spec.
 */
import { WebSocketServer } from 'ws';
import { ErrorCode, parseFrame, serializeFrame } from '@browser-agent/protocol';
import { expect, test } from '../harness.js';

test('a bridge of a newer release: the link works and the panel says to update the extension', async ({
  bridge,
}) => {
  // The daemon this server spawns inherits the override and names release 9.0.0 in its welcome.
  await bridge.connectClient('skew-agent', { env: { BROWSER_AGENT_RELEASE_OVERRIDE: '9.0.0' } });
  const detail = bridge.relay.locator('#status-detail');
  await expect(detail).toContainText('The bridge (browser-agent-mcp) is release 9.0.0');
  await expect(detail).toContainText('Update the extension');
  await expect(bridge.relay.locator('#status')).toHaveAttribute('data-state', 'connected');
});

test('a bridge that refuses the extension for its protocol: the reason stays on show past the close', async ({
  bridge,
  sandbox,
}) => {
  const hint = 'Update the bridge: npm install -g @browser-agent/mcp-server@latest';
  // Stands in for a daemon of another protocol: it answers the hello as versionSkew does.
  const older = new WebSocketServer({ host: '127.0.0.1', port: sandbox.port });
  let hellos = 0;
  older.on('connection', (ws) => {
    ws.on('message', (data) => {
      const parsed = parseFrame(Buffer.from(data as Buffer).toString('utf8'));
      if (!parsed.ok || parsed.frame.type !== 'hello') return;
      hellos++;
      ws.send(
        serializeFrame({
          type: 'error',
          error: {
            code: ErrorCode.VERSION_MISMATCH,
            message:
              'The Browser Agent extension is 0.1.0 (protocol v9) and the bridge is 0.0.1 (protocol v1).',
            hint,
          },
        }),
      );
      ws.close(4004, 'Protocol version mismatch');
    });
  });
  try {
    // A few refusals in, the relay waits a second or two between attempts: what it shows then
    // is what the user reads. Every disconnected moment must show the reason, not a bare
    // "Not connected".
    await expect.poll(() => hellos, { timeout: 20_000 }).toBeGreaterThan(3);
    const shown: string[] = [];
    for (let i = 0; i < 10; i++) {
      // State and words in one read: two reads let a reconnect slip in between (CI saw
      // "disconnected" then the next attempt's "Connecting…").
      const [state, detail] = await bridge.relay.evaluate(() => [
        document.getElementById('status')?.getAttribute('data-state') ?? '',
        document.getElementById('status-detail')?.textContent ?? '',
      ]);
      if (state === 'disconnected') shown.push(detail);
      await new Promise((r) => setTimeout(r, 150));
    }
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.filter((text) => !text.includes(hint))).toEqual([]);
  } finally {
    for (const client of older.clients) client.terminate();
    await new Promise<void>((resolve) => older.close(() => resolve()));
  }
});
