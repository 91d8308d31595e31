/**
 * Several MCP clients sharing one browser: each session works only in its own tabs (its lease,
 * shown as a tab group named after the client), with its own refs and console, in parallel.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode } from '@browser-agent/protocol';
import type { FixtureSite } from '../fixtures/server.js';
import {
  callOk,
  callTool,
  callToolUntyped,
  expect,
  findRef,
  panelSession,
  snapshot,
  tabWithUrl,
  test,
  urlsInGroup,
  type Bridge,
} from '../harness.js';
import { agentOn, alphaAndBeta } from '../steps.js';

const DOCS_SCREENSHOT = path.resolve(import.meta.dirname, '..', '..', 'docs', 'side-panel.png');

interface FormJob {
  client: string;
  page: string;
  fields: Array<[label: string, value: string]>;
  submit: string;
  /** What the page shows once the form was submitted once. */
  done: string;
  /** The page's own console lines start with this. */
  consolePrefix: string;
}

const JOBS: FormJob[] = [
  {
    client: 'alpha-agent',
    page: '/contact.html',
    fields: [
      ['Email', 'ada@example.com'],
      ['Message', 'Hello from alpha'],
    ],
    submit: 'Send message',
    done: 'Sent 1: ada@example.com / Hello from alpha',
    consolePrefix: 'contact form',
  },
  {
    client: 'beta-agent',
    page: '/shipping.html',
    fields: [
      ['Street', '1 Analytical Row'],
      ['City', 'Babbageton'],
    ],
    submit: 'Ship it',
    done: 'Shipped 1: 1 Analytical Row / Babbageton',
    consolePrefix: 'shipping form',
  },
  {
    client: 'gamma-agent',
    page: '/survey.html',
    fields: [
      ['Favourite colour', 'teal'],
      ['Rating', '5'],
    ],
    submit: 'Submit survey',
    done: 'Answered 1: teal / 5',
    consolePrefix: 'survey form',
  },
];

/** Navigates, fills every field by ref, submits, and returns the snapshot after submitting. */
async function fillForm(client: Client, site: FixtureSite, job: FormJob): Promise<string> {
  await callOk(client, 'browser_navigate', { url: site.url(job.page) });
  const form = await snapshot(client);
  for (const [label, value] of job.fields) {
    await callOk(client, 'browser_type', { ref: findRef(form, 'textbox', label), text: value });
  }
  await callOk(client, 'browser_click', { ref: findRef(form, 'button', job.submit) });
  return snapshot(client);
}

async function connectAll(bridge: Bridge): Promise<Client[]> {
  const clients: Client[] = [];
  for (const job of JOBS) clients.push(await bridge.connectClient(job.client));
  return clients;
}

test.describe('sessions', () => {
  test('three clients fill three forms at once, each in its own tab, group, refs and console', async ({
    bridge,
    site,
  }) => {
    const clients = await connectAll(bridge);
    const urls = JOBS.map((job) => site.url(job.page));

    const after = await Promise.all(JOBS.map((job, i) => fillForm(at(clients, i), site, job)));
    JOBS.forEach((job, i) => expect(at(after, i), job.client).toContain(job.done));
    for (const [i, job] of JOBS.entries()) {
      await expect((await bridge.pageWithUrl(at(urls, i))).locator('#result')).toHaveText(job.done);
    }
    // Run one after the other, the log would switch clients twice; interleaved, far more often.
    const order = await bridge.relay
      .locator('#log li')
      .evaluateAll((items) => items.map((li) => li.querySelector('.who')?.textContent ?? ''));
    const switches = order.filter((name, i) => i > 0 && name !== order[i - 1]).length;
    expect(switches, `clients in log order: ${order.join(', ')}`).toBeGreaterThan(2);

    for (const [i, job] of JOBS.entries()) {
      const client = at(clients, i);
      const others = urls.filter((_, j) => j !== i);
      const tabs = (await callOk(client, 'browser_tabs', { action: 'list' })).text;
      expect(tabs, `${job.client}'s tabs`).toContain(at(urls, i));
      for (const other of others) expect(tabs, `${job.client}'s tabs`).not.toContain(other);

      const console = (await callOk(client, 'browser_console_messages', {})).text;
      expect(console, `${job.client}'s console`).toContain(`${job.consolePrefix} ready`);
      expect(console, `${job.client}'s console`).toContain(`${job.consolePrefix} sent`);
      for (const [j, otherJob] of JOBS.entries()) {
        if (j !== i)
          expect(console, `${job.client}'s console`).not.toContain(otherJob.consolePrefix);
      }
    }

    // alpha's refs, used by beta and gamma, must never reach alpha's page.
    const alphaPage = await bridge.pageWithUrl(at(urls, 0));
    const alphaRefs = [
      findRef(at(after, 0), 'button', 'Send message'),
      findRef(at(after, 0), 'textbox', 'Email'),
    ] as const;
    for (const intruder of clients.slice(1)) {
      await callTool(intruder, 'browser_click', { ref: alphaRefs[0] });
      await callTool(intruder, 'browser_type', { ref: alphaRefs[1], text: 'intruder' });
    }
    await expect(alphaPage.locator('#result')).toHaveText(at(JOBS, 0).done);
    await expect(alphaPage.locator('#email')).toHaveValue('ada@example.com');

    const layout = await bridge.tabLayout();
    for (const [i, job] of JOBS.entries()) {
      expect(urlsInGroup(layout, job.client), `the tab group named ${job.client}`).toEqual([
        at(urls, i),
      ]);
    }
    const colors = JOBS.map((job) => layout.groups.find((g) => g.title === job.client)?.color);
    expect(new Set(colors).size, `group colours ${colors.join(', ')}`).toBe(JOBS.length);
    await expect(bridge.relay.locator('#sessions li.session')).toHaveCount(JOBS.length);
  });

  test('a call on another session’s tab or on the user’s tab fails with NOT_OWNER', async ({
    bridge,
    site,
  }) => {
    const alphaUrl = site.url('/titled?title=Alpha');
    const betaUrl = site.url('/titled?title=Beta');
    const usersUrl = site.url('/titled?title=Users%20own');
    // Opened before any agent tab, so Chrome gives it no agent tab as its opener.
    await (await bridge.context.newPage()).goto(usersUrl);
    const beta = await bridge.connectClient('beta-agent');
    const alpha = await agentOn(bridge, alphaUrl, { name: 'alpha-agent' });
    await callOk(beta, 'browser_navigate', { url: betaUrl });

    const layout = await bridge.tabLayout();
    const foreign = [
      { whose: 'beta-agent', tabId: tabWithUrl(layout, betaUrl).id, url: betaUrl },
      { whose: 'the user', tabId: tabWithUrl(layout, usersUrl).id, url: usersUrl },
    ];
    for (const { whose, tabId, url } of foreign) {
      for (const action of ['select', 'close'] as const) {
        // Untyped until the browser_tabs contract declares `tabId` (a Chrome tab id).
        const refused = await callToolUntyped(alpha, 'browser_tabs', { action, tabId });
        expect(refused.isError, `${action} ${whose}'s tab ${tabId}: ${refused.text}`).toBe(true);
        expect(refused.text).toContain(ErrorCode.NOT_OWNER);
        expect(refused.text).toContain(whose);
      }
      await expect.poll(() => bridge.context.pages().some((p) => p.url() === url)).toBe(true);
    }

    expect(await snapshot(alpha), 'alpha still works in its own tab').toContain('Alpha');
    expect(await snapshot(beta), "beta's tab is untouched").toContain('Beta');
    const listed = (await callOk(alpha, 'browser_tabs', { action: 'list' })).text;
    expect(listed).not.toContain(betaUrl);
    expect(listed).not.toContain(usersUrl);
  });

  test('tabs opened by a session’s page (link and window.open) join that session’s lease', async ({
    bridge,
    site,
  }) => {
    const opener = site.url('/opener.html');
    const { alpha, beta } = await alphaAndBeta(bridge, opener, site.url('/titled?title=Beta'));

    const page = await snapshot(alpha);
    await callOk(alpha, 'browser_click', { ref: findRef(page, 'link', 'Open in new tab') });
    await callOk(alpha, 'browser_click', { ref: findRef(page, 'button', 'Open window') });
    const byLink = site.url('/titled?title=Opened%20by%20link');
    const byScript = site.url('/titled?title=Opened%20by%20script');

    const alphaTabs = async () => (await callOk(alpha, 'browser_tabs', { action: 'list' })).text;
    await expect.poll(alphaTabs).toContain(byLink);
    await expect.poll(alphaTabs).toContain(byScript);
    const betaTabs = (await callOk(beta, 'browser_tabs', { action: 'list' })).text;
    expect(betaTabs).not.toContain(byLink);
    expect(betaTabs).not.toContain(byScript);

    await expect
      .poll(async () => urlsInGroup(await bridge.tabLayout(), 'alpha-agent').sort())
      .toEqual([opener, byLink, byScript].sort());
    expect(urlsInGroup(await bridge.tabLayout(), 'beta-agent')).toEqual([
      site.url('/titled?title=Beta'),
    ]);
    await expect(panelSession(bridge.relay, 'alpha-agent').locator('.meta')).toContainText(
      '3 tabs',
    );
  });

  test('the side panel shows three live sessions and their calls, readable at 360 px', async ({
    bridge,
    site,
  }) => {
    const clients = await connectAll(bridge);
    await Promise.all(JOBS.map((job, i) => fillForm(at(clients, i), site, job)));
    const panel = bridge.relay;
    await panel.setViewportSize({ width: 360, height: 800 });
    await bridge.expectRelayState('connected');

    for (const job of JOBS) {
      const item = panelSession(panel, job.client);
      await expect(item).toHaveAttribute('data-state', 'active');
      await expect(item.locator('.state')).toHaveText('idle');
      await expect(item.locator('.meta')).toContainText('1 tab');
      await expect(item.getByRole('button', { name: 'Pause' })).toBeVisible();
      await expect(item.getByRole('button', { name: 'Revoke' })).toBeVisible();
      await expect(
        panel.locator('#log li[data-tool="browser_click"]', { hasText: job.client }),
      ).toHaveClass('ok');
    }
    const overflow = await panel.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, 'nothing sticks out sideways at 360 px').toBeLessThanOrEqual(0);

    // The client's name filters the log to that agent's calls.
    await panelSession(panel, 'beta-agent').getByRole('button', { name: 'beta-agent' }).click();
    await expect(panel.locator('#log li:visible')).not.toHaveCount(0);
    for (const who of await panel.locator('#log li:visible .who').allTextContents()) {
      expect(who).toBe('beta-agent');
    }
    await panel.locator('#log-all').click();
    await expect(panel.locator('#log li:visible', { hasText: 'alpha-agent' })).not.toHaveCount(0);

    if (process.env.UPDATE_DOCS_SCREENSHOT === '1') {
      await writeFile(DOCS_SCREENSHOT, await panel.screenshot({ fullPage: true }));
    }
  });
});

function at<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new Error(`No item at ${index}.`);
  return item;
}
