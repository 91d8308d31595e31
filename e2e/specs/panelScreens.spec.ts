/**
 * Pictures of each state of the side panel for docs/panel.md, taken from the built extension
 * driven by real MCP clients. With UPDATE_PANEL_SCREENSHOTS=1 they are written to
 * docs/images/panel/; otherwise they are attached to the test's report. Every state is a real
 * one (#28.7): the modes are set on the cards and the question is a real call waiting.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from '@playwright/test';
import {
  callOk,
  callTool,
  expect,
  panelOfUnpairedBrowser,
  panelSession,
  test,
} from '../harness.js';
import { agentOn } from '../steps.js';

const OUT_DIR = path.resolve(import.meta.dirname, '..', '..', 'docs', 'images', 'panel');
const PANEL_WIDTH_PX = 380;

test('the side panel, state by state', async ({ bridge, sandbox, site }, testInfo) => {
  test.setTimeout(120_000);
  const shoot = async (page: Page, name: string): Promise<void> => {
    // The caret and the status line's timing vary; nothing else should.
    const png = await page.screenshot({ fullPage: true, animations: 'disabled', caret: 'hide' });
    await testInfo.attach(name, { body: png, contentType: 'image/png' });
    if (process.env.UPDATE_PANEL_SCREENSHOTS === '1') {
      await mkdir(OUT_DIR, { recursive: true });
      await writeFile(path.join(OUT_DIR, `${name}.png`), png);
    }
  };
  let panel = bridge.relay;
  await panel.setViewportSize({ width: PANEL_WIDTH_PX, height: 640 });
  // Connected, with an agent that has not acted yet.
  const claude = await bridge.connectClient('claude-code');
  await expect(panelSession(panel, 'Claude Code').locator('.doing')).toHaveText(
    'Idle, no calls yet',
  );
  await shoot(panel, 'idle');

  await panel.locator('#settings summary').click();
  await expect(panel.locator('#pairings li')).toHaveCount(1);
  await panel.locator('#settings').scrollIntoViewIfNeeded();
  await shoot(panel, 'paired');
  await panel.locator('#settings summary').click();

  await callOk(claude, 'browser_navigate', { url: site.url('/login.html') });
  const cursor = await agentOn(bridge, site.url('/button.html'), { name: 'cursor-vscode' });
  await callOk(cursor, 'browser_click', { role: 'button', name: 'Click me' });
  await callOk(claude, 'browser_type', { role: 'textbox', name: 'User', text: 'ada' });
  await callOk(claude, 'browser_type', { role: 'textbox', name: 'Password', text: 'secret-pw' });
  const waiting = callTool(cursor, 'browser_wait_for', { text: 'never here', timeout: 30 });
  await expect(panelSession(panel, 'Cursor').locator('.doing')).toContainText('Now: Wait for');
  await shoot(panel, 'agents-working');

  // Modes per agent, site grants and the sensitive-site list (approvals/, permissionsView.ts).
  await panel.locator('#permissions summary').click();
  await expect(panel.locator('#permissions')).toContainText('How each agent may act');
  await expect(panel.locator('#permissions')).toContainText('Sensitive sites');
  await panel.locator('#permissions').scrollIntoViewIfNeeded();
  await shoot(panel, 'permissions');
  await panel.locator('#permissions summary').click();

  await panel.locator('#log li').first().getByText('Details').click();
  await panel.locator('#log').scrollIntoViewIfNeeded();
  await shoot(panel, 'log');
  await panel.locator('#log li').first().getByText('Details').click();

  await panel.emulateMedia({ colorScheme: 'dark' });
  await shoot(panel, 'dark');
  await panel.emulateMedia({ colorScheme: 'light' });

  await panel.setViewportSize({ width: 320, height: 640 });
  await shoot(panel, 'narrow-320');
  await panel.setViewportSize({ width: PANEL_WIDTH_PX, height: 640 });

  await panel.getByRole('button', { name: 'Stop all agents' }).click();
  expect((await waiting).isError).toBe(true);
  await panelSession(panel, 'Cursor').getByRole('button', { name: 'Resume' }).click();
  await panelSession(panel, 'Claude Code').getByRole('button', { name: 'Resume' }).click();

  const recording = panel.locator('#recordings > li').filter({ hasText: 'Claude Code' });
  await recording.locator('summary').click();
  await expect(recording.locator('.steps img').first()).toBeVisible();
  await expect(panel.locator('#recordings > li').filter({ hasText: 'Cursor' })).toHaveCount(1);
  await panel.locator('#recordings > li').filter({ hasText: 'Cursor' }).locator('summary').click();
  await expect(
    panel.locator('#recordings > li').filter({ hasText: 'Cursor' }).locator('.marker'),
  ).toHaveCount(1);
  await panel.locator('#recordings').scrollIntoViewIfNeeded();
  await shoot(panel, 'recording');

  // A real question: Claude Code set to ask on its card, Cursor to ask once per site.
  await panelSession(panel, 'Claude Code').getByLabel('Mode of Claude Code').selectOption('ask');
  await panelSession(panel, 'Cursor').getByLabel('Mode of Cursor').selectOption('per-site');
  const asking = callTool(claude, 'browser_click', { role: 'button', name: 'Sign in' });
  await expect(panelSession(panel, 'Claude Code').locator('.pending-question')).toBeVisible();
  await expect(panel.locator('#questions .question')).toContainText(
    'Let Claude Code click the button “Sign in” on 127.0.0.1:',
  );
  await panel.locator('#questions').scrollIntoViewIfNeeded();
  await shoot(panel, 'pending-question');
  await panel.locator('#questions').getByRole('button', { name: 'Deny', exact: true }).click();
  expect((await asking).isError).toBe(true);

  panel = await panelOfUnpairedBrowser(bridge, sandbox);
  await panel.setViewportSize({ width: PANEL_WIDTH_PX, height: 640 });
  await shoot(panel, 'pairing');
});
