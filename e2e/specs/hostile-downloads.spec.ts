/**
 * Issue #25, the download gate's leftovers, as a hostile server would try them: a file sent
 * with no Content-Type (Chrome sniffs the body and saves binary bytes), and a PDF on a browser
 * whose PDF viewer is off (Chrome saves it). Each is asked about like any download; Deny saves
 * nothing and leaves the tab on its page. A PDF the viewer shows is reported as a PDF. The server
 * is on 127.0.0.1; every request is logged.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Download, Page } from '@playwright/test';
import { ErrorCode } from '@browser-agent/protocol';
import { callOk, callTool, expect, test, type Bridge, type ToolOutcome } from '../harness.js';
import { question } from '../submitQuestions.js';

const HOME = `<!doctype html><title>Files</title><h1>Files</h1>
<a href="/untyped-page">Untyped page</a>
<a href="/untyped-bytes">Untyped bytes</a>
<a href="/untyped-zip">Untyped zip</a>
<a href="/report.pdf">Report</a>
<a href="/plain-text">Plain text</a>
<a href="/plain-bytes">Plain bytes</a>`;

const PDF =
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n';

interface Files {
  url(pathname: string): string;
  /** `GET path`, oldest first. */
  requests: string[];
}

async function withFiles(run: (files: Files) => Promise<void>): Promise<void> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    const pathname = request.url ?? '/';
    requests.push(`${request.method} ${pathname}`);
    // No Content-Type header at all (Node adds none unless told).
    const untyped = (body: Buffer) => {
      response.writeHead(200, { 'Cache-Control': 'no-store' });
      response.end(body);
    };
    switch (pathname) {
      case '/untyped-page':
        return untyped(Buffer.from('<!doctype html><title>Untyped</title><h1>Untyped page</h1>'));
      case '/untyped-bytes':
        return untyped(Buffer.from('report\u0000\u0001\u0002\u0003 data', 'latin1'));
      case '/untyped-zip':
        return untyped(Buffer.from('PK\u0003\u0004\u0014\u0000\u0000\u0000', 'latin1'));
      case '/plain-text':
        response.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' });
        return response.end('just words');
      case '/plain-bytes':
        // Sent as text, but binary: Chrome sniffs it and saves it.
        response.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' });
        return response.end(Buffer.from('data\u0000\u0001\u0002\u0003 dump', 'latin1'));
      case '/report.pdf':
        response.writeHead(200, { 'Content-Type': 'application/pdf' });
        return response.end(PDF);
      default:
        response.writeHead(200, { 'Content-Type': 'text/html', 'Cache-Control': 'no-store' });
        return response.end(HOME);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    await run({
      url: (pathname) => `http://127.0.0.1:${port}${pathname}`,
      requests,
    });
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/** Starts the call, waits for its one question in the panel, answers it with `button`. */
async function answered(
  bridge: Bridge,
  call: Promise<ToolOutcome>,
  button: 'Allow' | 'Allow on this site' | 'Deny',
  expectText: string[] = [],
): Promise<ToolOutcome> {
  const asked = question(bridge.relay);
  await expect(asked).toHaveCount(1);
  for (const text of expectText) await expect(asked).toContainText(text);
  await asked.getByRole('button', { name: button, exact: true }).click();
  const outcome = await call;
  await expect(asked).toHaveCount(0);
  return outcome;
}

/** A per-site agent on the files page, its site allowed; the tab and its downloads. */
async function agentOnFiles(
  bridge: Bridge,
  files: Files,
  name: string,
): Promise<{
  client: Awaited<ReturnType<Bridge['connectClient']>>;
  page: Page;
  downloads: Download[];
}> {
  const client = await bridge.connectClient(name, { flags: ['--permission-mode', 'per-site'] });
  const home = files.url('/');
  await answered(bridge, callTool(client, 'browser_navigate', { url: home }), 'Allow on this site');
  const page = await bridge.pageWithUrl(home);
  const downloads: Download[] = [];
  page.on('download', (d) => downloads.push(d));
  return { client, page, downloads };
}

test('a file sent without a type is asked about when Chrome would save it, not when it shows it', async ({
  bridge,
}) => {
  await withFiles(async (files) => {
    const { client, page, downloads } = await agentOnFiles(bridge, files, 'untyped-agent');
    // An untyped page Chrome shows: no question, the tab shows it.
    await callOk(client, 'browser_click', { role: 'link', name: 'Untyped page' });
    await expect(page).toHaveURL(files.url('/untyped-page'));
    await expect(question(bridge.relay)).toHaveCount(0);
    await callOk(client, 'browser_navigate', { url: files.url('/') });

    // Control bytes: Chrome would save them. Deny: nothing saved, the tab stays.
    const denied = await answered(
      bridge,
      callTool(client, 'browser_click', { role: 'link', name: 'Untyped bytes' }),
      'Deny',
      ['download a file', 'named no type'],
    );
    expect(denied.text).not.toContain(ErrorCode.BLOCKED_URL);
    // A zip's magic number: asked; Allow continues the very response, and Chrome saves it.
    await answered(
      bridge,
      callTool(client, 'browser_click', { role: 'link', name: 'Untyped zip' }),
      'Allow',
      ['download a file'],
    );
    await expect.poll(() => downloads.length).toBe(1);
    expect(downloads[0]?.url()).toBe(files.url('/untyped-zip'));
    expect(await downloads[0]?.failure()).toBeNull();
    expect(page.url()).toBe(files.url('/'));
    expect(files.requests.filter((r) => r.includes('untyped-bytes'))).toEqual([
      'GET /untyped-bytes',
    ]);

    // Sent as text/plain: text is shown unasked; binary bytes Chrome saves are asked about.
    await callOk(client, 'browser_click', { role: 'link', name: 'Plain text' });
    await expect(page).toHaveURL(files.url('/plain-text'));
    await expect(question(bridge.relay)).toHaveCount(0);
    await callOk(client, 'browser_navigate', { url: files.url('/') });
    await answered(
      bridge,
      callTool(client, 'browser_click', { role: 'link', name: 'Plain bytes' }),
      'Allow',
      ['download a file', 'called it text but sent bytes'],
    );
    await expect.poll(() => downloads.length).toBe(2);
    expect(downloads[1]?.url()).toBe(files.url('/plain-bytes'));
  });
});

test('a PDF is asked about when the PDF viewer is off, since Chrome then saves it', async ({
  bridge,
}) => {
  // The person's own setting, as they would set it: Settings → PDF documents → Download PDFs.
  const settings = await bridge.context.newPage();
  await settings.goto('chrome://settings/content/pdfDocuments');
  await settings.getByRole('radio', { name: 'Download PDFs' }).check();
  await settings.close();
  await withFiles(async (files) => {
    const { client, page, downloads } = await agentOnFiles(bridge, files, 'pdf-agent');
    expect(await page.evaluate(() => navigator.pdfViewerEnabled)).toBe(false);
    const outcome = await answered(
      bridge,
      callTool(client, 'browser_click', { role: 'link', name: 'Report' }),
      'Deny',
      ['download a file', 'PDF viewer off'],
    );
    expect(outcome.text).not.toContain(ErrorCode.BLOCKED_URL);
    await page.evaluate(() => fetch('/probe').then((r) => r.text()));
    expect(files.requests).toContain('GET /report.pdf');
    expect(downloads).toHaveLength(0);
    expect(page.url()).toBe(files.url('/'));
  });
});

test("a PDF opened in Chrome's viewer is reported as one, not as a lost debugger, and can be left", async ({
  bridge,
}) => {
  // The viewer on (the default; another test of this file may have turned it off).
  const settings = await bridge.context.newPage();
  await settings.goto('chrome://settings/content/pdfDocuments');
  await settings.getByRole('radio', { name: /^Open PDFs in/ }).check();
  await settings.close();
  await withFiles(async (files) => {
    const client = await bridge.connectClient('pdf-viewer-agent');
    await callOk(client, 'browser_navigate', { url: files.url('/') });
    // The viewer takes the page over and Chrome detaches the debugger: this was DEBUGGER_DETACHED.
    const click = await callOk(client, 'browser_click', { role: 'link', name: 'Report' });
    expect(click.text).toContain(`the tab opened a PDF, ${files.url('/report.pdf')}`);
    const snapshot = await callOk(client, 'browser_snapshot', {});
    expect(snapshot.text).toContain("The page is a PDF shown in Chrome's PDF viewer");
    const back = await callOk(client, 'browser_navigate_back', {});
    expect(back.text).toContain(`Page URL: ${files.url('/')}`);
  });
});

test('a held download is not saved when the agent leaves before the person answers', async ({
  bridge,
}) => {
  await withFiles(async (files) => {
    const { client, page, downloads } = await agentOnFiles(bridge, files, 'leaving-agent');
    const clicked = callTool(client, 'browser_click', { role: 'link', name: 'Untyped zip' });
    const asked = question(bridge.relay);
    await expect(asked).toContainText('download a file');
    // The agent's server goes away before the person answered: nothing it does saves the file.
    await client.close();
    await clicked.catch(() => undefined);
    // Its tab is closed with it (the agent opened it) or left to the person; either way the
    // paused response must not go on to Chrome's download manager.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(downloads, 'no file saved unasked').toHaveLength(0);
    // A question about a tab that closed asks about nothing: it ends; one about a tab left open
    // stays the person's to answer, and Deny saves nothing.
    if (page.isClosed()) await expect(asked).toHaveCount(0);
    else await asked.getByRole('button', { name: 'Deny', exact: true }).click();
    await expect(asked).toHaveCount(0);
    await new Promise((r) => setTimeout(r, 500));
    expect(downloads).toHaveLength(0);
    expect(files.requests).toContain('GET /untyped-zip');
  });
});
