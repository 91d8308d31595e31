/**
 * Issue #19, the gaps of the permission half: the question on the tab's overlay, answered there
 * with a real (trusted) mouse click. The overlay lives in a closed shadow root, which page
 * scripts and Playwright's locators cannot reach; the harness finds its buttons through the
 * DevTools protocol (DOM.getDocument with pierce), as a person finds them on screen, and clicks
 * at their position with Playwright's mouse. Nothing in the product opens for the test.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CDPSession, Download, Page } from '@playwright/test';
import { ErrorCode } from '@browser-agent/protocol';
import { callOk, callTool, expect, test, type Bridge, type ToolOutcome } from '../harness.js';
import type { FixtureSite } from '../fixtures/server.js';
import { question } from '../submitQuestions.js';

const ORDERED = 'POST /titled?title=Ordered';

interface DomNode {
  nodeId: number;
  nodeName: string;
  nodeValue?: string;
  attributes?: string[];
  children?: DomNode[];
  shadowRoots?: DomNode[];
}

function text(node: DomNode): string {
  if (node.nodeName === '#text') return node.nodeValue ?? '';
  return (node.children ?? []).map(text).join('');
}

function* walk(node: DomNode): Generator<DomNode> {
  yield node;
  for (const child of [...(node.shadowRoots ?? []), ...(node.children ?? [])]) yield* walk(child);
}

function attribute(node: DomNode, name: string): string | undefined {
  const a = node.attributes ?? [];
  for (let i = 0; i + 1 < a.length; i += 2) if (a[i] === name) return a[i + 1];
  return undefined;
}

/** The overlay's question box (inside its closed shadow root), seen through one CDP session. */
async function questionBox(cdp: CDPSession): Promise<DomNode | undefined> {
  const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as {
    root: DomNode;
  };
  const host = [...walk(root)].find((n) => attribute(n, 'id') === 'browser-agent-overlay');
  const shadow = host?.shadowRoots?.[0];
  return shadow === undefined
    ? undefined
    : [...walk(shadow)].find((n) => attribute(n, 'class') === 'question');
}

/** The overlay's question as the user sees it: its text and its buttons' labels, or null. */
async function overlayQuestion(page: Page): Promise<{ text: string; buttons: string[] } | null> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const box = await questionBox(cdp);
    if (box === undefined) return null;
    const nodes = [...walk(box)];
    const p = nodes.find((n) => n.nodeName === 'P');
    return {
      text: p === undefined ? '' : text(p),
      buttons: nodes.filter((n) => n.nodeName === 'BUTTON').map(text),
    };
  } finally {
    await cdp.detach();
  }
}

/** A trusted click (Playwright's mouse) at the on-screen centre of the overlay's `label` button. */
async function clickOverlay(page: Page, label: string): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const box = await questionBox(cdp);
    const button = box && [...walk(box)].find((n) => n.nodeName === 'BUTTON' && text(n) === label);
    if (button === undefined) throw new Error(`no overlay button "${label}"`);
    const { model } = (await cdp.send('DOM.getBoxModel', { nodeId: button.nodeId })) as {
      model: { border: number[] };
    };
    const [x1 = 0, y1 = 0, , , x3 = 0, y3 = 0] = model.border;
    await page.mouse.click((x1 + x3) / 2, (y1 + y3) / 2);
  } finally {
    await cdp.detach();
  }
}

async function overlayText(page: Page): Promise<string> {
  return (await overlayQuestion(page))?.text ?? '';
}

function denied(outcome: ToolOutcome): void {
  expect(outcome.isError, outcome.text).toBe(true);
  expect(outcome.text).toContain(ErrorCode.USER_DENIED);
}

function requestsFrom(site: FixtureSite): () => readonly string[] {
  const start = site.requests.length;
  return () => site.requests.slice(start);
}

/** A round trip through the site, so a request the page would have sent has been sent. */
async function settled(page: Page): Promise<void> {
  await page.evaluate(() => fetch('/titled?title=probe').then((r) => r.text()));
}

/** An agent in per-site mode, granted the test site, on its shop page. */
async function shopper(bridge: Bridge, site: FixtureSite, name: string) {
  const client = await bridge.connectClient(name, { flags: ['--permission-mode', 'per-site'] });
  const navigating = callTool(client, 'browser_navigate', { url: site.url('/shop.html') });
  const asked = question(bridge.relay);
  await expect(asked).toHaveCount(1);
  await asked.getByRole('button', { name: 'Allow on this site', exact: true }).click();
  expect((await navigating).isError).toBe(false);
  const page = await bridge.pageWithUrl(site.url('/shop.html'));
  return { client, page };
}

test('the question shows on the tab; Deny there blocks the call, Allow there releases it', async ({
  bridge,
  site,
}) => {
  const { client, page } = await shopper(bridge, site, 'overlay-agent');
  const served = requestsFrom(site);

  const order = callTool(client, 'browser_click', { role: 'button', name: 'Place order' });
  await expect.poll(() => overlayText(page)).toContain('Let overlay-agent buy or pay');
  expect((await overlayQuestion(page))?.buttons).toContain('Deny');
  await clickOverlay(page, 'Deny');
  denied(await order);
  await expect(question(bridge.relay)).toHaveCount(0);
  await expect.poll(() => overlayQuestion(page)).toBeNull();
  await settled(page);
  expect(served()).not.toContain(ORDERED);

  const again = callTool(client, 'browser_click', { role: 'button', name: 'Place order' });
  await expect.poll(() => overlayText(page)).toContain('“Place order”');
  await clickOverlay(page, 'Allow');
  const placed = await again;
  expect(placed.isError, placed.text).toBe(false);
  expect(served().filter((r) => r === ORDERED)).toHaveLength(1);
});

test('an answer on the overlay is refused while the agent has another call running', async ({
  bridge,
  site,
}) => {
  const { client, page } = await shopper(bridge, site, 'busy-agent');
  const served = requestsFrom(site);

  const order = callTool(client, 'browser_click', { role: 'button', name: 'Place order' });
  await expect.poll(() => overlayText(page)).toContain('Let busy-agent buy or pay');
  // A read-only call (never asks) that keeps running while the question is open.
  const waiting = callTool(client, 'browser_wait_for', { time: 8 });
  // The panel logs a call once the worker counts it as running.
  await expect(bridge.relay.locator('#log li.pending[data-tool*="wait_for"]')).toHaveCount(1);
  await clickOverlay(page, 'Allow');
  // Refused: the box comes back saying why, and the question is still open in the panel.
  await expect.poll(() => overlayText(page)).toContain('Not answered');
  await expect(question(bridge.relay)).toHaveCount(1);
  await settled(page);
  expect(served()).not.toContain(ORDERED);

  await question(bridge.relay).getByRole('button', { name: 'Deny', exact: true }).click();
  denied(await order);
  await callOk(client, 'browser_snapshot', {});
  expect((await waiting).isError).toBe(false);
  await settled(page);
  expect(served()).not.toContain(ORDERED);
});

/** A site whose /export answers `Content-Disposition: attachment` (no download attribute). */
async function attachmentSite(): Promise<{
  url: (p: string) => string;
  requests: string[];
  close: () => Promise<void>;
}> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    if (request.url === '/export') {
      response.writeHead(200, {
        'Content-Type': 'text/csv',
        'Content-Disposition': 'attachment; filename="report.csv"',
      });
      response.end('a,b\n1,2\n');
      return;
    }
    response.writeHead(200, { 'Content-Type': 'text/html' });
    response.end(
      '<!doctype html><title>Reports</title><h1>Reports</h1><a href="/export">Export</a>',
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (p) => `http://127.0.0.1:${port}${p}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

test('a Content-Disposition: attachment response waits for the user; Deny saves no file', async ({
  bridge,
}) => {
  const reports = await attachmentSite();
  try {
    const client = await bridge.connectClient('download-agent', {
      flags: ['--permission-mode', 'per-site'],
    });
    const navigating = callTool(client, 'browser_navigate', { url: reports.url('/') });
    const asked = question(bridge.relay);
    await expect(asked).toHaveCount(1);
    await asked.getByRole('button', { name: 'Allow on this site', exact: true }).click();
    expect((await navigating).isError).toBe(false);
    const page = await bridge.pageWithUrl(reports.url('/'));
    const downloads: Download[] = [];
    page.on('download', (d) => downloads.push(d));

    // The link has no download attribute and no file-type URL: only the response says "save".
    const denyClick = callTool(client, 'browser_click', { role: 'link', name: 'Export' });
    await expect(asked).toHaveCount(1);
    await expect(asked).toContainText('Let download-agent download a file “report.csv”');
    await expect(asked).toContainText('sent it as an attachment');
    await asked.getByRole('button', { name: 'Deny', exact: true }).click();
    await denyClick;
    await expect(asked).toHaveCount(0);
    // The request was sent (the gate holds the response, not the request); nothing was saved.
    expect(reports.requests.filter((r) => r === 'GET /export')).toHaveLength(1);
    expect(page.url()).toBe(reports.url('/'));

    const allowClick = callTool(client, 'browser_click', { role: 'link', name: 'Export' });
    await expect(asked).toHaveCount(1);
    await asked.getByRole('button', { name: 'Allow', exact: true }).click();
    await allowClick;
    await expect.poll(() => downloads.length).toBe(1);
    expect(downloads[0]?.suggestedFilename()).toBe('report.csv');
    expect(await downloads[0]?.failure()).toBeNull();
    // One download only: the denied response never became one.
    expect(downloads).toHaveLength(1);
  } finally {
    await reports.close();
  }
});
