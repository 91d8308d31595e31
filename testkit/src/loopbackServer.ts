/**
 * The HTTP server under the e2e suite's and the bench's fixture sites, on 127.0.0.1 only: each
 * site says what a request gets (`route`), this serves it uncached, answers a failing route with
 * a 500, and closes with every open connection.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Reply {
  status: number;
  body: string;
  /** text/html unless said. */
  contentType?: string;
  /** For redirects. */
  location?: string;
}

export interface LoopbackServer {
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  close(): Promise<void>;
}

export async function serveOnLoopback(
  route: (request: http.IncomingMessage) => Promise<Reply>,
  /** Serves a request itself (slow, failing or hung loads) when it returns true. */
  takeOver?: (request: http.IncomingMessage, response: http.ServerResponse) => boolean,
): Promise<LoopbackServer> {
  const server = http.createServer((request, response) => {
    if (takeOver?.(request, response)) return;
    route(request).then(
      ({ status, body, contentType, location }) => {
        response.writeHead(status, {
          ...(location ? { location } : {}),
          'content-type': contentType ?? 'text/html; charset=utf-8',
          'cache-control': 'no-store',
        });
        response.end(body);
      },
      (err: unknown) => {
        response.writeHead(500, { 'content-type': 'text/plain' });
        response.end(String(err));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
