/**
 * Issue #28: a card always tells the truth, the person finds the controls, the log reads at a
 * glance. Checked at the narrowest (320 px) and a common (400 px) side-panel width. The panel
 * page is opened as a tab (headless Chromium has no side-panel UI); real MCP clients drive it.
 */
import { ErrorCode, EXTENSION_ORIGIN } from '@browser-agent/protocol';
import type { Locator, Page } from '@playwright/test';
import {
  callOk,
  callTool,
  expect,
  panelOfUnpairedBrowser,
  panelSession,
  snapshot,
  test,
} from '../harness.js';
import { agentOn } from '../steps.js';

const WIDTHS_PX = [320, 400] as const;
const TIME = String.raw`\d\d:\d\d:\d\d`;

async function atWidth(panel: Page, width: number, height = 700): Promise<void> {
  await panel.setViewportSize({ width, height });
}

/**
 * Inside the panel's width, with nothing sticking out sideways. Each locator may match several
 * elements; their boxes are read in one page task, so a card re-rendered meanwhile (the panel
 * rebuilds cards on every update) cannot leave a locator pointing at nothing.
 */
async function expectInside(panel: Page, width: number, ...buttons: Locator[]): Promise<void> {
  for (const button of buttons) {
    const rights = await button.evaluateAll((els) =>
      els.map((e) => e.getBoundingClientRect().right),
    );
    expect(rights.length, 'something to measure').toBeGreaterThan(0);
    for (const right of rights) expect(right, `inside ${width} px`).toBeLessThanOrEqual(width);
  }
  const overflow = await panel.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `nothing sticks out sideways at ${width} px`).toBeLessThanOrEqual(0);
}

test.describe('the panel tells the truth', () => {
  test('Stop all is hidden with no agent; Resume all resumes exactly the agents Stop all paused', async ({
    bridge,
    site,
  }) => {
    const panel = bridge.relay;
    await atWidth(panel, WIDTHS_PX[0]);
    const stopAll = panel.getByRole('button', { name: 'Stop all agents' });
    const resumeAll = panel.getByRole('button', { name: 'Resume all' });
    await expect(stopAll, 'no agent, nothing to stop').toBeHidden();
    await expect(resumeAll).toBeHidden();

    const alpha = await agentOn(bridge, site.url('/titled?title=Alpha'), { name: 'alpha-agent' });
    const beta = await agentOn(bridge, site.url('/titled?title=Beta'), { name: 'beta-agent' });
    await expect(stopAll).toBeVisible();
    await expect(resumeAll).toBeHidden();
    // The user paused beta themselves: Resume all must leave it paused.
    await panelSession(panel, 'beta-agent').getByRole('button', { name: 'Pause' }).click();
    await expect(panelSession(panel, 'beta-agent')).toHaveAttribute('data-state', 'paused');

    const wait = callTool(alpha, 'browser_wait_for', { text: 'never on this page', timeout: 40 });
    const waitLine = panel.locator('#log li[data-tool="browser_wait_for"] .what');
    await expect(waitLine, 'the log says what the wait waits for').toHaveText(
      /^Wait for the text "never on this page" \(up to 40 s\) on .+…$/,
    );
    await expect(panelSession(panel, 'alpha-agent').locator('.state')).toHaveText('working');

    await stopAll.click();
    expect((await wait).text).toContain(ErrorCode.CANCELLED);
    await expect(waitLine).toHaveText(/failed: it was stopped, \d+ ms$/);
    await expect(panel.locator('#log li[data-tool="browser_wait_for"] pre')).toContainText(
      `browser_wait_for → ${ErrorCode.CANCELLED}`,
    );
    await expect(resumeAll).toBeVisible();
    await expect(panelSession(panel, 'alpha-agent').locator('.doing')).toHaveText(
      'Stopped by “Stop all agents”: its calls fail at once with PAUSED until you resume it.',
    );
    for (const width of WIDTHS_PX) {
      await atWidth(panel, width);
      await expectInside(panel, width, stopAll, resumeAll);
      const [stop, resume] = [await stopAll.boundingBox(), await resumeAll.boundingBox()];
      expect(Math.abs((stop?.y ?? 0) - (resume?.y ?? 100)), 'beside it').toBeLessThan(8);
    }

    await resumeAll.click();
    await expect(panelSession(panel, 'alpha-agent')).toHaveAttribute('data-state', 'active');
    await expect(resumeAll).toBeHidden();
    expect(await snapshot(alpha)).toContain('Alpha');
    await expect(panelSession(panel, 'beta-agent')).toHaveAttribute('data-state', 'paused');
    expect((await callTool(beta, 'browser_snapshot', {})).text).toContain(ErrorCode.PAUSED);
  });

  test('one state per card: waiting for you, what a pause does, revoked and dismissed', async ({
    bridge,
    site,
  }) => {
    const panel = bridge.relay;
    await atWidth(panel, WIDTHS_PX[1]);
    const asker = await bridge.connectClient('asking-agent', {
      flags: ['--permission-mode', 'ask'],
    });
    const card = panelSession(panel, 'asking-agent');
    const asked = callTool(asker, 'browser_navigate', { url: site.url('/titled?title=Asked') });
    await expect(card.locator('.pending-question')).toBeVisible();
    await expect(card.locator('.state'), 'a question is open: not idle').toHaveText(
      'waiting for you',
    );
    await expect(card.locator('.doing')).toHaveText(/^Waiting for your answer/);
    // The card and the question (its words, countdown and answers) fit at both widths.
    for (const width of WIDTHS_PX) {
      await atWidth(panel, width);
      await expectInside(
        panel,
        width,
        card.getByRole('button'),
        panel.locator('#questions .question').getByRole('button'),
      );
    }
    await expect(panel.locator('#questions .countdown')).toHaveText(/answer within \d+ s/);
    await panel.locator('#questions').getByRole('button', { name: 'Deny', exact: true }).click();
    expect((await asked).isError).toBe(true);
    await expect(card.locator('.state')).toHaveText('idle');
    await expect(card.locator('.doing')).toHaveText(new RegExp(`^Idle, last call at ${TIME}$`));

    await atWidth(panel, WIDTHS_PX[0]);
    await card.getByRole('button', { name: 'Pause' }).click();
    await expect(card.locator('.doing')).toHaveText(
      'Paused: its calls fail at once with PAUSED until you resume it.',
    );
    expect((await callTool(asker, 'browser_snapshot', {})).text).toContain(ErrorCode.PAUSED);
    for (const width of WIDTHS_PX) {
      await atWidth(panel, width);
      await expectInside(panel, width, card.getByRole('button'));
    }
    await expect(
      panel.locator('#log li[data-tool="browser_snapshot"] .what'),
      'the failure in words',
    ).toHaveText(/failed: the agent is paused, \d+ ms$/);

    await card.getByRole('button', { name: 'Revoke' }).click();
    await expect(card.locator('.state')).toHaveText('revoked');
    await expect(card.locator('.doing')).toHaveText(
      'Access revoked: its calls fail with REVOKED. Its tabs were left open for you.',
    );
    await expect(card.locator('.mode'), 'no old mode on a revoked card').toHaveCount(0);
    await expect(card.locator('.page'), 'no stale page either').toHaveCount(0);
    await expect(card).not.toContainText('0 tabs');
    const dismiss = card.getByRole('button', { name: 'Dismiss' });
    for (const width of WIDTHS_PX) {
      await atWidth(panel, width);
      await expectInside(panel, width, dismiss);
    }
    await dismiss.click();
    await expect(card).toHaveCount(0);
    await expect(panel.getByRole('button', { name: 'Stop all agents' })).toBeHidden();
    expect((await callTool(asker, 'browser_snapshot', {})).text).toContain(ErrorCode.REVOKED);
  });

  test('the mode is set on the card and offered when an agent first connects', async ({
    bridge,
    site,
  }) => {
    const panel = bridge.relay;
    const agent = await agentOn(bridge, site.url('/shop.html'), { name: 'new-agent' });
    const card = panelSession(panel, 'new-agent');
    const offer = card.locator('.mode-offer');
    await expect(offer).toHaveText(
      /^First time here: new-agent acts without asking you\. Choose its mode above, or Keep$/,
    );
    for (const width of WIDTHS_PX) {
      await atWidth(panel, width);
      await expectInside(
        panel,
        width,
        card.getByLabel('Mode of new-agent'),
        offer.getByRole('button'),
      );
    }
    // Chosen on the card: the next action asks, and the offer is done.
    await card.getByLabel('Mode of new-agent').selectOption('ask');
    await expect(offer).toHaveCount(0);
    await expect(panel.getByLabel('Permission mode for new-agent')).toHaveValue('ask');
    const click = callTool(agent, 'browser_click', { role: 'button', name: 'Show more' });
    const asked = panel.locator('#questions .question');
    await expect(asked).toContainText('Let new-agent click the button “Show more”');
    await asked.getByRole('button', { name: 'Deny', exact: true }).click();
    expect((await click).isError).toBe(true);

    // The same client again (a new session): no second offer; another client gets one, and Keep ends it.
    const again = await agentOn(bridge, site.url('/shop.html'), { name: 'new-agent' });
    await callOk(again, 'browser_snapshot', {});
    await expect(panel.locator('.mode-offer')).toHaveCount(0);
    await agentOn(bridge, site.url('/shop.html'), { name: 'other-agent' });
    const other = panelSession(panel, 'other-agent').locator('.mode-offer');
    await other.getByRole('button', { name: 'Keep' }).click();
    await expect(other).toHaveCount(0);
    // Another panel of this profile (a second window's side panel) knows it too.
    const second = await bridge.context.newPage();
    await second.goto(`${EXTENSION_ORIGIN}/src/sidepanel/index.html`);
    await expect(panelSession(second, 'other-agent')).toBeVisible();
    await expect(second.locator('.mode-offer'), 'offered once per profile').toHaveCount(0);
    await second.close();
  });

  test('the log: a line when an agent connects and leaves, and never a half-cut last row', async ({
    bridge,
    site,
  }) => {
    const panel = bridge.relay;
    const client = await agentOn(bridge, site.url('/titled?title=Rows'), { name: 'row-agent' });
    const connected = panel.locator('#log li[data-event="connected"]', { hasText: 'row-agent' });
    await expect(connected.locator('.what')).toHaveText('connected');
    for (let i = 0; i < 12; i++) await callOk(client, 'browser_snapshot', {});
    await expect(panel.locator('#log li')).toHaveCount(14);
    // A side panel is on screen; a background tab gets no resize events to fit the log by.
    await panel.bringToFront();
    for (const width of WIDTHS_PX) {
      await atWidth(panel, width, 480);
      await expect
        .poll(() => cutRows(panel), `no row cut at the log's bottom at ${width} px`)
        .toEqual({ cut: 0, scrolls: true });
    }
    await client.close();
    await expect(
      panel.locator('#log li[data-event="left"]', { hasText: 'row-agent' }).locator('.what'),
    ).toHaveText('left');
  });

  test('pairing: every wrong code says so, and Pair is the primary button', async ({
    bridge,
    sandbox,
  }) => {
    await bridge.connectClient('pairing-agent');
    const panel = await panelOfUnpairedBrowser(bridge, sandbox);
    await atWidth(panel, WIDTHS_PX[0]);
    const pair = panel.getByRole('button', { name: 'Pair', exact: true });
    await expect(pair).toHaveClass(/primary/);
    await expect(panel.locator('#pairing-client'), 'the box names who waits').toHaveText(
      'Agent connected to the bridge: pairing-agent.',
    );
    const error = panel.locator('#pairing-error');
    for (const wrong of ['ABCDE-00000', 'ABCDE-11111']) {
      await panel.locator('#pairing-code-input').fill(wrong);
      await pair.click();
      await expect(error, `the code ${wrong} was refused`).toContainText(
        `did not accept ${wrong}`,
        { timeout: 15_000 },
      );
      await expect(error).toBeVisible();
    }
    await expectInside(panel, WIDTHS_PX[0], pair);
  });
});

/** Rows of the log that its visible box cuts at the bottom, and whether the log scrolls at all. */
function cutRows(panel: Page): Promise<{ cut: number; scrolls: boolean }> {
  return panel.evaluate(() => {
    const log = document.getElementById('log');
    if (!log) return { cut: -1, scrolls: false };
    const bottom = log.getBoundingClientRect().top + log.clientHeight;
    let cut = 0;
    for (const li of log.children) {
      const r = li.getBoundingClientRect();
      if (r.top < bottom - 0.5 && r.bottom > bottom + 0.5) cut++;
    }
    return { cut, scrolls: log.scrollHeight > log.clientHeight };
  });
}
