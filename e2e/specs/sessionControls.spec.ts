/**
 * The user in charge: pause, resume and revoke from the side panel, "Take over" from the overlay,
 * closing the panel mid-call, and the worker-held link that keeps agents working without it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCode, EXTENSION_ORIGIN } from '@browser-agent/protocol';
import type { Page } from '@playwright/test';
import {
  callOk,
  callTool,
  expect,
  findRef,
  panelSession,
  snapshot,
  tabWithUrl,
  test,
  urlsInGroup,
} from '../harness.js';
import { agentOn, alphaAndBeta } from '../steps.js';

const OVERLAY_HOST = '#browser-agent-overlay';
/** Chrome stops an idle extension service worker after 30 s; the test keeps working past that. */
const WORKER_IDLE_LIMIT_MS = 30_000;
/** The wake-up alarm fires every 30 s, so a stopped worker is back within that, plus a reconnect. */
const WORKER_COMES_BACK_MS = 45_000;

test.describe('the user in charge', () => {
  test('pause, resume and revoke from the side panel change what that agent gets, and only it', async ({
    bridge,
    site,
  }) => {
    const alphaUrl = site.url('/titled?title=Alpha');
    const { alpha, beta } = await alphaAndBeta(bridge, alphaUrl, site.url('/titled?title=Beta'));
    const panel = bridge.relay;
    const alphaItem = panelSession(panel, 'alpha-agent');
    const betaItem = panelSession(panel, 'beta-agent');
    const alphaTab = await bridge.pageWithUrl(alphaUrl);
    await expect(alphaTab.locator(OVERLAY_HOST), 'the agent’s tab is marked').toHaveCount(1);

    await alphaItem.getByRole('button', { name: 'Pause' }).click();
    await expect(alphaItem).toHaveAttribute('data-state', 'paused');
    await expect(alphaItem.locator('.state')).toHaveText('paused');
    await expectRefused(callTool(alpha, 'browser_snapshot', {}), ErrorCode.PAUSED);
    await expect(
      panel.locator('#log li[data-tool="browser_snapshot"]', { hasText: 'alpha-agent' }),
    ).toContainText('failed: the agent is paused');
    expect(await snapshot(beta), 'beta is not paused').toContain('Beta');
    await expect(betaItem).toHaveAttribute('data-state', 'active');

    await alphaItem.getByRole('button', { name: 'Resume' }).click();
    await expect(alphaItem).toHaveAttribute('data-state', 'active');
    expect(await snapshot(alpha), 'alpha works again').toContain('Alpha');

    await alphaItem.getByRole('button', { name: 'Revoke' }).click();
    await expect(alphaItem).toHaveAttribute('data-state', 'revoked');
    await expect(alphaItem.getByRole('button', { name: 'Resume' })).toHaveCount(0);
    await expectRefused(callTool(alpha, 'browser_snapshot', {}), ErrorCode.REVOKED);
    await expectRefused(
      callTool(alpha, 'browser_navigate', { url: site.url('/button.html') }),
      ErrorCode.REVOKED,
    );
    expect(await snapshot(beta), 'beta keeps working').toContain('Beta');

    // Released, not closed: the tab is the user's now, out of any group and unmarked.
    expect(alphaTab.isClosed()).toBe(false);
    await expect(alphaTab).toHaveURL(alphaUrl);
    await expect.poll(async () => tabWithUrl(await bridge.tabLayout(), alphaUrl).groupId).toBe(-1);
    await expect(alphaTab.locator(OVERLAY_HOST)).toHaveCount(0);
  });

  test('“Take over” on the overlay pauses the agent working in that tab', async ({
    bridge,
    site,
  }) => {
    const url = site.url('/button.html');
    const alpha = await agentOn(bridge, url, { name: 'alpha-agent' });
    const tab = await bridge.pageWithUrl(url);
    await expect(tab.locator(OVERLAY_HOST)).toHaveAttribute('aria-hidden', 'true');
    const overlay = await overlayTexts(tab);
    expect(overlay).toContain('alpha-agent is working in this tab');
    expect(await snapshot(alpha), 'the marker stays out of the agent’s view').not.toContain(
      'is working in this tab',
    );

    await tab.bringToFront();
    const { x, y } = await overlayButtonCentre(tab, 'Take over');
    await tab.mouse.click(x, y);
    await expect(panelSession(bridge.relay, 'alpha-agent')).toHaveAttribute('data-state', 'paused');
    await expectRefused(callTool(alpha, 'browser_snapshot', {}), ErrorCode.PAUSED);
    await expect(tab.locator('#out'), 'the click went to the overlay, not the page').toHaveText(
      'Not clicked yet',
    );

    await panelSession(bridge.relay, 'alpha-agent').getByRole('button', { name: 'Resume' }).click();
    const page = await snapshot(alpha);
    await callOk(alpha, 'browser_click', { ref: findRef(page, 'button', 'Click me') });
    await expect(tab.locator('#out')).toHaveText('Clicked 1 time');
  });

  test('“Give it this tab” hands the tab the user is looking at to that agent, into its group', async ({
    bridge,
    site,
  }) => {
    // Opened before any agent tab: Chrome gives a tab created while another tab is active that tab
    // as its openerTabId, and the extension would take it for that agent's popup.
    const usersUrl = site.url('/titled?title=Users%20tab');
    const usersTab = await bridge.context.newPage();
    await usersTab.goto(usersUrl);
    const alpha = await agentOn(bridge, site.url('/titled?title=Alpha'), { name: 'alpha-agent' });
    const listed = async () => (await callOk(alpha, 'browser_tabs', { action: 'list' })).text;
    expect(await listed(), 'the user’s tab is not the agent’s').not.toContain(usersUrl);
    await expect(usersTab.locator(OVERLAY_HOST)).toHaveCount(0);

    await usersTab.bringToFront();
    await panelSession(bridge.relay, 'alpha-agent')
      .getByRole('button', { name: 'Give it this tab' })
      .click();
    await expect.poll(listed).toContain(usersUrl);
    expect(await snapshot(alpha), 'the handed-over tab becomes current').toContain('Users tab');
    expect(urlsInGroup(await bridge.tabLayout(), 'alpha-agent')).toContain(usersUrl);
    await expect(usersTab.locator(OVERLAY_HOST)).toHaveCount(1);
  });

  test('closing the side panel mid-call ends every session’s call at once', async ({
    bridge,
    site,
  }) => {
    const clients = [
      await bridge.connectClient('alpha-agent'),
      await bridge.connectClient('beta-agent'),
    ];
    for (const client of clients) {
      await callOk(client, 'browser_navigate', { url: site.url('/button.html') });
    }
    const started = Date.now();
    const pending = clients.map((client) => callTool(client, 'browser_wait_for', { time: 8 }));
    await sleep(500);
    await bridge.relay.close();
    for (const outcome of await Promise.all(pending)) {
      expect(outcome.isError, outcome.text).toBe(true);
      expect(outcome.text).toContain(ErrorCode.NOT_CONNECTED);
    }
    expect(Date.now() - started, 'told well before the 8 s wait would end').toBeLessThan(3_000);
  });

  test('with “keep working” on, agents work with the panel closed, past the worker’s idle limit and a worker stop', async ({
    bridge,
    site,
  }) => {
    test.setTimeout(180_000);
    const url = site.url('/titled?title=Background');
    const alpha = await agentOn(bridge, url, { name: 'alpha-agent' });

    const panel = bridge.relay;
    await panel.locator('#settings summary').click();
    await panel.getByLabel('Keep working when the panel is closed').check();
    await bridge.expectRelayState('connected');
    await expect(panel.locator('#keep-working')).toBeChecked();
    expect(await snapshot(alpha)).toContain('Background');
    await panel.close();

    const closedAt = Date.now();
    while (Date.now() - closedAt < WORKER_IDLE_LIMIT_MS + 5_000) {
      expect(await snapshot(alpha), 'working with the panel closed').toContain('Background');
      await sleep(7_000);
    }

    // Playwright keeps the worker from idling out, so stop it the way Chrome would.
    const probe = await bridge.context.newPage();
    const cdp = await bridge.context.newCDPSession(probe);
    const status = new Map<string, string>();
    cdp.on('ServiceWorker.workerVersionUpdated', ({ versions }) => {
      for (const v of versions)
        if (v.scriptURL.startsWith(EXTENSION_ORIGIN)) status.set(v.versionId, v.runningStatus);
    });
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await expect
      .poll(() => [...status.values()], { message: 'the extension’s worker stops' })
      .toContain('stopped');

    const stoppedAt = Date.now();
    await expect
      .poll(async () => (await callTool(alpha, 'browser_snapshot', {})).text, {
        timeout: WORKER_COMES_BACK_MS,
        intervals: [1_000],
        message: 'the worker comes back and reconnects on its own',
      })
      .toContain('Background');
    const backAfterMs = Date.now() - stoppedAt;
    expect(backAfterMs).toBeLessThan(WORKER_COMES_BACK_MS);
    test.info().annotations.push({ type: 'worker back after', description: `${backAfterMs} ms` });

    const reopened = await bridge.openRelay();
    await bridge.expectRelayState('connected');
    await expect(panelSession(reopened, 'alpha-agent')).toHaveAttribute('data-state', 'active');
    await expect(reopened.locator('#keep-working')).toBeChecked();
  });
});

async function expectRefused(
  call: Promise<{ isError: boolean; text: string }>,
  code: string,
): Promise<void> {
  const outcome = await call;
  expect(outcome.isError, outcome.text).toBe(true);
  expect(outcome.text).toContain(code);
}

interface PiercedNode {
  nodeName: string;
  nodeValue: string;
  backendNodeId: number;
  attributes?: string[];
  children?: PiercedNode[];
  shadowRoots?: PiercedNode[];
}

/** The overlay lives in a closed shadow root; CDP's pierce reaches into it where scripts cannot. */
async function overlayTree(page: Page): Promise<PiercedNode> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as {
      root: PiercedNode;
    };
    const host = findNode(root, (n) =>
      (n.attributes ?? []).join(' ').includes('browser-agent-overlay'),
    );
    if (!host) throw new Error('No overlay host in the page.');
    return host;
  } finally {
    await cdp.detach();
  }
}

async function overlayTexts(page: Page): Promise<string> {
  const texts: string[] = [];
  const walk = (n: PiercedNode) => {
    if (n.nodeName === '#text' && n.nodeValue.trim() !== '') texts.push(n.nodeValue);
    for (const c of [...(n.shadowRoots ?? []), ...(n.children ?? [])]) walk(c);
  };
  walk(await overlayTree(page));
  return texts.join(' ');
}

async function overlayButtonCentre(page: Page, label: string): Promise<{ x: number; y: number }> {
  const button = findNode(
    await overlayTree(page),
    (n) => n.nodeName === 'BUTTON' && (n.children ?? []).some((c) => c.nodeValue === label),
  );
  if (!button) throw new Error(`No "${label}" button in the overlay.`);
  const cdp = await page.context().newCDPSession(page);
  try {
    const { model } = await cdp.send('DOM.getBoxModel', { backendNodeId: button.backendNodeId });
    const [x1 = 0, y1 = 0, , , x3 = 0, y3 = 0] = model.content;
    return { x: (x1 + x3) / 2, y: (y1 + y3) / 2 };
  } finally {
    await cdp.detach();
  }
}

function findNode(node: PiercedNode, match: (n: PiercedNode) => boolean): PiercedNode | undefined {
  if (match(node)) return node;
  for (const c of [...(node.shadowRoots ?? []), ...(node.children ?? [])]) {
    const found = findNode(c, match);
    if (found) return found;
  }
  return undefined;
}
