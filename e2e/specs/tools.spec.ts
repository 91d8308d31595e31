import { setTimeout as sleep } from 'node:timers/promises';
import { ErrorCode, EXTENSION_ID } from '@browser-agent/protocol';
import type { Page } from '@playwright/test';
import type { FixtureSite } from '../fixtures/server.js';
import {
  callOk,
  callTool,
  expect,
  findRef,
  lineWithRef,
  snapshot,
  test,
  type ToolOutcome,
} from '../harness.js';
import { agentOn } from '../steps.js';

test.describe('page tools', () => {
  test('clicking a button by ref changes the page, and the next snapshot shows it', async ({
    bridge,
    site,
  }) => {
    const url = site.url('/button.html');
    const client = await agentOn(bridge, url);

    const before = await snapshot(client);
    expect(before).toContain(url);
    expect(before).toMatch(/title.*Button/i);
    expect(before).toContain('Not clicked yet');
    const ref = findRef(before, 'button', 'Click me');

    await callOk(client, 'browser_click', { ref });
    const after = await snapshot(client);
    expect(after).toContain('Clicked 1 time');
    expect(after).not.toContain('Not clicked yet');
    expect(findRef(after, 'button', 'Click me'), 'the same element keeps its ref').toBe(ref);

    // The tab itself agrees, not only the bridge's report of it.
    await expect((await bridge.pageWithUrl(url)).locator('#out')).toHaveText('Clicked 1 time');
    // The relay page lists what it relays for the user to see.
    await expect(bridge.relay.locator('#log li', { hasText: 'browser_click' })).toHaveCount(1);
  });

  test('typing into a labelled input replaces its value; snapshot and evaluate read it back', async ({
    bridge,
    site,
  }) => {
    const client = await agentOn(bridge, site.url('/form.html'));
    const ref = findRef(await snapshot(client), 'textbox', 'Name');

    await callOk(client, 'browser_type', { ref, text: 'Ada Lovelace' });
    expect(lineWithRef(await snapshot(client), ref)).toMatch(/:\s*"?Ada Lovelace"?$/);
    const shouted = await callOk(client, 'browser_evaluate', {
      function: '(el) => el.value.toUpperCase()',
      ref,
    });
    expect(shouted.text).toContain('ADA LOVELACE');

    await callOk(client, 'browser_type', { ref, text: 'Grace', submit: true });
    const value = await callOk(client, 'browser_evaluate', {
      function: "() => document.getElementById('name').value",
    });
    expect(value.text).toContain('Grace');
    expect(value.text, 'typing replaces the old text').not.toContain('Ada');
    expect(await snapshot(client), 'submit pressed Enter').toContain('Hello, Grace!');
    // The relay's activity log reads as sentences: text typed into a field that is not secret
    // is shown as the agent's own result shows it; the raw arguments under Details never are
    // (panel.spec covers secret fields, whose text the sentence never carries either).
    const log = bridge.relay.locator('#log');
    await expect(log.locator('li', { hasText: 'browser_type' })).toHaveCount(2);
    await expect(log).toContainText('Typed "Ada Lovelace" into textbox "Name"');
    await expect(log).not.toContainText('"text": "Ada Lovelace"');
    await expect(log).toContainText('"text": "(hidden)"');
  });

  test('a screenshot is a PNG of the viewport; fullPage and jpeg work too', async ({
    bridge,
    site,
  }) => {
    const url = site.url('/tall');
    const client = await agentOn(bridge, url);
    const tab = await bridge.pageWithUrl(url);
    const ratio = await settledViewportRatio(tab);

    const png = onlyImage(await callOk(client, 'browser_take_screenshot', {}), 'image/png');
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.length).toBeGreaterThan(1_000);
    const shot = pngSize(png);
    expect(shot.width).toBeGreaterThanOrEqual(200);
    // Scaling is allowed, cropping is not: the image has the viewport's proportions.
    expect(shot.width / shot.height).toBeCloseTo(ratio, 1);

    const full = pngSize(
      onlyImage(await callOk(client, 'browser_take_screenshot', { fullPage: true }), 'image/png'),
    );
    expect(full.height / full.width, 'fullPage covers the whole tall page').toBeGreaterThan(
      (2 * shot.height) / shot.width,
    );

    const jpeg = onlyImage(
      await callOk(client, 'browser_take_screenshot', { type: 'jpeg' }),
      'image/jpeg',
    );
    expect([...jpeg.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
  });

  test('tabs can be opened, listed, selected and closed; the user’s own tabs are not listed', async ({
    bridge,
    site,
  }) => {
    const client = await bridge.connectClient();
    const first = site.url('/titled?title=First');
    const second = site.url('/titled?title=Second');
    const usersOwn = site.url('/titled?title=Users%20own');
    await (await bridge.context.newPage()).goto(usersOwn);
    await callOk(client, 'browser_navigate', { url: first });

    const listTabs = async () => (await callOk(client, 'browser_tabs', { action: 'list' })).text;
    let list = await listTabs();
    expect(tabLines(list, site), list).toHaveLength(1);
    expect(list).not.toContain(usersOwn);
    expect(list, 'the relay tab is not a session tab').not.toContain(EXTENSION_ID);

    await callOk(client, 'browser_tabs', { action: 'new', url: second });
    list = await listTabs();
    expect(tabLines(list, site), list).toHaveLength(2);
    expect(list).not.toContain(usersOwn);
    expect(await snapshot(client), 'the new tab becomes current').toContain(second);

    await callOk(client, 'browser_tabs', { action: 'select', index: 0 });
    expect(await snapshot(client)).toContain(first);

    await callOk(client, 'browser_tabs', { action: 'close', index: 1 });
    list = await listTabs();
    expect(tabLines(list, site), list).toEqual([expect.stringContaining(first)]);
    await expect.poll(() => bridge.context.pages().some((p) => p.url() === second)).toBe(false);
    expect(await snapshot(client)).toContain(first);
  });

  test('a link that opens a new tab adds that tab to the session', async ({ bridge, site }) => {
    const client = await agentOn(bridge, site.url('/popup.html'));
    await callOk(client, 'browser_click', {
      ref: findRef(await snapshot(client), 'link', 'Open in new tab'),
    });

    const opened = site.url('/titled?title=Opened%20by%20link');
    await expect
      .poll(async () => (await callOk(client, 'browser_tabs', { action: 'list' })).text)
      .toContain(opened);
  });

  test('navigating to another site and back', async ({ bridge, site, otherSite }) => {
    const client = await bridge.connectClient();
    const first = site.url('/button.html');
    // localhost vs 127.0.0.1 is a different site, so Chromium swaps the renderer process.
    const second = otherSite.url('/form.html', 'localhost');
    await callOk(client, 'browser_navigate', { url: first });
    await callOk(client, 'browser_navigate', { url: second });
    findRef(await snapshot(client), 'textbox', 'Name');

    await callOk(client, 'browser_navigate_back', {});
    const back = await snapshot(client);
    expect(back).toContain(first);
    findRef(back, 'button', 'Click me');
  });

  test('console messages show up, oldest first, and the level filter works', async ({
    bridge,
    site,
  }) => {
    const client = await agentOn(bridge, site.url('/console.html'));
    const messages = async (level?: 'error' | 'warning') =>
      (await callOk(client, 'browser_console_messages', level === undefined ? {} : { level })).text;

    const all = await messages();
    expect(all).toContain('console page loaded');
    expect(all).toContain('console page warning');
    expect(all).toContain('console page error');

    const errors = await messages('error');
    expect(errors).toContain('console page error');
    expect(errors).not.toContain('console page warning');
    expect(errors).not.toContain('console page loaded');

    const warnings = await messages('warning');
    expect(warnings).toContain('console page warning');
    expect(warnings).toContain('console page error');
    expect(warnings).not.toContain('console page loaded');

    const page = await snapshot(client);
    await callOk(client, 'browser_click', { ref: findRef(page, 'button', 'Log again') });
    await callOk(client, 'browser_click', { ref: findRef(page, 'button', 'Throw') });
    const later = await messages();
    expect(later.indexOf('console page loaded')).toBeLessThan(later.indexOf('button log'));
    const laterErrors = await messages('error');
    expect(laterErrors).toContain('button error');
    expect(laterErrors, 'uncaught exceptions count as errors').toContain('thrown from click');
    expect(laterErrors).not.toContain('button log');
  });

  test('wait_for waits for text to appear and to go', async ({ bridge, site }) => {
    const url = site.url('/delayed.html');
    const client = await agentOn(bridge, url);
    await callOk(client, 'browser_wait_for', { text: 'Loaded later' });
    expect(await snapshot(client)).toContain('Loaded later');

    await callOk(client, 'browser_navigate', { url });
    await callOk(client, 'browser_wait_for', { textGone: 'Still loading' });
    const after = await snapshot(client);
    expect(after).not.toContain('Still loading');
    expect(after).toContain('Loaded later');
  });

  test('wait_for fails with TIMEOUT when the text never comes, and waits a given time', async ({
    bridge,
    site,
  }) => {
    const client = await agentOn(bridge, site.url('/delayed.html'));

    let started = Date.now();
    const missing = await callTool(client, 'browser_wait_for', {
      text: 'This text never appears',
      timeout: 1,
    });
    expect(missing.isError, missing.text).toBe(true);
    expect(missing.text).toContain(ErrorCode.TIMEOUT);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(Date.now() - started).toBeLessThan(8_000);

    started = Date.now();
    await callOk(client, 'browser_wait_for', { time: 1 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  test('a stale ref is refused and the element that replaced it is not clicked', async ({
    bridge,
    site,
  }) => {
    const url = site.url('/replace.html');
    const client = await agentOn(bridge, url);
    const before = await snapshot(client);
    const victim = findRef(before, 'button', 'Replace me');
    await callOk(client, 'browser_click', { ref: findRef(before, 'button', 'Swap') });

    const stale = await callTool(client, 'browser_click', {
      ref: victim,
    });
    expect(stale.isError, stale.text).toBe(true);
    expect(stale.text).toContain(ErrorCode.STALE_REF);
    expect(stale.text, 'the hint says how to get fresh refs').toContain('browser_snapshot');

    await expect((await bridge.pageWithUrl(url)).locator('#out')).toHaveText('Swapped');
    const after = await snapshot(client);
    expect(after).toContain('Swapped');
    expect(findRef(after, 'button', 'Newcomer')).not.toBe(victim);
  });
});

function onlyImage(outcome: ToolOutcome, mimeType: string): Buffer {
  expect(outcome.images, outcome.text).toHaveLength(1);
  const [image] = outcome.images;
  expect(image?.mimeType).toBe(mimeType);
  return Buffer.from(image?.data ?? '', 'base64');
}

/**
 * innerWidth / innerHeight once it stops changing: the viewport shrinks shortly after the
 * extension attaches, when Chromium shows its "being debugged" bar.
 */
async function settledViewportRatio(page: Page): Promise<number> {
  const read = () => page.evaluate(() => window.innerWidth / window.innerHeight);
  let previous = await read();
  for (let attempt = 0; attempt < 20; attempt++) {
    await sleep(250);
    const current = await read();
    if (current === previous) return current;
    previous = current;
  }
  throw new Error('The viewport kept changing size for 5 s.');
}

/** Width and height from the IHDR chunk, which always comes first after the signature. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** Lines of a browser_tabs listing that name a page of `site`. */
function tabLines(listing: string, site: FixtureSite): string[] {
  return listing.split('\n').filter((line) => line.includes(site.origin));
}
