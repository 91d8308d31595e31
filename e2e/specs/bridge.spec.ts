import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCode, MAX_FRAME_BYTES, PROTOCOL_VERSION } from '@browser-agent/protocol';
import { callOk, callTool, expect, findRef, snapshot, test } from '../harness.js';
import { agentOn } from '../steps.js';
import {
  exchangeOnSocket,
  probeWebSocketFromNode,
  probeWebSocketFromPage,
  type SocketExchange,
} from '../probes.js';
import { isRunning, processesWithEnv } from '@browser-agent/testkit/procfs';

test.describe('bridge robustness', () => {
  test('web pages on 127.0.0.1 and localhost cannot open the bridge WebSocket; the extension stays connected', async ({
    bridge,
    sandbox,
    site,
    otherSite,
  }) => {
    const client = await bridge.connectClient();
    const bridgeUrl = `ws://127.0.0.1:${sandbox.port}`;

    for (const pageUrl of [site.url('/button.html'), otherSite.url('/button.html', 'localhost')]) {
      const page = await bridge.context.newPage();
      await page.goto(pageUrl);
      const probe = await probeWebSocketFromPage(page, bridgeUrl);
      expect(probe.opened, `${pageUrl} → ${bridgeUrl}: ${probe.events.join(', ')}`).toBe(false);
      await page.close();
    }
    const fromNode = await probeWebSocketFromNode(bridgeUrl, site.origin);
    expect(fromNode.opened, `node with Origin ${site.origin}: ${fromNode.events.join(', ')}`).toBe(
      false,
    );

    await bridge.expectRelayState('connected');
    await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
    findRef(await snapshot(client), 'button', 'Click me');
  });

  test('closing the relay page mid-call fails the call promptly with NOT_CONNECTED; reopening it recovers', async ({
    bridge,
    site,
  }) => {
    const url = site.url('/button.html');
    const client = await agentOn(bridge, url);

    const started = Date.now();
    const pending = callTool(client, 'browser_wait_for', { time: 5 });
    await sleep(500);
    await bridge.relay.close();
    const cut = await pending;
    expect(cut.isError, cut.text).toBe(true);
    expect(cut.text).toContain(ErrorCode.NOT_CONNECTED);
    expect(
      Date.now() - started,
      'the caller is told well before the 5 s wait would end',
    ).toBeLessThan(3_000);

    const offlineStarted = Date.now();
    const offline = await callTool(client, 'browser_snapshot', {});
    expect(offline.isError, offline.text).toBe(true);
    expect(offline.text).toContain(ErrorCode.NOT_CONNECTED);
    // The daemon may give the relay a few seconds to come back, but must not hold the call for long.
    expect(Date.now() - offlineStarted, 'no relay means an error, not a hang').toBeLessThan(10_000);

    await bridge.openRelay();
    await bridge.expectRelayState('connected');
    await callOk(client, 'browser_navigate', { url });
    findRef(await snapshot(client), 'button', 'Click me');
  });

  test('malformed frames on the daemon socket get an error or a close, and the daemon keeps serving', async ({
    bridge,
    sandbox,
    site,
  }) => {
    const client = await agentOn(bridge, site.url('/button.html'));
    const daemonPid = await sandbox.daemonPid();
    if (daemonPid === undefined) throw new Error(`No daemon.pid in ${sandbox.home}`);
    const hello = (protocolVersion: number) =>
      `${JSON.stringify({ type: 'hello', protocolVersion, role: 'server', client: { name: 'raw-e2e', version: '0' } })}\n`;

    const garbage = await exchangeOnSocket(sandbox.socketPath, [
      'this is not json\n',
      '{"type":"nope"}\n',
      '{"type":"request"}\n',
      '[1,2,3]\n',
      '\n',
    ]);
    expectRefused(garbage, 'garbage before the handshake');

    const oversized = await exchangeOnSocket(sandbox.socketPath, [
      `${'x'.repeat(MAX_FRAME_BYTES + 1024)}\n`,
    ]);
    expectRefused(oversized, `a ${MAX_FRAME_BYTES + 1024}-byte line`);

    const future = await exchangeOnSocket(sandbox.socketPath, [hello(PROTOCOL_VERSION + 1)]);
    expect(future.frames, 'a newer protocol version is named in an error').toContainEqual(
      expect.objectContaining({
        type: 'error',
        error: expect.objectContaining({ code: ErrorCode.VERSION_MISMATCH }),
      }),
    );

    const afterHandshake = await exchangeOnSocket(sandbox.socketPath, [
      hello(PROTOCOL_VERSION),
      '{"broken": \n',
    ]);
    expect(afterHandshake.frames[0], 'a valid hello is welcomed').toMatchObject({
      type: 'welcome',
    });
    expectRefused(
      { ...afterHandshake, frames: afterHandshake.frames.slice(1) },
      'garbage after the handshake',
    );

    expect(isRunning(daemonPid), 'the daemon survived').toBe(true);
    expect(await sandbox.daemonPid(), 'and was not replaced').toBe(daemonPid);
    await bridge.expectRelayState('connected');
    findRef(await snapshot(client), 'button', 'Click me');
  });

  test('a frame sent the wrong way on the daemon socket is refused by name, and the connection keeps serving', async ({
    bridge,
    sandbox,
    site,
  }) => {
    const client = await agentOn(bridge, site.url('/button.html'));
    const hello = `${JSON.stringify({ type: 'hello', protocolVersion: PROTOCOL_VERSION, role: 'server', client: { name: 'raw-e2e', version: '0' } })}\n`;
    // Frames only the daemon sends, written by a "server".
    const sessionStart = `${JSON.stringify({ type: 'session_start', sessionId: 's', client: { name: 'x', version: '1' } })}\n`;
    const response = `${JSON.stringify({ type: 'response', id: 'r', sessionId: 's', payload: { success: true, data: {} } })}\n`;
    const exchange = await exchangeOnSocket(sandbox.socketPath, [
      hello,
      sessionStart,
      response,
      '{"type":"ping","t":5}\n',
    ]);
    expect(exchange.frames[0], 'a valid hello is welcomed').toMatchObject({ type: 'welcome' });
    for (const [frame, type] of [
      [exchange.frames[1], 'session_start'],
      [exchange.frames[2], 'response'],
    ] as const) {
      expect(frame, `${type} from a server`).toMatchObject({
        type: 'error',
        error: { code: ErrorCode.INVALID_FRAME },
      });
      expect(JSON.stringify(frame)).toContain(`A ${type} frame is not sent from an MCP server`);
    }
    expect(exchange.frames[3], 'the connection still answers').toEqual({ type: 'pong', t: 5 });
    findRef(await snapshot(client), 'button', 'Click me');
  });

  test('the server exits when its MCP client closes stdin, leaving only the shared daemon', async ({
    bridge,
    sandbox,
    site,
  }) => {
    const url = site.url('/button.html');
    const client = await bridge.connectClient('closing-client');
    await callOk(client, 'browser_navigate', { url });
    const serverPid = sandbox.serverPid(client);
    const daemonPid = await sandbox.daemonPid();
    if (daemonPid === undefined) throw new Error(`No daemon.pid in ${sandbox.home}`);

    const started = Date.now();
    await client.close();
    // The SDK ends stdin and only sends SIGTERM after 2 s; a server that waits for it is too late.
    expect(Date.now() - started, 'the server exits on stdin end alone').toBeLessThan(1_900);
    expect(isRunning(serverPid)).toBe(false);
    // Playwright's Chromium does not carry BROWSER_AGENT_HOME; everything the server started does.
    const others = processesWithEnv('BROWSER_AGENT_HOME', sandbox.home)
      .filter((p) => p.pid !== daemonPid)
      .map((p) => `${p.pid} ${p.cmdline}`);
    expect(others, 'nothing but the daemon is left').toEqual([]);
    expect(isRunning(daemonPid), 'the daemon stays for other clients').toBe(true);

    const next = await bridge.connectClient('next-client');
    await callOk(next, 'browser_navigate', { url });
    findRef(await snapshot(next), 'button', 'Click me');
  });
});

function expectRefused(exchange: SocketExchange, what: string): void {
  const gotError = exchange.frames.some(
    (f) => typeof f === 'object' && f !== null && 'type' in f && f.type === 'error',
  );
  expect(
    gotError || exchange.closed,
    `${what}: expected an error frame or a close, got ${JSON.stringify(exchange.frames).slice(0, 500)}`,
  ).toBe(true);
}
