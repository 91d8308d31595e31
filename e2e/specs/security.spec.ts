/**
 * Hostile input against the real extension and daemon: a rogue server on the bridge port, clients
 * that forge the extension's Origin without the pairing secret, replay, Host forgery and floods.
 * Every refusal is asserted, and so is the fact that nothing else was affected.
 */
import { randomBytes } from 'node:crypto';
import { WebSocket, WebSocketServer } from 'ws';
import {
  EXTENSION_ORIGIN,
  PROTOCOL_VERSION,
  parseFrame,
  serializeFrame,
  type Frame,
} from '@browser-agent/protocol';
import { readFileSync } from 'node:fs';
import { test, expect, callOk, callTool, panelOfUnpairedBrowser, snapshot } from '../harness.js';
import { agentOn } from '../steps.js';
import { probeWebSocketFromNode } from '../probes.js';

interface NodeExtension {
  ws: WebSocket;
  frames: Frame[];
  closed: Promise<number>;
}

async function forgedExtension(
  port: number,
  headers: Record<string, string> = {},
): Promise<NodeExtension> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}`, { origin: EXTENSION_ORIGIN, headers });
  const frames: Frame[] = [];
  ws.on('message', (data) => {
    const parsed = parseFrame(Buffer.from(data as Buffer).toString('utf8'));
    if (parsed.ok) frames.push(parsed.frame);
  });
  const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, frames, closed };
}

const hello = (pairings: string[]): string =>
  serializeFrame({
    type: 'hello',
    protocolVersion: PROTOCOL_VERSION,
    role: 'extension',
    nonce: randomBytes(24).toString('base64'),
    pairings,
  });

test.describe('a link nobody else can use', () => {
  test('a rogue server on the bridge port gets no obedience from the extension', async ({
    bridge,
    sandbox,
    site,
  }) => {
    const target = site.url('/button.html');
    const seen: Frame[] = [];
    // Bound before any daemon: the relay page (already retrying) connects to it.
    const rogue = new WebSocketServer({ host: '127.0.0.1', port: sandbox.port });
    rogue.on('connection', (ws) => {
      ws.on('message', (data) => {
        const parsed = parseFrame(Buffer.from(data as Buffer).toString('utf8'));
        if (!parsed.ok) return;
        seen.push(parsed.frame);
        if (parsed.frame.type !== 'hello') return;
        // Skips authentication entirely and tries to give orders.
        ws.send(serializeFrame({ type: 'welcome', protocolVersion: PROTOCOL_VERSION }));
        ws.send(
          serializeFrame({
            type: 'session_start',
            sessionId: 'rogue',
            client: { name: 'rogue', version: '1' },
          }),
        );
        ws.send(
          serializeFrame({
            type: 'request',
            id: 'r1',
            sessionId: 'rogue',
            action: 'browser_navigate',
            params: { url: target },
          }),
        );
      });
    });
    try {
      await expect
        .poll(() => seen.filter((f) => f.type === 'hello').length, { timeout: 15_000 })
        .toBeGreaterThan(0);
      await expect(bridge.relay.locator('#status-detail')).toContainText('skipped authentication', {
        timeout: 10_000,
      });
      await expect(bridge.relay.locator('#status')).not.toHaveAttribute('data-state', 'connected');
      // Give an obedient extension ample time to have opened the tab, then check it did not.
      await new Promise((r) => setTimeout(r, 1500));
      const layout = await bridge.tabLayout();
      expect(layout.tabs.map((t) => t.url)).not.toContain(target);
      expect(seen.some((f) => f.type === 'response')).toBe(false);
    } finally {
      await new Promise<void>((resolve) => rogue.close(() => resolve()));
      for (const client of rogue.clients) client.terminate();
    }

    // Once the rogue is gone the real daemon takes the port, and the paired link works.
    const client = await agentOn(bridge, target, { name: 'after-rogue' });
    expect(await snapshot(client)).toContain('button');
  });

  test('a rogue server with a made-up challenge is refused too', async ({ bridge, sandbox }) => {
    const rogue = new WebSocketServer({ host: '127.0.0.1', port: sandbox.port });
    rogue.on('connection', (ws) => {
      ws.on('message', (data) => {
        const parsed = parseFrame(Buffer.from(data as Buffer).toString('utf8'));
        if (!parsed.ok || parsed.frame.type !== 'hello') return;
        const pairingId = parsed.frame.pairings?.[0] ?? 'none';
        ws.send(
          serializeFrame({
            type: 'challenge',
            pairingId,
            nonce: 'n',
            proof: randomBytes(32).toString('base64'),
          }),
        );
      });
    });
    try {
      await expect(bridge.relay.locator('#status-detail')).toContainText('could not prove', {
        timeout: 15_000,
      });
    } finally {
      for (const client of rogue.clients) client.terminate();
      await new Promise<void>((resolve) => rogue.close(() => resolve()));
    }
  });

  test('a client forging the extension Origin without the secret gets nothing', async ({
    bridge,
    sandbox,
    site,
  }) => {
    const client = await bridge.connectClient('honest');
    const forged = await forgedExtension(sandbox.port);
    forged.ws.send(hello(['guessed-id']));
    await expect.poll(() => forged.frames.map((f) => f.type)).toContain('pairing_required');
    // It never sees sessions or requests, and cannot complete a handshake on its own.
    forged.ws.send(serializeFrame({ type: 'auth', proof: randomBytes(32).toString('base64') }));
    expect(await forged.closed).toBe(4401);
    expect(
      forged.frames.some(
        (f) => f.type === 'welcome' || f.type === 'session_start' || f.type === 'request',
      ),
    ).toBe(false);
    // The real extension kept the link.
    await bridge.expectRelayState('connected');
    await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
  });

  test('a wrong secret for a real pairing id is refused, and the honest link keeps working', async ({
    bridge,
    sandbox,
    site,
  }) => {
    const client = await bridge.connectClient('honest');
    // The ids are public (the extension sends them in every hello); the secrets are not.
    const ids = await bridge.extensionWorker().evaluate(async () => {
      const storage = (
        globalThis as unknown as {
          chrome: { storage: { local: { get(key: string): Promise<Record<string, unknown>> } } };
        }
      ).chrome.storage.local;
      const items = await storage.get('pairings');
      return (items['pairings'] as Array<{ id: string }>).map((p) => p.id);
    });
    const forged = await forgedExtension(sandbox.port);
    forged.ws.send(hello(ids));
    await expect.poll(() => forged.frames.map((f) => f.type)).toContain('challenge');
    forged.ws.send(serializeFrame({ type: 'auth', proof: randomBytes(32).toString('base64') }));
    expect(await forged.closed).toBe(4401);
    await bridge.expectRelayState('connected');
    await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
  });

  test('a forged Host header is refused before any handshake (DNS rebinding)', async ({
    bridge,
    sandbox,
  }) => {
    await bridge.connectClient('honest');
    const probe = await new Promise<string>((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${sandbox.port}`, {
        origin: EXTENSION_ORIGIN,
        headers: { Host: `rebound.example:${sandbox.port}` },
      });
      ws.once('open', () => resolve('open'));
      ws.once('unexpected-response', (_req, res) => resolve(`HTTP ${res.statusCode ?? '?'}`));
      ws.once('error', (err) => resolve(`error ${err.message}`));
    });
    expect(probe).toBe('HTTP 403');
  });

  test('a flood of connections from a wrong origin is refused, and the paired extension is unaffected', async ({
    bridge,
    sandbox,
    site,
  }) => {
    const client = await bridge.connectClient('honest');
    const outcomes = await Promise.all(
      Array.from({ length: 80 }, () =>
        probeWebSocketFromNode(`ws://127.0.0.1:${sandbox.port}`, 'http://127.0.0.1:1'),
      ),
    );
    const events = outcomes.map((o) => o.events.join(','));
    expect(outcomes.every((o) => !o.opened)).toBe(true);
    // Refused by the Origin check, before the rate limit: pages never use up the extension's budget.
    expect(events.filter((e) => e.includes('HTTP 403'))).toHaveLength(80);
    await bridge.expectRelayState('connected');
    await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
  });

  test('first pairing: the user types the code the agent was told, and only that pairs', async ({
    bridge,
    sandbox,
    site,
  }) => {
    const client = await bridge.connectClient('pairing-agent');
    const panel = await panelOfUnpairedBrowser(bridge, sandbox);
    await panel.locator('#settings summary').click();
    await expect(panel.locator('#pairings li')).toHaveText(['None yet.']);

    // The agent is told the one-time code, and gets no access until the user types it.
    const refused = await callTool(client, 'browser_navigate', { url: site.url('/button.html') });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('NOT_PAIRED');
    const code = /code is ([0-9A-Z]{5}-[0-9A-Z]{5})/.exec(refused.text)?.[1] ?? '';
    expect(code).not.toBe('');

    // Typed in lower case with a space, as people do.
    await panel.locator('#pairing-code-input').fill(code.toLowerCase().replace('-', ' '));
    await panel.locator('#pair-yes').click();
    await expect(panel.locator('#status')).toHaveAttribute('data-state', 'connected', {
      timeout: 15_000,
    });
    await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
    // The list shows the new pairing at once, without a reload.
    await expect(panel.locator('#pairings li')).toHaveCount(1);
    await expect(panel.locator('#pairings li')).toContainText('Paired in the side panel');
    expect(readFileSync(`${sandbox.home}/pairings.json`, 'utf8')).toContain(
      'Paired in the side panel',
    );

    // Forgetting it in the panel revokes the bridge's half too: the link ends, the agent is told
    // to pair again, and the form asks for a new code.
    await panel
      .locator('#pairings li', { hasText: 'Paired in the side panel' })
      .getByRole('button', { name: 'Forget' })
      .click();
    await expect
      .poll(() => readFileSync(`${sandbox.home}/pairings.json`, 'utf8'))
      .not.toContain('Paired in the side panel');
    await expect(panel.locator('#pairing')).toBeVisible({ timeout: 15_000 });
    const again = await callTool(client, 'browser_navigate', { url: site.url('/titled') });
    expect(again.text).toContain('NOT_PAIRED');
    expect(again.text).not.toContain(code);
  });

  test('a wrong code pairs nothing, and declining leaves the bridge without access', async ({
    bridge,
    sandbox,
    site,
  }) => {
    const client = await bridge.connectClient('rejected-agent');
    const panel = await panelOfUnpairedBrowser(bridge, sandbox);
    await panel.locator('#pairing-code-input').fill('ABCDE-00000');
    await panel.locator('#pair-yes').click();
    await expect(panel.locator('#pairing-error')).toContainText('did not accept ABCDE-00000', {
      timeout: 15_000,
    });
    await panel.locator('#pair-no').click();
    await expect(panel.locator('#status-detail')).toContainText('declined');
    const refused = await callTool(client, 'browser_navigate', { url: site.url('/button.html') });
    expect(refused.isError).toBe(true);
    const layout = await bridge.tabLayout();
    expect(layout.tabs.map((t) => t.url)).not.toContain(site.url('/button.html'));
    expect(readFileSync(`${sandbox.home}/pairings.json`, 'utf8')).not.toContain(
      'Paired in the side panel',
    );
  });
});
