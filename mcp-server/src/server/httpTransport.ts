/**
 * MCP over Streamable HTTP (`--port`), for clients that connect by URL.
 *   POST/GET/DELETE /mcp   the SDK's StreamableHTTPServerTransport, one per MCP session
 * A POST `initialize` without an `mcp-session-id` opens a new MCP session, and with it a new
 * bridge session (its own daemon connection, tabs and tab group); DELETE or the transport
 * closing ends both, and so does a session left idle (no request open) for `sessionIdleMs`: clients
 * that quit without a DELETE (most do) would otherwise keep their tabs open until the server
 * stops. Invariants: binds loopback unless told otherwise; every request's Host
 * must name this server (DNS rebinding), and a browser Origin must be loopback (a web page on
 * another site cannot drive the browser through us); every request carries the bearer token
 * (httpAuth.ts) unless --no-token was given on a loopback bind (401 otherwise).
 */
import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { MAX_FRAME_BYTES } from '@browser-agent/protocol';
import type { Logger } from '../shared/logger.js';
import type { BridgeSession } from './bridgeSession.js';
import type { HttpOptions } from './httpOptions.js';
import { checkHttpHeaders } from './httpGuard.js';
import { hasBearer } from './httpAuth.js';

export const MCP_PATH = '/mcp';

export interface HttpServer {
  readonly url: string;
  close(): Promise<void>;
}

interface Live {
  transport: StreamableHTTPServerTransport;
  session: BridgeSession;
  idle: IdleClock;
}

/** Counts a session's open requests (a call, an SSE stream) and fires once none was open for ms. */
class IdleClock {
  #open = 0;
  #timer: NodeJS.Timeout | undefined;
  readonly #ms: number;
  readonly #expired: () => void;

  constructor(ms: number, expired: () => void) {
    this.#ms = ms;
    this.#expired = expired;
    this.#arm();
  }

  track(res: ServerResponse): void {
    this.#open++;
    clearTimeout(this.#timer);
    res.once('close', () => {
      if (--this.#open === 0) this.#arm();
    });
  }

  stop(): void {
    clearTimeout(this.#timer);
  }

  #arm(): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(this.#expired, this.#ms);
    this.#timer.unref();
  }
}

export async function serveHttp(
  options: HttpOptions & { sessionIdleMs: number },
  openSession: () => BridgeSession,
  log: Logger,
  token: string | undefined,
): Promise<HttpServer> {
  const live = new Map<string, Live>();
  let port = options.port;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refusal = checkHttpHeaders(req.headers, options.host, port);
    if (refusal !== undefined) {
      log.warn(`HTTP ${req.method ?? '?'} refused: ${refusal}`);
      return reply(res, 403, refusal);
    }
    if (token !== undefined && !hasBearer(req.headers, token)) {
      log.warn(`HTTP ${req.method ?? '?'} refused: no valid bearer token`);
      res.setHeader('www-authenticate', 'Bearer');
      return reply(
        res,
        401,
        'Send "Authorization: Bearer <token>": the server printed it at start, and it is in http-token in its state directory.',
      );
    }
    if (new URL(req.url ?? '/', 'http://x').pathname !== MCP_PATH) {
      return reply(res, 404, `Not found; the MCP endpoint is ${MCP_PATH}.`);
    }
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? live.get(sessionId) : undefined;
    if (existing) {
      existing.idle.track(res);
      return existing.transport.handleRequest(req, res);
    }
    if (sessionId !== undefined) {
      return reply(res, 404, 'Unknown MCP session; initialize a new one.');
    }
    if (req.method !== 'POST') return reply(res, 400, 'Initialize a session with a POST first.');
    const body = await readJson(req);
    if (body === undefined || !isInitializeRequest(body)) {
      return reply(res, 400, 'The first request of a session must be initialize.');
    }
    const session = openSession();
    const idleS = Math.round(options.sessionIdleMs / 1000);
    const idle = new IdleClock(options.sessionIdleMs, () => {
      log.info(`HTTP MCP session ${transport.sessionId ?? '?'} idle for ${idleS} s: closing it`);
      void transport.close();
    });
    idle.track(res);
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        live.set(id, { transport, session, idle });
        log.info(`HTTP MCP session ${id} opened`);
      },
    });
    transport.onclose = () => {
      idle.stop();
      const id = transport.sessionId;
      if (id !== undefined && live.delete(id)) log.info(`HTTP MCP session ${id} closed`);
      void session.close();
    };
    await session.server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log.warn(`HTTP request failed: ${String(err)}`);
      if (!res.headersSent) reply(res, 500, 'Internal error.');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${host}:${port}${MCP_PATH}`;
  log.info(`MCP over Streamable HTTP at ${url}`);

  return {
    url,
    async close() {
      await Promise.all([...live.values()].map(({ transport }) => transport.close()));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function reply(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

/** The request body as JSON, or undefined when it is not JSON or too large. */
async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FRAME_BYTES) return undefined;
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
