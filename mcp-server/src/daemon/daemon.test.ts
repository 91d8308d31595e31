import { createECDH, createHash, pbkdf2Sync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  EXTENSION_ORIGIN,
  PAIRING_CODE_PBKDF2_ITERATIONS,
  PAIRING_KDF_LABEL,
  PROTOCOL_VERSION,
  SESSION_TABS_EVENT,
  codeProofMessage,
  parseFrame,
  proofMessage,
  serializeFrame,
  type Frame,
  type FrameOf,
  type ResponsePayload,
} from '@browser-agent/protocol';
import { createLogger } from '../shared/logger.js';
import { Daemon } from './daemon.js';
import { PairingStore, pairingId, sign, verify } from './link/pairingStore.js';

/** Reads NDJSON frames from a socket as a queue the test can await. */
function frameReader(socket: Socket): () => Promise<Frame> {
  const queue: Frame[] = [];
  let wake: (() => void) | undefined;
  let buf = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buf += chunk;
    let nl;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const parsed = parseFrame(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      if (parsed.ok) queue.push(parsed.frame);
      wake?.();
    }
  });
  return async () => {
    while (queue.length === 0) await new Promise<void>((r) => (wake = r));
    const next = queue.shift();
    if (!next) throw new Error('unreachable');
    return next;
  };
}

async function openServer(
  socketPath: string,
  sessionKey?: string,
  project: string | null = '/work/p',
): Promise<{
  socket: Socket;
  next: () => Promise<Frame>;
  sessionId: string;
  resumed: boolean;
  ok: Frame & { type: 'register_ok' };
}> {
  const socket = connect(socketPath);
  await new Promise((r) => socket.once('connect', r));
  const next = frameReader(socket);
  const client = { name: 'test-client', version: '1' };
  socket.write(
    `${serializeFrame({ type: 'hello', protocolVersion: PROTOCOL_VERSION, role: 'server', client })}\n`,
  );
  expect(await next()).toMatchObject({ type: 'welcome' });
  socket.write(
    `${serializeFrame({ type: 'register', client, ...(project === null ? {} : { project }), ...(sessionKey ? { sessionKey } : {}) })}\n`,
  );
  const ok = await next();
  if (ok.type !== 'register_ok') throw new Error(`expected register_ok, got ${JSON.stringify(ok)}`);
  return { socket, next, sessionId: ok.sessionId, resumed: ok.resumed, ok };
}

interface FakeExtension {
  ws: WebSocket;
  frames: Frame[];
  next: (type: Frame['type']) => Promise<Frame>;
}

/** A node stand-in for the extension's relay: connects with our Origin and collects frames. */
async function rawExtension(port: number): Promise<FakeExtension> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}`, { origin: EXTENSION_ORIGIN });
  const frames: Frame[] = [];
  ws.on('message', (d) => {
    const parsed = parseFrame(Buffer.from(d as Buffer).toString('utf8'));
    if (parsed.ok) frames.push(parsed.frame);
  });
  await new Promise((r, j) => {
    ws.once('open', r);
    ws.once('error', j);
  });
  const next = async (type: Frame['type']): Promise<Frame> => {
    for (;;) {
      const i = frames.findIndex((f) => f.type === type);
      if (i >= 0) return frames.splice(i, 1)[0] as Frame;
      if (ws.readyState === WebSocket.CLOSED) throw new Error(`closed while waiting for ${type}`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  return { ws, frames, next };
}

function closed(ws: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((r) =>
    ws.once('close', (code, reason) => r({ code, reason: reason.toString() })),
  );
}

/** Authenticates with a pairing the way the extension does (hello, verify challenge, auth). */
async function openExtension(port: number, secret: Buffer = pairingSecret): Promise<FakeExtension> {
  const ext = await rawExtension(port);
  const nonce = randomBytes(24).toString('base64');
  ext.ws.send(
    serializeFrame({
      type: 'hello',
      protocolVersion: PROTOCOL_VERSION,
      role: 'extension',
      nonce,
      pairings: [pairingId(secret)],
    }),
  );
  const challenge = await ext.next('challenge');
  if (challenge.type !== 'challenge') throw new Error('no challenge');
  expect(verify(secret, proofMessage.daemon(nonce, challenge.nonce), challenge.proof)).toBe(true);
  ext.ws.send(
    serializeFrame({
      type: 'auth',
      proof: sign(secret, proofMessage.extension(challenge.nonce, nonce)),
    }),
  );
  await ext.next('welcome');
  return ext;
}

/** The fake extension answers a request it received with this payload. */
function respond(
  ext: FakeExtension,
  req: { id: string; sessionId: string },
  payload: ResponsePayload,
): void {
  ext.ws.send(serializeFrame({ type: 'response', id: req.id, sessionId: req.sessionId, payload }));
}

let dir: string;
let daemon: Daemon;
let port: number;
let pairingSecret: Buffer;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ba-daemon-test-'));
  // Below Linux's ephemeral range (32768+): a port there can be held by any outgoing connection
  // for a moment, and the daemon then falls back to another port the test does not know (CI saw
  // ECONNREFUSED on 34304, session 23).
  port = 20000 + Math.floor(Math.random() * 12000);
  process.env['BROWSER_AGENT_QUIET'] = process.env['DEBUG_DAEMON'] ? '0' : '1';
  daemon = new Daemon(
    {
      socketPath: join(dir, 'd.sock'),
      stateDir: dir,
      port,
      idleExitMs: 600_000,
      extensionWaitMs: 300,
      launchWaitMs: 300,
      sessionGraceMs: 400,
    },
    createLogger('test'),
  );
  pairingSecret = Buffer.from(new PairingStore(dir).mint('test').secret, 'base64');
  await daemon.start();
});

afterEach(async () => {
  await daemon.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('daemon routing', () => {
  it('relays a request to the extension and the response back, with the caller id restored', async () => {
    const ext = await openExtension(port);
    const srv = await openServer(join(dir, 'd.sock'));
    const start = await ext.next('session_start');
    expect(start).toMatchObject({
      sessionId: srv.sessionId,
      client: { name: 'test-client' },
      project: '/work/p',
    });

    srv.socket.write(
      `${serializeFrame({ type: 'request', id: 'caller-1', sessionId: srv.sessionId, action: 'browser_snapshot', params: {} })}\n`,
    );
    const req = await ext.next('request');
    if (req.type !== 'request') throw new Error('not a request');
    expect(req.id).not.toBe('caller-1');
    respond(ext, req, { success: true, data: { content: [{ type: 'text', text: 'hi' }] } });
    const res = await srv.next();
    expect(res).toMatchObject({ type: 'response', id: 'caller-1', payload: { success: true } });
    ext.ws.close();
    srv.socket.end();
  });

  it('passes a result to the server as the bytes the extension sent, re-addressed to the caller', async () => {
    const ext = await openExtension(port);
    const srv = await openServer(join(dir, 'd.sock'));
    srv.socket.write(
      `${serializeFrame({ type: 'request', id: 'caller-2', sessionId: srv.sessionId, action: 'browser_snapshot', params: {} })}\n`,
    );
    const req = await ext.next('request');
    if (req.type !== 'request') throw new Error('not a request');
    const raw: string[] = [];
    srv.socket.on('data', (chunk: string) => raw.push(chunk));
    // An escape that a parse and re-serialization would turn into "café".
    const payload = '{"success":true,"data":{"content":[{"type":"text","text":"caf\\u00e9"}]}}';
    ext.ws.send(
      `{"type":"response","id":"${req.id}","sessionId":"${req.sessionId}","payloadChars":${payload.length},"payload":${payload}}`,
    );
    expect(await srv.next()).toMatchObject({
      id: 'caller-2',
      sessionId: srv.sessionId,
      payload: { success: true, data: { content: [{ type: 'text', text: 'café' }] } },
    });
    expect(raw.join('')).toContain(`"payload":${payload}}\n`);
    ext.ws.close();
    srv.socket.end();
  });

  it('parses a result in another layout whole: an older extension, or a raw newline in it', async () => {
    const ext = await openExtension(port);
    const srv = await openServer(join(dir, 'd.sock'));
    for (const id of ['old', 'pretty']) {
      srv.socket.write(
        `${serializeFrame({ type: 'request', id, sessionId: srv.sessionId, action: 'browser_snapshot', params: {} })}\n`,
      );
      const req = await ext.next('request');
      if (req.type !== 'request') throw new Error('not a request');
      const frame = {
        type: 'response',
        id: req.id,
        sessionId: req.sessionId,
        payload: { success: true, data: { content: [{ type: 'text', text: id }] } },
        hops: [],
      };
      ext.ws.send(id === 'old' ? JSON.stringify(frame) : JSON.stringify(frame, null, 2));
      expect(await srv.next()).toMatchObject({
        id,
        payload: { success: true, data: { content: [{ text: id }] } },
      });
    }
    ext.ws.close();
    srv.socket.end();
  });

  it('fails to start where another daemon holds its socket path, and does not count that socket as its own', async () => {
    // The daemon of beforeEach is the one that won the path; this one started beside it.
    const otherDir = mkdtempSync(join(tmpdir(), 'ba-daemon-test-'));
    const second = new Daemon(
      {
        socketPath: join(dir, 'd.sock'),
        stateDir: otherDir,
        port: 0,
        idleExitMs: 600_000,
        extensionWaitMs: 100,
        launchWaitMs: 100,
        sessionGraceMs: 400,
      },
      createLogger('test'),
    );
    expect(daemon.socketBound).toBe(true);
    await expect(second.start()).rejects.toThrow(/EADDRINUSE/);
    // main.ts removes the socket file at exit only when this is true: the winner keeps its file.
    expect(second.socketBound).toBe(false);
    await second.stop();
    rmSync(otherDir, { recursive: true, force: true });
    const srv = await openServer(join(dir, 'd.sock'));
    srv.socket.end();
  });

  it('starts on a free port when another program holds the bridge port, and says so to calls (#27.3)', async () => {
    // The daemon of beforeEach holds `port`: to this one it is another program.
    const otherDir = mkdtempSync(join(tmpdir(), 'ba-daemon-test-'));
    const second = new Daemon(
      {
        socketPath: join(otherDir, 'd.sock'),
        stateDir: otherDir,
        port,
        idleExitMs: 600_000,
        extensionWaitMs: 100,
        launchWaitMs: 100,
        sessionGraceMs: 400,
      },
      createLogger('test'),
    );
    try {
      await second.start();
      const status = JSON.parse(readFileSync(join(otherDir, 'status.json'), 'utf8')) as {
        port: number;
      };
      expect(status.port).not.toBe(port);
      expect(status.port).toBeGreaterThan(0);
      const srv = await openServer(join(otherDir, 'd.sock'));
      srv.socket.write(
        `${serializeFrame({ type: 'request', id: 'r', sessionId: srv.sessionId, action: 'browser_snapshot', params: {} })}\n`,
      );
      expect(await srv.next()).toMatchObject({
        payload: {
          success: false,
          error: {
            code: 'NOT_CONNECTED',
            message: expect.stringContaining(`Bridge port ${port}`) as unknown,
            hint: expect.stringContaining('--launch') as unknown,
          },
        },
      });
      srv.socket.end();
    } finally {
      await second.stop();
      rmSync(otherDir, { recursive: true, force: true });
    }
  });

  it('answers NOT_CONNECTED when no extension is there', async () => {
    const srv = await openServer(join(dir, 'd.sock'));
    srv.socket.write(
      `${serializeFrame({ type: 'request', id: 'r', sessionId: srv.sessionId, action: 'browser_snapshot', params: {} })}\n`,
    );
    const res = await srv.next();
    expect(res).toMatchObject({
      type: 'response',
      id: 'r',
      payload: { success: false, error: { code: 'NOT_CONNECTED' } },
    });
    srv.socket.end();
  });

  it('fails a call in flight at once when the extension link drops', async () => {
    const ext = await openExtension(port);
    const srv = await openServer(join(dir, 'd.sock'));
    srv.socket.write(
      `${serializeFrame({ type: 'request', id: 'r', sessionId: srv.sessionId, action: 'browser_wait_for', params: { time: 5 } })}\n`,
    );
    await ext.next('request');
    ext.ws.terminate();
    const res = await srv.next();
    expect(res).toMatchObject({
      id: 'r',
      payload: { success: false, error: { code: 'NOT_CONNECTED' } },
    });
    srv.socket.end();
  });

  it('answers TIMEOUT exactly once and drops the late response', async () => {
    const ext = await openExtension(port);
    const srv = await openServer(join(dir, 'd.sock'));
    srv.socket.write(
      `${serializeFrame({ type: 'request', id: 'r', sessionId: srv.sessionId, action: 'browser_snapshot', params: {}, timeoutMs: 100 })}\n`,
    );
    const req = await ext.next('request');
    const res = await srv.next();
    expect(res).toMatchObject({ id: 'r', payload: { success: false, error: { code: 'TIMEOUT' } } });
    if (req.type !== 'request') throw new Error('not a request');
    respond(ext, req, { success: true, data: { content: [] } });
    // A ping answered proves the late response was not forwarded before it.
    srv.socket.write(`${serializeFrame({ type: 'ping', t: 7 })}\n`);
    expect(await srv.next()).toEqual({ type: 'pong', t: 7 });
    ext.ws.close();
    srv.socket.end();
  });

  it('stamps the connection own session id on requests, so a server cannot act for another', async () => {
    const ext = await openExtension(port);
    const srv = await openServer(join(dir, 'd.sock'));
    srv.socket.write(
      `${serializeFrame({ type: 'request', id: 'r', sessionId: 'someone-else', action: 'browser_snapshot', params: {} })}\n`,
    );
    const req = await ext.next('request');
    expect(req).toMatchObject({ sessionId: srv.sessionId });
    ext.ws.close();
    srv.socket.end();
  });

  it('survives malformed, unknown and oversized lines and keeps serving', async () => {
    const srv = await openServer(join(dir, 'd.sock'));
    srv.socket.write('not json\n');
    expect(await srv.next()).toMatchObject({ type: 'error', error: { code: 'INVALID_FRAME' } });
    srv.socket.write('{"type":"warp"}\n');
    expect(await srv.next()).toMatchObject({ type: 'error', error: { code: 'INVALID_FRAME' } });
    srv.socket.write(`${'x'.repeat(17 * 1024 * 1024)}\n`);
    expect(await srv.next()).toMatchObject({ type: 'error', error: { code: 'INVALID_FRAME' } });
    srv.socket.write(`${serializeFrame({ type: 'ping', t: 1 })}\n`);
    expect(await srv.next()).toEqual({ type: 'pong', t: 1 });
    srv.socket.end();
  });

  it('refuses frames sent the wrong way on either link, naming them, and keeps both links up', async () => {
    const ext = await openExtension(port);
    const srv = await openServer(join(dir, 'd.sock'));
    await ext.next('session_start');
    // Frames only the daemon sends, written by a server and by the extension.
    srv.socket.write(
      `${serializeFrame({ type: 'session_start', sessionId: srv.sessionId, client: { name: 'x', version: '1' } })}\n`,
    );
    const fromServer = await srv.next();
    expect(fromServer).toMatchObject({ type: 'error', error: { code: 'INVALID_FRAME' } });
    if (fromServer.type !== 'error') throw new Error('no error frame');
    expect(fromServer.error.message).toContain(
      'A session_start frame is not sent from an MCP server',
    );
    ext.ws.send(serializeFrame({ type: 'register_ok', sessionId: 'x', resumed: false }));
    const fromExtension = await ext.next('error');
    expect(fromExtension).toMatchObject({ error: { code: 'INVALID_FRAME' } });
    if (fromExtension.type !== 'error') throw new Error('no error frame');
    expect(fromExtension.error.message).toContain(
      'A register_ok frame is not sent from the extension',
    );
    srv.socket.write(
      `${serializeFrame({ type: 'request', id: 'after', sessionId: srv.sessionId, action: 'browser_snapshot', params: {} })}\n`,
    );
    const req = await ext.next('request');
    respond(ext, req as { id: string; sessionId: string }, {
      success: true,
      data: { content: [] },
    });
    expect(await srv.next()).toMatchObject({ type: 'response', id: 'after' });
    ext.ws.close();
    srv.socket.end();
  });

  it('closes a connection whose first frame is not a hello', async () => {
    const socket = connect(join(dir, 'd.sock'));
    await new Promise((r) => socket.once('connect', r));
    const next = frameReader(socket);
    socket.write('garbage\n');
    expect(await next()).toMatchObject({ type: 'error' });
    await new Promise((r) => socket.once('close', r));
  });

  it('refuses a version mismatch with a hint naming the side to update', async () => {
    const socket = connect(join(dir, 'd.sock'));
    await new Promise((r) => socket.once('connect', r));
    const next = frameReader(socket);
    socket.write(
      `${serializeFrame({ type: 'hello', protocolVersion: PROTOCOL_VERSION + 1, role: 'server' })}\n`,
    );
    const frame = await next();
    expect(frame).toMatchObject({ type: 'error', error: { code: 'VERSION_MISMATCH' } });
  });
});

describe('sessions', () => {
  it('refuses requests before register with NOT_REGISTERED', async () => {
    const socket = connect(join(dir, 'd.sock'));
    await new Promise((r) => socket.once('connect', r));
    const next = frameReader(socket);
    socket.write(
      `${serializeFrame({ type: 'hello', protocolVersion: PROTOCOL_VERSION, role: 'server' })}\n`,
    );
    await next();
    socket.write(
      `${serializeFrame({ type: 'request', id: 'r', sessionId: 'x', action: 'browser_snapshot', params: {} })}\n`,
    );
    expect(await next()).toMatchObject({
      id: 'r',
      payload: { success: false, error: { code: 'NOT_REGISTERED' } },
    });
    socket.end();
  });

  it("keeps a session's reported tabs for status.json (origin + path), never passing them to the server", async () => {
    const ext = await openExtension(port);
    const srv = await openServer(join(dir, 'd.sock'));
    const report = (data: unknown): void =>
      ext.ws.send(
        serializeFrame({
          type: 'event',
          sessionId: srv.sessionId,
          event: SESSION_TABS_EVENT,
          data,
        }),
      );
    report({ tabs: 'not a list' });
    report({
      tabs: [{ tabId: 7, url: 'http://127.0.0.1:9/a/b?token=s3cret#frag', title: 'T'.repeat(500) }],
    });
    const tabsInStatus = (): unknown => {
      try {
        const status = JSON.parse(readFileSync(join(dir, 'status.json'), 'utf8')) as {
          sessions: { id: string; tabs?: unknown }[];
        };
        return status.sessions.find((s) => s.id === srv.sessionId)?.tabs;
      } catch {
        return undefined;
      }
    };
    await expect
      .poll(tabsInStatus)
      .toEqual([{ tabId: 7, url: 'http://127.0.0.1:9/a/b', title: 'T'.repeat(200) }]);
    // Other events still reach the server; the tab reports before them did not.
    ext.ws.send(
      serializeFrame({ type: 'event', sessionId: srv.sessionId, event: 'other', data: {} }),
    );
    expect(await srv.next()).toMatchObject({ type: 'event', event: 'other' });
    ext.ws.close();
    srv.socket.end();
  });

  it('gives a restarted server with the same key its session back within the grace period', async () => {
    const ext = await openExtension(port);
    const first = await openServer(join(dir, 'd.sock'), 'key-1');
    expect(first.resumed).toBe(false);
    first.socket.destroy();
    await new Promise((r) => setTimeout(r, 100));
    const second = await openServer(join(dir, 'd.sock'), 'key-1');
    expect(second).toMatchObject({ sessionId: first.sessionId, resumed: true });
    expect(ext.frames.some((f) => f.type === 'session_end')).toBe(false);
    const other = await openServer(join(dir, 'd.sock'), 'key-2');
    expect(other.sessionId).not.toBe(first.sessionId);
    ext.ws.close();
    second.socket.end();
    other.socket.end();
  });

  it('gives a resumed server its last calls from the write-ahead log, and the extension the resume time', async () => {
    const ext = await openExtension(port);
    const first = await openServer(join(dir, 'd.sock'), 'key-r');
    const answer = async (text: string) => {
      const req = await ext.next('request');
      if (req.type !== 'request') throw new Error('not a request');
      respond(ext, req, { success: true, data: { content: [{ type: 'text', text }] } });
    };
    first.socket.write(
      `${serializeFrame({ type: 'request', id: 'r1', sessionId: first.sessionId, action: 'browser_type', params: { ref: 'e1', text: 'secret words' } })}\n`,
    );
    await answer('typed');
    await first.next();
    first.socket.destroy();
    await new Promise((r) => setTimeout(r, 50));

    const second = await openServer(join(dir, 'd.sock'), 'key-r');
    expect(second.resumed).toBe(true);
    expect(second.ok.recentCalls).toEqual([
      expect.objectContaining({
        tool: 'browser_type',
        args: '{"ref":"e1","text":"[redacted]"}',
        code: 'ok',
      }),
    ]);
    ext.frames.splice(0);
    second.socket.write(
      `${serializeFrame({ type: 'request', id: 'r2', sessionId: second.sessionId, action: 'browser_snapshot', params: {} })}\n`,
    );
    await answer('snapshot');
    const stats = await ext.next('session_start');
    expect(stats).toMatchObject({ sessionId: first.sessionId, resume: { count: 1 } });
    if (stats.type !== 'session_start') throw new Error('not a session_start');
    expect(stats.resume?.lastMs).toBeGreaterThanOrEqual(0);
    expect(stats.resume?.downtimeMs).toBeGreaterThanOrEqual(0);
    ext.ws.close();
    second.socket.end();
  });

  it('relays a cancel to the extension under its own id, and a call cancelled before the link came is never sent', async () => {
    const srv = await openServer(join(dir, 'd.sock'));
    const write = (frame: Frame) => srv.socket.write(`${serializeFrame(frame)}\n`);
    const request = (id: string, time: number): Frame => ({
      type: 'request',
      id,
      sessionId: srv.sessionId,
      action: 'browser_wait_for',
      params: { time },
    });
    // No extension yet: the call waits for the link (extensionWaitMs) and is cancelled meanwhile.
    write(request('early', 1));
    write({ type: 'cancel', id: 'early', sessionId: srv.sessionId });
    const ext = await openExtension(port);
    write(request('late', 10));
    const forwarded = await ext.next('request');
    if (forwarded.type !== 'request') throw new Error('not a request');
    expect(forwarded.params).toEqual({ time: 10 });
    // The first request the extension sees is the late one, and no other follows.
    expect(ext.frames.filter((f) => f.type === 'request')).toEqual([]);
    write({
      type: 'cancel',
      id: 'late',
      sessionId: srv.sessionId,
      reason: 'cancelled by the MCP client',
    });
    expect(await ext.next('cancel')).toEqual({
      type: 'cancel',
      id: forwarded.id,
      sessionId: srv.sessionId,
      reason: 'cancelled by the MCP client',
    });
    expect(ext.frames.filter((f) => f.type === 'request')).toEqual([]);
    ext.ws.close();
    srv.socket.end();
  });

  it('gives no recent calls to a server resuming after its predecessor said bye', async () => {
    const first = await openServer(join(dir, 'd.sock'), 'key-bye');
    first.socket.end(`${serializeFrame({ type: 'bye' })}\n`);
    await new Promise((r) => setTimeout(r, 50));
    const second = await openServer(join(dir, 'd.sock'), 'key-bye');
    expect(second.resumed).toBe(true);
    expect(second.ok.recentCalls).toBeUndefined();
    second.socket.destroy();
    await new Promise((r) => setTimeout(r, 50));
    const third = await openServer(join(dir, 'd.sock'), 'key-bye');
    expect(third.resumed).toBe(true);
    expect(third.ok.recentCalls).toEqual([]);
    third.socket.end();
  });

  it('ends a keyed session after its grace period, and an unkeyed one at once', async () => {
    const ext = await openExtension(port);
    const keyed = await openServer(join(dir, 'd.sock'), 'key-g');
    const plain = await openServer(join(dir, 'd.sock'), undefined, null);
    plain.socket.destroy();
    expect(await ext.next('session_end')).toMatchObject({ sessionId: plain.sessionId });
    keyed.socket.destroy();
    const startedWaiting = Date.now();
    expect(await ext.next('session_end')).toMatchObject({ sessionId: keyed.sessionId });
    expect(Date.now() - startedWaiting).toBeGreaterThanOrEqual(300);
    ext.ws.close();
  });
});

describe('pairing and authentication', () => {
  const hello = (nonce: string, ids: string[]) =>
    serializeFrame({
      type: 'hello',
      protocolVersion: PROTOCOL_VERSION,
      role: 'extension',
      nonce,
      pairings: ids,
    });

  it('refuses a client that forges the Origin but holds the wrong secret', async () => {
    const ext = await rawExtension(port);
    const nonce = randomBytes(24).toString('base64');
    ext.ws.send(hello(nonce, [pairingId(pairingSecret)]));
    const challenge = await ext.next('challenge');
    if (challenge.type !== 'challenge') throw new Error('no challenge');
    const wrong = randomBytes(32);
    const gone = closed(ext.ws);
    ext.ws.send(
      serializeFrame({
        type: 'auth',
        proof: sign(wrong, proofMessage.extension(challenge.nonce, nonce)),
      }),
    );
    expect((await gone).code).toBe(4401);
    expect(ext.frames.some((f) => f.type === 'welcome')).toBe(false);
  });

  it('refuses a replayed handshake: the daemon nonce is new on every connection', async () => {
    const first = await rawExtension(port);
    const nonce = randomBytes(24).toString('base64');
    first.ws.send(hello(nonce, [pairingId(pairingSecret)]));
    const c1 = await first.next('challenge');
    if (c1.type !== 'challenge') throw new Error('no challenge');
    const recordedAuth = serializeFrame({
      type: 'auth',
      proof: sign(pairingSecret, proofMessage.extension(c1.nonce, nonce)),
    });
    first.ws.close();

    const replay = await rawExtension(port);
    replay.ws.send(hello(nonce, [pairingId(pairingSecret)]));
    const c2 = await replay.next('challenge');
    if (c2.type !== 'challenge') throw new Error('no challenge');
    expect(c2.nonce).not.toBe(c1.nonce);
    const gone = closed(replay.ws);
    replay.ws.send(recordedAuth);
    expect((await gone).code).toBe(4401);
  });

  it('never lets an unauthenticated connection carry requests', async () => {
    const ext = await rawExtension(port);
    const srv = await openServer(join(dir, 'd.sock'));
    srv.socket.write(
      `${serializeFrame({ type: 'request', id: 'r', sessionId: srv.sessionId, action: 'browser_snapshot', params: {} })}\n`,
    );
    expect(await srv.next()).toMatchObject({
      payload: { success: false, error: { code: 'NOT_CONNECTED' } },
    });
    expect(ext.frames.some((f) => f.type === 'request' || f.type === 'session_start')).toBe(false);
    ext.ws.close();
    srv.socket.end();
  });

  /** Runs pair_start → pair_offer → pair_confirm with `code` as the extension would. */
  async function pairWithCode(
    ext: FakeExtension,
    code: string,
  ): Promise<{ secret: Buffer; extensionKey: string; offer: FrameOf<'pair_offer'>; key: Buffer }> {
    const ecdh = createECDH('prime256v1');
    const extensionKey = ecdh.generateKeys('base64');
    ext.ws.send(serializeFrame({ type: 'pair_start', publicKey: extensionKey }));
    const offer = await ext.next('pair_offer');
    if (offer.type !== 'pair_offer' || offer.codeSalt === undefined) throw new Error('no offer');
    const shared = ecdh.computeSecret(Buffer.from(offer.publicKey, 'base64'));
    const secret = createHash('sha256')
      .update(PAIRING_KDF_LABEL)
      .update(shared)
      .update(extensionKey)
      .update(offer.publicKey)
      .digest();
    expect(offer.pairingId).toBe(pairingId(secret));
    const key = pbkdf2Sync(
      code,
      Buffer.from(offer.codeSalt, 'base64'),
      PAIRING_CODE_PBKDF2_ITERATIONS,
      32,
      'sha256',
    );
    ext.ws.send(
      serializeFrame({
        type: 'pair_confirm',
        pairingId: offer.pairingId,
        proof: sign(
          key,
          codeProofMessage.extension(extensionKey, offer.publicKey, offer.pairingId),
        ),
      }),
    );
    return { secret, extensionKey, offer, key };
  }

  /** The code the agent is told while an unpaired extension waits. */
  async function codeTheAgentSees(srv: Awaited<ReturnType<typeof openServer>>): Promise<string> {
    srv.socket.write(
      `${serializeFrame({ type: 'request', id: randomBytes(4).toString('hex'), sessionId: srv.sessionId, action: 'browser_snapshot', params: {} })}\n`,
    );
    const refused = await srv.next();
    expect(refused).toMatchObject({ payload: { success: false, error: { code: 'NOT_PAIRED' } } });
    const code = /code is ([0-9A-Z]{5}-[0-9A-Z]{5})/.exec(JSON.stringify(refused))?.[1];
    if (!code) throw new Error(`no code in ${JSON.stringify(refused)}`);
    return code;
  }

  it('pairs a new extension only with the one-time code the agent was told, once', async () => {
    const ext = await rawExtension(port);
    ext.ws.send(hello(randomBytes(24).toString('base64'), ['unknown-id']));
    await ext.next('pairing_required');
    const srv = await openServer(join(dir, 'd.sock'));
    const code = await codeTheAgentSees(srv);

    const { extensionKey, offer, key } = await pairWithCode(ext, code);
    const paired = await ext.next('paired');
    // The daemon proves it knew the code too, and only now, after the extension's proof.
    if (paired.type !== 'paired' || paired.proof === undefined) throw new Error('no proof');
    expect(
      verify(
        key,
        codeProofMessage.daemon(extensionKey, offer.publicKey, offer.pairingId),
        paired.proof,
      ),
    ).toBe(true);
    await ext.next('welcome');
    expect(new PairingStore(dir).all().map((p) => p.id)).toContain(offer.pairingId);
    expect(statSync(join(dir, 'pairings.json')).mode & 0o777).toBe(0o600);

    // The code is spent: a second browser with the same code is refused.
    const second = await rawExtension(port);
    second.ws.send(hello(randomBytes(24).toString('base64'), []));
    await second.next('pairing_required');
    const gone = closed(second.ws);
    const again = await pairWithCode(second, code);
    expect((await gone).code).toBe(4401);
    expect(new PairingStore(dir).all().map((p) => p.id)).not.toContain(again.offer.pairingId);
    ext.ws.close();
    srv.socket.end();
  });

  it('names the MCP clients connected now when it asks a new extension to pair', async () => {
    const alone = await rawExtension(port);
    alone.ws.send(hello(randomBytes(24).toString('base64'), []));
    const before = await alone.next('pairing_required');
    expect(before, 'no client connected: none named').not.toHaveProperty('clients');
    alone.ws.close();
    const srv = await openServer(join(dir, 'd.sock'));
    const ext = await rawExtension(port);
    ext.ws.send(hello(randomBytes(24).toString('base64'), []));
    expect(await ext.next('pairing_required')).toMatchObject({ clients: ['test-client'] });
    ext.ws.close();
    srv.socket.end();
  });

  it('after a pairing, drops the code from status.json and sends a closed panel back to the panel', async () => {
    const ext = await rawExtension(port);
    ext.ws.send(hello(randomBytes(24).toString('base64'), []));
    await ext.next('pairing_required');
    const srv = await openServer(join(dir, 'd.sock'));
    await pairWithCode(ext, await codeTheAgentSees(srv));
    await ext.next('welcome');
    const status = () =>
      JSON.parse(readFileSync(join(dir, 'status.json'), 'utf8')) as { pairingCode?: string };
    expect(status().pairingCode).toBeUndefined();
    // The user closes the panel: the reopened panel reconnects without a code.
    const gone = closed(ext.ws);
    ext.ws.close();
    await gone;
    srv.socket.write(
      `${serializeFrame({ type: 'request', id: 'after-close', sessionId: srv.sessionId, action: 'browser_snapshot', params: {} })}\n`,
    );
    const refused = await srv.next();
    expect(refused).toMatchObject({
      payload: { success: false, error: { code: 'NOT_CONNECTED', hint: /side panel/ } },
    });
    expect(status().pairingCode).toBeUndefined();
    srv.socket.end();
  });

  it('refuses a local process that pairs without the code: nothing stored, nothing sent', async () => {
    const srv = await openServer(join(dir, 'd.sock'));
    const before = new PairingStore(dir).all().length;
    for (let i = 0; i < 3; i++) {
      const forged = await rawExtension(port);
      forged.ws.send(hello(randomBytes(24).toString('base64'), []));
      await forged.next('pairing_required');
      const gone = closed(forged.ws);
      // The old scheme: a proof keyed with the ECDH secret alone, which any peer can make.
      const ecdh = createECDH('prime256v1');
      const extensionKey = ecdh.generateKeys('base64');
      forged.ws.send(serializeFrame({ type: 'pair_start', publicKey: extensionKey }));
      const offer = await forged.next('pair_offer');
      if (offer.type !== 'pair_offer') throw new Error('no offer');
      const secret = createHash('sha256')
        .update(PAIRING_KDF_LABEL)
        .update(ecdh.computeSecret(Buffer.from(offer.publicKey, 'base64')))
        .update(extensionKey)
        .update(offer.publicKey)
        .digest();
      forged.ws.send(
        serializeFrame({
          type: 'pair_confirm',
          pairingId: offer.pairingId,
          proof: sign(secret, `confirm|${extensionKey}|${offer.publicKey}`),
        }),
      );
      expect((await gone).code).toBe(4401);
      expect(
        forged.frames.some((f) =>
          ['paired', 'welcome', 'session_start', 'request'].includes(f.type),
        ),
      ).toBe(false);
    }
    expect(new PairingStore(dir).all()).toHaveLength(before);
    srv.socket.end();
  });

  it('retires the code after three wrong tries, so guessing gets three tries per code', async () => {
    const srv = await openServer(join(dir, 'd.sock'));
    const waiting = await rawExtension(port);
    waiting.ws.send(hello(randomBytes(24).toString('base64'), []));
    await waiting.next('pairing_required');
    const first = await codeTheAgentSees(srv);
    for (let i = 0; i < 3; i++) {
      const guesser = await rawExtension(port);
      guesser.ws.send(hello(randomBytes(24).toString('base64'), []));
      await guesser.next('pairing_required');
      const gone = closed(guesser.ws);
      await pairWithCode(guesser, `GUESS-0000${i}`);
      expect((await gone).code).toBe(4401);
    }
    const next = await codeTheAgentSees(srv);
    expect(next).not.toBe(first);
    // The user's retyped code still pairs the browser that waited.
    await pairWithCode(waiting, next);
    await waiting.next('welcome');
    waiting.ws.close();
    srv.socket.end();
  });

  it('ends the link of a pairing revoked in the store (the CLI), and it cannot come back', async () => {
    const ext = await openExtension(port);
    const gone = closed(ext.ws);
    new PairingStore(dir).remove(pairingId(pairingSecret));
    expect(await gone).toMatchObject({ code: 4401, reason: 'This pairing was revoked' });
    const back = await rawExtension(port);
    back.ws.send(hello(randomBytes(24).toString('base64'), [pairingId(pairingSecret)]));
    await back.next('pairing_required');
    back.ws.close();
  });

  it.runIf(process.platform !== 'win32')('serves its Unix socket 0600, whatever the umask', () => {
    expect(statSync(join(dir, 'd.sock')).mode & 0o777).toBe(0o600);
  });

  it('pairs a second browser while the first holds the link: it keeps its half, then waits', async () => {
    const second = await rawExtension(port);
    second.ws.send(hello(randomBytes(24).toString('base64'), []));
    await second.next('pairing_required');
    const srv = await openServer(join(dir, 'd.sock'));
    const code = await codeTheAgentSees(srv);
    const reconnected = await openExtension(port);
    const gone = closed(second.ws);
    await pairWithCode(second, code);
    await second.next('paired');
    expect((await gone).code).toBe(4005);
    expect(second.frames.some((f) => f.type === 'welcome')).toBe(false);
    reconnected.ws.close();
    srv.socket.end();
  });

  it('lets only a few connections wait for a code at once', async () => {
    const waiting = [];
    for (let i = 0; i < 4; i++) {
      const ext = await rawExtension(port);
      ext.ws.send(hello(randomBytes(24).toString('base64'), []));
      await ext.next('pairing_required');
      waiting.push(ext);
    }
    const extra = await rawExtension(port);
    const gone = closed(extra.ws);
    extra.ws.send(hello(randomBytes(24).toString('base64'), []));
    expect((await gone).code).toBe(4429);
    for (const ext of waiting) ext.ws.close();
  });
});

describe('write-ahead log and restore', () => {
  it('logs every forwarded call before it runs, and its result', async () => {
    const ext = await openExtension(port);
    const srv = await openServer(join(dir, 'd.sock'));
    srv.socket.write(
      `${serializeFrame({ type: 'request', id: 'w1', sessionId: srv.sessionId, action: 'browser_type', params: { ref: 'e1', text: 'top secret' } })}\n`,
    );
    const req = await ext.next('request');
    // The call line is on disk before the extension has answered.
    const before = readFileSync(join(dir, 'wal', 'calls.jsonl'), 'utf8');
    expect(before).toContain('"phase":"call"');
    expect(before).not.toContain('top secret');
    if (req.type !== 'request') throw new Error('no request');
    respond(ext, req, { success: false, error: { code: 'STALE_REF', message: 'x' } });
    await srv.next();
    const after = readFileSync(join(dir, 'wal', 'calls.jsonl'), 'utf8');
    expect(after).toContain('"phase":"result"');
    expect(after).toContain('"code":"STALE_REF"');
    ext.ws.close();
    srv.socket.end();
  });

  it('a new daemon restores keyed sessions a killed one left, and the server gets its session back', async () => {
    const first = await openServer(join(dir, 'd.sock'), 'survivor');
    // Simulate SIGKILL: the daemon is gone without ending its sessions.
    const saved = readFileSync(join(dir, 'sessions.json'), 'utf8');
    expect(saved).toContain('survivor');
    first.socket.destroy();
    await daemon.stop();
    writeFileSync(join(dir, 'sessions.json'), saved);
    daemon = new Daemon(
      {
        socketPath: join(dir, 'd.sock'),
        stateDir: dir,
        port,
        idleExitMs: 600_000,
        extensionWaitMs: 300,
        launchWaitMs: 300,
        sessionGraceMs: 2_000,
      },
      createLogger('test'),
    );
    await daemon.start();
    const ext = await openExtension(port);
    const announced = await ext.next('session_start');
    expect(announced).toMatchObject({ sessionId: first.sessionId });
    const again = await openServer(join(dir, 'd.sock'), 'survivor');
    expect(again).toMatchObject({ sessionId: first.sessionId, resumed: true });
    ext.ws.close();
    again.socket.end();
  });
});

describe('WebSocket upgrade checks', () => {
  const attempt = (headers: Record<string, string>, origin?: string): Promise<number | 'open'> =>
    new Promise((resolve) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}`, {
        headers,
        ...(origin ? { origin } : {}),
      });
      ws.once('open', () => {
        ws.close();
        resolve('open');
      });
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('error', () => resolve(0));
    });

  it('refuses web-page origins, a missing origin and other extensions', async () => {
    expect(await attempt({}, 'http://127.0.0.1:8080')).toBe(403);
    expect(await attempt({}, 'http://localhost:3000')).toBe(403);
    expect(await attempt({})).toBe(403);
    expect(await attempt({}, 'chrome-extension://aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')).toBe(403);
  });

  it('refuses a non-loopback Host (DNS rebinding) even with the right origin', async () => {
    expect(await attempt({ Host: `evil.example:${port}` }, EXTENSION_ORIGIN)).toBe(403);
  });

  it('accepts our extension origin on loopback', async () => {
    expect(await attempt({}, EXTENSION_ORIGIN)).toBe('open');
  });
});
