/**
 * The side panel as people read it (#19): friendly client names, agent cards with the page each
 * agent is on and what it is doing, the log as sentences with the time of day, secrets hidden,
 * "Stop all agents", settings that follow every panel at once, 320 px wide, and the dark theme.
 * The panel page is opened as a tab (headless Chromium has no side-panel UI); real MCP clients
 * drive the sessions.
 */
import { ErrorCode, EXTENSION_ORIGIN } from '@browser-agent/protocol';
import type { Page } from '@playwright/test';
import {
  callOk,
  callTool,
  expect,
  findRef,
  panelOfUnpairedBrowser,
  panelSession,
  snapshot,
  test,
} from '../harness.js';
import { agentOn } from '../steps.js';

const TIME = String.raw`\d\d:\d\d:\d\d`;

function logEntry(panel: Page, tool: string, client: string) {
  return panel.locator(`#log li[data-tool="${tool}"]`).filter({
    has: panel.locator('.who', { hasText: client }),
  });
}

test.describe('the side panel', () => {
  test('names clients as people know them; cards show the page and what the agent does; the log reads as sentences', async ({
    bridge,
    site,
  }) => {
    const panel = bridge.relay;
    const claude = await agentOn(bridge, site.url('/button.html'), { name: 'claude-code' });
    const own = await agentOn(bridge, site.url('/titled?title=Own'), { name: 'my-own-agent' });
    await callOk(claude, 'browser_click', { role: 'button', name: 'Click me' });

    const card = panelSession(panel, 'Claude Code');
    await expect(card.locator('.client-id')).toHaveText('claude-code');
    await expect(card.locator('.page .title')).toHaveText('Button');
    await expect(card.locator('.page .origin')).toHaveText(new URL(site.url('/')).origin);
    // The icon comes from Chrome's own favicon cache, never from a URL the page chose.
    await expect(card.locator('.page img.favicon')).toHaveAttribute(
      'src',
      new RegExp(`^${EXTENSION_ORIGIN}/_favicon/\\?pageUrl=`),
    );
    await expect(card.locator('.doing')).toHaveText(new RegExp(`^Idle, last call at ${TIME}$`));
    // An id nobody knows is shown as the client gave it.
    await expect(panelSession(panel, 'my-own-agent').locator('.page .title')).toHaveText('Own');
    await expect(panelSession(panel, 'my-own-agent').locator('.client-id')).toHaveCount(0);

    const host = new URL(site.url('/')).host;
    const click = logEntry(panel, 'browser_click', 'Claude Code');
    await expect(click).toHaveCount(1);
    await expect(click.locator('time')).toHaveText(new RegExp(`^${TIME}$`));
    await expect(click.locator('.what')).toHaveText(
      new RegExp(`^Clicked button "Click me" on ${host.replace('.', '\\.')}, \\d+ ms$`),
    );
    // Details on demand: the tool and its arguments.
    await expect(click.locator('pre')).toBeHidden();
    await click.getByText('Details').click();
    await expect(click.locator('pre')).toBeVisible();
    await expect(click.locator('pre')).toContainText('browser_click → ok');
    await expect(click.locator('pre')).toContainText('"name": "Click me"');

    // A failed call says so in words; the code is in the details.
    const refused = await callTool(own, 'browser_click', { ref: 'e999' });
    expect(refused.isError).toBe(true);
    const failed = logEntry(panel, 'browser_click', 'my-own-agent');
    await expect(failed.locator('.what')).toHaveText(/^Click on .+ failed: [a-z][^_]+, \d+ ms$/);
    await expect(failed.locator('pre')).toContainText(/browser_click → [A-Z_]+/);
  });

  test('typed text shows in the log only where the field is not a secret; details hide every typed value', async ({
    bridge,
    site,
  }) => {
    const SECRET = 'hunter2-PANEL-SECRET';
    const panel = bridge.relay;
    const client = await agentOn(bridge, site.url('/login.html'), { name: 'cursor-vscode' });
    const page = await snapshot(client);
    await callOk(client, 'browser_type', { ref: findRef(page, 'textbox', 'User'), text: 'ada' });
    await callOk(client, 'browser_type', {
      ref: findRef(page, 'textbox', 'Password'),
      text: SECRET,
    });
    await callOk(client, 'browser_fill_form', {
      fields: [{ ref: findRef(page, 'textbox', 'Password'), value: SECRET }],
    });

    const typed = logEntry(panel, 'browser_type', 'Cursor');
    await expect(typed).toHaveCount(2);
    await expect(typed.locator('.what')).toHaveText([
      new RegExp(`^Typed ${SECRET.length} characters into textbox "Password"`),
      /^Typed "ada" into textbox "User"/,
    ]);
    await expect(logEntry(panel, 'browser_fill_form', 'Cursor')).toHaveCount(1);
    // Call lines have details; an agent's connect and leave lines (#28) have none.
    for (const li of await panel.locator('#log li').all()) {
      const details = li.getByText('Details');
      if ((await details.count()) > 0) await details.click();
    }
    await expect(panel.locator('#log pre', { hasText: 'browser_type' }).first()).toBeVisible();
    const everything = (await panel.locator('#log').textContent()) ?? '';
    expect(everything).toContain('(hidden)');
    expect(everything, 'the log never shows the password').not.toContain(SECRET);
    expect(everything, 'typed text stays out of the details too').not.toContain('"text": "ada"');
  });

  test('"Stop all agents" cancels the running calls of every session and pauses them', async ({
    bridge,
    site,
  }) => {
    const panel = bridge.relay;
    const alpha = await agentOn(bridge, site.url('/titled?title=Alpha'), { name: 'alpha-agent' });
    const beta = await agentOn(bridge, site.url('/titled?title=Beta'), { name: 'beta-agent' });
    // Waits that would run for 40 s each if nobody stopped them.
    const waits = [alpha, beta].map((client) =>
      callTool(client, 'browser_wait_for', { text: 'never on this page', timeout: 40 }),
    );
    for (const name of ['alpha-agent', 'beta-agent'])
      await expect(panelSession(panel, name).locator('.doing')).toHaveText(
        new RegExp(`^Now: Wait for \\(since ${TIME}\\)$`),
      );

    await panel.getByRole('button', { name: 'Stop all agents' }).click();
    const [a, b] = await Promise.all(waits);
    for (const outcome of [a, b]) {
      expect(outcome?.isError).toBe(true);
      expect(outcome?.text).toContain(ErrorCode.CANCELLED);
      expect(outcome?.text).toContain('stopped every agent');
    }
    for (const name of ['alpha-agent', 'beta-agent']) {
      await expect(panelSession(panel, name)).toHaveAttribute('data-state', 'paused');
      await expect(logEntry(panel, 'browser_wait_for', name).locator('.what')).toContainText(
        'failed: it was stopped',
      );
    }
    // They stay stopped until the user resumes each one.
    const again = await callTool(alpha, 'browser_snapshot', {});
    expect(again.text).toContain(ErrorCode.PAUSED);
    await expect(panel.getByRole('button', { name: 'Stop all agents' })).toBeDisabled();
    await expect(panel.getByRole('button', { name: 'Resume all' })).toBeVisible();
    await panelSession(panel, 'beta-agent').getByRole('button', { name: 'Resume' }).click();
    await expect(panelSession(panel, 'beta-agent')).toHaveAttribute('data-state', 'active');
    expect(await snapshot(beta)).toContain('Beta');
  });

  test('a setting changed in one panel shows in every other at once and applies to the next call', async ({
    bridge,
    site,
  }) => {
    const first = bridge.relay;
    const client = await agentOn(bridge, site.url('/button.html'));
    const second = await bridge.context.newPage();
    await second.goto(`${EXTENSION_ORIGIN}/src/sidepanel/index.html`);
    for (const panel of [first, second]) {
      await panel.locator('#settings summary').click();
      await expect(panel.locator('#record-steps')).toBeChecked();
    }
    await second.locator('#record-steps').uncheck();
    await expect(first.locator('#record-steps')).not.toBeChecked();

    await callOk(client, 'browser_click', { role: 'button', name: 'Click me' });
    await expect(first.locator('#log li[data-tool="browser_click"] .what')).toContainText(
      'Clicked',
    );
    // Recording is off now: the click made no step (only the navigation before it did).
    await expect(first.locator('#recordings summary')).toContainText('1 step');

    await first.locator('#record-steps').check();
    await expect(second.locator('#record-steps')).toBeChecked();
    await callOk(client, 'browser_click', { role: 'button', name: 'Click me' });
    await expect(first.locator('#recordings summary')).toContainText('2 steps');
  });

  test('"Paired bridges" lists a new pairing at once in every open panel, without a reload', async ({
    bridge,
    sandbox,
    site,
  }) => {
    const client = await bridge.connectClient('pairing-agent');
    const panel = await panelOfUnpairedBrowser(bridge, sandbox);
    // A second panel, open before the pairing (the side panel beside a relay tab).
    const other = await bridge.context.newPage();
    await other.goto(`${EXTENSION_ORIGIN}/src/sidepanel/index.html`);
    for (const p of [panel, other]) {
      await p.locator('#settings summary').click();
      await expect(p.locator('#pairings li')).toHaveText(['None yet.']);
    }
    const refused = await callTool(client, 'browser_navigate', { url: site.url('/button.html') });
    const code = /code is ([0-9A-Z]{5}-[0-9A-Z]{5})/.exec(refused.text)?.[1] ?? '';
    expect(code).not.toBe('');
    await panel.locator('#pairing-code-input').fill(code);
    await panel.locator('#pair-yes').click();
    await expect(panel.locator('#status')).toHaveAttribute('data-state', 'connected', {
      timeout: 15_000,
    });
    for (const p of [panel, other])
      await expect(p.locator('#pairings li')).toHaveText([/^Paired in the side panel · /]);
  });

  test('at 320 px nothing sticks out sideways, and the dark theme follows the browser', async ({
    bridge,
    site,
  }) => {
    const panel = bridge.relay;
    const client = await agentOn(
      bridge,
      site.url('/titled?title=A%20rather%20long%20page%20title%20that%20goes%20on'),
      {
        name: 'claude-ai',
      },
    );
    await callOk(client, 'browser_navigate', {
      url: site.url(`/titled?title=${'x'.repeat(120)}&long=${'y'.repeat(200)}`),
    });
    await panel.setViewportSize({ width: 320, height: 900 });
    await panel.locator('#settings summary').click();
    await panel.locator('#log li').first().getByText('Details').click();
    await expect(panelSession(panel, 'Claude Desktop')).toBeVisible();
    const overflow = await panel.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow, 'nothing sticks out sideways at 320 px').toBeLessThanOrEqual(0);
    for (const button of await panelSession(panel, 'Claude Desktop').getByRole('button').all()) {
      const box = await button.boundingBox();
      expect(box && box.x + box.width, 'every button is inside the panel').toBeLessThanOrEqual(320);
    }

    const background = () => panel.evaluate(() => getComputedStyle(document.body).backgroundColor);
    await panel.emulateMedia({ colorScheme: 'light' });
    expect(await background()).toBe('rgb(255, 255, 255)');
    await panel.emulateMedia({ colorScheme: 'dark' });
    expect(await background()).toBe('rgb(17, 24, 39)');
    const text = await panel.evaluate(() => getComputedStyle(document.body).color);
    expect(text).toBe('rgb(229, 231, 235)');
  });
});
