/** Test pages served on 127.0.0.1, for the real-Chromium tests (`*.chromium.test.ts`). */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchChromium } from './realBrowser';

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

export interface RealPages {
  readonly browser: Browser;
  readonly origin: string;
}

/**
 * A test file's headless Chromium and its pages (servePages), started before its tests and
 * closed after them; read `browser` and `origin` inside the tests.
 */
export function realBrowserWithPages(
  pages: Readonly<Record<string, string>>,
  special?: (path: string, res: ServerResponse) => boolean,
): RealPages {
  let browser: Browser | undefined;
  let site: PageServer | undefined;
  beforeAll(async () => {
    site = await servePages(pages, special);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });
  return {
    get browser() {
      if (browser === undefined) throw new Error('the browser starts in beforeAll');
      return browser;
    },
    get origin() {
      if (site === undefined) throw new Error('the pages are served from beforeAll');
      return site.origin;
    },
  };
}
