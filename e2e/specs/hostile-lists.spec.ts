/**
 * Issue #25 items 3 and 5, as an attacker would try them: a page or a prompt-injected agent
 * reaching a sensitive or admin-blocked site through an iframe, a route, a storage-state file,
 * a cookie or a differently spelled list entry; and irreversible actions or downloads the
 * gates judged by the wrong words or the wrong header. Sites: 127.0.0.1 (ordinary), `localhost`
 * (the same server: sensitive) and 127.0.0.2 (admin-blocked). Every Deny or refusal is checked
 * at the server: nothing reached it.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Download } from '@playwright/test';
import { ErrorCode } from '@browser-agent/protocol';
import {
  callOk,
  callTool,
  expect,
  snapshot,
  test,
  type Bridge,
  type ToolOutcome,
} from '../harness.js';
import type { Page } from '@playwright/test';
import { question } from '../submitQuestions.js';

interface Lists {
  port: number;
  /** `METHOD host path`, oldest first. */
  requests: string[];
  url(host: string, pathname: string): string;
  close(): Promise<void>;
}

const INNER = (who: string) =>
  `<!doctype html><title>Inner</title><h1>Inner ${who}</h1>` +
  `<button onclick="fetch('/sent?from=${who}')">Send from ${who}</button>`;

const GATE_PAGE = `<!doctype html><title>Gate</title><h1>Gate</h1>
<button id="a" onclick="fetch('/deleted?by=labelledby')"><svg width="10" height="10"></svg></button>
<span id="a-name">Delete account</span>
<button id="b" onclick="fetch('/deleted?by=alt')"><img alt="Delete" width="10" height="10" src="data:image/gif;base64,R0lGODlhAQABAAAAACw="></button>
<form id="order" action="/ordered" method="post">
  <input name="qty" value="1">
  <button>Place order</button>
</form>
<button type="button" onclick="document.getElementById('order').requestSubmit()">Continue</button>
<a href="/export-zip">Get data</a>
<a href="/export-inline">Get inline data</a>
<script>document.getElementById('a').setAttribute('aria-labelledby', 'a-name')</script>`;

/** One server on 127.0.0.1 (reached as 127.0.0.1 and as localhost) and 127.0.0.2. */
async function startLists(): Promise<Lists> {
  const requests: string[] = [];
  const handler: Parameters<typeof createServer>[1] = (request, response) => {
    const host = (request.headers.host ?? '').replace(/:\d+$/, '');
    const url = new URL(request.url ?? '/', 'http://x');
    requests.push(`${request.method} ${host} ${url.pathname}${url.search}`);
    const html = (body: string) => {
      response.writeHead(200, { 'Content-Type': 'text/html', 'Cache-Control': 'no-store' });
      response.end(body);
    };
    switch (url.pathname) {
      case '/outer':
        return html(
          `<!doctype html><title>Outer</title><h1>Outer</h1>` +
            `<iframe src="${url.searchParams.get('a') ?? ''}"></iframe>` +
            `<iframe src="${url.searchParams.get('b') ?? ''}"></iframe>`,
        );
      case '/inner':
        return html(
          INNER(host === 'localhost' ? 'sensitive' : host === '127.0.0.2' ? 'blocked' : 'plain'),
        );
      case '/nest': {
        // Frames stacked in a column, each `h` px tall: room for a nested page of tiny buttons.
        const h = Number(url.searchParams.get('h') ?? '60');
        const frames = ['a', 'b']
          .map((key) => url.searchParams.get(key))
          .filter((src): src is string => src !== null && src !== '')
          .map(
            (src) =>
              `<iframe src="${src}" style="display:block;border:0;width:300px;height:${h}px"></iframe>`,
          );
        return html(`<!doctype html><title>Nest</title><body style="margin:0">${frames.join('')}`);
      }
      case '/tiny': {
        const who = host === '127.0.0.2' ? 'blocked' : host === 'localhost' ? 'middle' : 'plain';
        return html(
          `<!doctype html><title>Tiny</title><body style="margin:0">` +
            `<button onclick="fetch('/sent?from=${who}')">Send from ${who}</button>`,
        );
      }
      case '/gate':
        return html(GATE_PAGE);
      case '/export-zip':
        response.writeHead(200, { 'Content-Type': 'application/zip' });
        return response.end('PK\u0003\u0004');
      case '/export-inline':
        response.writeHead(200, {
          'Content-Type': 'application/octet-stream',
          'Content-Disposition': 'inline; filename="data.bin"',
        });
        return response.end('\u0000\u0001');
      default:
        return html(`<!doctype html><title>${url.pathname}</title><h1>ok</h1>`);
    }
  };
  const first = createServer(handler);
  await new Promise<void>((resolve) => first.listen(0, '127.0.0.1', resolve));
  const { port } = first.address() as AddressInfo;
  const second = createServer(handler);
  await new Promise<void>((resolve) => second.listen(port, '127.0.0.2', resolve));
  const close = (s: Server) =>
    new Promise<void>((resolve) => {
      s.closeAllConnections();
      s.close(() => resolve());
    });
  return {
    port,
    requests,
    url: (host, pathname) => `http://${host}:${port}${pathname}`,
    close: async () => {
      await Promise.all([close(first), close(second)]);
    },
  };
}

async function withLists(run: (lists: Lists) => Promise<void>): Promise<void> {
  const lists = await startLists();
  try {
    await run(lists);
  } finally {
    await lists.close();
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

function denied(outcome: ToolOutcome): void {
  expect(outcome.isError, outcome.text).toBe(true);
  expect(outcome.text).toContain(ErrorCode.USER_DENIED);
}

function refused(outcome: ToolOutcome): void {
  expect(outcome.isError, outcome.text).toBe(true);
  expect(outcome.text).toContain(ErrorCode.BLOCKED_URL);
}

/** Adds entries to the side panel's sensitive-sites list and waits until the worker has them. */
async function addSensitive(bridge: Bridge, entries: string[]): Promise<void> {
  const details = bridge.relay.locator('#permissions');
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open)))
    await details.locator('summary').click();
  const list = bridge.relay.locator('#sensitive-sites');
  await expect(list).toHaveValue(/paypal\.com/);
  await list.fill(`${await list.inputValue()}\n${entries.join('\n')}`);
  await bridge.relay.locator('#save-sensitive').click();
  await expect
    .poll(() =>
      bridge.extensionWorker().evaluate(async () => {
        const storage = (
          globalThis as unknown as {
            chrome: { storage: { local: { get(key: string): Promise<Record<string, unknown>> } } };
          }
        ).chrome.storage.local;
        const settings = (await storage.get('settings'))['settings'] as
          { sensitiveSites?: string[] } | undefined;
        return settings?.sensitiveSites ?? [];
      }),
    )
    .toEqual(expect.arrayContaining(entries));
}

async function adminFile(dir: string, block: string[]): Promise<string> {
  const file = path.join(dir, 'admin-policy.json');
  await writeFile(file, JSON.stringify({ blockSites: block }));
  return file;
}

test('lists hold in iframes and in every spelling of an entry', async ({ bridge, sandbox }) => {
  // Several questions, sites and agents per test, on a loaded machine.
  test.slow();
  await withLists(async (lists) => {
    // Spelled as an attacker (or a careless admin) would: case, trailing dot, default-less
    // origin form, userinfo.
    await addSensitive(bridge, [`HTTP://LocalHost.:${lists.port}/`]);
    const policy = await adminFile(sandbox.root, ['admin@127.0.0.2.']);
    const client = await bridge.connectClient('framed-agent', {
      env: { BROWSER_AGENT_ADMIN_POLICY: policy },
    });
    const outer = lists.url(
      '127.0.0.1',
      `/outer?a=${encodeURIComponent(lists.url('localhost', '/inner'))}&b=${encodeURIComponent(lists.url('127.0.0.2', '/inner'))}`,
    );
    await callOk(client, 'browser_navigate', { url: outer });
    // Three frames on a loaded machine: a snapshot can take longer than the default wait.
    await expect.poll(() => snapshot(client), { timeout: 60_000 }).toContain('Send from blocked');

    // A click inside the sensitive site's iframe, on an ordinary page: asked; Deny sends nothing.
    denied(
      await answered(
        bridge,
        callTool(client, 'browser_click', { role: 'button', name: 'Send from sensitive' }),
        'Deny',
        ['is on your sensitive-sites list'],
      ),
    );
    // A click inside the admin-blocked site's iframe: refused before anything runs.
    refused(await callTool(client, 'browser_click', { role: 'button', name: 'Send from blocked' }));
    // The blocked site itself, and the sensitive one named with another spelling of the URL.
    refused(await callTool(client, 'browser_navigate', { url: lists.url('127.0.0.2', '/x') }));
    denied(
      await answered(
        bridge,
        callTool(client, 'browser_navigate', { url: lists.url('LOCALHOST.', '/inner') }),
        'Deny',
      ),
    );
    expect(lists.requests.filter((r) => r.includes('/sent'))).toEqual([]);
    expect(lists.requests.filter((r) => r.includes('127.0.0.2 /x'))).toEqual([]);
  });
});

test('routes, storage states and cookies never write into a sensitive or blocked site', async ({
  bridge,
  sandbox,
}) => {
  // Several questions, sites and agents per test, on a loaded machine.
  test.slow();
  await withLists(async (lists) => {
    await addSensitive(bridge, [`http://localhost:${lists.port}`]);
    const policy = await adminFile(sandbox.root, ['127.0.0.2']);
    const client = await bridge.connectClient('state-agent', {
      flags: ['--caps', 'storage,network', '--output-dir', sandbox.root],
      env: { BROWSER_AGENT_ADMIN_POLICY: policy },
    });
    await callOk(client, 'browser_navigate', { url: lists.url('127.0.0.1', '/start') });

    // A route answering the sensitive site's document with the agent's own script: the real
    // page loads instead, and the script never runs with the user's cookies.
    await callOk(client, 'browser_route', {
      pattern: `${lists.url('localhost', '/**')}`,
      contentType: 'text/html',
      body: "<h1>Forged</h1><script>fetch('/stolen?c=' + document.cookie)</script>",
    });
    const navigated = await answered(
      bridge,
      callTool(client, 'browser_navigate', { url: lists.url('localhost', '/inner') }),
      'Allow',
    );
    expect(navigated.isError, navigated.text).toBe(false);
    expect(await snapshot(client)).toContain('Inner sensitive');
    expect(lists.requests).toContain(`GET localhost /inner`);
    expect(lists.requests.filter((r) => r.includes('/stolen'))).toEqual([]);

    // Back on an ordinary page, the sensitive tab still open in the session.
    await callOk(client, 'browser_tabs', { action: 'new', url: lists.url('127.0.0.1', '/start') });

    // Storage states: into the admin-blocked site, refused; into the sensitive one, asked.
    const blockedState = path.join(sandbox.root, 'blocked-state.json');
    await writeFile(
      blockedState,
      JSON.stringify({
        cookies: [{ name: 'planted', value: 'x', domain: '127.0.0.2', path: '/' }],
        origins: [
          { origin: lists.url('127.0.0.2', ''), localStorage: [{ name: 'k', value: 'v' }] },
        ],
      }),
    );
    refused(await callTool(client, 'browser_set_storage_state', { filename: blockedState }));
    const sensitiveState = path.join(sandbox.root, 'sensitive-state.json');
    await writeFile(
      sensitiveState,
      JSON.stringify({
        cookies: [
          { name: 'session', value: 'attacker', domain: 'localhost', path: '/', httpOnly: true },
        ],
        origins: [],
      }),
    );
    denied(
      await answered(
        bridge,
        callTool(client, 'browser_set_storage_state', { filename: sensitiveState }),
        'Deny',
        ['sensitive-sites list'],
      ),
    );
    // A single cookie for the sensitive site, from the ordinary tab: asked too.
    denied(
      await answered(
        bridge,
        callTool(client, 'browser_cookie_set', {
          name: 'session',
          value: 'attacker',
          domain: 'localhost',
        }),
        'Deny',
      ),
    );
    const cookies = await bridge.context.cookies();
    expect(cookies.filter((c) => c.value === 'attacker' || c.name === 'planted')).toEqual([]);
  });
});

test('the gates read what the user sees: accessible names, the form’s button, what Chrome downloads', async ({
  bridge,
}) => {
  // Several questions, sites and agents per test, on a loaded machine.
  test.slow();
  await withLists(async (lists) => {
    const client = await bridge.connectClient('gate-agent', {
      flags: ['--permission-mode', 'per-site'],
    });
    const gate = lists.url('127.0.0.1', '/gate');
    await answered(
      bridge,
      callTool(client, 'browser_navigate', { url: gate }),
      'Allow on this site',
    );
    const page = await bridge.pageWithUrl(gate);
    const downloads: Download[] = [];
    page.on('download', (d) => downloads.push(d));

    // A delete button named only by aria-labelledby, one named only by its image's alt.
    denied(
      await answered(bridge, callTool(client, 'browser_click', { selector: '#a' }), 'Deny', [
        'delete',
        'Delete account',
      ]),
    );
    denied(
      await answered(bridge, callTool(client, 'browser_click', { selector: '#b' }), 'Deny', [
        'delete',
      ]),
    );
    // requestSubmit() without a submitter, on a form whose button says "Place order".
    denied(
      await answered(
        bridge,
        callTool(client, 'browser_click', { role: 'button', name: 'Continue' }),
        'Deny',
        ['buy or pay'],
      ),
    );
    // Chrome downloads these without `attachment`: a zip, and `inline` with a non-renderable type.
    // The click itself is done once the response is held; the question is about the saving.
    for (const name of ['Get data', 'Get inline data'])
      await answered(bridge, callTool(client, 'browser_click', { role: 'link', name }), 'Deny', [
        'download a file',
      ]);
    await page.evaluate(() => fetch('/probe').then((r) => r.text()));
    expect(lists.requests.filter((r) => r.includes('/deleted') || r.includes('/ordered'))).toEqual(
      [],
    );
    expect(downloads).toHaveLength(0);
    expect(page.url()).toBe(gate);
  });
});

/**
 * A vision-capable agent, with an admin file that blocks 127.0.0.2, on a 127.0.0.1 page that
 * frames its own site and the blocked one (out of process).
 */
async function onFramedPage(
  bridge: Bridge,
  sandbox: { root: string },
  lists: Lists,
  name: string,
): Promise<{ client: Awaited<ReturnType<Bridge['connectClient']>>; page: Page }> {
  const policy = await adminFile(sandbox.root, ['127.0.0.2']);
  const client = await bridge.connectClient(name, {
    flags: ['--caps', 'vision'],
    env: { BROWSER_AGENT_ADMIN_POLICY: policy },
  });
  const inner = (host: string) => encodeURIComponent(lists.url(host, '/inner'));
  const outer = lists.url('127.0.0.1', `/outer?a=${inner('127.0.0.1')}&b=${inner('127.0.0.2')}`);
  await callOk(client, 'browser_navigate', { url: outer });
  return { client, page: await bridge.pageWithUrl(outer) };
}

test('a coordinate click is judged by the frame at its point', async ({ bridge, sandbox }) => {
  await withLists(async (lists) => {
    const { client, page } = await onFramedPage(bridge, sandbox, lists, 'point-agent');
    const centre = async (host: string) => {
      const frame = page
        .frames()
        .find((f) => f.url().includes(`//${host}:`) && f !== page.mainFrame());
      const box = await frame?.getByRole('button').boundingBox();
      if (!box) throw new Error(`no button in the ${host} frame`);
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    };
    // The admin-blocked site's (out-of-process) iframe, on an allowed page: refused, nothing sent.
    await expect
      .poll(() =>
        centre('127.0.0.2').then(
          () => true,
          () => false,
        ),
      )
      .toBe(true);
    refused(await callTool(client, 'browser_mouse_click_xy', await centre('127.0.0.2')));
    // The same page's own-site iframe: clicked.
    await callOk(client, 'browser_mouse_click_xy', await centre('127.0.0.1'));
    await expect
      .poll(() => lists.requests.filter((r) => r.includes('/sent')))
      .toEqual(['GET 127.0.0.1 /sent?from=plain']);
  });
});

test('keys are judged by the frame with the focus, mouse buttons by the frame under the mouse', async ({
  bridge,
  sandbox,
}) => {
  await withLists(async (lists) => {
    const { client, page } = await onFramedPage(bridge, sandbox, lists, 'keys-agent');
    const button = async (host: string) => {
      await expect
        .poll(() =>
          page.frames().some((f) => f !== page.mainFrame() && f.url().includes(`//${host}:`)),
        )
        .toBe(true);
      const frame = page
        .frames()
        .find((f) => f !== page.mainFrame() && f.url().includes(`//${host}:`));
      if (frame === undefined) throw new Error(`no ${host} frame`);
      return frame.getByRole('button');
    };
    // The person (or the page) puts the focus in the blocked site's iframe: Enter is refused.
    await (await button('127.0.0.2')).focus();
    refused(await callTool(client, 'browser_press_key', { key: 'Enter' }));
    // Focus in the page's own-site iframe: Enter goes through.
    await (await button('127.0.0.1')).focus();
    await callOk(client, 'browser_press_key', { key: 'Enter' });
    await expect
      .poll(() => lists.requests.filter((r) => r.includes('/sent')))
      .toEqual(['GET 127.0.0.1 /sent?from=plain']);

    // The mouse rests on the own-site frame; the page then slides the blocked one under it.
    const box = await (await button('127.0.0.1')).boundingBox();
    if (!box) throw new Error('no box');
    await callOk(client, 'browser_mouse_move_xy', {
      x: box.x + box.width / 2,
      y: box.y + box.height / 2,
    });
    await page.evaluate(() => {
      const first = document.querySelector('iframe');
      if (first) first.style.display = 'none';
    });
    refused(await callTool(client, 'browser_mouse_down', {}));
    await page.evaluate(() => fetch('/probe').then((r) => r.text()));
    expect(lists.requests.filter((r) => r.includes('/sent?from=blocked'))).toEqual([]);
  });
});

test('focus and points inside an iframe nested in another are judged by the innermost frame', async ({
  bridge,
  sandbox,
}) => {
  await withLists(async (lists) => {
    const policy = await adminFile(sandbox.root, ['127.0.0.2']);
    const client = await bridge.connectClient('nested-agent', {
      flags: ['--caps', 'vision'],
      env: { BROWSER_AGENT_ADMIN_POLICY: policy },
    });
    // 127.0.0.1 → localhost (its own process) → the blocked 127.0.0.2 and localhost's own frame.
    const tiny = (host: string) => encodeURIComponent(lists.url(host, '/tiny'));
    const middle = lists.url(
      'localhost',
      `/nest?h=60&a=${tiny('127.0.0.2')}&b=${tiny('localhost')}`,
    );
    const top = lists.url('127.0.0.1', `/nest?h=140&a=${encodeURIComponent(middle)}`);
    await callOk(client, 'browser_navigate', { url: top });
    const page = await bridge.pageWithUrl(top);
    const button = async (host: string) => {
      const find = () => page.frames().find((f) => f.url().startsWith(lists.url(host, '/tiny')));
      await expect.poll(() => find() !== undefined).toBe(true);
      const locator = find()?.getByRole('button');
      if (locator === undefined) throw new Error(`no ${host} frame`);
      await expect(locator).toBeVisible();
      return locator;
    };
    const centre = async (host: string) => {
      const box = await (await button(host)).boundingBox();
      if (!box) throw new Error(`no box in the ${host} frame`);
      return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    };
    // Before the fix both were judged by the middle frame (localhost, allowed) and went through.
    await (await button('127.0.0.2')).focus();
    refused(await callTool(client, 'browser_press_key', { key: 'Enter' }));
    refused(await callTool(client, 'browser_mouse_click_xy', await centre('127.0.0.2')));
    // The middle site's own frame at the same depth: both go through.
    await (await button('localhost')).focus();
    await callOk(client, 'browser_press_key', { key: 'Enter' });
    await callOk(client, 'browser_mouse_click_xy', await centre('localhost'));
    await expect
      .poll(() => lists.requests.filter((r) => r.includes('/sent')))
      .toEqual(['GET localhost /sent?from=middle', 'GET localhost /sent?from=middle']);
  });
});
