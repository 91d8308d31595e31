/**
 * Hostile input against the link and the process boundaries (issue #15), with the real
 * extension: a local process that forges a pairing, the same from another OS user, a rogue peer
 * that holds the link when launch mode starts, HTTP without the token, a flood on the bridge
 * port while the extension reconnects, a stdio line over the SDK's buffer, and a pairing revoked
 * from the CLI. Each case asserts that nothing leaked to the intruder and nothing was sent.
 *
 * The harness pairs its browser through provisionPairing, i.e. by writing the daemon's half into
 * the state directory: the same authority as the user typing the code, held by whoever owns the
 * directory (see docs/security.md).
 */
import { createECDH, createHash, createHmac, randomBytes } from 'node:crypto';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WebSocket, WebSocketServer } from 'ws';
import {
  EXTENSION_ORIGIN,
  PAIRING_KDF_LABEL,
  PROTOCOL_VERSION,
  parseFrame,
  proofMessage,
  serializeFrame,
  type Frame,
} from '@browser-agent/protocol';
import { pairingId, provisionPairing } from '@browser-agent/mcp-server/pairingStore';
import { test, expect, callOk, callTool } from '../harness.js';
import { CHROME_PATH, SERVER_BIN } from '@browser-agent/testkit/workspace';
import { probeWebSocketFromNode } from '../probes.js';
import { connectByUrl, rawPost, startHttpServer } from '../httpClient.js';
import { stopProcess, waitUntil } from '@browser-agent/testkit/procfs';

interface Intruder {
  ws: WebSocket;
  frames: Frame[];
  closed: Promise<{ code: number; reason: string }>;
}

/** A local process that sends the extension's Origin, as any process on the machine can. */
async function intruder(port: number): Promise<Intruder> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}`, { origin: EXTENSION_ORIGIN });
  const frames: Frame[] = [];
  ws.on('message', (data) => {
    const parsed = parseFrame(Buffer.from(data as Buffer).toString('utf8'));
    if (parsed.ok) frames.push(parsed.frame);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) =>
    ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
  );
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  return { ws, frames, closed };
}

function hello(pairings: string[]): string {
  return serializeFrame({
    type: 'hello',
    protocolVersion: PROTOCOL_VERSION,
    role: 'extension',
    nonce: randomBytes(24).toString('base64'),
    pairings,
  });
}

async function nextFrame(who: Intruder, type: Frame['type']): Promise<Frame> {
  await expect.poll(() => who.frames.map((f) => f.type)).toContain(type);
  return who.frames.find((f) => f.type === type) as Frame;
}

/** What an intruder must never receive. */
const PRIVILEGED = ['paired', 'welcome', 'challenge', 'session_start', 'request'];

function pairingsFile(home: string): string {
  try {
    return readFileSync(path.join(home, 'pairings.json'), 'utf8');
  } catch {
    return '';
  }
}

/** The one pairing entry a provisioned pairing fragment names: `#pair=<id>.<secret>`. */
function fragmentParts(fragment: string): { id: string; secret: Buffer } {
  const m = /^#pair=([\w-]+)\.(.+)$/.exec(fragment);
  if (!m?.[1] || !m[2]) throw new Error(`not a pairing fragment: ${fragment}`);
  return { id: m[1], secret: Buffer.from(m[2], 'base64') };
}

test.describe('the link takes no one but the user’s extension', () => {
  test('a local process that forges the Origin and runs the whole pairing gets nothing', async ({
    bridge,
    sandbox,
    site,
  }) => {
    const client = await bridge.connectClient('victim');
    const storedBefore = pairingsFile(sandbox.home);
    for (const attempt of ['ecdh-only', 'guessed-code']) {
      const forged = await intruder(sandbox.port);
      forged.ws.send(hello([]));
      await nextFrame(forged, 'pairing_required');
      const ecdh = createECDH('prime256v1');
      const extensionKey = ecdh.generateKeys('base64');
      forged.ws.send(serializeFrame({ type: 'pair_start', publicKey: extensionKey }));
      const offer = await nextFrame(forged, 'pair_offer');
      if (offer.type !== 'pair_offer') throw new Error('no offer');
      const secret = createHash('sha256')
        .update(PAIRING_KDF_LABEL)
        .update(ecdh.computeSecret(Buffer.from(offer.publicKey, 'base64')))
        .update(extensionKey)
        .update(offer.publicKey)
        .digest();
      // The old scheme's proof (keyed with the ECDH secret, which any peer has), or a guess.
      const proof =
        attempt === 'ecdh-only'
          ? createHmac('sha256', secret)
              .update(`confirm|${extensionKey}|${offer.publicKey}`)
              .digest('base64')
          : createHmac('sha256', randomBytes(32))
              .update(`code-extension|${extensionKey}|${offer.publicKey}|${offer.pairingId}`)
              .digest('base64');
      forged.ws.send(serializeFrame({ type: 'pair_confirm', pairingId: offer.pairingId, proof }));
      expect((await forged.closed).code).toBe(4401);
      expect(forged.frames.map((f) => f.type).filter((t) => PRIVILEGED.includes(t))).toEqual([]);
    }
    // Nothing stored, and the agent's calls still go to the real extension alone.
    expect(pairingsFile(sandbox.home)).toBe(storedBefore);
    await bridge.expectRelayState('connected');
    await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
  });

  test('a process of another OS user is refused before any handshake', async ({
    bridge,
    sandbox,
  }) => {
    test.skip(process.getuid?.() !== 0, 'needs root to run a process as uid 65534 (setpriv)');
    test.skip(
      !['/usr/bin/setpriv', '/bin/setpriv'].some((p) => existsSync(p)),
      'needs setpriv (util-linux) to drop privileges',
    );
    test.skip(process.platform !== 'linux', 'the peer-uid lookup reads /proc/net/tcp (Linux)');
    await bridge.connectClient('victim');
    // A dependency-free probe (uid 65534 cannot read the workspace): a raw upgrade request with
    // the extension's Origin, then a pairing attempt if it were let in.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ba-uid-'));
    chmodSync(dir, 0o755);
    const script = path.join(dir, 'probe.cjs');
    writeFileSync(
      script,
      `const net = require('node:net');
const s = net.connect(${sandbox.port}, '127.0.0.1', () => s.write(
  'GET / HTTP/1.1\\r\\nHost: 127.0.0.1:${sandbox.port}\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\n' +
  'Sec-WebSocket-Key: ' + Buffer.from('0123456789abcdef').toString('base64') + '\\r\\n' +
  'Sec-WebSocket-Version: 13\\r\\nOrigin: ${EXTENSION_ORIGIN}\\r\\n\\r\\n'));
let got = '';
s.on('data', (d) => { got += d; });
s.on('close', () => {
  const u = net.connect(${JSON.stringify(path.join(sandbox.home, 'daemon.sock'))});
  u.on('connect', () => { console.log(JSON.stringify({ uid: process.getuid(), status: got.split('\\r\\n')[0], unix: 'connected' })); u.destroy(); });
  u.on('error', (e) => console.log(JSON.stringify({ uid: process.getuid(), status: got.split('\\r\\n')[0], unix: e.code })));
});
setTimeout(() => s.destroy(), 3000);
`,
      { mode: 0o644 },
    );
    // Only our own modes stand between uid 65534 and the Unix socket: the sandbox's root is opened
    // for traversal, so the 0700 state directory and the 0600 socket are what refuse it.
    chmodSync(sandbox.root, 0o711);
    const mode = (p: string): string =>
      execFileSync('stat', ['-c', '%a', p], { encoding: 'utf8' }).trim();
    expect(mode(sandbox.home)).toBe('700');
    expect(mode(path.join(sandbox.home, 'daemon.sock'))).toBe('600');
    try {
      const out = execFileSync(
        'setpriv',
        ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, script],
        { encoding: 'utf8', timeout: 15_000 },
      );
      const result = JSON.parse(out.trim()) as { uid: number; status: string; unix: string };
      expect(result.uid).toBe(65534);
      expect(result.status).toBe('HTTP/1.1 403 Forbidden');
      expect(result.unix).toBe('EACCES');
    } finally {
      chmodSync(sandbox.root, 0o700);
      rmSync(dir, { recursive: true, force: true });
    }
    expect(readFileSync(path.join(sandbox.home, 'daemon.log'), 'utf8')).toContain(
      'belongs to uid 65534',
    );
    await bridge.expectRelayState('connected');
  });

  test('a flood on the bridge port while the extension reconnects uses none of its budget', async ({
    bridge,
    sandbox,
    site,
  }) => {
    const client = await bridge.connectClient('victim');
    // Pages on any origin (and other extensions) flood the port while the relay reconnects.
    const reconnect = bridge.relay.reload();
    const outcomes = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        probeWebSocketFromNode(
          `ws://127.0.0.1:${sandbox.port}`,
          i % 2 === 0
            ? 'http://127.0.0.1:1'
            : 'chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
        ),
      ),
    );
    await reconnect;
    const statuses = outcomes.map((o) => o.events.join(','));
    expect(statuses.filter((e) => e.startsWith('HTTP 403'))).toHaveLength(200);
    // The budget of upgrades with the extension's Origin is untouched: the next one is let in
    // (before the fix, the flood had used it up and this got 429 for the next 10 s).
    const next = await intruder(sandbox.port);
    next.ws.close();
    await bridge.expectRelayState('connected');
    await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
  });

  test('a pairing revoked with the CLI ends that browser’s link; the agent is told to pair again', async ({
    bridge,
    sandbox,
    site,
  }) => {
    const client = await bridge.connectClient('victim');
    const list = execFileSync(process.execPath, [SERVER_BIN, 'pairings', 'list'], {
      env: { ...process.env, BROWSER_AGENT_HOME: sandbox.home },
      encoding: 'utf8',
    });
    const id = /^(\S+)\s+\S+\s+e2e$/m.exec(list)?.[1];
    expect(id, list).toBeDefined();
    expect(list).not.toMatch(/secret/i);
    execFileSync(process.execPath, [SERVER_BIN, 'pairings', 'revoke', id ?? ''], {
      env: { ...process.env, BROWSER_AGENT_HOME: sandbox.home },
    });
    await bridge.expectRelayState('disconnected');
    const refused = await callTool(client, 'browser_navigate', { url: site.url('/button.html') });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain('NOT_PAIRED');
    expect(pairingsFile(sandbox.home)).not.toContain(id ?? '');
    const layout = await bridge.tabLayout();
    expect(layout.tabs.map((t) => t.url)).not.toContain(site.url('/button.html'));
  });
});

test.describe('the panel pairs with no one but the bridge that minted the code', () => {
  test('a rogue server on the port collects the panel’s proof, fakes its own, and gets nothing', async ({
    bridge,
    sandbox,
    site,
  }) => {
    const target = site.url('/button.html');
    await bridge.extensionWorker().evaluate(async () => {
      const storage = (
        globalThis as unknown as {
          chrome: { storage: { local: { remove(key: string): Promise<void> } } };
        }
      ).chrome.storage.local;
      await storage.remove('pairings');
    });
    await bridge.relay.close();
    const seen: Frame[] = [];
    // No daemon runs: the rogue holds the port, as a process that bound it first would.
    const rogue = new WebSocketServer({ host: '127.0.0.1', port: sandbox.port });
    rogue.on('connection', (ws) => {
      const ecdh = createECDH('prime256v1');
      const rogueKey = ecdh.generateKeys('base64');
      ws.on('message', (data) => {
        const parsed = parseFrame(Buffer.from(data as Buffer).toString('utf8'));
        if (!parsed.ok) return;
        const frame = parsed.frame;
        seen.push(frame);
        if (frame.type === 'hello') ws.send(serializeFrame({ type: 'pairing_required' }));
        if (frame.type === 'pair_start') {
          const secret = createHash('sha256')
            .update(PAIRING_KDF_LABEL)
            .update(ecdh.computeSecret(Buffer.from(frame.publicKey, 'base64')))
            .update(frame.publicKey)
            .update(rogueKey)
            .digest();
          ws.send(
            serializeFrame({
              type: 'pair_offer',
              publicKey: rogueKey,
              pairingId: pairingId(secret),
              codeSalt: randomBytes(16).toString('base64'),
            }),
          );
        }
        if (frame.type === 'pair_confirm') {
          // It cannot make the daemon's proof without the code; it tries anyway, then gives orders.
          for (const f of [
            {
              type: 'paired',
              pairingId: frame.pairingId,
              proof: randomBytes(32).toString('base64'),
            },
            { type: 'welcome', protocolVersion: PROTOCOL_VERSION },
            { type: 'session_start', sessionId: 'rogue', client: { name: 'rogue', version: '1' } },
            {
              type: 'request',
              id: 'r1',
              sessionId: 'rogue',
              action: 'browser_navigate',
              params: { url: target },
            },
          ] as Frame[])
            ws.send(serializeFrame(f));
        }
      });
    });
    try {
      const panel = await bridge.context.newPage();
      await panel.goto(`${EXTENSION_ORIGIN}/src/sidepanel/index.html?port=${sandbox.port}`);
      await expect(panel.locator('#pairing')).toBeVisible({ timeout: 15_000 });
      await panel.locator('#pairing-code-input').fill('ABCDE-12345');
      await panel.locator('#pair-yes').click();
      // The refusal stays on show in the form that asks again (the status line said it for only
      // the 250 ms before the reconnect, which CI's poll once missed).
      await expect(panel.locator('#pairing-error')).toContainText(
        'could not prove it knows the pairing code',
        { timeout: 15_000 },
      );
      await expect(panel.locator('#pairing-code-input')).toBeVisible();
      expect(seen.some((f) => f.type === 'pair_confirm')).toBe(true);
      const stored = await bridge.extensionWorker().evaluate(async () => {
        const storage = (
          globalThis as unknown as {
            chrome: { storage: { local: { get(key: string): Promise<Record<string, unknown>> } } };
          }
        ).chrome.storage.local;
        return ((await storage.get('pairings'))['pairings'] ?? []) as { label: string }[];
      });
      // Only the harness's own pairing may be there (its relay page can adopt it again from its
      // URL while it closes); nothing the panel would have kept from this exchange.
      expect(stored.filter((p) => p.label !== 'Launched browser')).toEqual([]);
      expect(seen.some((f) => f.type === 'response')).toBe(false);
      const layout = await bridge.tabLayout();
      expect(layout.tabs.map((t) => t.url)).not.toContain(target);
    } finally {
      for (const client of rogue.clients) client.terminate();
      await new Promise<void>((resolve) => rogue.close(() => resolve()));
    }
  });
});

test.describe('launch mode serves only its own browser', () => {
  test('a paired browser that holds the link keeps it; the launch server gets a daemon and browser of its own, and the peer none of its calls', async ({
    sandbox,
    site,
  }) => {
    // A peer paired through the state directory (as a same-user process could) holds the link.
    const first = await sandbox.startServer({
      name: 'plain-client',
      env: { BROWSER_AGENT_EXTENSION_WAIT_MS: '200' },
    });
    // Its first call starts the daemon (no extension yet, so it fails).
    expect((await callTool(first, 'browser_tabs', { action: 'list' })).isError).toBe(true);
    const { id, secret } = fragmentParts(provisionPairing(sandbox.home, 'rogue'));
    const held = await intruder(sandbox.port);
    const heldNonce = randomBytes(24).toString('base64');
    held.ws.send(
      serializeFrame({
        type: 'hello',
        protocolVersion: PROTOCOL_VERSION,
        role: 'extension',
        nonce: heldNonce,
        pairings: [id],
      }),
    );
    const c2 = await nextFrame(held, 'challenge');
    if (c2.type !== 'challenge') throw new Error('no challenge');
    held.ws.send(
      serializeFrame({
        type: 'auth',
        proof: createHmac('sha256', secret)
          .update(proofMessage.extension(c2.nonce, heldNonce))
          .digest('base64'),
      }),
    );
    await nextFrame(held, 'welcome');

    const launched = await sandbox.startServer({
      name: 'launch-client',
      flags: ['--launch', '--headless', '--isolated', '--executable-path', CHROME_PATH],
    });
    // A stored pairing holds the link: to the daemon that is the user's own Chrome (docs/
    // security.md, "Launch mode next to the user's own Chrome"). The launch server's first call
    // is refused there (BROWSER_IN_USE) and goes to a daemon and browser of its own.
    let heldClosed = false;
    void held.closed.then(() => (heldClosed = true));
    await callOk(launched, 'browser_navigate', { url: site.url('/button.html') });
    expect(heldClosed).toBe(false);
    expect(held.frames.some((f) => f.type === 'request')).toBe(false);
    expect(sandbox.serverStderr(launched)).toContain('Starting a browser of its own');
    // The launched browser's pairing lives in its daemon's memory only.
    expect(pairingsFile(sandbox.home)).not.toContain('Launched browser');
    await first.close();
    await launched.close();
  });
});

test.describe('process boundaries', () => {
  test('HTTP mode: no token or a wrong one gets 403 (a 401 sends MCP clients into OAuth) and opens no session', async ({
    bridge,
    sandbox,
    site,
  }) => {
    await bridge.connectClient('honest');
    const env = {
      BROWSER_AGENT_HOME: sandbox.home,
      BROWSER_AGENT_PORT: String(sandbox.port),
    };
    const { child, url, token } = await startHttpServer(env);
    try {
      expect(token).toMatch(/^[\w-]{32,}$/);
      const mode = readFileSync(path.join(sandbox.home, 'http-token'), 'utf8').trim();
      expect(mode).toBe(token);
      expect(
        execFileSync('stat', ['-c', '%a', path.join(sandbox.home, 'http-token')], {
          encoding: 'utf8',
        }).trim(),
      ).toBe('600');
      const origin = { origin: `http://127.0.0.1:${url.port}` };
      expect(await rawPost(url, origin)).toBe(403);
      expect(await rawPost(url, { ...origin, authorization: 'Bearer wrong' })).toBe(403);
      expect(await rawPost(url, { ...origin, authorization: `Basic ${token ?? ''}` })).toBe(403);
      await expect(connectByUrl(url, 'no-token', undefined)).rejects.toThrow();
      // No session reached the daemon from any of these.
      expect(readFileSync(path.join(sandbox.home, 'daemon.log'), 'utf8')).not.toContain(
        'started for forger',
      );
      const honest = await connectByUrl(url, 'with-token', token);
      await callOk(honest, 'browser_navigate', { url: site.url('/button.html') });
      await honest.close();
    } finally {
      if (child.pid !== undefined) await stopProcess(child.pid);
    }
  });

  test('HTTP mode without a token on a non-loopback address is refused at start', async ({
    sandbox,
  }) => {
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(
        process.execPath,
        [SERVER_BIN, '--port', '0', '--host', '0.0.0.0', '--no-token'],
        {
          env: { ...process.env, BROWSER_AGENT_HOME: sandbox.home },
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
      child.once('exit', (code) => resolve({ code, stderr }));
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--no-token is refused with --host 0.0.0.0');
  });

  test('a stdio line over 10 MiB gets a JSON-RPC error, and the server exits and lets go', async ({
    bridge,
    sandbox,
  }) => {
    await bridge.connectClient('neighbour');
    const child = spawn(process.execPath, [SERVER_BIN], {
      env: {
        ...process.env,
        BROWSER_AGENT_HOME: sandbox.home,
        BROWSER_AGENT_PORT: String(sandbox.port),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    // The server may exit while the oversized line is still being written.
    child.stdin.on('error', () => undefined);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.stdin.write(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'oversized', version: '1' },
        },
      })}\n`,
    );
    await expect.poll(() => stdout).toContain('"id":1');
    // A first call registers the server's session with the daemon.
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`,
    );
    child.stdin.write(
      `${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'browser_tabs', arguments: { action: 'list' } } })}\n`,
    );
    await expect.poll(() => stdout, { timeout: 20_000 }).toContain('"id":2');
    await expect
      .poll(() => readFileSync(path.join(sandbox.home, 'daemon.log'), 'utf8'))
      .toContain('started for oversized');
    // 11 MiB without a newline: over the SDK's read buffer.
    const chunk = 'x'.repeat(1024 * 1024);
    for (let i = 0; i < 11; i++) child.stdin.write(chunk);
    const exitedInTime = await waitUntil(() => child.exitCode !== null, 20_000);
    if (!exitedInTime && child.pid !== undefined) await stopProcess(child.pid);
    expect(exitedInTime, 'the server must not stay up deaf').toBe(true);
    expect(await exited).toBe(1);
    const lines = stdout.trim().split('\n');
    expect(JSON.parse(lines.at(-1) ?? '{}')).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600 },
    });
    // The daemon saw its server go (the session is released, not held).
    await expect
      .poll(() => readFileSync(path.join(sandbox.home, 'daemon.log'), 'utf8'))
      .toMatch(/session \S+ (lost its server|ended)/);
    // The other client is unaffected.
    await bridge.expectRelayState('connected');
  });
});
