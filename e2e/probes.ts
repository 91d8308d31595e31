/** Talking to the daemon's two listeners the way an intruder or a broken peer would. */
import net from 'node:net';
import type { Page } from '@playwright/test';
import WebSocket from 'ws';

const PROBE_TIMEOUT_MS = 5_000;
/** After the last write, how long to wait for the daemon's answer or its close. */
const SETTLE_MS = 1_500;

export interface SocketExchange {
  /** Lines the daemon sent back, parsed as JSON where they are JSON. */
  frames: unknown[];
  /** The daemon closed (or reset) the connection. */
  closed: boolean;
}

/** Connects to the daemon's Unix socket, writes `chunks` in order, and reports what came back. */
export function exchangeOnSocket(socketPath: string, chunks: string[]): Promise<SocketExchange> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    const frames: unknown[] = [];
    let buffered = '';
    let closed = false;
    let settleTimer: NodeJS.Timeout | undefined;
    const finish = () => {
      clearTimeout(settleTimer);
      socket.destroy();
      resolve({ frames, closed });
    };
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      let newline: number;
      while ((newline = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line.trim() !== '') frames.push(parseLine(line));
      }
    });
    socket.on('close', () => {
      closed = true;
      finish();
    });
    let connected = false;
    socket.on('error', (err) => {
      // After connecting, a reset (the daemon dropping an oversized frame mid-write) counts as closed.
      if (!connected) reject(new Error(`Cannot connect to ${socketPath}: ${err.message}`));
    });
    socket.once('connect', () => {
      connected = true;
      void writeAll(socket, chunks).finally(() => {
        settleTimer = setTimeout(finish, SETTLE_MS);
      });
    });
  });
}

async function writeAll(socket: net.Socket, chunks: string[]): Promise<void> {
  for (const chunk of chunks) {
    if (socket.destroyed) return;
    await new Promise<void>((resolve) => socket.write(chunk, () => resolve()));
  }
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return line;
  }
}

export interface WebSocketProbe {
  opened: boolean;
  /** What happened, in order, for the failure message. */
  events: string[];
}

/** Runs `new WebSocket(url)` inside a web page and reports whether it ever opened. */
export function probeWebSocketFromPage(page: Page, url: string): Promise<WebSocketProbe> {
  return page.evaluate(
    ({ url, timeoutMs }) =>
      new Promise<{ opened: boolean; events: string[] }>((resolve) => {
        const events: string[] = [];
        let opened = false;
        const ws = new WebSocket(url);
        ws.onopen = () => {
          opened = true;
          events.push('open');
        };
        ws.onerror = () => events.push('error');
        ws.onclose = (event) => {
          events.push(`close ${event.code}`);
          resolve({ opened, events });
        };
        setTimeout(() => {
          ws.close();
          resolve({ opened, events: [...events, 'timeout'] });
        }, timeoutMs);
      }),
    { url, timeoutMs: PROBE_TIMEOUT_MS },
  );
}

/** The same from node, with an Origin header of our choosing. */
export function probeWebSocketFromNode(url: string, origin: string): Promise<WebSocketProbe> {
  return new Promise((resolve) => {
    const events: string[] = [];
    let opened = false;
    const ws = new WebSocket(url, { origin });
    const done = () => {
      clearTimeout(timer);
      ws.terminate();
      resolve({ opened, events });
    };
    const timer = setTimeout(() => {
      events.push('timeout');
      done();
    }, PROBE_TIMEOUT_MS);
    ws.on('open', () => {
      opened = true;
      events.push('open');
    });
    ws.on('unexpected-response', (_request, response) => {
      events.push(`HTTP ${response.statusCode ?? '?'}`);
      done();
    });
    ws.on('error', (err) => {
      events.push(`error ${err.message}`);
      done();
    });
    ws.on('close', (code) => {
      events.push(`close ${code}`);
      done();
    });
  });
}
