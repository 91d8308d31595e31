/**
 * Issue #19: permission modes (ask, per-site, autonomous), site grants and their revocation,
 * sensitive sites, the irreversible-action gate, answers through the MCP client (elicitation),
 * and the admin file. Every Deny is checked at the local test site: nothing reached it.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
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
import type { FixtureSite } from '../fixtures/server.js';
import { question } from '../submitQuestions.js';

const ORDERED = 'POST /titled?title=Ordered';
const DELETED = 'GET /titled?title=Deleted';
const DOWNLOADED = 'GET /titled?title=report';

/** Starts the call, waits for its question in the panel, answers it with `button`. */
async function answered(
  bridge: Bridge,
  call: Promise<ToolOutcome>,
  button: 'Allow' | 'Allow on this site' | 'Allow for the rest of this task' | 'Deny',
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

/** What the site served from now on (the site is shared by the tests of a worker). */
function requestsFrom(site: FixtureSite): () => readonly string[] {
  const start = site.requests.length;
  return () => site.requests.slice(start);
}

/** A round trip through the page, so a request the page would have sent has been sent. */
async function settled(bridge: Bridge, site: FixtureSite): Promise<void> {
  const page = await bridge.pageWithUrl(site.url('/shop.html'));
  await page.evaluate(() => fetch('/titled?title=probe').then((r) => r.text()));
}

async function openPermissions(bridge: Bridge): Promise<void> {
  const details = bridge.relay.locator('#permissions');
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open)))
    await details.locator('summary').click();
}

test('ask: each state-changing call waits for Allow or Deny; read-only tools never ask', async ({
  bridge,
  site,
}) => {
  const client = await bridge.connectClient('careful-agent', {
    flags: ['--permission-mode', 'ask'],
  });
  const navigated = await answered(
    bridge,
    callTool(client, 'browser_navigate', { url: site.url('/shop.html') }),
    'Allow',
    [
      `Let careful-agent open ${site.url('/shop.html')}?`,
      'You set this agent to ask before each action.',
    ],
  );
  expect(navigated.isError, navigated.text).toBe(false);

  // Read-only: no question. Listing the tabs only reads too (before, it waited for an answer).
  expect(await snapshot(client)).toContain('heading "Shop"');
  expect((await callOk(client, 'browser_tabs', { action: 'list' })).text).toContain('/shop.html');
  await expect(question(bridge.relay)).toHaveCount(0);

  const page = await bridge.pageWithUrl(site.url('/shop.html'));
  denied(
    await answered(
      bridge,
      callTool(client, 'browser_click', { role: 'button', name: 'Show more' }),
      'Deny',
      ['Let careful-agent click the button “Show more” on 127.0.0.1:'],
    ),
  );
  await expect(page.locator('#status')).toHaveText('Idle');

  const allowed = await answered(
    bridge,
    callTool(client, 'browser_click', { role: 'button', name: 'Show more' }),
    'Allow for the rest of this task',
  );
  expect(allowed.isError, allowed.text).toBe(false);
  await expect(page.locator('#status')).toHaveText('More shown');
  // The rest of this task: no further question.
  await callOk(client, 'browser_click', { role: 'button', name: 'Show more' });
  await expect(question(bridge.relay)).toHaveCount(0);
});

test('per-site: "Allow on this site" is remembered, listed, and asked again once revoked', async ({
  bridge,
  site,
  otherSite,
}) => {
  const client = await bridge.connectClient('site-agent', {
    flags: ['--permission-mode', 'per-site'],
  });
  const navigated = await answered(
    bridge,
    callTool(client, 'browser_navigate', { url: site.url('/shop.html') }),
    'Allow on this site',
    ['it has no permission for this site yet'],
  );
  expect(navigated.isError, navigated.text).toBe(false);

  await openPermissions(bridge);
  const grant = bridge.relay.locator('#permissions .grant');
  await expect(grant).toHaveCount(1);
  await expect(grant).toContainText(`${site.origin} for site-agent`);

  // Granted: no question on this site.
  await callOk(client, 'browser_click', { role: 'button', name: 'Show more' });
  await expect(question(bridge.relay)).toHaveCount(0);

  // Another site asks again; Deny keeps the tab where it was and sends nothing there.
  denied(
    await answered(
      bridge,
      callTool(client, 'browser_navigate', { url: otherSite.url('/titled?title=Other') }),
      'Deny',
    ),
  );
  expect(otherSite.requests.some((r) => r.includes('title=Other'))).toBe(false);
  expect(await snapshot(client)).toContain('heading "Shop"');

  await bridge.relay.getByRole('button', { name: `Revoke ${site.origin} for site-agent` }).click();
  await expect(grant).toHaveCount(0);
  denied(
    await answered(
      bridge,
      callTool(client, 'browser_click', { role: 'button', name: 'Show more' }),
      'Deny',
    ),
  );
});

test('autonomous acts without asking, and the panel switches an agent to ask', async ({
  bridge,
  site,
}) => {
  const client = await bridge.connectClient('free-agent');
  const served = requestsFrom(site);
  await callOk(client, 'browser_navigate', { url: site.url('/shop.html') });
  await callOk(client, 'browser_click', { role: 'button', name: 'Place order' });
  expect(served()).toContain(ORDERED);
  await expect(question(bridge.relay)).toHaveCount(0);

  await callOk(client, 'browser_navigate', { url: site.url('/shop.html') });
  await openPermissions(bridge);
  await bridge.relay.getByLabel('Permission mode for free-agent').selectOption('ask');
  const allowed = await answered(
    bridge,
    callTool(client, 'browser_click', { role: 'button', name: 'Show more' }),
    'Allow',
    ['You set this agent to ask before each action.'],
  );
  expect(allowed.isError, allowed.text).toBe(false);
});

test('irreversible: a purchase, a delete and a download wait for the user; Deny sends nothing', async ({
  bridge,
  site,
}) => {
  const client = await bridge.connectClient('shopper', {
    flags: ['--permission-mode', 'per-site'],
  });
  const served = requestsFrom(site);
  await answered(
    bridge,
    callTool(client, 'browser_navigate', { url: site.url('/shop.html') }),
    'Allow on this site',
  );

  const order = await answered(
    bridge,
    callTool(client, 'browser_click', { role: 'button', name: 'Place order' }),
    'Deny',
    ['Let shopper buy or pay', '“Place order”', 'looks like it cannot be undone'],
  );
  denied(order);
  expect(order.text).toContain('nothing was submitted');
  denied(
    await answered(
      bridge,
      callTool(client, 'browser_click', { role: 'button', name: 'Delete' }),
      'Deny',
      ['Let shopper delete'],
    ),
  );
  denied(
    await answered(
      bridge,
      callTool(client, 'browser_click', { role: 'link', name: 'Download report' }),
      'Deny',
      ['download a file'],
    ),
  );
  await settled(bridge, site);
  expect(served()).not.toContain(ORDERED);
  expect(served()).not.toContain(DELETED);
  expect(served()).not.toContain(DOWNLOADED);

  // Allowed: sent exactly once.
  const placed = await answered(
    bridge,
    callTool(client, 'browser_click', { role: 'button', name: 'Place order' }),
    'Allow',
  );
  expect(placed.isError, placed.text).toBe(false);
  expect(placed.text).toContain('The user allowed submitting “Place order”');
  expect(served().filter((r) => r === ORDERED)).toHaveLength(1);

  // Not irreversible-looking: a plain link and a search form pass unasked.
  await callOk(client, 'browser_navigate', { url: site.url('/shop.html') });
  await callOk(client, 'browser_click', { role: 'link', name: 'Next page' });
  expect(await snapshot(client)).toContain('heading "Next"');
  await expect(question(bridge.relay)).toHaveCount(0);
});

test('no answer: APPROVAL_TIMEOUT with a hint, never a hang, and nothing is sent', async ({
  bridge,
  site,
}) => {
  const client = await bridge.connectClient('waiting-agent', {
    flags: ['--permission-mode', 'per-site'],
  });
  const served = requestsFrom(site);
  await answered(
    bridge,
    callTool(client, 'browser_navigate', { url: site.url('/shop.html') }),
    'Allow on this site',
  );
  const outcome = await callTool(client, 'browser_click', { role: 'button', name: 'Place order' });
  expect(outcome.isError).toBe(true);
  expect(outcome.text).toContain(ErrorCode.APPROVAL_TIMEOUT);
  expect(outcome.text).toContain('a question waits in the Browser Agent side panel');
  await expect(question(bridge.relay)).toHaveCount(0);
  await settled(bridge, site);
  expect(served()).not.toContain(ORDERED);
});

test('sensitive sites ask first even in autonomous mode, and gate irreversible actions', async ({
  bridge,
  site,
}) => {
  const client = await bridge.connectClient('free-agent');
  const served = requestsFrom(site);
  await openPermissions(bridge);
  const list = bridge.relay.locator('#sensitive-sites');
  await expect(list).toHaveValue(/paypal\.com/);
  await list.fill(`${await list.inputValue()}\n${site.origin}`);
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
    .toContain(site.origin);

  const navigating = callTool(client, 'browser_navigate', { url: site.url('/shop.html') });
  const asked = question(bridge.relay);
  await expect(asked).toContainText('is on your sensitive-sites list');
  // A sensitive site is never granted for good.
  await expect(asked.getByRole('button', { name: 'Allow on this site' })).toHaveCount(0);
  await answered(bridge, navigating, 'Allow for the rest of this task');

  await callOk(client, 'browser_click', { role: 'button', name: 'Show more' });
  await expect(question(bridge.relay)).toHaveCount(0);

  denied(
    await answered(
      bridge,
      callTool(client, 'browser_click', { role: 'button', name: 'Place order' }),
      'Deny',
      ['buy or pay', 'is on your sensitive-sites list'],
    ),
  );
  await settled(bridge, site);
  expect(served()).not.toContain(ORDERED);
});

test('a client that can elicit is asked too; its answer or the panel’s, whichever comes first', async ({
  bridge,
  site,
}) => {
  const prompts: string[] = [];
  let reply: 'Allow' | 'Deny' | 'never' = 'Allow';
  const client = await bridge.connectClient('terminal-agent', {
    flags: ['--permission-mode', 'ask'],
    elicit: (request) => {
      prompts.push(String(request.params.message));
      if (reply === 'never') return new Promise(() => undefined);
      return { action: 'accept', content: { answer: reply } };
    },
  });

  // Answered in the terminal: no click in the panel.
  await callOk(client, 'browser_navigate', { url: site.url('/shop.html') });
  expect(prompts[0]).toContain(`Let terminal-agent open ${site.url('/shop.html')}?`);
  await expect(question(bridge.relay)).toHaveCount(0);

  reply = 'Deny';
  denied(await callTool(client, 'browser_click', { role: 'button', name: 'Show more' }));
  const page = await bridge.pageWithUrl(site.url('/shop.html'));
  await expect(page.locator('#status')).toHaveText('Idle');

  // The client never answers: the panel's answer wins.
  reply = 'never';
  const allowed = await answered(
    bridge,
    callTool(client, 'browser_click', { role: 'button', name: 'Show more' }),
    'Allow',
  );
  expect(allowed.isError, allowed.text).toBe(false);
  await expect(page.locator('#status')).toHaveText('More shown');
  expect(prompts).toHaveLength(3);
});

test('an admin file blocks a site the panel cannot unblock', async ({ bridge, sandbox, site }) => {
  const policy = path.join(sandbox.root, 'admin-policy.json');
  await writeFile(policy, JSON.stringify({ blockSites: ['localhost'] }));
  const client = await bridge.connectClient('managed-agent', {
    env: { BROWSER_AGENT_ADMIN_POLICY: policy },
  });
  const served = requestsFrom(site);
  const refused = await callTool(client, 'browser_navigate', {
    url: site.url('/shop.html', 'localhost'),
  });
  expect(refused.isError).toBe(true);
  expect(refused.text).toContain(ErrorCode.BLOCKED_URL);
  expect(refused.text).toContain('set by your administrator');
  expect(served()).not.toContain('GET /shop.html');
  await callOk(client, 'browser_navigate', { url: site.url('/shop.html') });

  await openPermissions(bridge);
  await expect(bridge.relay.locator('#permissions .admin')).toContainText(
    `${policy}: any site; never localhost`,
  );
});
