/** Test pages served on 127.0.0.1, for the real-Chromium tests (`*.chromium.test.ts`). */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PageServer {
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  close(): Promise<void>;
}

/**
 * Serves `pages` (path → HTML) and 404s the rest. `special` answers a path first when it returns
 * true (a slow response, say).
 */
export async function servePages(
  pages: Readonly<Record<string, string>>,
  special: (path: string, res: ServerResponse) => boolean = () => false,
): Promise<PageServer> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    if (special(path, res)) return;
    const page = pages[path];
    if (page === undefined) res.writeHead(404).end('not found');
    else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
