/**
 * MCP over HTTP (`--port`), for clients that connect by URL.
 *   POST/GET/DELETE /mcp (and /)  the SDK's StreamableHTTPServerTransport, one per MCP session
 *   GET /sse                      the legacy SSE transport (SDK SSEServerTransport), one per
 *   POST /messages?sessionId=…    stream; POST /sse?sessionId=… is taken too (Playwright MCP's)
 * A POST `initialize` without an `mcp-session-id` (or a GET /sse) opens a new MCP session, and
 * with it a new bridge session (its own daemon connection, tabs and tab group), or with
 * `--shared-browser-context` a new MCP server over the one shared bridge session. DELETE or the
 * transport closing ends it, and so does a session left idle (no request open) for
 * `sessionIdleMs`: clients that quit without a DELETE (most do) would otherwise keep their tabs
 * open until the server stops. A heartbeat pings every client that holds a stream open (SSE,
 * or a Streamable HTTP GET stream) and ends the session of one that does not answer in time.
 * Invariants: binds loopback unless told otherwise; every request's Host must name this server
 * or an `--allowed-hosts` entry (DNS rebinding), and a browser Origin must be loopback (a web
 * page on another site cannot drive the browser through us); every request on every path,
 * SSE included, carries the bearer token (httpAuth.ts) unless --no-token was given on a
 * loopback bind (401 otherwise).
 */
import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { EmptyResultSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { MAX_FRAME_BYTES } from '@browser-agent/protocol';
import type { Logger } from '../../shared/logger.js';
import type { BridgeSession } from '../session/bridgeSession.js';
import type { HttpOptions } from './httpOptions.js';
import { checkHttpHeaders } from './httpGuard.js';
import { hasBearer, TOKEN_REFUSAL_STATUS, tokenRefusal } from './httpAuth.js';

export const MCP_PATH = '/mcp';
export const SSE_PATH = '/sse';
export const SSE_MESSAGES_PATH = '/messages';

export interface HttpServer {
  readonly url: string;
  /** The legacy SSE endpoint (GET). */
  readonly sseUrl: string;
  close(): Promise<void>;
}

interface Live {
  transport: StreamableHTTPServerTransport | SSEServerTransport;
  session: BridgeSession;
  idle: IdleClock;
  /** A stream the server can send on is open (SSE always; Streamable HTTP after a GET). */
  streams: number;
  pinging: boolean;
}

export interface HttpServeOptions extends HttpOptions {
  sessionIdleMs: number;
  /** Host names served besides loopback and the bound host. */
  allowedHosts?: readonly string[];
  /** Ping interval and answer deadline; 0 turns the heartbeat off. */
  heartbeatMs?: number;
  /** The token's file, named in the refusal of a request without it. */
  tokenFile?: string;
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
  options: HttpServeOptions,
  openSession: () => BridgeSession,
  log: Logger,
  token: string | undefined,
): Promise<HttpServer> {
  const live = new Map<string, Live>();
  let port = options.port;

  /** A new MCP session over `transport`, ended (with its bridge session) when it closes. */
  const start = (
    transport: StreamableHTTPServerTransport | SSEServerTransport,
    kind: string,
  ): Live => {
    const session = openSession();
    const idleS = Math.round(options.sessionIdleMs / 1000);
    const idle = new IdleClock(options.sessionIdleMs, () => {
      log.info(`${kind} MCP session ${transport.sessionId ?? '?'} idle for ${idleS} s: closing it`);
      void transport.close();
    });
    const entry: Live = { transport, session, idle, streams: 0, pinging: false };
    let closed = false;
    transport.onclose = () => {
      if (closed) return;
      closed = true;
      idle.stop();
      const id = transport.sessionId;
      if (id !== undefined && live.delete(id)) log.info(`${kind} MCP session ${id} closed`);
      void session.close();
    };
    return entry;
  };

  const trackStream = (entry: Live, res: ServerResponse): void => {
    entry.streams++;
    res.once('close', () => entry.streams--);
  };

  const handleStreamable = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? live.get(sessionId) : undefined;
    if (existing) {
      if (!(existing.transport instanceof StreamableHTTPServerTransport)) {
        return reply(res, 400, `That session is an SSE session; post to ${SSE_MESSAGES_PATH}.`);
      }
      existing.idle.track(res);
      if (req.method === 'GET') trackStream(existing, res);
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
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        live.set(id, entry);
        log.info(`HTTP MCP session ${id} opened`);
      },
    });
    const entry = start(transport, 'HTTP');
    entry.idle.track(res);
    await entry.session.server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const handleSse = async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    if (req.method === 'GET' && url.pathname === SSE_PATH) {
      const transport = new SSEServerTransport(SSE_MESSAGES_PATH, res);
      const entry = start(transport, 'SSE');
      live.set(transport.sessionId, entry);
      entry.idle.track(res);
      trackStream(entry, res);
      log.info(`SSE MCP session ${transport.sessionId} opened`);
      await entry.session.server.connect(transport);
      return;
    }
    if (req.method !== 'POST') {
      return reply(
        res,
        405,
        `Open an SSE stream with GET ${SSE_PATH}; post messages to ${SSE_MESSAGES_PATH}.`,
      );
    }
    const sessionId = url.searchParams.get('sessionId');
    const entry = sessionId === null ? undefined : live.get(sessionId);
    if (!entry || !(entry.transport instanceof SSEServerTransport)) {
      return reply(
        res,
        sessionId === null ? 400 : 404,
        sessionId === null
          ? `Add ?sessionId= from the SSE stream's endpoint event.`
          : `Unknown SSE session; open a new one with GET ${SSE_PATH}.`,
      );
    }
    entry.idle.track(res);
    const body = await readJson(req);
    if (body === undefined) return reply(res, 400, 'The body must be one JSON-RPC message.');
    await entry.transport.handlePostMessage(req, res, body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refusal = checkHttpHeaders(req.headers, options.host, port, options.allowedHosts);
    if (refusal !== undefined) {
      log.warn(`HTTP ${req.method ?? '?'} refused: ${refusal}`);
      return reply(res, 403, refusal);
    }
    if (token !== undefined && !hasBearer(req.headers, token)) {
      log.warn(`HTTP ${req.method ?? '?'} refused: no valid bearer token`);
      return reply(res, TOKEN_REFUSAL_STATUS, tokenRefusal(options.tokenFile));
    }
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === MCP_PATH || url.pathname === '/') return handleStreamable(req, res);
    if (url.pathname === SSE_PATH || url.pathname === SSE_MESSAGES_PATH) {
      return handleSse(req, res, url);
    }
    return reply(
      res,
      404,
      `Not found; the MCP endpoint is ${MCP_PATH} (Streamable HTTP) or ${SSE_PATH} (SSE).`,
    );
  };

  /**
   * The heartbeat: a client holding a stream open is asked for a ping; one that does not answer
   * within the interval is dead or hung, and its session (and tabs) end now rather than after
   * the idle time. Clients with no stream open cannot be pinged; the idle clock ends those.
   */
  const heartbeatMs = options.heartbeatMs ?? 0;
  const heartbeat =
    heartbeatMs > 0
      ? setInterval(() => {
          for (const [id, entry] of live) {
            if (entry.streams === 0 || entry.pinging) continue;
            entry.pinging = true;
            entry.session.server.server
              .request({ method: 'ping' }, EmptyResultSchema, { timeout: heartbeatMs })
              .then(
                () => {
                  entry.pinging = false;
                },
                (err: unknown) => {
                  entry.pinging = false;
                  if (!live.has(id)) return;
                  log.info(`MCP session ${id} did not answer a ping (${String(err)}): closing it`);
                  void entry.transport.close();
                },
              );
          }
        }, heartbeatMs)
      : undefined;
  heartbeat?.unref();

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
  const sseUrl = `http://${host}:${port}${SSE_PATH}`;
  log.info(`MCP over Streamable HTTP at ${url}`);
  log.info(`MCP over SSE (legacy clients) at ${sseUrl}`);

  return {
    url,
    sseUrl,
    async close() {
      clearInterval(heartbeat);
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
